// Coroutine frame tracking on sim: each kind of task<Sim> frame misuse is caught with its
// source line, without crashing; posted and signal-resumed coroutines run on pool workers.
#include <gtest/gtest.h>

#include <coroutine>
#include <optional>
#include <string>
#include <string_view>

#include "platform/sim.hpp"
#include "platform/task.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"
#include "watchdog.hpp"

namespace syncstress {
namespace sim_frames_test {
namespace {

using sim::Outcome;
using sim_test::LowestStrategy;
using sim_test::SeededStrategy;
using Task = task<Sim>;

Task suspend_once() { co_await std::suspend_always{}; }
Task finishes_at_once() { co_return; }

struct post_awaiter {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { Sim::post(h); }
  void await_resume() noexcept {}
};

struct signal_awaiter {
  Sim::auto_reset_event& event;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { Sim::resume_on_signal(event, h); }
  void await_resume() noexcept {}
};

Task record_pool_thread(ThreadId* where, Sim::atomic<int>* done) {
  co_await post_awaiter{};
  *where = sim::current_thread();
  done->store(1);
}

Task wait_for_signal(Sim::auto_reset_event* event, Sim::atomic<int>* done) {
  co_await signal_awaiter{*event};
  done->store(1);
}

TEST(SimFrames, ResumeAfterDestroyIsCaughtWithItsLineAndNotCalled) {
  sim::Runtime rt;
  LowestStrategy s;
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    Task t = suspend_once();
    std::coroutine_handle<> h = t.handle();
    t.start();
    t.destroy();
    line = __LINE__ + 1;
    Sim::resume(h);
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "resume-after-destroy");
  EXPECT_EQ(r.line, line);
  EXPECT_NE(r.message.find("frame#1"), std::string::npos) << r.message;
}

// A library loop that resumes waiters until its list runs out, round a list a bug made cyclic:
// the first resumption of the destroyed frame ends the execution, and in the teardown that
// follows its resumptions neither run nor schedule. The loop must spend the teardown's budget and
// be abandoned, so the finding is reported; before, it spun forever (mutex_part7 under
// cancellation-during-resume, seed 17: a `hang` with no trace instead of resume-after-destroy).
TEST(SimFrames, ALoopOfResumptionsDuringTeardownIsAbandonedAndTheFindingReported) {
  const testing::Watchdog watchdog("resumption loops during teardown");
  for (const char* how : {"resume", "post", "resume_on_signal"}) {
    sim::Runtime rt;
    LowestStrategy s;
    const auto r = sim_test::run(rt, s, [&] {
      Sim::auto_reset_event ev;
      Task t = suspend_once();
      const std::coroutine_handle<> h = t.handle();
      t.start();
      t.destroy();
      for (;;) {
        if (how == std::string_view("resume")) {
          Sim::resume(h);
        } else if (how == std::string_view("post")) {
          Sim::post(h);
        } else {
          Sim::resume_on_signal(ev, h);
        }
      }
    });
    EXPECT_EQ(r.outcome, Outcome::frame_misuse) << how;
    EXPECT_EQ(r.property, "resume-after-destroy") << how;
    EXPECT_EQ(r.abandoned_fibers, 1u) << how;
  }
}

TEST(SimFrames, DoubleResumeOfAQueuedFrameIsCaughtWithItsLine) {
  sim::Runtime rt;
  LowestStrategy s;  // main (thread 0) keeps running: the first post stays queued
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    Task t = suspend_once();
    t.start();
    Sim::post(t.handle());
    line = __LINE__ + 1;
    Sim::post(t.handle());
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "double-resume");
  EXPECT_EQ(r.line, line);
}

TEST(SimFrames, ResumingAFinishedFrameIsCaughtAsDoubleResume) {
  sim::Runtime rt;
  LowestStrategy s;
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    Task t = finishes_at_once();
    t.start();
    line = __LINE__ + 1;
    Sim::resume(t.handle());
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "double-resume");
  EXPECT_EQ(r.line, line);
  EXPECT_NE(r.message.find("already finished"), std::string::npos) << r.message;
}

// A primitive that resumes a waiter whose handle it has not stored yet resumes a null handle:
// a finding at its line, not a crash of the child.
TEST(SimFrames, ResumingANullHandleIsCaughtWithItsLineAndNotCalled) {
  sim::Runtime rt;
  LowestStrategy s;
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    line = __LINE__ + 1;
    Sim::resume(std::coroutine_handle<>{});
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "null-resume");
  EXPECT_EQ(r.line, line);
  EXPECT_NE(r.message.find("null coroutine handle"), std::string::npos) << r.message;
}

TEST(SimFrames, DestroyWhileQueuedIsCaughtAtThePostLine) {
  sim::Runtime rt;
  LowestStrategy s;
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    Task t = suspend_once();
    t.start();
    line = __LINE__ + 1;
    Sim::post(t.handle());
    t.destroy();
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "destroy-while-queued");
  EXPECT_EQ(r.line, line);
}

TEST(SimFrames, DestroyWhileRegisteredForASignalIsCaught) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [&] {
    Sim::auto_reset_event ev;
    Sim::atomic<int> done{0};
    Task t = wait_for_signal(&ev, &done);
    t.start();
    t.destroy();  // cancels a coroutine the pool would still resume
  });
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "destroy-while-queued");
  EXPECT_NE(r.message.find("resume_on_signal"), std::string::npos) << r.message;
}

TEST(SimFrames, FrameStillSuspendedAtTheEndIsReportedAsLeaked) {
  sim::Runtime rt;
  LowestStrategy s;
  std::optional<Task> outlives;  // a task kept past the execution: its frame never ends
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    outlives.emplace(suspend_once());
    line = __LINE__ + 1;
    outlives->start();
  });
  outlives.reset();
  EXPECT_EQ(r.outcome, Outcome::frame_misuse);
  EXPECT_EQ(r.property, "frame-leaked");
  EXPECT_EQ(r.line, line);
  EXPECT_NE(r.message.find("frame#1"), std::string::npos) << r.message;
}

TEST(SimFrames, FinishedAndDestroyedFramesAreNotReported) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [&] {
    Task a = finishes_at_once();
    a.start();
    Task b = suspend_once();
    b.start();
    b.destroy();
  });
  EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
}

TEST(SimFrames, DestroyedFrameMemoryStaysReadableUntilTheExecutionEnds) {
  // A primitive that inspects a handle after its frame died reads stale, not freed, memory
  // (ASan builds would report a use-after-free otherwise).
  sim::Runtime rt;
  LowestStrategy s;
  bool done_after_destroy = true;
  const auto r = sim_test::run(rt, s, [&] {
    Task t = suspend_once();
    auto h = t.handle();
    t.start();
    t.destroy();
    done_after_destroy = h.done();
  });
  EXPECT_EQ(r.outcome, Outcome::completed);
  EXPECT_FALSE(done_after_destroy);
}

TEST(SimFrames, PostedCoroutineRunsOnAPoolWorker) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    ThreadId where = 0;
    const auto r = sim_test::run(rt, s, [&] {
      Sim::atomic<int> done{0};
      Task t = record_pool_thread(&where, &done);
      t.start();
      while (done.load() == 0) Sim::yield();
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
    EXPECT_GE(where, 1u);  // workers come after main
  }
}

TEST(SimFrames, ResumeOnSignalRunsTheCoroutineAfterTheEventIsSet) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [&] {
      Sim::auto_reset_event ev;
      Sim::atomic<int> done{0};
      Task t = wait_for_signal(&ev, &done);
      t.start();
      Sim::check(done.load() == 0, "ran before the signal");
      ev.set();
      while (done.load() == 0) Sim::yield();
      Sim::check(!ev.try_wait(), "the registration consumed the signal");
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
  }
}

TEST(SimFrames, SignalAlreadySetIsConsumedByResumeOnSignal) {
  sim::Runtime rt;
  SeededStrategy s(11);
  const auto r = sim_test::run(rt, s, [&] {
    Sim::auto_reset_event ev(true);
    Sim::atomic<int> done{0};
    Task t = wait_for_signal(&ev, &done);
    t.start();
    while (done.load() == 0) Sim::yield();
    Sim::check(!ev.try_wait(), "the signal was consumed");
  });
  EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
}

}  // namespace
}  // namespace sim_frames_test
}  // namespace syncstress
