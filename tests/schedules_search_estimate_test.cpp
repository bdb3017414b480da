// The estimate of a search's total executions (schedules/search_estimate.hpp), checked against
// the total each search really runs, on programs of several shapes (independent threads, a
// contended lock, shared counters, choices of which waiter a wake releases): exact at the end;
// from halfway on, within 2x, for the plain and the reduced search (the worst ratios measured
// are recorded as properties).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace schedules_search_estimate_test {
namespace {

struct Run {
  std::vector<double> estimates;  // before each execution after the first
  std::uint64_t total = 0;
  double final_estimate = 0;
};

Run search(ExhaustiveSearch& s, const std::function<void()>& program) {
  sim::Options o;
  o.record_trace = false;
  sim::Runtime runtime(o);
  Run out;
  while (const auto execution = s.new_execution()) {
    if (out.total > 0) out.estimates.push_back(s.estimated_executions());
    runtime.run(s, *execution, program);
    ++out.total;
  }
  out.final_estimate = s.estimated_executions();
  return out;
}

void independent() {
  std::vector<std::unique_ptr<Sim::atomic<int>>> cells;
  for (int t = 0; t < 3; ++t) cells.push_back(std::make_unique<Sim::atomic<int>>(0));
  std::vector<Sim::thread> threads;
  threads.reserve(3);
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      cells[static_cast<std::size_t>(t)]->store(1);
      cells[static_cast<std::size_t>(t)]->store(2);
    });
  }
  for (auto& th : threads) th.join();
}

void contended_lock() {
  Sim::mutex m;
  Sim::atomic<int> counter{0};
  auto body = [&] {
    for (int i = 0; i < 2; ++i) {
      m.lock();
      counter.store(counter.load() + 1);
      m.unlock();
    }
  };
  Sim::thread a(body);
  Sim::thread b(body);
  a.join();
  b.join();
}

void shared_counters() {
  Sim::atomic<int> x{0};
  Sim::atomic<int> y{0};
  Sim::thread a([&] {
    x.fetch_add(1);
    y.fetch_add(1);
    x.load();
  });
  Sim::thread b([&] {
    y.fetch_add(2);
    x.store(5);
  });
  Sim::thread c([&] {
    y.load();
    x.load();
  });
  a.join();
  b.join();
  c.join();
}

void wakes() {
  Sim::atomic<std::int32_t> word{0};
  auto sleeper = [&] {
    while (word.load() == 0) Sim::wait_on_address(word, 0);
  };
  Sim::thread a(sleeper);
  Sim::thread b(sleeper);
  Sim::thread c([&] {
    word.store(1);
    Sim::wake_by_address_single(word);
    Sim::wake_by_address_single(word);
  });
  a.join();
  b.join();
  c.join();
}

void expect_close(const Run& r, const std::string& what, double within) {
  ASSERT_GT(r.total, 1u) << what;
  EXPECT_DOUBLE_EQ(r.final_estimate, static_cast<double>(r.total)) << what;
  const double total = static_cast<double>(r.total);
  double worst = 1;
  for (std::size_t i = r.estimates.size() / 2; i < r.estimates.size(); ++i) {
    const double e = r.estimates[i];
    EXPECT_GE(e * within, total) << what << ": execution " << i + 2 << " estimated " << e;
    EXPECT_LE(e, total * within) << what << ": execution " << i + 2 << " estimated " << e;
    worst = std::max(worst, std::max(e / total, total / e));
  }
  ::testing::Test::RecordProperty(
      what, std::to_string(r.total) + " executions, worst ratio " + std::to_string(worst));
}

TEST(SearchEstimate, IsExactAtTheEndAndCloseToTheTotalFromHalfwayOn) {
  const std::vector<std::pair<std::string, void (*)()>> programs = {
      {"independent", independent},
      {"contended_lock", contended_lock},
      {"shared_counters", shared_counters},
      {"wakes", wakes}};
  // Independent threads are one class: the reduced searches run one execution.
  for (const std::optional<std::uint32_t> bound : {std::optional<std::uint32_t>{}, {1u}}) {
    DporStrategy reduced(bound);
    const auto r = search(reduced, independent);
    EXPECT_EQ(r.total, 1u);
    EXPECT_DOUBLE_EQ(r.final_estimate, 1.0);
  }
  for (const auto& [name, program] : std::span(programs).subspan(1)) {
    DporStrategy reduced;
    expect_close(search(reduced, program), name + "_dpor", 2);
    DporStrategy bounded(1);
    expect_close(search(bounded, program), name + "_dpor_bound1", 2);
  }
  // The plain search, on the two programs it exhausts in a few seconds.
  for (const auto& [name, program] : {programs[0], programs[1]}) {
    ExhaustiveStrategy plain;
    expect_close(search(plain, program), name + "_plain", 2);
  }
}

}  // namespace
}  // namespace schedules_search_estimate_test
}  // namespace syncstress
