// The as-published bugs, caught on sim in the as-published ports and absent from their
// corrected variants (same scenario, same schedule source):
//   - document 001 (part 8): the last unlock_shared loses the wake-up of a queued writer;
//     shared claims jump ahead of a queued writer; random schedules find the lost wake-up;
//   - document 003 (library): destruct_node does not unlink a cancelled waiter, which is
//     later resumed after its frame was destroyed.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "platform/task.hpp"
#include "primitives/all.hpp"
#include "tests/primitives_test_support.hpp"

namespace syncstress {
namespace primitives_bugs_test {
namespace {

using testing::detached;

/// Runs `body` once per seed on sim and returns how each execution ended.
std::vector<sim::ExecutionResult> run_on_sim(const std::function<void()>& body, int executions) {
  sim::Options options;
  options.record_trace = false;
  sim::Runtime runtime(options);
  RandomStrategy strategy(7);
  std::vector<sim::ExecutionResult> results;
  for (int i = 0; i < executions; ++i) {
    const Execution execution = *strategy.new_execution();
    results.push_back(runtime.run(strategy, execution, body));
    testing::reclaim_abandoned_frames();  // the failing executions abandon their coroutines
  }
  return results;
}

template <class M>
detached<Sim> lock_shared_and_keep(M& m) {
  co_await m.lock_shared();
}

constexpr int kWriterWaitsAtLine = __LINE__ + 3;  // lock_and_mark's co_await
template <class M>
detached<Sim> lock_and_mark(M& m, Sim::atomic<int>& acquired) {
  co_await m.lock();
  acquired.store(1);
}

template <class M>
detached<Sim> lock_shared_and_mark(M& m, Sim::atomic<int>& acquired) {
  co_await m.lock_shared();
  acquired.store(1);
}

// A reader holds; a writer queues; the reader leaves. The writer must get the mutex.
template <class M>
void writer_behind_last_reader() {
  M m;
  Sim::manual_reset_event reader_in(false), writer_done(false);
  lock_shared_and_keep(m).start(reader_in);
  reader_in.wait();
  Sim::atomic<int> acquired{0};
  lock_and_mark(m, acquired).start(writer_done);
  m.unlock_shared();
  writer_done.wait();  // blocks forever when the wake-up is lost: a deadlock
  m.unlock();
}

TEST(SharedMutexPart8, LastUnlockSharedLosesTheQueuedWritersWakeup) {
  for (const auto& r : run_on_sim(writer_behind_last_reader<shared_mutex_part8<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::deadlock) << r.message;
    // The property is its own field: the message says what happened, without repeating it.
    EXPECT_EQ(r.property, "deadlock");
    EXPECT_EQ(r.message.rfind("no thread can run\n", 0), 0u) << r.message;
    // The writer's coroutine (the second the test's thread made), whose wake-up was lost, is
    // named; the reader's, which finished, is not.
    // It is named with the line it waits at, its co_await.
    EXPECT_NE(r.message.find("\n  coroutine 2 of thread 0 is suspended at the co_await at "
                             "tests/primitives_bugs_test.cpp:" +
                             std::to_string(kWriterWaitsAtLine)),
              std::string::npos)
        << r.message;
    EXPECT_EQ(r.message.find("coroutine 1 of"), std::string::npos) << r.message;
  }
  for (const auto& r : run_on_sim(writer_behind_last_reader<shared_mutex_part8_pooled<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::deadlock) << r.message;
  }
  for (const auto& r : run_on_sim(writer_behind_last_reader<shared_mutex_part9<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
  for (const auto& r : run_on_sim(writer_behind_last_reader<shared_mutex_part9_pooled<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
}

// A reader holds; a writer queues; a second reader arrives. It must queue behind the writer.
template <class M>
void reader_arrives_behind_queued_writer() {
  M m;
  Sim::manual_reset_event r1(false), w(false), r2(false);
  lock_shared_and_keep(m).start(r1);
  r1.wait();
  Sim::atomic<int> writer_in{0};
  Sim::atomic<int> reader2_in{0};
  lock_and_mark(m, writer_in).start(w);
  lock_shared_and_mark(m, reader2_in).start(r2);
  Sim::check(reader2_in.load() == 0, "a shared claim jumped ahead of a queued writer");
  // Let everyone finish so a passing execution leaves no frame behind.
  m.unlock_shared();
  w.wait();
  m.unlock();
  r2.wait();
  m.unlock_shared();
}

TEST(SharedMutexPart8, SharedClaimJumpsAheadOfAQueuedWriter) {
  for (const auto& r :
       run_on_sim(reader_arrives_behind_queued_writer<shared_mutex_part8<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::violation) << r.message;
    EXPECT_NE(r.message.find("jumped ahead"), std::string::npos) << r.message;
  }
  for (const auto& r :
       run_on_sim(reader_arrives_behind_queued_writer<shared_mutex_part9<Sim>>, 5)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
}

// Two readers and two writers loop on the mutex under random schedules.
template <class M>
void readers_and_writers() {
  M m;
  std::vector<Sim::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&m, t] {
      Sim::manual_reset_event done(false);
      auto worker = [](M& mm, bool writer) -> detached<Sim> {
        for (int i = 0; i < 2; ++i) {
          if (writer) {
            co_await mm.lock();
            mm.unlock();
          } else {
            co_await mm.lock_shared();
            mm.unlock_shared();
          }
        }
      };
      worker(m, t % 2 == 0).start(done);
      done.wait();
    });
  }
  for (auto& t : threads) t.join();
}

TEST(SharedMutexPart8, RandomSchedulesFindTheLostWakeupAndPart9Passes) {
  int deadlocks = 0;
  for (const auto& r : run_on_sim(readers_and_writers<shared_mutex_part8<Sim>>, 200)) {
    EXPECT_TRUE(r.outcome == sim::Outcome::completed || r.outcome == sim::Outcome::deadlock)
        << sim::to_string(r.outcome) << ": " << r.message;
    if (r.outcome == sim::Outcome::deadlock) ++deadlocks;
  }
  EXPECT_GT(deadlocks, 0) << "200 random schedules never lost part 8's wake-up";
  for (const auto& r : run_on_sim(readers_and_writers<shared_mutex_part9<Sim>>, 200)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
}

// A holder holds; a waiter queues and is cancelled (its frame destroyed); the holder leaves.
template <class M>
task<Sim> lock_then_unlock(M& m) {
  co_await m.lock();
  m.unlock();
}

template <class M>
void cancel_a_queued_waiter() {
  M m;
  Sim::manual_reset_event held(false);
  auto holder = [](M& mm) -> detached<Sim> { co_await mm.lock(); };
  holder(m).start(held);
  held.wait();
  {
    task<Sim> waiter = lock_then_unlock(m);
    waiter.start();    // queues behind the holder
    waiter.destroy();  // cancellation: the awaiter's destructor runs destruct_node
  }
  m.unlock();  // must not resume the destroyed waiter
}

TEST(AwaitableLibrary, CancelledWaiterIsResumedAfterItsFrameIsDestroyed) {
  for (const auto& r : run_on_sim(cancel_a_queued_waiter<mutex_part7<Sim>>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::frame_misuse) << r.message;
    EXPECT_EQ(r.property, "resume-after-destroy") << r.message;
  }
  for (const auto& r : run_on_sim(cancel_a_queued_waiter<shared_mutex_part9<Sim>>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::frame_misuse) << r.message;
  }
  for (const auto& r : run_on_sim(cancel_a_queued_waiter<mutex_part7_cancel_fixed<Sim>>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
  for (const auto& r :
       run_on_sim(cancel_a_queued_waiter<mutex_part7_pooled_cancel_fixed<Sim>>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
  for (const auto& r :
       run_on_sim(cancel_a_queued_waiter<shared_mutex_part9_cancel_fixed<Sim>>, 3)) {
    EXPECT_EQ(r.outcome, sim::Outcome::completed) << r.message;
  }
}

}  // namespace
}  // namespace primitives_bugs_test
}  // namespace syncstress
