// Checkpoints of the exhaustive searches (schedules/search_checkpoint.cpp): a search stopped
// between two executions, written as JSON text and read back into a fresh strategy, goes on to
// run exactly the executions the uninterrupted search runs, with the same outcomes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace schedules_checkpoint_test {
namespace {

// Three threads over two atomics and a mutex (the third only with `third`): enough races for
// the reduction to backtrack at many depths; without the third, small enough for the plain
// search to run every interleaving in a blink. `order`: the loads' and stores' (relaxed, under
// the C++ model, gives the loads a choice of stores, searched as free reads).
void program(bool third, std::memory_order order = std::memory_order_seq_cst) {
  Sim::atomic<int> a{0}, b{0};
  Sim::mutex m;
  std::vector<Sim::thread> threads;
  threads.emplace_back([&] {
    a.store(1, order);
    m.lock();
    b.fetch_add(1);
    m.unlock();
  });
  threads.emplace_back([&] {
    const int seen = a.load(order);
    m.lock();
    b.fetch_add(seen + 1);
    m.unlock();
  });
  if (third) {
    threads.emplace_back([&] {
      b.exchange(5);
      a.fetch_add(b.load(order));
    });
  }
  for (auto& t : threads) t.join();
}

struct Run {
  std::vector<std::string> outcomes;  // per execution: outcome and its choices' count
  std::uint64_t pruned = 0;
};

/// Runs the search to its end; with `every` > 0, stops after each `every` executions, writes
/// the checkpoint as text and continues in a new strategy made by `make` from it.
/// `memory`: the model the executions run under (the program's atomics relaxed under c11).
template <class Search>
Run run(std::uint64_t every, bool third, MemoryModel memory = MemoryModel::sc) {
  sim::Options o;
  o.record_trace = false;
  sim::Runtime runtime(o);
  Run out;
  auto search = std::make_unique<Search>();
  const std::memory_order order =
      memory == MemoryModel::c11 ? std::memory_order_relaxed : std::memory_order_seq_cst;
  std::uint64_t since = 0;
  for (;;) {
    if (every != 0 && since == every) {
      const std::string text = search->checkpoint().dump();
      search = std::make_unique<Search>();
      search->resume(nlohmann::json::parse(text));
      since = 0;
    }
    MemoryModelStrategy under(*search, memory);
    const auto execution = under.new_execution();
    if (!execution) break;
    ++since;
    const auto r = runtime.run(under, *execution, [third, order] { program(third, order); });
    if (r.outcome == sim::Outcome::pruned) ++out.pruned;
    out.outcomes.push_back(std::string(sim::to_string(r.outcome)) + " " + std::to_string(r.steps));
  }
  return out;
}

TEST(SearchCheckpoint, AResumedReducedSearchRunsTheSameExecutionsAsAnUninterruptedOne) {
  const auto whole = run<DporStrategy>(0, true);
  ASSERT_GT(whole.outcomes.size(), 20u);
  for (const std::uint64_t every : {1, 2, 7, 50}) {
    const auto pieces = run<DporStrategy>(every, true);
    EXPECT_EQ(pieces.outcomes, whole.outcomes) << "checkpoint every " << every;
    EXPECT_EQ(pieces.pruned, whole.pruned) << "checkpoint every " << every;
  }
}

TEST(SearchCheckpoint, AResumedReducedSearchUnderTheCppModelRunsTheSameExecutions) {
  // Its nodes and sleepers carry what the C++ model adds (the stores read and made, partly
  // woken loads, restricted choices).
  const auto whole = run<DporStrategy>(0, true, MemoryModel::c11);
  ASSERT_GT(whole.outcomes.size(), 20u);
  for (const std::uint64_t every : {1, 3, 50}) {
    const auto pieces = run<DporStrategy>(every, true, MemoryModel::c11);
    EXPECT_EQ(pieces.outcomes, whole.outcomes) << "checkpoint every " << every;
    EXPECT_EQ(pieces.pruned, whole.pruned) << "checkpoint every " << every;
  }
}

TEST(SearchCheckpoint, AResumedPlainSearchRunsTheSameExecutionsAsAnUninterruptedOne) {
  const auto whole = run<ExhaustiveStrategy>(0, false);
  ASSERT_GT(whole.outcomes.size(), 100u);
  for (const std::uint64_t every : {1, 3, 100}) {
    EXPECT_EQ(run<ExhaustiveStrategy>(every, false).outcomes, whole.outcomes) << "every " << every;
  }
}

TEST(SearchCheckpoint, AMalformedCheckpointIsRefused) {
  DporStrategy reduced;
  EXPECT_THROW(reduced.resume(nlohmann::json::object()), std::invalid_argument);
  EXPECT_THROW(reduced.resume({{"format", 2}, {"search", "dpor"}, {"state", {{"path", 3}}}}),
               std::invalid_argument);
  ExhaustiveStrategy plain;
  EXPECT_THROW(plain.resume({{"format", 2}, {"search", "dpor"}, {"state", {}}}),
               std::invalid_argument);
  // The format before the shard prefix's choices were kept in each node.
  EXPECT_THROW(reduced.resume({{"format", 1}, {"search", "dpor"}, {"state", {}}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace schedules_checkpoint_test
}  // namespace syncstress
