// The sim runtime's scheduling, determinism and detection (deadlock, step bound, check,
// exceptions), and teardown of executions that end early.
#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef SYNCSTRESS_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#include "platform/sim.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"

namespace syncstress {
namespace sim_runtime_test {
namespace {

using sim::Outcome;
using sim_test::AlternatingStrategy;
using sim_test::LowestStrategy;
using sim_test::SeededStrategy;

// An abandoned fiber leaks what its stack owned, by design (see src/sim/engine.hpp); the
// tests that force abandonment keep LeakSanitizer from reporting those allocations.
struct ExpectAbandonmentLeaks {
#ifdef SYNCSTRESS_ASAN
  ExpectAbandonmentLeaks() { __lsan_disable(); }
  ~ExpectAbandonmentLeaks() { __lsan_enable(); }
#endif
};

// A scenario that touches most operations: atomics, a mutex, an event, a parker, yields.
void mixed_scenario() {
  Sim::atomic<int> counter{0};
  Sim::mutex m;
  Sim::auto_reset_event ev;
  Sim::parker* main_parker = &Sim::current_parker();
  std::vector<std::string> log;  // heap-owning local: teardown must free it
  {
    Sim::thread a([&] {
      for (int i = 0; i < 3; ++i) {
        m.lock();
        counter.fetch_add(1);
        m.unlock();
        Sim::yield();
      }
      ev.set();
    });
    Sim::thread b([&] {
      ev.wait();
      int expected = counter.load();
      while (!counter.compare_exchange_weak(expected, expected + 10)) {
      }
      main_parker->unpark();
    });
    main_parker->park();
    log.push_back("parked");
  }
  Sim::check(counter.load() == 13, "counter is 13 after both threads");
}

TEST(SimRuntime, SameSeedGivesSameTraceOverThousandSeeds) {
  sim::Runtime rt;
  std::set<std::string> distinct;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    SeededStrategy s1(seed);
    const sim::ExecutionResult r1 = sim_test::run(rt, s1, mixed_scenario);
    SeededStrategy s2(seed);
    const sim::ExecutionResult r2 = sim_test::run(rt, s2, mixed_scenario);
    ASSERT_EQ(r1.outcome, Outcome::completed) << "seed " << seed << ": " << r1.message;
    ASSERT_EQ(r1.format_trace(), r2.format_trace()) << "seed " << seed;
    ASSERT_EQ(r1.steps, r2.steps);
    distinct.insert(r1.format_trace());
  }
  // The strategy really steers: many different interleavings came out.
  EXPECT_GT(distinct.size(), 100u);
}

// Whether a new node reuses a freed node's address decides a compare-exchange on pointers
// (ABA), so it must follow from the execution alone. Here the process allocates a block of the
// node's size between the free and the new node, as the trace's strings do: malloc would hand
// that block the freed address, and the next node would get another one.
TEST(SimRuntime, NodeStorageReusesTheLastFreedNodeWhateverElseTheProcessAllocates) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [] {
    void* first = Sim::node_allocate(16);
    void* second = Sim::node_allocate(16);
    Sim::node_deallocate(first, 16);
    Sim::node_deallocate(second, 16);
    const auto unrelated = std::make_unique<char[]>(16);  // the size class of a 16-byte node
    void* third = Sim::node_allocate(16);
    void* fourth = Sim::node_allocate(16);
    void* other_size = Sim::node_allocate(24);
    Sim::check(third == second, "the last freed node comes back first");
    Sim::check(fourth == first, "then the one freed before it");
    Sim::check(other_size != first && other_size != second, "only for the same size");
    Sim::node_deallocate(third, 16);  // kept by the execution, released at its end
    Sim::node_deallocate(fourth, 16);
    Sim::node_deallocate(other_size, 24);
  });
  EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
}

TEST(SimRuntime, TraceNamesObjectsAndSourceLinesWithoutAddresses) {
  sim::Runtime rt;
  LowestStrategy s;
  unsigned line = 0;
  const auto r = sim_test::run(rt, s, [&] {
    Sim::atomic<int*> p{nullptr};
    Sim::mutex m;
    sim::set_name(&m, "the-mutex");
    int x = 0;
    line = __LINE__ + 1;
    p.store(&x);
    m.lock();
    m.unlock();
  });
  ASSERT_EQ(r.outcome, Outcome::completed);
  const std::string text = r.format_trace();
  EXPECT_NE(
      text.find("store atomic#1 [non-null] tests/sim_runtime_test.cpp:" + std::to_string(line)),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("lock the-mutex"), std::string::npos) << text;
  EXPECT_EQ(text.find("0x"), std::string::npos) << text;
}

// A waiter list kept in a std::uintptr_t, as published primitives keep one: the address (with a
// tag in its low bits) prints as an address, the same whatever memory the run got, while a
// packed 64-bit word with a count in its upper half prints as the number it is.
TEST(SimRuntime, AnAddressHeldInAnIntegerPrintsAsAnAddressWhateverItsValue) {
  sim::Runtime rt;
  LowestStrategy s;
  // Two runs of one program, each with its waiter node somewhere else.
  const std::unique_ptr<std::uint64_t> nodes[2] = {std::make_unique<std::uint64_t>(0),
                                                   std::make_unique<std::uint64_t>(0)};
  std::string traces[2];
  for (int i = 0; i < 2; ++i) {
    const auto r = sim_test::run(rt, s, [node = nodes[i].get()] {
      Sim::atomic<std::uintptr_t> head{0};
      head.store(reinterpret_cast<std::uintptr_t>(node) | 1U);
      head.store(reinterpret_cast<std::uintptr_t>(node));
      Sim::atomic<std::uint64_t> packed{(std::uint64_t{3} << 32) | 2U};
      packed.fetch_add(1);
    });
    ASSERT_EQ(r.outcome, Outcome::completed);
    traces[i] = r.format_trace();
  }
  EXPECT_NE(traces[0].find("store atomic#1 [address|1]"), std::string::npos) << traces[0];
  EXPECT_NE(traces[0].find("store atomic#1 [address]"), std::string::npos) << traces[0];
  EXPECT_NE(traces[0].find("[12884901890 -> 12884901891]"), std::string::npos) << traces[0];
  EXPECT_EQ(traces[0], traces[1]);
}

// Both threads take their first mutex, meet, then take the other's: a deadlock under every
// schedule that lets both run.
void ab_ba_after_meeting() {
  Sim::mutex a;
  Sim::mutex b;
  sim::set_name(&a, "mutex-A");
  sim::set_name(&b, "mutex-B");
  Sim::atomic<int> arrived{0};
  std::string owned(100, 'x');  // heap-owning local: teardown must free it
  Sim::thread t1([&] {
    std::string owned_here(100, 'y');
    a.lock();
    arrived.fetch_add(1);
    while (arrived.load() < 2) Sim::yield();
    b.lock();
    b.unlock();
    a.unlock();
  });
  Sim::thread t2([&] {
    b.lock();
    arrived.fetch_add(1);
    while (arrived.load() < 2) Sim::yield();
    a.lock();
    a.unlock();
    b.unlock();
  });
}

TEST(SimRuntime, AbBaLockOrderIsReportedAsDeadlockNamingThreadsAndMutexes) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, ab_ba_after_meeting);
    ASSERT_EQ(r.outcome, Outcome::deadlock) << r.format_trace();
    EXPECT_EQ(r.property, "deadlock");
    EXPECT_NE(r.message.find("thread 1 waits in lock on mutex-B (held by thread 2) at "
                             "tests/sim_runtime_test.cpp:"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("thread 2 waits in lock on mutex-A (held by thread 1) at "
                             "tests/sim_runtime_test.cpp:"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("thread 0 waits in join on t2"), std::string::npos) << r.message;
    EXPECT_EQ(r.abandoned_fibers, 0u);
  }
}

TEST(SimRuntime, AbBaDeadlockIsFoundByRandomSchedulesAndOtherwiseCompletes) {
  sim::Runtime rt;
  int deadlocks = 0;
  int completed = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::mutex a;
      Sim::mutex b;
      Sim::thread t1([&] {
        a.lock();
        b.lock();
        b.unlock();
        a.unlock();
      });
      Sim::thread t2([&] {
        b.lock();
        a.lock();
        a.unlock();
        b.unlock();
      });
    });
    if (r.outcome == Outcome::deadlock) ++deadlocks;
    if (r.outcome == Outcome::completed) ++completed;
  }
  EXPECT_GT(deadlocks, 0);
  EXPECT_GT(completed, 0);
  EXPECT_EQ(deadlocks + completed, 200);
}

TEST(SimRuntime, FailedCheckEndsExecutionWithItsMessageAndLine) {
  sim::Runtime rt;
  SeededStrategy s(7);
  unsigned line = 0;
  bool after_check = false;
  const auto r = sim_test::run(rt, s, [&] {
    Sim::atomic<int> x{1};
    line = __LINE__ + 1;
    Sim::check(x.load() == 2, "x must be 2");
    after_check = true;
  });
  EXPECT_EQ(r.outcome, Outcome::violation);
  EXPECT_EQ(r.property, "check");
  EXPECT_EQ(r.message, "x must be 2");
  EXPECT_EQ(r.line, line);
  EXPECT_NE(std::string(r.file).find("sim_runtime_test.cpp"), std::string::npos);
  EXPECT_FALSE(after_check);
}

TEST(SimRuntime, StepBoundFiresOnASpinWhenTheSpinReductionIsOff) {
  // With the reduction on, the same loops are a livelock (tests/sim_spin_test.cpp).
  sim::Options options;
  options.max_steps = 500;
  options.spin_reduction = false;
  sim::Runtime rt(options);
  SeededStrategy s(3);
  const auto r = sim_test::run(rt, s, [] {
    Sim::atomic<bool> go{false};
    auto spin = [&] {
      while (!go.load()) Sim::yield();
    };
    Sim::thread t1(spin);
    Sim::thread t2(spin);
  });
  EXPECT_EQ(r.outcome, Outcome::step_bound);
  EXPECT_EQ(r.property, "step-bound");
  EXPECT_EQ(r.steps, 501u);
}

TEST(SimRuntime, ExceptionEscapingAThreadIsReported) {
  sim::Runtime rt;
  SeededStrategy s(5);
  const auto r = sim_test::run(rt, s, [] {
    Sim::atomic<int> x{0};
    Sim::thread t([&] {
      x.store(1);
      throw std::runtime_error("boom in thread");
    });
    while (x.load() != 2) Sim::yield();  // never ends by itself: teardown must unwind it
  });
  EXPECT_EQ(r.outcome, Outcome::exception);
  EXPECT_EQ(r.property, "exception");
  EXPECT_NE(r.message.find("thread 1"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("boom in thread"), std::string::npos) << r.message;
}

// Each fiber keeps its own exception state across switches (src/sim/fiber.hpp): the exception
// a catch block is handling, and the count of exceptions in flight while a destructor runs
// during unwinding. Three threads switch away in both places and in ordinary code, in every
// interleaving the seeds give.
TEST(SimRuntime, EachThreadKeepsItsOwnExceptionStateAcrossSwitches) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      auto in_catch = [](int me) {
        try {
          throw me;
        } catch (int) {
          for (int i = 0; i < 3; ++i) {
            Sim::yield();
            Sim::check(std::uncaught_exceptions() == 0, "an exception in flight in a catch block");
            try {
              std::rethrow_exception(std::current_exception());
            } catch (int caught) {
              Sim::check(caught == me, "the catch block handles another thread's exception");
            }
          }
        }
      };
      struct YieldsWhileUnwinding {
        ~YieldsWhileUnwinding() {
          for (int i = 0; i < 3; ++i) {
            Sim::yield();
            Sim::check(std::uncaught_exceptions() == 1, "unwinding lost its exception count");
          }
        }
      };
      auto unwinding = [] {
        try {
          YieldsWhileUnwinding guard;
          throw std::runtime_error("unwinding");
        } catch (const std::runtime_error&) {
        }
        Sim::check(std::uncaught_exceptions() == 0, "an exception count after the catch");
        Sim::check(!std::current_exception(), "an exception handled after the catch");
      };
      Sim::thread a([&] { in_catch(1); });
      Sim::thread b([&] { in_catch(2); });
      Sim::thread c(unwinding);
      for (int i = 0; i < 3; ++i) {
        Sim::yield();
        Sim::check(std::uncaught_exceptions() == 0 && !std::current_exception(),
                   "the main thread sees another thread's exception");
      }
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
  }
}

TEST(SimRuntime, MutexGivesMutualExclusionOverManySeeds) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::mutex m;
      Sim::atomic<int> inside{0};
      auto worker = [&] {
        for (int i = 0; i < 3; ++i) {
          m.lock();
          Sim::check(inside.fetch_add(1) == 0, "two threads inside the critical section");
          Sim::yield();
          inside.fetch_sub(1);
          m.unlock();
        }
      };
      Sim::thread t1(worker);
      Sim::thread t2(worker);
      Sim::thread t3(worker);
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
  }
}

TEST(SimRuntime, CriticalSectionWithoutMutexIsCaughtByTheSameCheck) {
  // The control for the test above: the same check fails once the mutex is gone.
  sim::Runtime rt;
  int violations = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::atomic<int> inside{0};
      auto worker = [&] {
        Sim::check(inside.fetch_add(1) == 0, "two threads inside the critical section");
        Sim::yield();
        inside.fetch_sub(1);
      };
      Sim::thread t1(worker);
      Sim::thread t2(worker);
    });
    if (r.outcome == Outcome::violation) ++violations;
  }
  EXPECT_GT(violations, 0);
}

TEST(SimRuntime, StrategyIsAskedOnlyWhenThereIsAChoice) {
  sim::Runtime rt;
  SeededStrategy s(1);
  const auto r = sim_test::run(rt, s, [] {
    Sim::atomic<int> x{0};
    for (int i = 0; i < 10; ++i) x.fetch_add(1);
  });
  ASSERT_EQ(r.outcome, Outcome::completed);
  EXPECT_EQ(s.thread_choices, 0u);
  EXPECT_EQ(s.number_choices, 0u);
  EXPECT_EQ(r.steps, 11u);  // ten fetch_adds and the exit
}

TEST(SimRuntime, YieldIsReportedToTheStrategy) {
  struct Probe : sim_test::LowestStrategy {
    std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                            bool yielded) override {
      if (yielded) ++yields;
      (void)current;
      return runnable.size() - 1;
    }
    int yields = 0;
  } s;
  sim::Runtime rt;
  const auto r = sim_test::run(rt, s, [] {
    Sim::thread t([] { Sim::yield(); });
    Sim::yield();
  });
  ASSERT_EQ(r.outcome, Outcome::completed);
  EXPECT_GE(s.yields, 1);
}

TEST(SimRuntime, ThreadInNoexceptFunctionIsAbandonedNotCrashedOnTeardown) {
  [[maybe_unused]] ExpectAbandonmentLeaks leaks;
  sim::Runtime rt;
  SeededStrategy s(1);
  const auto r = sim_test::run(rt, s, [] {
    Sim::mutex a;
    Sim::mutex b;
    Sim::atomic<int> arrived{0};
    Sim::thread t1([&]() noexcept {
      a.lock();
      arrived.fetch_add(1);
      while (arrived.load() < 2) Sim::yield();
      b.lock();
    });
    Sim::thread t2([&] {
      b.lock();
      arrived.fetch_add(1);
      while (arrived.load() < 2) Sim::yield();
      a.lock();
    });
  });
  EXPECT_EQ(r.outcome, Outcome::deadlock);
  EXPECT_EQ(r.abandoned_fibers, 1u);
}

TEST(SimRuntime, DestructorSpinningForeverDuringTeardownIsAbandoned) {
  struct SpinsInDestructor {
    Sim::atomic<bool>* flag;
    ~SpinsInDestructor() {
      while (!flag->load()) Sim::yield();
    }
  };
  sim::Options options;
  options.max_steps = 1000;
  sim::Runtime rt(options);
  SeededStrategy s(1);
  [[maybe_unused]] ExpectAbandonmentLeaks leaks;
  const auto r = sim_test::run(rt, s, [] {
    Sim::atomic<bool> never{false};
    SpinsInDestructor guard{&never};
    Sim::check(false, "end the execution early");
  });
  EXPECT_EQ(r.outcome, Outcome::violation);
  EXPECT_EQ(r.abandoned_fibers, 1u);
}

TEST(SimRuntime, RuntimeIsReusableAfterEveryKindOfEarlyEnd) {
  sim::Runtime rt;
  for (std::uint64_t round = 0; round < 50; ++round) {
    SeededStrategy s(round);
    auto r = sim_test::run(rt, s, ab_ba_after_meeting);
    ASSERT_EQ(r.outcome, Outcome::deadlock);
    LowestStrategy s2;
    r = sim_test::run(rt, s2, [] { Sim::check(false, "x"); });
    ASSERT_EQ(r.outcome, Outcome::violation);
    r = sim_test::run(rt, s2, [] {
      Sim::atomic<int> x{0};
      Sim::thread t([&] { x.store(1); });
    });
    ASSERT_EQ(r.outcome, Outcome::completed);
  }
}

TEST(SimRuntime, InExecutionAndCurrentThreadAndStep) {
  EXPECT_FALSE(sim::in_execution());
  sim::Runtime rt;
  LowestStrategy s;
  ThreadId child = 99;
  bool inside = false;
  std::uint64_t step_before = 0;
  std::uint64_t step_after = 0;
  const auto r = sim_test::run(rt, s, [&] {
    inside = sim::in_execution();
    step_before = sim::current_step();
    Sim::atomic<int> x{0};
    x.store(1);
    step_after = sim::current_step();
    Sim::thread t([&] { child = sim::current_thread(); });
  });
  ASSERT_EQ(r.outcome, Outcome::completed);
  EXPECT_TRUE(inside);
  EXPECT_EQ(step_after, step_before + 1);
  EXPECT_EQ(child, 1u);
  EXPECT_FALSE(sim::in_execution());
}

}  // namespace
}  // namespace sim_runtime_test
}  // namespace syncstress
