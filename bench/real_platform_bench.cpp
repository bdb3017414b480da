// Costs of the real platform's operations: the floor a primitive built on them stands on.
//
//   build-*/real_platform_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
//
// Ping-pong figures are one round trip between two threads (two hand-offs), so they include
// two futex wake-ups and two context switches when the partner is asleep.
#include <benchmark/benchmark.h>

#include "platform/real.hpp"
#include "platform/task.hpp"

namespace syncstress {
namespace {

void BM_AtomicFetchAddUncontended(benchmark::State& state) {
  Real::atomic<std::uint32_t> a{0};
  for (auto _ : state) benchmark::DoNotOptimize(a.fetch_add(1, std::memory_order_relaxed));
}
BENCHMARK(BM_AtomicFetchAddUncontended);

void BM_MutexLockUnlockUncontended(benchmark::State& state) {
  Real::mutex m;
  for (auto _ : state) {
    m.lock();
    m.unlock();
  }
}
BENCHMARK(BM_MutexLockUnlockUncontended);

// The fast path: the permit is already there, so park() never sleeps.
void BM_ParkerUnparkThenParkSameThread(benchmark::State& state) {
  Real::parker& p = Real::current_parker();
  for (auto _ : state) {
    p.unpark();
    p.park();
  }
}
BENCHMARK(BM_ParkerUnparkThenParkSameThread);

void BM_AutoResetEventSetThenWaitSameThread(benchmark::State& state) {
  Real::auto_reset_event e(false);
  for (auto _ : state) {
    e.set();
    e.wait();
  }
}
BENCHMARK(BM_AutoResetEventSetThenWaitSameThread);

// Two threads pass a turn through one futex word.
void BM_FutexPingPongRoundTrip(benchmark::State& state) {
  Real::atomic<std::int32_t> turn{0};
  Real::atomic<bool> stop{false};
  Real::thread partner([&] {
    for (;;) {
      std::int32_t t;
      while ((t = turn.load(std::memory_order_acquire)) == 0) Real::wait_on_address(turn, t);
      if (stop.load(std::memory_order_relaxed)) return;  // stop is stored before the turn
      turn.store(0, std::memory_order_release);          // pairs with the main acquire load
      Real::wake_by_address_single(turn);
    }
  });
  for (auto _ : state) {
    turn.store(1, std::memory_order_release);  // pairs with the partner's acquire load
    Real::wake_by_address_single(turn);
    std::int32_t t;
    while ((t = turn.load(std::memory_order_acquire)) == 1) Real::wait_on_address(turn, t);
  }
  stop.store(true, std::memory_order_relaxed);
  turn.store(1, std::memory_order_release);
  Real::wake_by_address_single(turn);
  partner.join();
}
BENCHMARK(BM_FutexPingPongRoundTrip)->UseRealTime();

// Two threads unpark each other's parker in turn.
void BM_ParkerPingPongRoundTrip(benchmark::State& state) {
  Real::parker& mine = Real::current_parker();
  Real::atomic<Real::parker*> theirs{nullptr};
  Real::atomic<bool> stop{false};
  Real::thread partner([&] {
    theirs.store(&Real::current_parker(), std::memory_order_release);
    for (;;) {
      Real::current_parker().park();
      if (stop.load(std::memory_order_relaxed)) return;  // ordered by the park/unpark pair
      mine.unpark();
    }
  });
  Real::parker* p;
  while ((p = theirs.load(std::memory_order_acquire)) == nullptr) Real::yield();
  for (auto _ : state) {
    p->unpark();
    mine.park();
  }
  stop.store(true, std::memory_order_relaxed);
  p->unpark();
  partner.join();
}
BENCHMARK(BM_ParkerPingPongRoundTrip)->UseRealTime();

// Two threads, two auto-reset events: ping sets one, pong answers on the other.
void BM_AutoResetEventPingPongRoundTrip(benchmark::State& state) {
  Real::auto_reset_event ping(false), pong(false);
  Real::atomic<bool> stop{false};
  Real::thread partner([&] {
    for (;;) {
      ping.wait();
      if (stop.load(std::memory_order_relaxed)) return;  // ordered by the event hand-off
      pong.set();
    }
  });
  for (auto _ : state) {
    ping.set();
    pong.wait();
  }
  stop.store(true, std::memory_order_relaxed);
  ping.set();
  partner.join();
}
BENCHMARK(BM_AutoResetEventPingPongRoundTrip)->UseRealTime();

struct post_to_pool {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { Real::post(h); }
  void await_resume() noexcept {}
};

// Sets the event once the coroutine is suspended, so the waiter may destroy the frame.
struct suspend_then_set {
  Real::manual_reset_event& e;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) { e.set(); }
  void await_resume() noexcept {}
};

// One coroutine hops onto the pool kHops times in a row: the cost of a post plus a worker
// picking it up (the worker that posts is usually the one that takes it).
void BM_PoolPostHop(benchmark::State& state) {
  constexpr int kHops = 1000;
  Real::manual_reset_event done(false);
  auto hopper = [&]() -> task<Real> {
    for (int i = 0; i < kHops; ++i) co_await post_to_pool{};
    co_await suspend_then_set{done};
  };
  for (auto _ : state) {
    done.reset();
    task<Real> t = hopper();
    t.start();
    done.wait();
  }
  state.SetItemsProcessed(state.iterations() * kHops);
}
BENCHMARK(BM_PoolPostHop)->UseRealTime();

}  // namespace
}  // namespace syncstress

BENCHMARK_MAIN();
