// Semantics of the Sim platform's blocking operations: wait-on-address, parker, events,
// compare-exchange, the pool's delayed work, and the fault injections behind their switches.
#include <gtest/gtest.h>

#include <coroutine>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "platform/task.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"

namespace syncstress {
namespace sim_sync_test {
namespace {

using sim::Outcome;
using sim_test::LowestStrategy;
using sim_test::SeededStrategy;

/// Always the highest-numbered runnable thread (newest first); a fixed answer for numbers.
class HighestStrategy : public Strategy {
 public:
  explicit HighestStrategy(std::uint64_t number = 0) : number_(number) {}
  std::optional<Execution> new_execution() override { return Execution{}; }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId, bool) override {
    return runnable.size() - 1;
  }
  std::uint64_t next_u64(std::uint64_t bound) override {
    ++asked;
    return number_ % bound;
  }
  int asked = 0;

 private:
  std::uint64_t number_;
};

// A waiter that re-checks its condition, as correct code must; counts wait returns.
int wait_returns_until_set(bool spurious) {
  sim::Options options;
  options.spurious_wakeups = spurious;
  sim::Runtime rt(options);
  int executions_with_spurious_returns = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    int returns = 0;
    const auto r = sim_test::run(rt, s, [&] {
      Sim::atomic<std::int32_t> word{0};
      Sim::thread waiter([&] {
        while (word.load() == 0) {
          Sim::wait_on_address(word, 0);
          ++returns;
        }
      });
      Sim::yield();
      word.store(1);
      Sim::wake_by_address_all(word);
    });
    EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
    const bool traced_spurious = r.format_trace().find("spurious") != std::string::npos;
    if (traced_spurious) ++executions_with_spurious_returns;
    if (!spurious) {
      EXPECT_LE(returns, 1);            // only the real wake (or none, if the store came first)
      EXPECT_EQ(s.number_choices, 0u);  // the fault choice is never even asked
    }
  }
  return executions_with_spurious_returns;
}

TEST(SimSync, SpuriousWakeupsAppearWhenEnabled) { EXPECT_GT(wait_returns_until_set(true), 0); }

TEST(SimSync, SpuriousWakeupsNeverAppearWhenDisabled) {
  EXPECT_EQ(wait_returns_until_set(false), 0);
}

TEST(SimSync, ParkReturnsSpuriouslyOnlyWhenEnabled) {
  for (bool enabled : {false, true}) {
    sim::Options options;
    options.spurious_wakeups = enabled;
    sim::Runtime rt(options);
    int spurious = 0;
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
      SeededStrategy s(seed);
      const auto r = sim_test::run(rt, s, [] {
        Sim::atomic<bool> flag{false};
        Sim::parker& p = Sim::current_parker();
        Sim::thread t([&] {
          flag.store(true);
          p.unpark();
        });
        while (!flag.load()) p.park();
      });
      ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
      if (r.format_trace().find("park parker:t0 [spurious]") != std::string::npos) ++spurious;
    }
    if (enabled) {
      EXPECT_GT(spurious, 0);
    } else {
      EXPECT_EQ(spurious, 0);
    }
  }
}

TEST(SimSync, ParkerPermitGivenBeforeParkIsNotLost) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::parker& p = Sim::current_parker();
      Sim::thread t([&] { p.unpark(); });
      p.park();  // whichever comes first, this returns
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
  }
}

TEST(SimSync, WakeByAddressSingleWakesTheWaiterTheStrategyPicks) {
  for (std::uint64_t pick : {0u, 1u}) {
    sim::Runtime rt;
    HighestStrategy s(pick);
    std::vector<int> order;
    const auto r = sim_test::run(rt, s, [&] {
      Sim::atomic<std::int32_t> word{0};
      Sim::thread t1([&] {
        Sim::wait_on_address(word, 0);
        order.push_back(1);
      });
      Sim::thread t2([&] {
        Sim::wait_on_address(word, 0);
        order.push_back(2);
      });
      Sim::wake_by_address_single(word);
      Sim::yield();
      Sim::check(order.size() == 1, "a single wake released one waiter");
      Sim::wake_by_address_single(word);
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << r.message << "\n" << r.format_trace();
    ASSERT_EQ(order.size(), 2u);
    EXPECT_EQ(order[0], pick == 0 ? 1 : 2);
  }
}

TEST(SimSync, WaitOnAddressReturnsAtOnceWhenTheValueDiffers) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [] {
    Sim::atomic<std::uint32_t> word{5};
    Sim::wait_on_address(word, 4);
  });
  EXPECT_EQ(r.outcome, Outcome::completed);
  EXPECT_NE(r.format_trace().find("value differs"), std::string::npos);
}

TEST(SimSync, AtomicWaitReturnsOnlyAfterTheValueChanges) {
  sim::Options options;
  options.spurious_wakeups = true;  // atomic::wait never returns spuriously regardless
  sim::Runtime rt(options);
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::atomic<int> x{0};
      Sim::thread t([&] {
        x.wait(0);
        Sim::check(x.load() == 1, "wait returned with the old value");
      });
      Sim::yield();
      x.notify_one();  // a notify without a change must not release it
      x.store(1);
      x.notify_all();
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
  }
}

TEST(SimSync, AutoResetEventSetReleasesOnlyOneOfTwoWaiters) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::auto_reset_event ev;
      sim::set_name(&ev, "the-event");
      Sim::thread t1([&] { ev.wait(); });
      Sim::thread t2([&] { ev.wait(); });
      ev.set();
    });
    // One set, two waiters: the other waiter is still blocked when everything else ended
    // (or, if the set came first, one wait consumed it and the other blocks).
    ASSERT_EQ(r.outcome, Outcome::deadlock) << r.format_trace();
    EXPECT_NE(r.message.find("waits in wait on the-event"), std::string::npos) << r.message;
  }
}

TEST(SimSync, AutoResetEventTwoSetsReleaseBothWaitersAndStaySignaledWithoutWaiters) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::auto_reset_event ev;
      Sim::atomic<int> released{0};
      Sim::thread t1([&] {
        ev.wait();
        released.fetch_add(1);
      });
      Sim::thread t2([&] {
        ev.wait();
        released.fetch_add(1);
      });
      ev.set();
      while (released.load() == 0) Sim::yield();
      ev.set();
      while (released.load() == 1) Sim::yield();
      Sim::check(!ev.try_wait(), "each set was consumed by one waiter");
      ev.set();
      Sim::check(ev.try_wait(), "a set without waiters stays signaled");
      Sim::check(!ev.try_wait(), "try_wait consumed it");
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
  }
}

TEST(SimSync, ManualResetEventReleasesEveryWaiterUntilReset) {
  sim::Runtime rt;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SeededStrategy s(seed);
    const auto r = sim_test::run(rt, s, [] {
      Sim::manual_reset_event ev;
      {
        Sim::thread t1([&] { ev.wait(); });
        Sim::thread t2([&] { ev.wait(); });
        ev.set();
      }
      Sim::check(ev.try_wait(), "still set");
      ev.reset();
      Sim::check(!ev.try_wait(), "reset");
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << "seed " << seed << ": " << r.message;
  }
}

TEST(SimSync, CompareExchangeWeakFailsSpuriouslyOnlyWhenEnabled) {
  for (bool enabled : {false, true}) {
    sim::Options options;
    options.spurious_cas_failures = enabled;
    sim::Runtime rt(options);
    int failures = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
      SeededStrategy s(seed);
      const auto r = sim_test::run(rt, s, [&] {
        Sim::atomic<int> x{0};
        for (int i = 0; i < 4; ++i) {
          int expected = x.load();
          while (!x.compare_exchange_weak(expected, expected + 1)) ++failures;
        }
        int strong_expected = 4;
        Sim::check(x.compare_exchange_strong(strong_expected, 5), "strong never fails spuriously");
      });
      ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
    }
    if (enabled) {
      EXPECT_GT(failures, 0);
    } else {
      EXPECT_EQ(failures, 0);
    }
  }
}

using Task = task<Sim>;
struct post_awaiter {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { Sim::post(h); }
  void await_resume() noexcept {}
};
Task append_on_pool(std::vector<int>* order, int value) {
  co_await post_awaiter{};
  order->push_back(value);
}

TEST(SimSync, DelayedPostedWorkLetsTheWorkerTakeANewerItemOnlyWhenEnabled) {
  for (bool delay : {false, true}) {
    sim::Options options;
    options.delay_posted_work = delay;
    options.pool_workers = 1;
    sim::Runtime rt(options);
    // Main keeps running until it yields (both items are queued by then); numbers pick the
    // newest item.
    struct PickNewest : sim_test::LowestStrategy {
      std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId, bool yielded) override {
        return yielded ? runnable.size() - 1 : 0;
      }
      std::uint64_t next_u64(std::uint64_t bound) override { return bound - 1; }
    } newest;
    std::vector<int> order;
    const auto r = sim_test::run(rt, newest, [&] {
      Sim::atomic<int> x{0};
      Task a = append_on_pool(&order, 1);
      Task b = append_on_pool(&order, 2);
      a.start();
      b.start();
      while (order.size() < 2) Sim::yield();
      (void)x;
    });
    ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
    ASSERT_EQ(order.size(), 2u);
    EXPECT_EQ(order[0], delay ? 2 : 1);
  }
}

// A weak CAS with nobody else touching the word (every failure spurious) and a wait-on-address
// a second thread ends (a second round of the wait loop only after a spurious return), over
// 200 seeds: how many executions saw a spurious CAS failure, and how many a spurious wake-up.
struct FaultCounts {
  int cas = 0;
  int wakeups = 0;
};
FaultCounts count_faults(const sim::Options& options, bool strategy_faults) {
  sim::Runtime rt(options);
  FaultCounts counts;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    RandomStrategy strategy(seed, strategy_faults);
    bool cas_failed = false;
    int waits = 0;
    const auto r = sim_test::run(rt, strategy, [&] {
      Sim::atomic<int> word{0};
      int expected = 0;
      while (!word.compare_exchange_weak(expected, 1)) cas_failed = true;
      Sim::atomic<std::int32_t> flag{0};
      Sim::thread waker([&] {
        flag.store(1);
        Sim::wake_by_address_all(flag);
      });
      while (flag.load() == 0) {
        ++waits;
        Sim::wait_on_address(flag, 0);
      }
    });
    EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
    counts.cas += cas_failed ? 1 : 0;
    counts.wakeups += waits > 1 ? 1 : 0;
  }
  return counts;
}

TEST(SimSync, AStrategyExploringFaultsGetsThemOnlyWhereTheCellOffersThem) {
  sim::Options offered;
  offered.offer_spurious_wakeups = true;
  offered.offer_spurious_cas_failures = true;
  const FaultCounts both = count_faults(offered, /*strategy_faults=*/true);
  EXPECT_GT(both.cas, 50);
  EXPECT_GT(both.wakeups, 10);
  // Offered but not explored, or explored but not offered: none.
  const FaultCounts unexplored = count_faults(offered, false);
  EXPECT_EQ(unexplored.cas + unexplored.wakeups, 0);
  const FaultCounts unoffered = count_faults(sim::Options{}, true);
  EXPECT_EQ(unoffered.cas + unoffered.wakeups, 0);
  // Each offer stands alone.
  sim::Options cas_only;
  cas_only.offer_spurious_cas_failures = true;
  const FaultCounts c = count_faults(cas_only, true);
  EXPECT_GT(c.cas, 50);
  EXPECT_EQ(c.wakeups, 0);
}

TEST(SimSync, RelockingAMutexOnTheSameThreadDeadlocks) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [] {
    Sim::mutex m;
    m.lock();
    m.lock();
  });
  EXPECT_EQ(r.outcome, Outcome::deadlock);
  EXPECT_NE(r.message.find("held by thread 0"), std::string::npos) << r.message;
}

TEST(SimSync, UnlockingAMutexThatIsNotHeldIsAViolation) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [] {
    Sim::mutex m;
    m.unlock();
  });
  EXPECT_EQ(r.outcome, Outcome::violation);
  EXPECT_NE(r.message.find("not held"), std::string::npos) << r.message;
}

TEST(SimSync, TryLockFailsWhileHeldAndSucceedsAfterUnlock) {
  sim::Runtime rt;
  LowestStrategy s;
  const auto r = sim_test::run(rt, s, [] {
    Sim::mutex m;
    Sim::check(m.try_lock(), "free mutex");
    Sim::check(!m.try_lock(), "held mutex");
    m.unlock();
    Sim::check(m.try_lock(), "free again");
    m.unlock();
  });
  EXPECT_EQ(r.outcome, Outcome::completed) << r.message;
}

TEST(SimSync, OperationsOutsideAnExecutionActDirectly) {
  Sim::atomic<int> x{1};
  EXPECT_EQ(x.fetch_add(2), 1);
  EXPECT_EQ(x.load(), 3);
  Sim::mutex m;
  EXPECT_TRUE(m.try_lock());
  EXPECT_THROW(m.lock(), std::logic_error);
  m.unlock();
  Sim::auto_reset_event ev(true);
  EXPECT_TRUE(ev.try_wait());
  EXPECT_FALSE(ev.try_wait());
  EXPECT_THROW(Sim::check(false, "outside"), std::logic_error);
}

}  // namespace
}  // namespace sim_sync_test
}  // namespace syncstress
