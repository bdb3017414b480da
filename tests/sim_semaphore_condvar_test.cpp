// The Sim platform's counting semaphore, condition variable, virtual clock and timed waits
// (src/sim/engine.hpp, "Timeouts"): what each operation does, that the searches explore a
// timeout as the choice it is and end on a loop that only times out, that the reduced search
// reaches every end the plain one reaches, and that a schedule with a timeout replays byte for
// byte.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"

namespace syncstress {
namespace sim_semaphore_condvar_test {
namespace {

using namespace std::chrono_literals;
using sim::Outcome;

sim::Options options(bool spurious = false, std::uint64_t max_steps = 2000) {
  sim::Options o;
  o.spurious_wakeups = spurious;
  o.max_steps = max_steps;
  return o;
}

/// How the executions of a search ended, each as "outcome property message", and how many.
struct Ends {
  std::set<std::string> kinds;
  std::uint64_t executions = 0;
  std::uint64_t completed = 0;
  std::uint64_t violations = 0;
  std::uint64_t deadlocks = 0;
  std::uint64_t step_bound = 0;
};

Ends search(Strategy& s, const std::function<void()>& program, const sim::Options& o) {
  sim::Runtime runtime(o);
  Ends out;
  while (const auto execution = s.new_execution()) {
    const sim::ExecutionResult r = runtime.run(s, *execution, program);
    if (r.outcome == Outcome::pruned) continue;
    ++out.executions;
    out.completed += r.outcome == Outcome::completed ? 1 : 0;
    out.violations += r.outcome == Outcome::violation ? 1 : 0;
    out.deadlocks += r.outcome == Outcome::deadlock ? 1 : 0;
    out.step_bound += r.outcome == Outcome::step_bound ? 1 : 0;
    EXPECT_NE(r.outcome, Outcome::exception) << r.message;
    out.kinds.insert(std::string(sim::to_string(r.outcome)) + " " + r.property + " " + r.message);
  }
  return out;
}

// Two threads enter a section guarded by a semaphore of `tokens`; the check is mutual exclusion.
void section_under_semaphore(std::ptrdiff_t tokens) {
  Sim::counting_semaphore sem(tokens);
  Sim::atomic<int> inside{0};
  auto enter = [&] {
    sem.acquire();
    Sim::check(inside.fetch_add(1) == 0, "two threads inside");
    inside.fetch_sub(1);
    sem.release();
  };
  Sim::thread a(enter);
  Sim::thread b(enter);
  a.join();
  b.join();
}

TEST(SimSemaphore, OneTokenGivesMutualExclusionInEveryExecution) {
  DporStrategy reduced;
  const Ends e = search(
      reduced, [] { section_under_semaphore(1); }, options());
  EXPECT_TRUE(reduced.complete());
  EXPECT_GT(e.executions, 1u);
  EXPECT_EQ(e.completed, e.executions) << *e.kinds.begin();
}

TEST(SimSemaphore, TwoTokensLetTwoThreadsInAndTheSearchFindsIt) {
  DporStrategy reduced;
  const Ends e = search(
      reduced, [] { section_under_semaphore(2); }, options());
  EXPECT_GT(e.violations, 0u);
  EXPECT_GT(e.completed, 0u);
}

TEST(SimSemaphore, TryAcquireTakesATokenOnlyWhenThereIsOneAndTracesTheCount) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  bool results[3] = {};
  const sim::ExecutionResult r = sim_test::run(runtime, s, [&] {
    Sim::counting_semaphore sem(1);
    results[0] = sem.try_acquire();
    results[1] = sem.try_acquire();
    sem.release(2);
    results[2] = sem.try_acquire();
  });
  ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
  EXPECT_TRUE(results[0]);
  EXPECT_FALSE(results[1]);
  EXPECT_TRUE(results[2]);
  const std::string trace = r.format_trace();
  EXPECT_NE(trace.find("try_acquire semaphore#1 [count 1 -> 0]"), std::string::npos) << trace;
  EXPECT_NE(trace.find("try_acquire semaphore#1 [count 0, failed]"), std::string::npos) << trace;
  EXPECT_NE(trace.find("release semaphore#1 [count 0 -> 2]"), std::string::npos) << trace;
}

TEST(SimSemaphore, AReleaseOfNoTokensIsAViolation) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  const sim::ExecutionResult r = sim_test::run(runtime, s, [] {
    Sim::counting_semaphore sem(0);
    sem.release(0);
  });
  EXPECT_EQ(r.outcome, Outcome::violation);
  EXPECT_NE(r.message.find("a release adds at least one"), std::string::npos) << r.message;
}

TEST(SimClock, NowAdvancesAMicrosecondPerCallAndATimeoutJumpsToItsDeadline) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  std::chrono::nanoseconds waited{};
  bool acquired = true;
  const sim::ExecutionResult r = sim_test::run(runtime, s, [&] {
    Sim::counting_semaphore sem(0);
    const auto t0 = Sim::now();
    EXPECT_EQ(Sim::now() - t0, 1us);
    acquired = sem.try_acquire_for(5ms);  // nobody can release: time passes
    waited = Sim::now() - t0;
  });
  ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
  EXPECT_FALSE(acquired);
  EXPECT_EQ(waited, 5ms + 2us);  // the deadline (5 ms after the second now), then a tick
  const std::string trace = r.format_trace();
  EXPECT_NE(trace.find("try_acquire_for semaphore#1 [count 0, timed out]"), std::string::npos)
      << trace;
}

// main waits for a token with a timeout while a thread releases one: both ends are possible.
TEST(SimSemaphore, ATimedAcquireRacingAReleaseIsSearchedBothWays) {
  for (const bool reduce : {false, true}) {
    std::set<bool> seen;
    auto program = [&seen] {
      Sim::counting_semaphore sem(0);
      Sim::thread releaser([&] { sem.release(); });
      seen.insert(sem.try_acquire_for(1ms));
      releaser.join();
    };
    ExhaustiveStrategy plain;
    DporStrategy reduced;
    Strategy& s = reduce ? static_cast<Strategy&>(reduced) : plain;
    const Ends e = search(s, program, options());
    EXPECT_EQ(e.completed, e.executions) << *e.kinds.begin();
    EXPECT_EQ(seen, (std::set<bool>{false, true})) << (reduce ? "reduced" : "plain");
  }
}

// A thread that retries a timed acquire nobody will ever satisfy: the reduced search sees the
// second timeout reach the state the first did and reports the wait as a deadlock, so the
// search ends; a sampled execution runs to the step bound.
TEST(SimSemaphore, ALoopOfTimedWaitsThatNothingEndsIsADeadlockToTheReducedSearch) {
  auto program = [] {
    Sim::counting_semaphore sem(0);
    while (!sem.try_acquire_for(1ms)) {
    }
  };
  DporStrategy reduced;
  const Ends e = search(reduced, program, options());
  EXPECT_TRUE(reduced.complete());
  EXPECT_EQ(e.deadlocks, e.executions);
  EXPECT_NE(e.kinds.begin()->find("waits in try_acquire_for on semaphore#1"), std::string::npos)
      << *e.kinds.begin();

  sim::Runtime runtime(options());
  sim_test::SeededStrategy sampled(1);
  EXPECT_EQ(sim_test::run(runtime, sampled, program).outcome, Outcome::step_bound);
}

// A waiter and a setter of a flag under a mutex and a condition variable. `loop`: the waiter
// re-checks the flag in a loop (correct); else it checks once. `setter_locks`: the setter sets
// the flag and notifies holding the mutex (correct); else it holds none, so its notify can come
// between the waiter's check and its wait.
void flag_under_condvar(bool loop, bool setter_locks) {
  Sim::mutex m;
  Sim::condition_variable cv;
  Sim::atomic<bool> ready{false};
  Sim::thread setter([&] {
    if (setter_locks) m.lock();
    ready.store(true);
    cv.notify_one();
    if (setter_locks) m.unlock();
  });
  m.lock();
  if (loop) {
    while (!ready.load()) cv.wait(m);
  } else if (!ready.load()) {
    cv.wait(m);
  }
  Sim::check(ready.load(), "woke with the flag clear");
  m.unlock();
  setter.join();
}

TEST(SimConditionVariable, AWaiterThatRechecksUnderTheMutexPassesWithSpuriousWakeups) {
  DporStrategy reduced;
  const Ends e = search(
      reduced, [] { flag_under_condvar(true, true); }, options(true));
  EXPECT_TRUE(reduced.complete());
  EXPECT_GT(e.executions, 1u);
  EXPECT_EQ(e.completed, e.executions) << *e.kinds.begin();
}

TEST(SimConditionVariable, ANotifyWithoutTheMutexIsLostBetweenTheCheckAndTheWait) {
  DporStrategy reduced;
  const Ends e = search(
      reduced, [] { flag_under_condvar(true, false); }, options());
  EXPECT_GT(e.deadlocks, 0u);
  EXPECT_GT(e.completed, 0u);
  bool named = false;
  for (const std::string& k : e.kinds) named |= k.find("waits in wait on condvar#1") != k.npos;
  EXPECT_TRUE(named);
}

TEST(SimConditionVariable, AWaiterThatChecksOnceIsCaughtOnlyWithSpuriousWakeups) {
  for (const bool spurious : {false, true}) {
    DporStrategy reduced;
    const Ends e = search(
        reduced, [] { flag_under_condvar(false, true); }, options(spurious));
    EXPECT_TRUE(reduced.complete());
    EXPECT_EQ(e.violations > 0, spurious) << e.executions << " executions";
  }
}

TEST(SimConditionVariable, WaitForTimesOutWhenNobodyNotifiesAndReturnsHoldingTheMutex) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  std::cv_status status = std::cv_status::no_timeout;
  bool relocked = false;
  const sim::ExecutionResult r = sim_test::run(runtime, s, [&] {
    Sim::mutex m;
    Sim::condition_variable cv;
    m.lock();
    status = cv.wait_for(m, 2ms);
    relocked = !m.try_lock();
    m.unlock();
  });
  ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
  EXPECT_EQ(status, std::cv_status::timeout);
  EXPECT_TRUE(relocked);
  const std::string trace = r.format_trace();
  EXPECT_NE(trace.find("wait_for condvar#1 [unlocks mutex#1, timed out]"), std::string::npos)
      << trace;
}

TEST(SimConditionVariable, NotifyOneWakesOneOfTwoWaitersAndNotifyAllBoth) {
  for (const bool all : {false, true}) {
    sim::Runtime runtime(options());
    sim_test::LowestStrategy s;
    int woken = 0;
    const sim::ExecutionResult r = sim_test::run(runtime, s, [&] {
      Sim::mutex m;
      Sim::condition_variable cv;
      Sim::atomic<int> waiting{0};
      auto waiter = [&] {
        m.lock();
        waiting.fetch_add(1);
        cv.wait(m);
        ++woken;
        m.unlock();
      };
      Sim::thread a(waiter);
      Sim::thread b(waiter);
      while (waiting.load() < 2) Sim::yield();
      m.lock();
      all ? cv.notify_all() : cv.notify_one();
      m.unlock();
      a.join();
      b.join();
    });
    if (all) {
      EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
      EXPECT_EQ(woken, 2);
    } else {
      EXPECT_EQ(r.outcome, Outcome::deadlock) << r.message;
      EXPECT_EQ(woken, 1);
    }
  }
}

TEST(SimConditionVariable, WaitingWithoutHoldingTheMutexIsAViolation) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  const sim::ExecutionResult r = sim_test::run(runtime, s, [] {
    Sim::mutex m;
    Sim::condition_variable cv;
    cv.wait(m);
  });
  EXPECT_EQ(r.outcome, Outcome::violation);
  EXPECT_NE(r.message.find("by a thread that does not hold mutex#1"), std::string::npos)
      << r.message;
}

// The reduction is told a timeout writes the clock and the wait list it takes the thread off,
// and a wait on a condition variable writes its mutex: with that, it reaches every end the plain
// search reaches.
TEST(SimTimeouts, ReducedSearchReachesWhatThePlainSearchReaches) {
  const std::function<void()> programs[] = {[] { section_under_semaphore(2); },
                                            [] { flag_under_condvar(true, false); },
                                            [] { flag_under_condvar(false, true); },
                                            [] {
                                              Sim::mutex m;
                                              Sim::condition_variable cv;
                                              Sim::atomic<int> state{0};
                                              Sim::thread a([&] {
                                                m.lock();
                                                if (cv.wait_for(m, 1ms) == std::cv_status::timeout)
                                                  state.fetch_add(1);
                                                m.unlock();
                                              });
                                              Sim::thread b([&] {
                                                Sim::counting_semaphore sem(0);
                                                if (!sem.try_acquire_for(2ms)) state.fetch_add(2);
                                                m.lock();
                                                cv.notify_all();
                                                m.unlock();
                                              });
                                              a.join();
                                              b.join();
                                              Sim::check(state.load() != 3, "both timed out");
                                            }};
  for (const auto& program : programs) {
    ExhaustiveStrategy plain;
    DporStrategy reduced;
    Ends all = search(plain, program, options(true, 200));
    Ends some = search(reduced, program, options(true, 200));
    // Spurious returns and timeouts can repeat until the step bound in the plain search; the
    // reduced one offers no repeat that reaches the state the last one did.
    const std::string bound =
        "step_bound step-bound step bound of 200 exceeded (livelock or "
        "starvation)";
    all.kinds.erase(bound);
    some.kinds.erase(bound);
    EXPECT_GT(all.kinds.size(), 1u);
    EXPECT_EQ(some.kinds, all.kinds);
    EXPECT_LE(reduced.executions_explored(), plain.executions_explored());
  }
}

TEST(SimTimeouts, AScheduleWithATimeoutReplaysToTheSameTraceTwice) {
  sim::Runtime runtime(options(true));
  auto timed = [] {
    Sim::mutex m;
    Sim::condition_variable cv;
    Sim::thread notifier([&] {
      m.lock();
      cv.notify_one();
      m.unlock();
    });
    m.lock();
    (void)cv.wait_for(m, 1ms);
    m.unlock();
    notifier.join();
  };
  ExhaustiveStrategy plain;
  RecordingStrategy recording(plain);
  sim::ExecutionResult found;
  while (const auto execution = recording.new_execution()) {
    found = runtime.run(recording, *execution, timed);
    if (found.format_trace().find("timed out") != std::string::npos) break;
  }
  const std::string trace = found.format_trace();
  ASSERT_NE(trace.find("timed out"), std::string::npos) << trace;
  const std::string text = encode(recording.schedule().value());
  for (int i = 0; i < 2; ++i) {
    auto replay = make_replay_strategy(decode(text));
    const auto execution = replay->new_execution();
    ASSERT_TRUE(execution);
    const sim::ExecutionResult again = runtime.run(*replay, *execution, timed);
    EXPECT_NO_THROW(replay->finish());
    EXPECT_EQ(again.format_trace(), trace) << "replay " << i << " of " << text;
  }
}

// A timed wait on an auto-reset event set by another thread: signaled or timed out, both
// explored; a set after the timeout leaves the event signaled.
TEST(SimEvent, ATimedWaitRacingASetIsSearchedBothWaysAndATimeoutLeavesTheSignal) {
  std::set<std::pair<bool, bool>> seen;  // (the wait's result, signaled after the join)
  auto program = [&seen] {
    Sim::auto_reset_event e(false);
    Sim::thread setter([&] { e.set(); });
    const bool got = e.wait_for(1ms);
    setter.join();
    seen.insert({got, e.try_wait()});
  };
  DporStrategy reduced;
  const Ends ends = search(reduced, program, options());
  EXPECT_EQ(ends.completed, ends.executions) << *ends.kinds.begin();
  EXPECT_EQ(seen, (std::set<std::pair<bool, bool>>{{true, false}, {false, true}}));
}

TEST(SimPause, PauseIsASchedulingPointTracedAsPause) {
  sim::Runtime runtime(options());
  sim_test::LowestStrategy s;
  const sim::ExecutionResult r = sim_test::run(runtime, s, [] { Sim::pause(); });
  ASSERT_EQ(r.outcome, Outcome::completed);
  EXPECT_NE(r.format_trace().find("pause"), std::string::npos) << r.format_trace();
}

}  // namespace
}  // namespace sim_semaphore_condvar_test
}  // namespace syncstress
