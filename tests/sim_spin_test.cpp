// The spin-loop reduction (src/sim/spin.cpp): a loop that re-reads what nobody has written runs
// as one step. A lock that spins 10,000 times before it sleeps is searched in about as many
// executions as the same lock without the spin, its planted lost wake-up is found and its correct
// twin exhausted; a loop nothing can release is a livelock naming its line; and on small
// programs with spin loops the reduced search reaches exactly the final states and violations
// of the plain search without the reduction.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace sim_spin_test {
namespace {

// A lock that spins `spins` times (reading its word, yielding) before it sleeps on the word
// (wait-on-address). Its unlock wakes a sleeper when it saw one registered. `lost_wakeup`
// plants the classic bug: unlock looks for sleepers before it frees the word, so a locker that
// registers in between sleeps on a word nobody will wake it from.
class SpinThenSleepLock {
 public:
  SpinThenSleepLock(int spins, bool lost_wakeup) : spins_(spins), lost_wakeup_(lost_wakeup) {}

  void lock() {
    for (int i = 0; i < spins_; ++i) {
      if (word_.load() == 0) {
        int expected = 0;
        if (word_.compare_exchange_strong(expected, 1)) return;
      }
      Sim::yield();
    }
    sleepers_.fetch_add(1);
    while (word_.exchange(1) != 0) Sim::wait_on_address(word_, 1);
    sleepers_.fetch_sub(1);
  }

  void unlock() {
    if (lost_wakeup_) {
      const bool sleeper = sleepers_.load() > 0;
      word_.store(0);
      if (sleeper) Sim::wake_by_address_single(word_);
      return;
    }
    word_.store(0);
    if (sleepers_.load() > 0) Sim::wake_by_address_single(word_);
  }

 private:
  Sim::atomic<std::int32_t> word_{0};
  Sim::atomic<std::int32_t> sleepers_{0};
  int spins_;
  bool lost_wakeup_;
};

struct Search {
  std::uint64_t executions = 0;
  std::uint64_t violations = 0;
  std::uint64_t first_violation = 0;  // the execution that found it, counted from 1
  std::uint64_t max_steps = 0;
  std::string message;
  bool complete = false;
};

// Two threads take the lock once each, checking that they are alone inside, under the reduced
// exhaustive search (or the plain one), to the end or `cap` executions.
Search search_lock(int spins, bool lost_wakeup, bool reduced, std::uint64_t cap) {
  sim::Options o;
  o.record_trace = false;
  sim::Runtime runtime(o);
  DporStrategy dpor;
  ExhaustiveStrategy plain;
  Strategy& s = reduced ? static_cast<Strategy&>(dpor) : plain;
  Search out;
  while (out.executions < cap) {
    const auto execution = s.new_execution();
    if (!execution) {
      out.complete = true;
      break;
    }
    const auto r = runtime.run(s, *execution, [&] {
      SpinThenSleepLock lock(spins, lost_wakeup);
      Sim::atomic<int> inside{0};
      auto body = [&] {
        lock.lock();
        Sim::check(inside.fetch_add(1) == 0, "two threads inside");
        inside.fetch_sub(1);
        lock.unlock();
      };
      Sim::thread a(body);
      Sim::thread b(body);
      a.join();
      b.join();
    });
    if (r.outcome == sim::Outcome::pruned) continue;
    ++out.executions;
    out.max_steps = std::max(out.max_steps, r.steps);
    if (r.outcome != sim::Outcome::completed) {
      if (out.violations++ == 0) {
        out.first_violation = out.executions;
        out.message = r.property + ": " + r.message;
      }
    }
  }
  return out;
}

TEST(SimSpin, ALockSpinningTenThousandTimesIsSearchedInAtMostTwiceTheExecutionsOfOneThatDoesNot) {
  const Search spinning = search_lock(10'000, false, true, 100'000);
  const Search sleeping = search_lock(0, false, true, 100'000);
  ASSERT_TRUE(spinning.complete);
  ASSERT_TRUE(sleeping.complete);
  EXPECT_EQ(spinning.violations, 0u) << spinning.message;
  EXPECT_EQ(sleeping.violations, 0u) << sleeping.message;
  EXPECT_LE(spinning.executions, 2 * sleeping.executions);
  // The spin is one step, not the step bound's worth of reads.
  EXPECT_LT(spinning.max_steps, 200u);
  ::testing::Test::RecordProperty("executions_spinning", std::to_string(spinning.executions));
  ::testing::Test::RecordProperty("executions_sleeping", std::to_string(sleeping.executions));
}

TEST(SimSpin, APlantedLostWakeupBehindTenThousandSpinsIsFoundInAFewHundredExecutions) {
  const Search found = search_lock(10'000, true, true, 100'000);
  ASSERT_GT(found.violations, 0u);
  EXPECT_LE(found.first_violation, 300u);
  EXPECT_NE(found.message.find("deadlock"), std::string::npos) << found.message;
  ::testing::Test::RecordProperty("found_at", std::to_string(found.first_violation));
}

TEST(SimSpin, RandomSchedulesOfTheSpinningLockNeverReachTheStepBound) {
  sim::Options o;
  o.record_trace = false;
  sim::Runtime runtime(o);
  RandomStrategy random(7);
  for (int i = 0; i < 200; ++i) {
    const auto execution = random.new_execution();
    const auto r = runtime.run(random, *execution, [] {
      SpinThenSleepLock lock(10'000, false);
      auto body = [&] {
        lock.lock();
        lock.unlock();
      };
      Sim::thread a(body);
      Sim::thread b(body);
      a.join();
      b.join();
    });
    ASSERT_EQ(r.outcome, sim::Outcome::completed) << r.property << ": " << r.message;
    EXPECT_LT(r.steps, 200u);
  }
}

TEST(SimSpin, ALoopNothingCanReleaseIsALivelockNamingItsLine) {
  sim::Options o;
  sim::Runtime runtime(o);
  RandomStrategy random(1);
  const auto execution = random.new_execution();
  int line = 0;
  const auto r = runtime.run(random, *execution, [&] {
    Sim::atomic<int> flag{0};
    Sim::thread waiter([&] {
      line = __LINE__ + 1;
      while (flag.load() == 0) Sim::yield();
    });
    waiter.join();
  });
  EXPECT_EQ(r.outcome, sim::Outcome::deadlock);
  EXPECT_EQ(r.property, "livelock");
  EXPECT_NE(r.message.find("sim_spin_test.cpp:" + std::to_string(line)), std::string::npos)
      << r.message;
  EXPECT_EQ(r.line, static_cast<unsigned>(line));
  // The spin is one line of the trace, however long it ran.
  EXPECT_LT(r.trace.size(), 20u) << r.format_trace();
}

TEST(SimSpin, ASpinReleasedByAWriteSeesTheNewValueAtItsNextRead) {
  sim::Options o;
  sim::Runtime runtime(o);
  DporStrategy dpor;
  std::uint64_t executions = 0;
  while (const auto execution = dpor.new_execution()) {
    int seen = 0;
    const auto r = runtime.run(dpor, *execution, [&] {
      Sim::atomic<int> flag{0};
      Sim::thread waiter([&] {
        while ((seen = flag.load()) == 0) Sim::yield();
      });
      Sim::thread setter([&] { flag.store(5); });
      waiter.join();
      setter.join();
    });
    if (r.outcome == sim::Outcome::pruned) continue;
    ++executions;
    ASSERT_EQ(r.outcome, sim::Outcome::completed) << r.message;
    EXPECT_EQ(seen, 5);
  }
  // The store lands before the first read, between the two reads, after the loop was noticed
  // or after the spin's step, each with the orders of the main thread's spawns and joins.
  EXPECT_LE(executions, 16u);
}

// Small programs with bounded spins: thread 1 spins up to `spins` times on x, then records
// what it saw of x and y, checks them, and sets y when it gave up; thread 2 adds to y then sets
// x. The final states (the values seen and left) and violations must be those of the plain
// search without the reduction.
struct Finals {
  std::set<std::string> finals;
  std::set<std::string> violations;
  std::uint64_t executions = 0;
};

Finals explore_spins(int spins, bool reduction, bool dpor) {
  sim::Options o;
  o.record_trace = false;
  o.spin_reduction = reduction;
  sim::Runtime runtime(o);
  DporStrategy reduced;
  ExhaustiveStrategy plain;
  Strategy& s = dpor ? static_cast<Strategy&>(reduced) : plain;
  Finals out;
  while (const auto execution = s.new_execution()) {
    std::string state;
    const auto r = runtime.run(s, *execution, [&] {
      Sim::atomic<int> x{0};
      Sim::atomic<int> y{0};
      int saw_x = -1, saw_y = -1;
      Sim::thread spinner([&] {
        int i = 0;
        while (x.load() == 0 && ++i < spins) Sim::yield();
        saw_x = x.load();
        saw_y = y.load();
        Sim::check(!(saw_x == 1 && saw_y == 0), "x seen before y");
        if (saw_x == 0) y.store(2);
      });
      Sim::thread setter([&] {
        y.fetch_add(1);
        x.store(1);
      });
      spinner.join();
      setter.join();
      state = std::to_string(saw_x) + std::to_string(saw_y) + std::to_string(y.load());
    });
    if (r.outcome == sim::Outcome::pruned) continue;
    ++out.executions;
    if (r.outcome == sim::Outcome::completed) {
      out.finals.insert(state);
    } else {
      out.violations.insert(r.property + " " + r.message);
    }
  }
  return out;
}

TEST(SimSpin, SmallProgramsWithSpinsReachWhatThePlainSearchWithoutTheReductionReaches) {
  for (int spins : {1, 2, 3, 6}) {
    const Finals plain = explore_spins(spins, false, false);
    const Finals reduced = explore_spins(spins, true, true);
    const Finals plain_with_spin = explore_spins(spins, true, false);
    EXPECT_EQ(reduced.finals, plain.finals) << spins << " spins";
    EXPECT_EQ(reduced.violations, plain.violations) << spins << " spins";
    EXPECT_EQ(plain_with_spin.finals, plain.finals) << spins << " spins";
    EXPECT_LE(reduced.executions, plain.executions);
    ::testing::Test::RecordProperty(
        "spins_" + std::to_string(spins),
        std::to_string(plain.executions) + " -> " + std::to_string(reduced.executions));
  }
}

}  // namespace
}  // namespace sim_spin_test
}  // namespace syncstress
