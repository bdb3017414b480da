// The strategies on the sim runtime: same seed gives the same trace byte for byte; a failure
// recorded under any strategy replays from its printed schedule to the same failure and trace;
// PCT meets its probabilistic guarantee on a planted depth-2 bug; exhaustive explores exactly
// as many executions as an independent model of the program has.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace schedules_sim_test {
namespace {

// Three threads contend on a mutex, spin with yields, and hand off through wait-on-address;
// with spurious wake-ups on, the runtime also asks number choices.
void contended_program() {
  Sim::mutex m;
  Sim::atomic<int> counter{0};
  Sim::atomic<std::int32_t> ready{0};
  auto worker = [&] {
    for (int i = 0; i < 3; ++i) {
      m.lock();
      counter.fetch_add(1, std::memory_order_relaxed);  // ordered by m
      m.unlock();
      Sim::yield();
    }
  };
  Sim::thread a(worker);
  Sim::thread b(worker);
  Sim::thread waiter([&] {
    while (ready.load(std::memory_order_acquire) == 0) {  // pairs with the release store below
      Sim::wait_on_address(ready, 0);
    }
  });
  a.join();
  b.join();
  ready.store(1, std::memory_order_release);
  Sim::wake_by_address_all(ready);
  waiter.join();
  Sim::check(counter.load(std::memory_order_seq_cst) == 6, "every increment counted");
}

// Two read-modify-write increments done as a separate load and store: an update can be lost.
void lost_update_program() {
  Sim::atomic<int> x{0};
  auto increment = [&] {
    for (int i = 0; i < 2; ++i) {
      const int v = x.load(std::memory_order_seq_cst);
      x.store(v + 1, std::memory_order_seq_cst);
    }
  };
  Sim::thread a(increment);
  Sim::thread b(increment);
  a.join();
  b.join();
  Sim::check(x.load(std::memory_order_seq_cst) == 4, "no increment lost");
}

sim::Options with_faults() {
  sim::Options o;
  o.spurious_wakeups = true;
  return o;
}

TEST(SimSchedules, SameSeedGivesSameTraceByteForByteOverThousandSeedsForRandomAndPct) {
  sim::Runtime runtime(with_faults());
  for (const char* name : {"random", "pct"}) {
    std::set<std::string> distinct;
    for (std::uint64_t seed = 0; seed < 1000; ++seed) {
      auto first = make_strategy(name, seed);
      auto second = make_strategy(name, seed);
      const auto e1 = first->new_execution();
      const auto e2 = second->new_execution();
      ASSERT_TRUE(e1 && e2);
      const sim::ExecutionResult r1 = runtime.run(*first, *e1, contended_program);
      const sim::ExecutionResult r2 = runtime.run(*second, *e2, contended_program);
      ASSERT_EQ(r1.outcome, sim::Outcome::completed) << name << " seed " << seed << r1.message;
      ASSERT_EQ(r1.format_trace(), r2.format_trace()) << name << " seed " << seed;
      distinct.insert(r1.format_trace());
    }
    // The seeds must matter, or the comparison above proves nothing. (PCT has fewer
    // behaviours on a short program: a priority order and two change points.)
    EXPECT_GT(distinct.size(), std::string(name) == "random" ? 500u : 100u) << name;
  }
}

TEST(SimSchedules, LaterExecutionsOfARunRegenerateFromTheirOwnSeed) {
  sim::Runtime runtime(with_faults());
  for (const char* name : {"random", "pct"}) {
    auto run = make_strategy(name, 5);
    for (int i = 0; i < 50; ++i) {
      const auto execution = run->new_execution();
      ASSERT_TRUE(execution);
      const std::string trace = runtime.run(*run, *execution, contended_program).format_trace();
      auto alone = make_strategy_from_description(execution->producer->describe(), execution->seed);
      const auto regenerated = alone->new_execution();
      ASSERT_TRUE(regenerated);
      EXPECT_EQ(runtime.run(*alone, *regenerated, contended_program).format_trace(), trace)
          << name << " execution " << i;
    }
  }
}

TEST(SimSchedules, FailureRecordedUnderEveryStrategyReplaysFromItsStringToSameFailureAndTrace) {
  sim::Runtime runtime(with_faults());
  for (const StrategyInfo& info : strategy_catalog()) {
    auto strategy = make_strategy(info.name, 17);
    RecordingStrategy recording(*strategy);
    sim::ExecutionResult failure;
    int executions = 0;
    while (executions < 10000) {
      const auto execution = recording.new_execution();
      if (!execution) break;
      ++executions;
      failure = runtime.run(recording, *execution, lost_update_program);
      // Ended by exhaustive's reduction as redundant: neither a finding nor a completed run.
      if (failure.outcome == sim::Outcome::pruned) continue;
      if (failure.outcome != sim::Outcome::completed) break;
    }
    ASSERT_EQ(failure.outcome, sim::Outcome::violation)
        << info.name << " found no lost update in " << executions << " executions";
    const Schedule schedule = recording.schedule().value();
    const std::string text = encode(schedule);

    auto replay = make_replay_strategy(decode(text));
    RecordingStrategy again(*replay);
    const auto execution = again.new_execution();
    ASSERT_TRUE(execution);
    const sim::ExecutionResult replayed = runtime.run(again, *execution, lost_update_program);
    EXPECT_NO_THROW(replay->finish()) << info.name;
    EXPECT_EQ(replayed.outcome, failure.outcome) << info.name;
    EXPECT_EQ(replayed.property, failure.property) << info.name;
    EXPECT_EQ(replayed.message, failure.message) << info.name;
    EXPECT_EQ(replayed.format_trace(), failure.format_trace()) << info.name;
    EXPECT_EQ(again.choices(), schedule.choices) << info.name;
    std::printf("%s: lost update after %d executions, schedule %s\n",
                std::string(info.name).c_str(), executions, text.c_str());
  }
}

TEST(SimSchedules, ReplayOfAnotherProgramsScheduleEndsWithADivergenceMessage) {
  sim::Runtime runtime(with_faults());
  auto random = make_strategy("random", 3);
  RecordingStrategy recording(*random);
  const auto recorded = recording.new_execution();
  ASSERT_TRUE(recorded);
  runtime.run(recording, *recorded, lost_update_program);
  auto replay = make_replay_strategy(recording.schedule().value());
  const auto replayed = replay->new_execution();
  ASSERT_TRUE(replayed);
  const sim::ExecutionResult r = runtime.run(*replay, *replayed, contended_program);
  EXPECT_EQ(r.outcome, sim::Outcome::exception);
  EXPECT_NE(r.message.find("replay diverged at choice #"), std::string::npos) << r.message;
}

// The planted depth-2 bug: B's read must come after A's first store (one ordering constraint)
// and before A's second store (a second one). A and B also do unrelated steps.
void depth_two_program() {
  Sim::atomic<int> s{0};
  Sim::atomic<int> noise{0};
  Sim::thread a([&] {
    for (int i = 0; i < 4; ++i) noise.fetch_add(1, std::memory_order_seq_cst);
    s.store(1, std::memory_order_seq_cst);
    s.store(2, std::memory_order_seq_cst);
    for (int i = 0; i < 4; ++i) noise.fetch_add(1, std::memory_order_seq_cst);
  });
  Sim::thread b([&] {
    for (int i = 0; i < 4; ++i) noise.fetch_add(1, std::memory_order_seq_cst);
    Sim::check(s.load(std::memory_order_seq_cst) != 1, "B read A's intermediate state");
    for (int i = 0; i < 4; ++i) noise.fetch_add(1, std::memory_order_seq_cst);
  });
  a.join();
  b.join();
}

TEST(SimSchedules, PctFindsAPlantedDepthTwoBugAtLeastAsOftenAsItsGuarantee) {
  sim::Runtime runtime;
  // k: the program's length in steps, an upper bound on its scheduling decisions.
  auto round_robin = make_strategy("round-robin", 0);
  const auto once = round_robin->new_execution();
  ASSERT_TRUE(once);
  const std::uint64_t k = runtime.run(*round_robin, *once, depth_two_program).steps;
  const std::uint64_t n = 3;  // main, A, B
  const std::uint64_t seeds = 1000;
  const double guarantee = 1.0 / (static_cast<double>(n) * static_cast<double>(k));  // d = 2

  auto hits = [&](const char* name, const StrategyParams& params) {
    int found = 0;
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
      auto s = make_strategy(name, seed, params);
      const Execution execution = s->new_execution().value();
      const sim::ExecutionResult r = runtime.run(*s, execution, depth_two_program);
      EXPECT_NE(r.outcome, sim::Outcome::deadlock);
      found += r.outcome == sim::Outcome::violation;
    }
    return found;
  };
  const int pct = hits("pct", {{"d", "2"}, {"k", std::to_string(k)}});
  const int random = hits("random", {});
  std::printf(
      "depth-2 bug, n=%d, k=%d: pct d=2 found it in %d of %d seeds (guarantee %.1f), "
      "random in %d\n",
      static_cast<int>(n), static_cast<int>(k), pct, static_cast<int>(seeds),
      guarantee * static_cast<double>(seeds), random);
  EXPECT_GE(pct, static_cast<int>(std::ceil(guarantee * static_cast<double>(seeds))));
}

// Two threads each storing m times, main spawning and joining them: the executions the sim
// runtime has, counted on an independent model of its steps (spawn, store, exit, join, and a
// join that blocks first records a "blocks" step and then a "join" step once woken).
std::uint64_t model_executions(int m) {
  std::map<std::tuple<int, int, int>, std::uint64_t> memo;
  std::function<std::uint64_t(int, int, int)> count = [&](int pc, int a, int b) -> std::uint64_t {
    const auto key = std::make_tuple(pc, a, b);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    // Main's pcs: 0 spawn a, 1 spawn b, 2 join a, 3 blocked on a, 4 join b, 5 blocked on b,
    // 6 exit, 7 done. a and b: steps left (m stores and an exit).
    const bool main_blocked = (pc == 3 && a > 0) || (pc == 5 && b > 0);
    std::vector<std::tuple<int, int, int>> next;
    if (pc < 7 && !main_blocked) {
      static constexpr int kAfter[] = {1, 2, -1, 4, -1, 6, 7};
      int to = kAfter[pc];
      if (pc == 2) to = a == 0 ? 4 : 3;
      if (pc == 4) to = b == 0 ? 6 : 5;
      next.emplace_back(to, a, b);
    }
    if (pc >= 1 && a > 0) next.emplace_back(pc, a - 1, b);
    if (pc >= 2 && b > 0) next.emplace_back(pc, a, b - 1);
    std::uint64_t total = next.empty() ? 1 : 0;
    for (const auto& [p, x, y] : next) total += count(p, x, y);
    return memo[key] = total;
  };
  return count(0, m + 1, m + 1);
}

TEST(SimSchedules, ExhaustiveExploresEveryExecutionOfASmallProgramExactlyOnce) {
  sim::Runtime runtime;
  for (int m = 1; m <= 3; ++m) {
    ExhaustiveStrategy exhaustive;
    std::set<std::string> traces;
    std::set<std::vector<int>> store_orders;
    while (const auto execution = exhaustive.new_execution()) {
      std::vector<int> order;
      const sim::ExecutionResult r = runtime.run(exhaustive, *execution, [&] {
        Sim::atomic<int> x{0};
        Sim::thread a([&] {
          for (int i = 0; i < m; ++i) order.push_back((x.store(1, std::memory_order_seq_cst), 1));
        });
        Sim::thread b([&] {
          for (int i = 0; i < m; ++i) order.push_back((x.store(2, std::memory_order_seq_cst), 2));
        });
        a.join();
        b.join();
      });
      ASSERT_EQ(r.outcome, sim::Outcome::completed) << r.message;
      EXPECT_TRUE(traces.insert(r.format_trace()).second) << "an execution came twice";
      store_orders.insert(order);
    }
    EXPECT_EQ(exhaustive.executions_explored(), model_executions(m)) << "m=" << m;
    // The stores alone interleave in C(2m, m) ways, and every one of them was seen.
    const std::uint64_t binomial[] = {1, 2, 6, 20};
    EXPECT_EQ(store_orders.size(), binomial[m]) << "m=" << m;
  }
}

TEST(SimSchedules, ExhaustiveWithZeroPreemptionsStillFindsTheLostUpdateOnlyIfItNeedsNone) {
  // The lost update needs a switch away from a thread between its load and store: a
  // preemption. With a bound of 0 there is none; with 1 it is found.
  sim::Runtime runtime;
  auto explore = [&](std::uint32_t bound) {
    ExhaustiveStrategy s(bound);
    while (const auto execution = s.new_execution()) {
      if (runtime.run(s, *execution, lost_update_program).outcome == sim::Outcome::violation) {
        return true;
      }
    }
    return false;
  };
  EXPECT_FALSE(explore(0));
  EXPECT_TRUE(explore(1));
}

// Four threads taking a mutex in turn: the shape of a typical scenario's schedule.
void mutex_handoff_program() {
  Sim::mutex m;
  Sim::atomic<int> inside{0};
  auto worker = [&] {
    for (int i = 0; i < 60; ++i) {
      m.lock();
      Sim::check(inside.fetch_add(1, std::memory_order_seq_cst) == 0, "mutual exclusion");
      inside.fetch_sub(1, std::memory_order_seq_cst);
      m.unlock();
    }
  };
  Sim::thread a(worker), b(worker), c(worker), d(worker);
}

TEST(SimSchedules, RecordedSchedulesOfAFourThreadMutexHandOffRoundTripAndStayShort) {
  sim::Runtime runtime;
  for (const char* name : {"random", "pct"}) {
    auto strategy = make_strategy(name, 11);
    RecordingStrategy recording(*strategy);
    double choices = 0, chars = 0;
    for (int i = 0; i < 10; ++i) {
      const auto execution = recording.new_execution();
      ASSERT_TRUE(execution);
      ASSERT_EQ(runtime.run(recording, *execution, mutex_handoff_program).outcome,
                sim::Outcome::completed);
      const Schedule schedule = recording.schedule().value();
      const std::string text = encode(schedule);
      ASSERT_EQ(decode(text), schedule);
      choices += static_cast<double>(schedule.choices.size());
      chars += static_cast<double>(text.size());
      // Well under one character per choice; a plain list would take one or more.
      EXPECT_LT(text.size(), schedule.choices.size() * 3 / 4) << name;
    }
    std::printf("%s, 4-thread mutex hand-off: %.0f choices encode to %.0f chars on average\n", name,
                choices / 10, chars / 10);
  }
}

}  // namespace
}  // namespace schedules_sim_test
}  // namespace syncstress
