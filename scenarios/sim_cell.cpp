#include "scenarios/sim_cell.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "scenarios/judge.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/outcome_json.hpp"
#include "scenarios/progress_line.hpp"
#include "scenarios/shrink.hpp"
#include "scenarios/sim_execution.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_search.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "util/lines.hpp"

namespace syncstress::scenarios {
namespace {

/// A replayed counterexample: its trace and its steps.
struct Confirmed {
  std::vector<std::string> trace;
  std::uint64_t steps = 0;
};

/// Replays `schedule` twice with traces on; both must reproduce `expected` with the same
/// trace. Returns the trace, or an error text when the replay diverged.
std::variant<Confirmed, std::string> confirm(const Cell& cell, const Schedule& schedule,
                                             const Judgement& expected, ExecutionWatch& watch) {
  std::string first_trace;
  std::uint64_t steps = 0;
  const auto runtime = make_runtime(cell, /*trace=*/true);
  for (int round = 0; round < 2; ++round) {
    ReplayStrategy replay(schedule);
    replay.new_execution();
    Observations obs;
    sim::ExecutionResult r;
    try {
      r = execute(cell, *runtime, replay, obs, watch);
      replay.finish();
    } catch (const ScheduleDivergence& e) {
      return std::string("the replay diverged from the recorded schedule: ") + e.what();
    }
    const auto j = judge(r, obs, cell.preset.family, cell.primitive->claims);
    if (j.property != expected.property || j.message != expected.message) {
      return "the replay ended differently (" + j.property + ": " + j.message +
             ") from the recorded execution (" + expected.property + ": " + expected.message + ")";
    }
    auto text = r.format_trace();
    steps = r.steps;
    if (round == 0) {
      first_trace = std::move(text);
    } else if (text != first_trace) {
      return std::string("two replays of the same schedule gave different traces");
    }
  }
  return Confirmed{split_lines(first_trace), steps};
}

/// Shrinks the confirmed violation `v` of `cell` (its schedule `found`, judged `broken`) and
/// confirms the shrunk one; `v` then reports the shrunk schedule and keeps the original beside
/// it. Returns an error text when a replay diverges.
std::optional<std::string> shrink_into(Violation& v, const Cell& cell, const Schedule& found,
                                       const Judgement& broken, bool frame_misuse,
                                       bool searched_bounds, const CellPlan& plan,
                                       ExecutionWatch& watch) {
  if (!plan.shrink) {
    v.shrink = ShrinkNote{.skipped = "--no-shrink"};
    return std::nullopt;
  }
  if (frame_misuse) {
    // A coroutine frame used after its end: other schedules of it read freed state and may
    // crash or loop. The supervisor shrinks it with each trial in a child process.
    v.shrink = ShrinkNote{.in_children = "a misused coroutine frame"};
    return std::nullopt;
  }
  ShrinkLimits limits;
  limits.seconds = plan.shrink_seconds;
  // An exhaustive cell has just searched the bounds below (search_fewer_preemptions, with a
  // larger budget than shrinking's): its shrink starts from what that found.
  limits.bounded_search = !searched_bounds;
  // Should a trial crash or hang this process, the supervisor reports `v` as it stands.
  Violation as_found = v;
  as_found.shrink = ShrinkNote{.in_children = "a trial took the cell's process down"};
  const auto shrunk = shrink_violation(cell, found, broken, limits, watch, to_json(as_found));
  if (!shrunk) {
    return std::string("re-running the schedule to shrink it did not break ") + broken.property +
           " again";
  }
  v.shrink = shrink_note(*shrunk);
  v.preemptions = shrunk->original_preemptions;
  if (!shrank(*shrunk, found)) return std::nullopt;
  const Cell runs = cell_of(*shrunk, cell);
  auto confirmed = confirm(runs, shrunk->schedule, shrunk->judgement, watch);
  if (auto* err = std::get_if<std::string>(&confirmed)) {
    return "the shrunk schedule " + encode(shrunk->schedule) + ": " + *err;
  }
  auto& c = std::get<Confirmed>(confirmed);
  report_shrunk(v, *shrunk, runs, std::move(c.trace), c.steps);
  return std::nullopt;
}

/// What a bounded re-search found: a schedule breaking the same property with fewer
/// preemptions, and its preemptions.
struct Fewer {
  Schedule schedule;
  Judgement judgement;
  std::uint32_t preemptions = 0;
};

/// Executions each bounded re-search may run (and no more than the cell's plan).
constexpr std::uint64_t kFewerPreemptionsCap = 200'000;

/// An exhaustive search found a violation whose schedule preempts `preemptions` times: searches
/// again with the bound 0, 1, ... below it (the reduced search, at most `cap` executions each,
/// while `time_left` says so) for an execution that breaks the same property, as CHESS's
/// iterative context bounding does. Returns the first found, which has the fewest preemptions
/// such a search reaches; `executions` counts what the re-searches ran.
std::optional<Fewer> search_fewer_preemptions(const Cell& cell, const Judgement& found,
                                              std::uint32_t preemptions, std::uint64_t cap,
                                              const std::function<bool()>& time_left,
                                              ExecutionWatch& watch, std::uint64_t& executions) {
  const auto runtime = make_runtime(cell, /*trace=*/false);
  for (std::uint32_t bound = 0; bound < preemptions; ++bound) {
    DporStrategy bounded(bound);
    RecordingStrategy recorder(bounded);
    for (std::uint64_t n = 0; n < cap && time_left() && recorder.new_execution(); ++n) {
      ++executions;
      Observations obs;
      const auto r = execute(cell, *runtime, recorder, obs, watch);
      if (r.outcome == sim::Outcome::pruned) continue;
      const auto j = judge(r, obs, cell.preset.family, cell.primitive->claims);
      if (j.broken && j.claimed && j.property == found.property) {
        return Fewer{recorder.schedule(), j, bounded.preemptions()};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

CellResult run_sim_cell(const Cell& cell, const SimStrategySpec& strategy, const CellPlan& plan,
                        ExecutionWatch& watch) {
  CellResult out = cell.identity();
  // An exhaustive search (null for the others), and the strategy the cell runs.
  const std::unique_ptr<ExhaustiveSearch> search = strategy.make_search(plan.shard);
  const std::unique_ptr<Strategy> sampler =
      search ? nullptr : strategy.make(plan.seed, plan.shard, plan.executions);
  Strategy* const inner = search ? search.get() : sampler.get();
  std::uint64_t planned = strategy.shard_executions(plan.shard, plan.executions);
  const bool exhaustive = search != nullptr;
  const auto reduction_so_far = [&] {
    return search ? search->reduction().value_or(ExhaustiveSearch::Reduction{})
                  : ExhaustiveSearch::Reduction{};
  };
  // The run's number of the next execution (strategies that split by execution number).
  std::uint64_t next_execution =
      strategy.splits_by_prefix() ? 0 : plan.shard.range(plan.executions).first;
  // A resumed search's counts so far: the report of the earlier run has them already.
  std::uint64_t pruned_before = 0, traces_before = 0;
  if (plan.resume) {
    // Where an earlier run stopped; the supervisor checked it against this plan.
    planned = plan.resume->executions_left;
    if (plan.resume->next_execution) {
      next_execution = *plan.resume->next_execution;
      inner->start_at(next_execution);
    } else if (search) {
      search->resume(plan.resume->search);
      pruned_before = reduction_so_far().executions_pruned;
      traces_before = reduction_so_far().distinct_traces;
    }
  }
  RecordingStrategy recorder(*inner);
  // The cell's strategy as given (a portfolio names itself, not its first member).
  out.schedule = strategy.describe();

  Metrics metrics;
  const auto start = std::chrono::steady_clock::now();
  // The cell's clock: the wall's, or for the tests a machine `slowdown` times slower's.
  auto elapsed = [&] {
    return plan.slowdown *
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool any_unclaimed_break = false;
  std::optional<Violation> evidence;  // the first unclaimed break, kept for a measured cell
  out.verdict = Verdict::pass;
  const auto runtime = make_runtime(cell, /*trace=*/false);
  // For the supervisor's crash and stall handlers: which execution, and its choices so far.
  const ExecutionWatch::Note note = [&](nlohmann::json& n) {
    n["execution"] = out.executions + 1;
    n["schedule"] = encode(recorder.schedule());
    note_position(n);
  };
  watch.in_flight(&note);
  bool search_complete = false;        // the strategy had nothing left to try (exhaustive)
  std::uint64_t fewer_executions = 0;  // run by search_fewer_preemptions
  // An exhaustive search's executions that ran to their end, by the preemptions they took.
  std::map<std::uint32_t, std::uint64_t> by_preemptions;
  out.planned_executions = planned;
  out.stopped_by = StopReason::executions;
  // On a terminal, an exhaustive search shows how far it has got (others are short enough).
  ProgressLine progress(std::string(cell.primitive->name) + " " + cell.preset.name);
  while (out.executions < planned) {
    if (exhaustive && progress.due(elapsed())) {
      const double t = elapsed();
      char text[200];
      std::snprintf(text, sizeof text,
                    "%llu executions (%llu pruned), %.0f/s, depth %llu%s, %.1f s",
                    static_cast<unsigned long long>(out.executions),
                    static_cast<unsigned long long>(reduction_so_far().executions_pruned),
                    t > 0 ? static_cast<double>(out.executions) / t : 0.0,
                    static_cast<unsigned long long>(search->depth()),
                    search->bounded() ? ", bounded" : "", t);
      progress.show(t, text);
    }
    if (watch.stop_requested()) {
      out.stopped_by = StopReason::interrupted;
      break;
    }
    if (elapsed() >= plan.time_budget_seconds) {
      out.stopped_by = StopReason::time_budget;
      break;
    }
    if (!recorder.new_execution()) {
      search_complete = true;
      out.stopped_by = StopReason::exhausted;
      break;
    }
    Observations obs;
    const auto r = execute(cell, *runtime, recorder, obs, watch);
    // Another shard's: run only to walk the top of the search tree.
    if (!recorder.execution_counts()) continue;
    ++out.executions;
    out.steps += r.steps;
    // Ended by the reduction: equivalent to an execution already run, observed nowhere.
    if (r.outcome == sim::Outcome::pruned) continue;
    if (exhaustive) ++by_preemptions[search->preemptions()];
    const auto j = judge(r, obs, cell.preset.family, cell.primitive->claims);
    metrics.add(obs, j);
    if (obs.unclaimed.count(std::string(to_string(headline_claim(cell.preset.family))))) {
      any_unclaimed_break = true;
    }
    if (!j.broken || (!j.claimed && evidence)) continue;

    const auto schedule = recorder.schedule();
    Violation v;
    v.property = j.property;
    v.message = j.message;
    v.seed = schedule.seed;
    v.schedule = encode(schedule);
    Schedule reported = schedule;
    Judgement reported_judgement = j;
    if (j.claimed && exhaustive) {
      // An exhaustive search reports the fewest preemptions it can find for the property.
      v.preemptions = search->preemptions();
      const std::uint64_t cap = std::min<std::uint64_t>(planned, kFewerPreemptionsCap);
      const auto fewer = search_fewer_preemptions(
          cell, j, *v.preemptions, cap,
          [&] { return elapsed() < plan.time_budget_seconds && !watch.stop_requested(); }, watch,
          fewer_executions);
      if (fewer) {
        v.first_found_schedule = v.schedule;
        v.first_found_preemptions = *v.preemptions;
        v.preemptions = fewer->preemptions;
        reported = fewer->schedule;
        reported_judgement = fewer->judgement;
        v.message = reported_judgement.message;
        v.seed = reported.seed;
        v.schedule = encode(reported);
      }
    }
    v.replay_command = cell.replay_command(v.schedule);
    auto confirmed = confirm(cell, reported, reported_judgement, watch);
    if (auto* err = std::get_if<std::string>(&confirmed)) {
      out.verdict = Verdict::error;
      out.error = "nondeterminism in the tool: " + *err + " (schedule " + v.schedule + ")";
      out.stopped_by = StopReason::error;
      break;
    }
    v.trace = std::move(std::get<Confirmed>(confirmed).trace);
    v.steps = std::get<Confirmed>(confirmed).steps;
    if (!j.claimed) {
      v.shrink = ShrinkNote{.skipped = "the evidence of a property the primitive does not claim"};
    } else if (auto err =
                   shrink_into(v, cell, reported, reported_judgement,
                               r.outcome == sim::Outcome::frame_misuse, exhaustive, plan, watch)) {
      out.verdict = Verdict::error;
      out.error = "nondeterminism in the tool: " + *err + " (schedule " + v.schedule + ")";
      out.stopped_by = StopReason::error;
      break;
    }
    if (j.claimed) {
      out.verdict = Verdict::fail;
      out.stopped_by = StopReason::violation;
      out.violations.push_back(std::move(v));
      break;
    }
    any_unclaimed_break = true;
    evidence = std::move(v);
  }
  watch.in_flight(nullptr);
  out.elapsed_seconds = elapsed();
  if (out.stopped_by == StopReason::time_budget || out.stopped_by == StopReason::interrupted) {
    // Where `run --resume` goes on: the search's checkpoint, or the next execution's number.
    out.position = {{"executions_left", planned - out.executions}};
    if (search) {
      out.position["search"] = search->checkpoint();
    } else {
      out.position["next_execution"] = next_execution + out.executions;
    }
  }
  out.metrics = metrics.to_json();
  // Only a complete search makes a pass a proof (for its bounds); say which it was.
  out.metrics["search_complete"] = search_complete;
  if (const auto reduction = search ? search->reduction() : std::nullopt) {
    // What the reduction did: executions it ended as redundant, and the classes of equivalent
    // schedules (Mazurkiewicz traces) the executions that ran to their end belonged to.
    out.metrics["exhaustive"] = {
        {"reduction", "dpor"},
        {"executions_pruned", reduction->executions_pruned - pruned_before},
        {"distinct_traces", reduction->distinct_traces - traces_before},
        {"distinct_traces_capped", reduction->traces_capped}};
  } else if (search) {
    out.metrics["exhaustive"] = {{"reduction", "none"}};
  }
  if (exhaustive) {
    // Element p: the executions with p preemptions.
    nlohmann::json counts = nlohmann::json::array();
    for (const auto& [p, n] : by_preemptions) {
      while (counts.size() < p) counts.push_back(0);
      counts.push_back(n);
    }
    out.metrics["exhaustive"]["executions_by_preemptions"] = counts;
  }
  if (fewer_executions != 0) {
    out.metrics["exhaustive"]["fewer_preemptions_executions"] = fewer_executions;
  }
  out.metrics["claims_headline"] = cell.claims_headline();
  if (out.verdict == Verdict::pass && (!cell.claims_headline() || any_unclaimed_break)) {
    out.verdict = Verdict::measured;
    if (evidence) out.violations.push_back(std::move(*evidence));
  }
  return out;
}

}  // namespace syncstress::scenarios
