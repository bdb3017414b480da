// cancel_unlink::hand_off (primitives/awaitable_library.hpp): a waiter destroyed after a
// release granted it leaves the releaser's list and hands its grant on; it is never resumed.
//   - deterministic, on Real and Sim: the first waiter of a two-waiter release destroys the
//     second from inside its critical section (the releaser is the destroyer's own thread, so
//     a design where the destroyer waited for the releaser would hang here);
//   - random schedules on Sim: a canceller thread destroys a waiter exactly while it is
//     granted, racing a releaser thread; every execution completes and nothing is lost; the
//     corrected variant fails the same test;
//   - the limit: destroying a waiter whose resumption is already committed stays the caller's
//     race (resume-after-destroy), by construction of C++ coroutines;
//   - the basic contract of every new variant on Real and Sim.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "platform/task.hpp"
#include "primitives/all.hpp"
#include "tests/primitives_test_support.hpp"

namespace syncstress {
namespace {

using testing::detached;
using testing::Env;

std::string name_of() {
  return ::testing::UnitTest::GetInstance()->current_test_info()->name() + std::string(" / ") +
         (::testing::UnitTest::GetInstance()->current_test_info()->type_param()
              ? ::testing::UnitTest::GetInstance()->current_test_info()->type_param()
              : "");
}

// ---- deterministic: a granted waiter destroyed by the waiter resumed just before it --------

// Acquires, then destroys `victim` (a waiter granted by the same release), then releases.
template <class P, class S>
detached<P> acquire_destroy_release(S& s, task<P>& victim, int& ran) {
  co_await s.acquire();
  ++ran;
  victim.destroy();  // victim is granted, still on the releaser's list
  s.release();
}

template <class P, class S>
task<P> acquire_mark_release(S& s, int& ran) {
  co_await s.acquire();
  ++ran;
  s.release();
}

template <class P, class S>
detached<P> acquire_twice(S& s, int& got) {
  co_await s.acquire();
  ++got;
  co_await s.acquire();
  ++got;
}

template <class P, template <class> class S>
void semaphore_batch_destroy() {
  S<P> s(0);
  int first_ran = 0, victim_ran = 0, third_ran = 0;
  task<P> victim = acquire_mark_release<P>(s, victim_ran);
  task<P> third = acquire_mark_release<P>(s, third_ran);
  typename P::manual_reset_event first_done(false);
  acquire_destroy_release<P>(s, victim, first_ran).start(first_done);  // queues first
  victim.start();                                                      // queues second
  third.start();                                                       // queues third
  s.set_many(2);  // grants the first and the victim; the first destroys the victim
  first_done.wait();
  P::check(first_ran == 1, "the first waiter never ran");
  P::check(victim_ran == 0, "the destroyed waiter ran");
  P::check(third_ran == 1, "the victim's token did not reach the third waiter");
  P::check(third.done(), "the third waiter did not finish");
  int got = 0;
  typename P::manual_reset_event all_back(false);
  acquire_twice<P>(s, got).start(all_back);  // both tokens must be back: completes at once
  P::check(got == 2, "a token was lost with the destroyed waiter");
  s.set_many(2);
  all_back.wait();
}

TEST(CancelHandoff, SemaphoreWaiterDestroyedByAnEarlierWaiterOfItsReleaseGivesItsTokenOn) {
  Env<Real>::run(name_of(), semaphore_batch_destroy<Real, semaphore_part6_cancel_handoff>);
  Env<Sim>::run(name_of(), semaphore_batch_destroy<Sim, semaphore_part6_cancel_handoff>,
                Env<Sim>::kExecutions);
}

template <class P, class M>
detached<P> read_destroy_unlock(M& m, task<P>& victim, int& ran) {
  co_await m.lock_shared();
  ++ran;
  victim.destroy();  // a reader granted in the same bunch
  m.unlock_shared();
}

template <class P, class M>
task<P> read_mark_unlock(M& m, int& ran) {
  co_await m.lock_shared();
  ++ran;
  m.unlock_shared();
}

template <class P, class M>
detached<P> write_mark(M& m, int& ran) {
  co_await m.lock();
  ++ran;
}

template <class P, template <class> class M>
void shared_mutex_batch_destroy() {
  M<P> m;
  int writer_ran = 0, reader_ran = 0, victim_ran = 0, late_writer_ran = 0;
  typename P::manual_reset_event held(false), reader_done(false), late_done(false);
  write_mark<P>(m, writer_ran).start(held);
  held.wait();
  task<P> victim = read_mark_unlock<P>(m, victim_ran);
  read_destroy_unlock<P>(m, victim, reader_ran).start(reader_done);
  victim.start();
  write_mark<P>(m, late_writer_ran).start(late_done);  // queued behind both readers
  m.unlock();  // hands the mutex to both readers (owners = 2); the first destroys the second
  reader_done.wait();
  P::check(reader_ran == 1 && victim_ran == 0, "wrong readers ran");
  // The victim's shared ownership was given back: the last unlock_shared handed on to the
  // writer; without the hand-off owners stays at 1 and the writer waits forever.
  late_done.wait();
  P::check(late_writer_ran == 1, "the writer never entered");
  m.unlock();
}

TEST(CancelHandoff, SharedMutexReaderDestroyedByItsBunchmateUnlocksSoTheWriterEnters) {
  Env<Real>::run(name_of(), shared_mutex_batch_destroy<Real, shared_mutex_part9_cancel_handoff>);
  Env<Sim>::run(name_of(), shared_mutex_batch_destroy<Sim, shared_mutex_part9_cancel_handoff>,
                Env<Sim>::kExecutions);
}

/// Runs `body` once per seed on sim, calling `on_result` after each execution.
void for_each_execution_on_sim(const std::function<void()>& body, int executions,
                               const std::function<void(const sim::ExecutionResult&)>& on_result) {
  sim::Options options;
  options.record_trace = false;
  sim::Runtime runtime(options);
  RandomStrategy strategy(11);
  for (int i = 0; i < executions; ++i) {
    strategy.new_execution();
    const sim::ExecutionResult r = runtime.run(strategy, body);
    testing::reclaim_abandoned_frames();  // failing executions abandon their coroutines
    on_result(r);
  }
}

/// Runs `body` once per seed on sim and returns how each execution ended.
std::vector<sim::ExecutionResult> run_on_sim(const std::function<void()>& body, int executions) {
  std::vector<sim::ExecutionResult> results;
  for_each_execution_on_sim(body, executions,
                            [&](const sim::ExecutionResult& r) { results.push_back(r); });
  return results;
}

TEST(CancelHandoff, TheCorrectedUnlinkResumesTheSameDestroyedBunchmate) {
  for (const auto& r : run_on_sim(semaphore_batch_destroy<Sim, semaphore_part6_cancel_fixed>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::frame_misuse) << r.message;
    EXPECT_EQ(r.property, "resume-after-destroy") << r.message;
  }
}

// ---- random schedules: a canceller thread racing the releaser ------------------------------

// What the canceller looks at: the waiter's node, reached through the awaiter it keeps in its
// frame. A white-box peek at a field the library guards with its mutex; sound on sim only,
// where threads are fibers of one OS thread and a plain read is not a scheduling point, so
// the canceller's look and its destroy happen in one step.
struct Probe {
  const async_helpers::impl::node_handle* node = nullptr;
  bool ran = false;
};

template <class M>
task<Sim> probed_waiter(M& m, Probe& probe) {
  auto awaiter = m.lock();
  probe.node = &awaiter.node_;
  co_await awaiter;
  probe.ran = true;
  m.unlock();
}

template <class M>
detached<Sim> lock_unlock(M& m) {
  co_await m.lock();
  m.unlock();
}

/// How many executions destroyed the waiter, and whether the latest one did.
struct RaceCounts {
  int destroyed = 0;
  bool destroyed_in_latest = false;
  // An execution that fails while the canceller is inside destroy() abandons that fiber in a
  // noexcept frame (see sim/engine.hpp): the frame's storage is never released. Freed here.
  void* frame = nullptr;
  bool destroy_returned = false;

  void reclaim_abandoned_frame() {
    if (destroyed_in_latest && !destroy_returned) ::operator delete(frame);
  }
};

// A holder holds; waiters W (probed) and X queue; a releaser thread unlocks while a canceller
// thread destroys W once its node reaches `target` (if W has not run by then). Then the mutex
// must be free: a fresh lock completes (a deadlock otherwise).
template <template <class> class M>
void race_destroy_at(async_helpers::impl::node_stage target, RaceCounts& counts) {
  counts.destroyed_in_latest = false;
  counts.destroy_returned = false;
  M<Sim> m;
  Sim::manual_reset_event held(false);
  auto holder = [](M<Sim>& mm) -> detached<Sim> { co_await mm.lock(); };
  holder(m).start(held);
  held.wait();
  Probe probe;
  task<Sim> w = probed_waiter(m, probe);
  w.start();
  Sim::manual_reset_event x_done(false);
  lock_unlock(m).start(x_done);
  Sim::thread canceller([&] {
    for (;;) {
      if (probe.ran) return;
      const auto stage = probe.node->stage;
      if (stage == target) {
        ++counts.destroyed;  // first: an execution that fails during destroy() ends there
        counts.destroyed_in_latest = true;
        counts.frame = w.handle().address();  // g++: the frame starts where its storage does
        w.destroy();
        counts.destroy_returned = true;
        return;
      }
      if (stage > target) return;  // went past the target stage: leave it alone
      Sim::yield();
    }
  });
  Sim::thread releaser([&] { m.unlock(); });
  releaser.join();
  canceller.join();
  x_done.wait();
  Sim::manual_reset_event fresh(false);
  lock_unlock(m).start(fresh);
  fresh.wait();
  if (!w.valid() || w.done()) return;
  // W was neither destroyed nor finished: impossible once X finished (W queued first).
  Sim::check(false, "the probed waiter is still suspended");
}

TEST(CancelHandoff, RandomSchedulesDestroyingAGrantedWaiterLoseNothingAndNeverResumeIt) {
  RaceCounts counts;
  int executions = 0;
  for_each_execution_on_sim(
      [&] {
        race_destroy_at<mutex_part7_cancel_handoff>(async_helpers::impl::node_stage::granted,
                                                    counts);
      },
      500,
      [&](const sim::ExecutionResult& r) {
        counts.reclaim_abandoned_frame();
        ++executions;
        EXPECT_EQ(r.outcome, sim::Outcome::completed)
            << "execution " << executions << ": [" << r.property << "] " << r.message;
      });
  EXPECT_GT(counts.destroyed, 50) << "too few schedules destroyed the waiter while granted";
}

TEST(CancelHandoff, RandomSchedulesFailTheCorrectedUnlinkWhenAGrantedWaiterIsDestroyed) {
  // The corrected variant never sets node stages: its nodes look `queued` throughout, so the
  // canceller destroys W while queued or granted, whichever it finds first.
  RaceCounts counts;
  int failed = 0;
  for_each_execution_on_sim(
      [&] {
        race_destroy_at<mutex_part7_cancel_fixed>(async_helpers::impl::node_stage::queued, counts);
      },
      500,
      [&](const sim::ExecutionResult& r) {
        counts.reclaim_abandoned_frame();
        // Resumed after its destruction, or its grant lost (the mutex never freed: a deadlock).
        EXPECT_TRUE(r.outcome == sim::Outcome::completed ||
                    r.outcome == sim::Outcome::frame_misuse || r.outcome == sim::Outcome::deadlock)
            << r.message;
        if (r.outcome != sim::Outcome::completed) ++failed;
      });
  EXPECT_GT(failed, 0) << "500 schedules never destroyed a granted waiter of the corrected unlink";
}

TEST(CancelHandoff, DestroyingACommittedWaiterStaysTheCallersRace) {
  // Once the releaser has taken the node off its list to resume it, nothing the destructor
  // does can stop the resumption: the runtime reports resume-after-destroy every time.
  RaceCounts counts;
  int misuse = 0;
  for_each_execution_on_sim(
      [&] {
        race_destroy_at<mutex_part7_cancel_handoff>(async_helpers::impl::node_stage::committed,
                                                    counts);
      },
      300,
      [&](const sim::ExecutionResult& r) {
        counts.reclaim_abandoned_frame();
        if (counts.destroyed_in_latest) {
          EXPECT_EQ(r.outcome, sim::Outcome::frame_misuse) << r.message;
          EXPECT_EQ(r.property, "resume-after-destroy") << r.message;
          ++misuse;
        } else {
          EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
        }
      });
  EXPECT_GT(misuse, 0) << "no schedule destroyed the waiter in its committed stage";
}

// ---- the basic contract of the new variants, on Real and Sim --------------------------------

template <class P, class M>
detached<P> exclusion_worker(M& m, typename P::template atomic<int>& inside,
                             typename P::template atomic<int>& total, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    co_await m.lock();
    P::check(inside.fetch_add(1) == 0, "two owners at once");
    total.fetch_add(1);
    inside.fetch_sub(1);
    m.unlock();
  }
}

template <class C>
class CancelHandoffMutex : public ::testing::Test {};
using CancelHandoffMutexCases =
    testing::OnAllPlatforms<mutex_part7_cancel_handoff, mutex_part7_pooled_cancel_handoff,
                            shared_mutex_part9_cancel_handoff,
                            shared_mutex_part9_pooled_cancel_handoff>;
TYPED_TEST_SUITE(CancelHandoffMutex, CancelHandoffMutexCases);

TYPED_TEST(CancelHandoffMutex, KeepsMutualExclusionUnderContention) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      name_of(),
      [] {
        typename TypeParam::Type m;
        typename P::template atomic<int> inside{0};
        typename P::template atomic<int> total{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&] {
            typename P::manual_reset_event done(false);
            exclusion_worker<P>(m, inside, total, Env<P>::kIterations).start(done);
            done.wait();
          });
        }
        for (auto& t : threads) t.join();
        P::check(total.load() == Env<P>::kThreads * Env<P>::kIterations, "lost a critical section");
      },
      Env<P>::kExecutions);
}

template <class P, class M>
detached<P> readers_writers_worker(M& m, typename P::template atomic<int>& writers,
                                   typename P::template atomic<int>& readers, int iterations,
                                   bool writer) {
  for (int i = 0; i < iterations; ++i) {
    if (writer) {
      co_await m.lock();
      P::check(writers.fetch_add(1) == 0 && readers.load() == 0, "writer not alone");
      writers.fetch_sub(1);
      m.unlock();
    } else {
      co_await m.lock_shared();
      readers.fetch_add(1);
      P::check(writers.load() == 0, "reader beside a writer");
      readers.fetch_sub(1);
      m.unlock_shared();
    }
  }
}

template <class C>
class CancelHandoffSharedMutex : public ::testing::Test {};
using CancelHandoffSharedMutexCases =
    testing::OnAllPlatforms<shared_mutex_part9_cancel_handoff,
                            shared_mutex_part9_pooled_cancel_handoff>;
TYPED_TEST_SUITE(CancelHandoffSharedMutex, CancelHandoffSharedMutexCases);

TYPED_TEST(CancelHandoffSharedMutex, KeepsReaderWriterExclusionUnderContention) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      name_of(),
      [] {
        typename TypeParam::Type m;
        typename P::template atomic<int> writers{0};
        typename P::template atomic<int> readers{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&, t] {
            typename P::manual_reset_event done(false);
            readers_writers_worker<P>(m, writers, readers, Env<P>::kIterations, t % 2 == 0)
                .start(done);
            done.wait();
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<P>::kExecutions);
}

template <class P, class S>
detached<P> semaphore_worker(S& s, typename P::template atomic<int>& inside, int capacity,
                             int iterations) {
  for (int i = 0; i < iterations; ++i) {
    co_await s.acquire();
    P::check(inside.fetch_add(1) < capacity, "more holders than tokens");
    inside.fetch_sub(1);
    s.release();
  }
}

template <class C>
class CancelHandoffSemaphore : public ::testing::Test {};
using CancelHandoffSemaphoreCases =
    testing::OnAllPlatforms<semaphore_part6_cancel_handoff, semaphore_part6_pooled_cancel_handoff>;
TYPED_TEST_SUITE(CancelHandoffSemaphore, CancelHandoffSemaphoreCases);

TYPED_TEST(CancelHandoffSemaphore, KeepsAtMostCapacityHoldersUnderContention) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      name_of(),
      [] {
        constexpr int kCapacity = 2;
        typename TypeParam::Type s(kCapacity);
        typename P::template atomic<int> inside{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&] {
            typename P::manual_reset_event done(false);
            semaphore_worker<P>(s, inside, kCapacity, Env<P>::kIterations).start(done);
            done.wait();
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<P>::kExecutions);
}

}  // namespace
}  // namespace syncstress
