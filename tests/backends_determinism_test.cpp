// Determinism at scale: for every case below, each of many seeds is run twice with the trace
// on through the code a sim cell runs (make_cell, the strategy from its spec behind a
// RecordingStrategy, make_runtime, execute, sim_execution_verdict), and the two runs must agree
// byte for byte on each execution's schedule string, its full trace, and what it amounted to
// (outcome, verdict, observations). A third run with the trace off, as a cell searches, must choose
// and end the same. Each recorded schedule string is then decoded and replayed as a cell
// confirms a failure (a ReplayStrategy on a kept runtime) and, for a share of them, through
// the path of `syncstress replay` (parse_schedule_string, replay_sim_execution), and must give
// the same trace and verdict again; and the last execution of each seed is regenerated from
// the strategy description and execution seed its string carries, which must give the same
// string.
//
// The runs differ in everything that is not a scheduling choice: the first reuses one runtime
// across all seeds (as a cell does), the second another whose trace storage is handed back
// after each execution (as a long search does), the third records no trace, the confirming
// replay has a runtime of its own, `syncstress replay`'s a fresh one per execution, and the
// process's heap is in a different state for each. So an order, a name or a number that
// depends on an address, on leftover state of an earlier execution, on heap reuse or on
// anything else outside the Strategy shows up as a difference; the failure names the case, the
// seed, the schedule and the first differing line.
//
// The cases cover every family, every kind, sync and async primitives, the random and pct
// strategies and each fault injection of the runtime (spurious wake-ups, spurious CAS
// failures, posted work taken out of order), on primitives that pass and on ones whose bug
// ends executions early (so the teardown of unfinished fibers and frames is exercised too).
// They run in this process, not in a cell's child: a primitive whose bug can corrupt memory
// or loop without a scheduling point (mutex_part7, shared_mutex_part9 under cancellation)
// would take the test down, so the failing cases use bugs the runtime catches cleanly.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "backends/bind.hpp"
#include "backends/sim/execution.hpp"
#include "backends/sim/replay.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/execution_watch.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"
#include "schedules/strategy_spec.hpp"
#include "sim/runtime.hpp"
#include "tests/scenario_lookup.hpp"

namespace syncstress::scenarios {
namespace backends_determinism_test {
namespace {

using testing::preset;
using testing::primitive;

// 10,000 seeds per case in an optimized build (about a minute in all on 2 cores). Under
// ASan+UBSan (and in an unoptimized build) an execution is five to ten times slower, so those
// builds check the first 200 seeds of the same cases, to keep CI's ASan suite short: the same
// code paths under the sanitizers, fewer schedules (the Release run covers the rest).
#if defined(SYNCSTRESS_ASAN) || !defined(NDEBUG)
constexpr std::uint64_t kSeeds = 200;
#else
constexpr std::uint64_t kSeeds = 10'000;
#endif
// Executions per seed, from one strategy: the first uses the seed itself, the second a seed
// derived from it (and, for pct, the step estimate adapted by the first), as in a cell.
constexpr int kExecutionsPerSeed = 2;
// The replay of `syncstress replay` builds a fresh runtime (new fiber stacks) each time, which
// costs more than the execution: it replays every execution of every tenth seed, and the first
// thousand executions that broke a property (what a report tells users to replay; in some
// cases most executions break). Every execution is also replayed as a cell confirms a
// failure, on a runtime kept across seeds.
constexpr std::uint64_t kFreshReplayEvery = 10;
constexpr std::uint64_t kFreshReplaysOfBreaks = 1'000;

struct Case {
  const char* name;  ///< the test's name
  const char* preset;
  const char* primitive;
  const char* schedule;                          ///< as --schedule takes it
  std::map<std::string, std::string> overrides;  ///< as --set takes them
  bool breaks;  ///< some executions end in a violation (the primitive's known bug)
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.preset << " / " << c.primitive << " / " << c.schedule;
  for (const auto& [key, value] : c.overrides) *os << " --set " << key << '=' << value;
}

const Case kCases[] = {
    // safety: async mutex on the thread pool, pct, posted work taken out of order.
    {"MutexSafetyAsyncPooledPct",
     "mutex-safety",
     "mutex_part7_pooled",
     "pct:d=3",
     {{"delay_posted_work", "true"}},
     false},
    // safety: async shared mutex (CAS loops) on the pool, every fault the runtime injects.
    {"SharedMutexSafetyAsyncPooledPctAllFaults",
     "shared-mutex-safety",
     "shared_mutex_part9_pooled",
     "pct:d=3",
     {{"delay_posted_work", "true"}, {"spurious_cas_failures", "true"}},
     false},
    // safety: async auto-reset event, random.
    {"EventSafetyAsyncRandom", "event-safety", "auto_reset_event_part5", "random", {}, false},
    // safety: sync manual-reset event, pct.
    {"EventSafetySyncPct", "event-safety", "platform_manual_reset_event", "pct:d=3", {}, false},
    // starvation: part 8 bypasses its writer without bound (executions end in the violation).
    {"SharedMutexStarvationPart8Random",
     "shared-mutex-starvation",
     "shared_mutex_part8",
     "random",
     {},
     true},
    // cancellation: async_unfair_mutex's waiter is destroyed while registered for a signal
    // (frame misuse ends executions; measured). Not mutex_part7: its unlink bug can corrupt
    // memory for real, which a cell survives in its child process but this test would not.
    {"CancellationDuringResumeUnfairRandom",
     "cancellation-during-resume",
     "async_unfair_mutex",
     "random",
     {},
     true},
    // cancellation: the corrected semaphore on the pool, pct, posted work out of order.
    {"SemaphoreCancellationHandoffPooledPct",
     "semaphore-cancellation",
     "semaphore_part6_pooled_cancel_handoff",
     "pct:d=3",
     {{"delay_posted_work", "true"}},
     false},
    // fairness: sync FIFO mutex, pct.
    {"MutexFairnessSyncPct", "mutex-fairness", "ticket_mutex", "pct:d=3", {}, false},
    // fairness: sync CAS semaphore with spurious CAS failures, random.
    {"SemaphoreFairnessSyncRandomCasFailures",
     "semaphore-fairness",
     "wait_on_address_semaphore",
     "random",
     {{"spurious_cas_failures", "true"}},
     false},
    // spurious wake-ups: cooperative_semaphore lets a spuriously woken waiter in (measured).
    {"SemaphoreSpuriousWakeupsCooperativeRandom",
     "semaphore-spurious-wakeups",
     "cooperative_semaphore",
     "random",
     {},
     true},
    // spurious wake-ups: sync mutex, pct.
    {"MutexSpuriousWakeupsSyncPct", "mutex-spurious-wakeups", "event_mutex", "pct:d=3", {}, false},
    // progress: lock-free work queue (CAS push), pct, spurious CAS failures.
    {"WorkQueueProgressPctCasFailures",
     "work-queue-progress",
     "work_queue_wait_on_address",
     "pct:d=3",
     {{"spurious_cas_failures", "true"}},
     false},
    // safety: sync CAS semaphore (claims to tolerate spurious wake-ups) under a strategy that
    // explores faults, so the cell's offers of weak-CAS failures and spurious wake-ups are
    // taken: the replay must know from the schedule string alone that it asks for them.
    {"SemaphoreSafetyPctExploringFaults",
     "semaphore-safety",
     "wait_on_address_semaphore",
     "pct:d=3,faults=on",
     {},
     false},
    // safety: the portfolio, as every sim preset runs by default (random, then pct:d=2).
    {"SharedMutexSafetyPortfolio",
     "shared-mutex-safety",
     "ticket_shared_mutex",
     "portfolio",
     {},
     false},
    // spurious wake-ups: work queue on an auto-reset event, random.
    {"WorkQueueSpuriousWakeupsRandom",
     "work-queue-spurious-wakeups",
     "work_queue_auto_reset_event",
     "random",
     {},
     false},
};

/// Everything one execution produced that may depend on its scheduling choices only.
struct Record {
  std::string schedule;  ///< the encoded schedule string
  std::string trace;     ///< ExecutionResult::format_trace()
  std::string summary;   ///< outcome, verdict and observations, one line each
  bool broken = false;   ///< some property broke, claimed or not
  std::string property;  ///< which
};

std::string summarize(const sim::ExecutionResult& r, const ExecutionVerdict& j,
                      const Observations& obs) {
  Metrics metrics;
  metrics.add(obs, j);
  std::ostringstream s;
  s << "outcome " << sim::to_string(r.outcome) << " property '" << r.property << "' steps "
    << r.steps << " abandoned " << r.abandoned_fibers << "\nmessage " << r.message
    << "\njudged broken " << j.broken << " claimed " << j.claimed << " property '" << j.property
    << "' message " << j.message << "\nobserved " << metrics.to_json().dump() << '\n';
  return s.str();
}

/// The executions of one seed: a fresh strategy seeded with `seed`, recorded, on `runtime`.
/// With `recycle`, each result's trace storage goes back to the runtime for the next execution.
std::vector<Record> run_seed(const Cell& cell, const SimStrategySpec& spec, std::uint64_t seed,
                             sim::Runtime& runtime, bool recycle) {
  const auto inner = spec.make(seed);
  RecordingStrategy recorder(*inner);
  std::vector<Record> out;
  for (int i = 0; i < kExecutionsPerSeed; ++i) {
    const auto execution = recorder.new_execution();
    if (!execution) throw std::logic_error("a random strategy ran out");
    Observations obs;
    auto r = execute(cell, runtime, recorder, *execution, obs, no_watch());
    const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
    out.push_back({encode(recorder.schedule().value()), r.format_trace(), summarize(r, j, obs),
                   j.broken, j.property});
    if (recycle) runtime.recycle(std::move(r));
  }
  return out;
}

/// The execution `schedule` (printed as `text`) replayed as a cell confirms a failure: a
/// ReplayStrategy on `runtime`, which has the trace on.
Record replay_in_place(const Cell& cell, const Schedule& schedule, const std::string& text,
                       sim::Runtime& runtime) {
  ReplayStrategy replay(schedule);
  const Execution execution = *replay.new_execution();
  Observations obs;
  const auto r = execute(cell, runtime, replay, execution, obs, no_watch());
  replay.finish();
  const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
  return {text, r.format_trace(), summarize(r, j, obs), j.broken, j.property};
}

/// Where two texts first differ, line by line, for the failure message (the texts themselves
/// can be thousands of lines: they are not printed).
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (std::size_t line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(sa, la));
    const bool more_b = static_cast<bool>(std::getline(sb, lb));
    if (!more_a && !more_b) return "no line differs";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ":\n  first:  " + (more_a ? la : "<end>") +
             "\n  second: " + (more_b ? lb : "<end>");
    }
  }
}

/// The trace lines of a replay, joined as format_trace() writes them.
std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& line : lines) {
    s += line;
    s += '\n';
  }
  return s;
}

class Determinism : public ::testing::TestWithParam<Case> {};

TEST_P(Determinism, EverySeedGivesByteIdenticalSchedulesAndTracesTwiceOnReplayAndOnRegeneration) {
  const Case& c = GetParam();
  const Cell cell = make_cell(preset(c.preset), primitive(c.primitive), c.overrides);
  const auto spec = std::get<SimStrategySpec>(parse_strategy_spec(c.schedule));
  const auto first_runtime = make_runtime(cell, /*trace=*/true);
  const auto second_runtime = make_runtime(cell, /*trace=*/true);
  const auto untraced_runtime = make_runtime(cell, /*trace=*/false);  // as a cell's search runs
  const auto replay_runtime = make_runtime(cell, /*trace=*/true);

  std::uint64_t executions = 0, broken = 0, choices = 0, fresh_replays = 0;
  std::set<std::string> distinct_schedules;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const auto first = run_seed(cell, spec, seed, *first_runtime, /*recycle=*/false);
    const auto second = run_seed(cell, spec, seed, *second_runtime, /*recycle=*/true);
    const auto untraced = run_seed(cell, spec, seed, *untraced_runtime, /*recycle=*/false);
    for (std::size_t i = 0; i < first.size(); ++i) {
      const Record& a = first[i];
      const Record& b = second[i];
      const std::string where = "seed " + std::to_string(seed) + ", execution " +
                                std::to_string(i + 1) + ", schedule " + a.schedule;
      ASSERT_EQ(a.schedule, b.schedule)
          << "seed " << seed << ", execution " << i + 1 << ": two runs chose differently";
      ASSERT_TRUE(a.trace == b.trace)
          << where << ": two runs traced differently at " << first_difference(a.trace, b.trace);
      ASSERT_TRUE(a.summary == b.summary)
          << where << ": two runs ended differently at " << first_difference(a.summary, b.summary);
      // A cell searches with the trace off and confirms a failure by replaying it with the
      // trace on: recording the trace must not change the execution.
      const Record& c = untraced[i];
      ASSERT_EQ(a.schedule, c.schedule) << where << ": the run without a trace chose differently";
      ASSERT_TRUE(a.summary == c.summary)
          << where << ": the run without a trace ended differently at "
          << first_difference(a.summary, c.summary);

      // The replays, from the schedule string alone: as a cell confirms a failure, and as
      // `syncstress replay --schedule` does.
      const auto recorded = std::get<Schedule>(parse_schedule_string(a.schedule));
      Record confirmed;
      try {
        confirmed = replay_in_place(cell, recorded, a.schedule, *replay_runtime);
      } catch (const std::exception& e) {
        FAIL() << where << ": the confirming replay diverged: " << e.what();
      }
      ASSERT_TRUE(a.trace == confirmed.trace)
          << where << ": the confirming replay traced differently at "
          << first_difference(a.trace, confirmed.trace);
      ASSERT_TRUE(a.summary == confirmed.summary)
          << where << ": the confirming replay ended differently at "
          << first_difference(a.summary, confirmed.summary);
      if (seed % kFreshReplayEvery == 0 || (a.broken && broken < kFreshReplaysOfBreaks)) {
        ReplayOutcome replayed;
        try {
          replayed = replay_sim_execution(cell, recorded, a.schedule, no_watch());
        } catch (const std::exception& e) {
          FAIL() << where << ": the replay diverged: " << e.what();
        }
        const std::string replay_trace = joined(replayed.trace);
        ASSERT_TRUE(a.trace == replay_trace) << where << ": the replay traced differently at "
                                             << first_difference(a.trace, replay_trace);
        ASSERT_EQ(a.broken, replayed.violation.has_value()) << where;
        if (a.broken) {
          ASSERT_EQ(a.property, replayed.violation->property) << where;
        }
        ++fresh_replays;
      }

      ++executions;
      broken += a.broken ? 1 : 0;
      choices += recorded.choices.size();
      distinct_schedules.insert(a.schedule);
    }
    // The last execution again, from the description and seed its string carries: what a
    // report's seed promises (Execution::seed).
    const auto recorded = std::get<Schedule>(parse_schedule_string(first.back().schedule));
    const auto regenerating = make_strategy_from_description(recorded.strategy, recorded.seed);
    RecordingStrategy recorder(*regenerating);
    const auto execution = recorder.new_execution();
    ASSERT_TRUE(execution);
    Observations obs;
    execute(cell, *first_runtime, recorder, *execution, obs, no_watch());
    ASSERT_EQ(encode(recorder.schedule().value()), first.back().schedule)
        << "seed " << seed << ": regenerating the last execution from its description '"
        << recorded.strategy << "' and seed " << recorded.seed << " chose differently";
  }

  RecordProperty("executions", std::to_string(executions));
  RecordProperty("executions_broken", std::to_string(broken));
  RecordProperty("distinct_schedules", std::to_string(distinct_schedules.size()));
  RecordProperty("choices", std::to_string(choices));
  RecordProperty("fresh_replays", std::to_string(fresh_replays));
  // Not a vacuous comparison: the seeds lead to different executions, and where the primitive
  // has a known bug, to executions that end in it (and in the teardown of what was running).
  EXPECT_GT(distinct_schedules.size(), executions / 2) << "the seeds barely change the schedule";
  if (c.breaks) {
    EXPECT_GT(broken, 0u) << "no execution met the primitive's known bug";
  } else {
    EXPECT_EQ(broken, 0u) << "a primitive expected to pass broke a property";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, Determinism, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace backends_determinism_test
}  // namespace syncstress::scenarios
