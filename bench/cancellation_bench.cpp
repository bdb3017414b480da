// What cancellation safety costs a doc-003 mutex on the real platform, synchronous resumption
// (part 2), all on one thread so only the library's own work is timed:
//
//   build-*/cancellation_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
//
//   - HandOffQueued/N: the mutex is held, N coroutines queue on it, the release resumes them
//     one after another (each locks, unlocks, and so grants the next). Per iteration: N
//     suspensions and N hand-offs. Compared between mutex_part7_cancel_fixed (destruct_node's
//     unlink corrected) and mutex_part7_cancel_handoff (stages, the pending list, one lock per
//     resumed node): the price of hand_off.
//   - TryCancelQueued/N: N coroutines queue, the middle one is withdrawn with try_cancel and
//     destroyed, then the rest are released: the cost of a cancellation request, including its
//     walk of the pending list.
#include <benchmark/benchmark.h>

#include <vector>

#include "platform/real.hpp"
#include "platform/task.hpp"
#include "primitives/awaitable_events.hpp"

namespace syncstress {
namespace {

template <class M>
task<Real> lock_unlock(M& m, int& entered) {
  co_await m.lock();
  ++entered;
  m.unlock();
}

template <class M>
task<Real> take(M& m) {
  co_await m.lock();
}

template <class M>
void BM_HandOffQueued(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  M m;
  std::vector<task<Real>> waiters(static_cast<std::size_t>(n));
  int entered = 0;
  for (auto _ : state) {
    take(m).start();  // held: the frame ends at once, the mutex stays locked
    for (auto& w : waiters) {
      w = lock_unlock(m, entered);
      w.start();  // queues
    }
    m.unlock();  // the chain of hand-offs runs here
  }
  if (entered != n * static_cast<int>(state.iterations())) state.SkipWithError("a waiter missed");
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK_TEMPLATE(BM_HandOffQueued, mutex_part7_cancel_fixed<Real>)->Arg(1)->Arg(8)->Arg(64);
BENCHMARK_TEMPLATE(BM_HandOffQueued, mutex_part7_cancel_handoff<Real>)->Arg(1)->Arg(8)->Arg(64);

void BM_TryCancelQueued(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  mutex_part7_cancel_handoff<Real> m;
  std::vector<task<Real>> waiters(static_cast<std::size_t>(n));
  int entered = 0;
  for (auto _ : state) {
    take(m).start();
    for (auto& w : waiters) {
      w = lock_unlock(m, entered);
      w.start();
    }
    auto& victim = waiters[waiters.size() / 2];
    if (!m.try_cancel(victim.handle())) state.SkipWithError("try_cancel refused a queued waiter");
    victim.destroy();
    m.unlock();
  }
  if (entered != (n - 1) * static_cast<int>(state.iterations())) {
    state.SkipWithError("a waiter missed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TryCancelQueued)->Arg(8)->Arg(64);

}  // namespace
}  // namespace syncstress

BENCHMARK_MAIN();
