#include "backends/sim/cell.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "backends/cell_loop.hpp"
#include "backends/sim/execution.hpp"
#include "backends/sim/shrink.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/outcome_json.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_search.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "util/concat.hpp"
#include "util/lines.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {
namespace {

/// A replayed counterexample: its trace and its steps.
struct Confirmed {
  std::vector<std::string> trace;
  std::uint64_t steps = 0;
};

/// Why two traces of one schedule differ: their first differing step, and what makes a
/// primitive's own steps differ between runs.
std::string first_difference(const std::string& first, const std::string& second) {
  const auto a = split_lines(first);
  const auto b = split_lines(second);
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  const auto line = [](const std::vector<std::string>& lines, std::size_t n) {
    return n < lines.size() ? "'" + lines[n] + "'" : std::string("the end of the trace");
  };
  return concat("two replays of the same schedule gave different traces, first at line ",
                std::to_string(i + 1), ": ", line(a, i), ", then ", line(b, i),
                ". A primitive whose steps depend on what sim does not control differs so: an "
                "address kept in an integer narrower than 64 bits or computed with (keep it in "
                "an atomic pointer or a 64-bit integer), the clock, a thread of its own "
                "(primitives/README.md, \"What sim controls\")");
}

/// Replays `schedule` twice with traces on; both must reproduce `expected` with the same
/// trace. Returns the trace, or an error text when the replay diverged.
std::variant<Confirmed, std::string> confirm(const Cell& cell, const Schedule& schedule,
                                             const ExecutionVerdict& expected,
                                             ExecutionWatch& watch) {
  std::string first_trace;
  std::uint64_t steps = 0;
  const auto runtime = make_runtime(cell, /*trace=*/true);
  for (int round = 0; round < 2; ++round) {
    ReplayStrategy replay(schedule);
    const Execution execution = *replay.new_execution();
    Observations obs;
    sim::ExecutionResult r;
    try {
      r = execute(cell, *runtime, replay, execution, obs, watch);
      replay.finish();
    } catch (const ScheduleDivergence& e) {
      return std::string("the replay diverged from the recorded schedule: ") + e.what();
    }
    const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
    if (j.property != expected.property || j.message != expected.message) {
      return "the replay ended differently (" + j.property + ": " + j.message +
             ") from the recorded execution (" + expected.property + ": " + expected.message + ")";
    }
    auto text = r.format_trace();
    steps = r.steps;
    if (round == 0) {
      first_trace = std::move(text);
    } else if (text != first_trace) {
      return first_difference(first_trace, text);
    }
  }
  return Confirmed{split_lines(first_trace), steps};
}

/// Shrinks the confirmed violation `v` of `cell` (its schedule `found`, judged `broken`) and
/// confirms the shrunk one; `v` then reports the shrunk schedule and keeps the original beside
/// it. Returns an error text when a replay diverges.
std::optional<std::string> shrink_into(Violation& v, const Cell& cell, const Schedule& found,
                                       const ExecutionVerdict& broken, bool frame_misuse,
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
  auto confirmed = confirm(runs, shrunk->schedule, shrunk->verdict, watch);
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
  ExecutionVerdict verdict;
  std::uint32_t preemptions = 0;
};

/// Executions each bounded re-search may run (and no more than the cell's plan).
constexpr std::uint64_t kFewerPreemptionsCap = 200'000;

/// An exhaustive search found a violation whose schedule preempts `preemptions` times: searches
/// again with the bound 0, 1, ... below it (the reduced search, at most `cap` executions each,
/// under `memory`, while `time_left` says so) for an execution that breaks the same property, as
/// CHESS's iterative context bounding does. Returns the first found, which has the fewest
/// preemptions such a search reaches; `executions` counts what the re-searches ran.
std::optional<Fewer> search_fewer_preemptions(const Cell& cell, const ExecutionVerdict& found,
                                              std::uint32_t preemptions, std::uint64_t cap,
                                              MemoryModel memory,
                                              const std::function<bool()>& time_left,
                                              ExecutionWatch& watch, std::uint64_t& executions) {
  const auto runtime = make_runtime(cell, /*trace=*/false);
  for (std::uint32_t bound = 0; bound < preemptions; ++bound) {
    DporStrategy bounded(bound);
    MemoryModelStrategy under(bounded, memory);
    RecordingStrategy recorder(under);
    for (std::uint64_t n = 0; n < cap && time_left(); ++n) {
      const auto execution = recorder.new_execution();
      if (!execution) break;
      ++executions;
      Observations obs;
      const auto r = execute(cell, *runtime, recorder, *execution, obs, watch);
      if (r.outcome == sim::Outcome::pruned) continue;
      const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
      if (j.broken && j.claimed && j.property == found.property) {
        return Fewer{recorder.schedule().value(), j, bounded.preemptions()};
      }
    }
  }
  return std::nullopt;
}

/// The sim backend's trials: executions of the cell under the strategy, recorded so that a
/// broken property is replayed, re-searched with fewer preemptions and shrunk before it is
/// reported.
class SimTrials final : public TrialSource {
 public:
  SimTrials(const Cell& cell, const SimStrategySpec& strategy, const CellPlan& plan,
            ExecutionWatch& watch)
      : cell_(cell),
        plan_(plan),
        watch_(watch),
        search_(strategy.make_search(plan.shard)),
        sampler_(search_ ? nullptr
                         : strategy.make_from(plan.seed, first_execution(strategy, plan))),
        memory_(search_ ? static_cast<Strategy&>(*search_) : *sampler_, strategy.memory_model()),
        recorder_(memory_),
        runtime_(make_runtime(cell, /*trace=*/false)),
        next_execution_(first_execution(strategy, plan)),
        planned_(plan.resume ? plan.resume->executions_left
                             : strategy.shard_executions(plan.shard, plan.executions)) {
    if (plan.resume && !plan.resume->next_execution && search_) {
      // Where an earlier search stopped; the supervisor checked it against this plan.
      search_->resume(plan.resume->search);
      // The report of the earlier run has the counts so far.
      reduction_before_ = reduction_so_far();
    }
  }

  /// The executions this run plans: the shard's, or what a resumed run has left.
  std::uint64_t planned() const { return planned_; }

  /// What the supervisor's crash and stall handlers report: which execution, its choices so
  /// far, and the position.
  ExecutionWatch::Note note(const CellResult& out) {
    return [this, &out](nlohmann::json& n) {
      n["execution"] = out.executions + 1;
      if (const auto schedule = recorder_.schedule()) n["schedule"] = encode(*schedule);
      note_position(n);
    };
  }

  bool next() override {
    execution_ = recorder_.new_execution();
    return execution_.has_value();
  }

  CellTrial run() override {
    CellTrial t;
    last_ = execute(cell_, *runtime_, recorder_, *execution_, t.observations, watch_);
    if (search_ && search_->left_checkpoint_path()) {
      // Refused as --resume's input (exit 2), before the cell counts anything of it.
      throw PositionRefused(
          concat("did not lead this cell where it stopped: the first execution "
                 "resumed from it left its path (",
                 *search_->left_checkpoint_path(),
                 "): it is edited, another cell's, or from another build of the "
                 "primitive"));
    }
    t.counts = execution_->counts;
    t.steps = last_.steps;
    t.judged = last_.outcome != sim::Outcome::pruned;
    if (!t.counts || !t.judged) return t;
    if (search_) ++by_preemptions_[search_->preemptions()];
    t.verdict =
        sim_execution_verdict(last_, t.observations, cell_.preset.family, cell_.primitive->claims);
    return t;
  }

  std::variant<Violation, std::string> violation(
      const CellTrial& trial, const std::function<bool()>& within_budget) override {
    const ExecutionVerdict& j = trial.verdict;
    const Schedule schedule = recorder_.schedule().value();
    Violation v;
    v.property = j.property;
    v.message = j.message;
    v.seed = schedule.seed;
    v.schedule = encode(schedule);
    Schedule reported = schedule;
    ExecutionVerdict reported_verdict = j;
    if (j.claimed && search_) {
      // An exhaustive search reports the fewest preemptions it can find for the property.
      v.preemptions = search_->preemptions();
      const std::uint64_t cap = std::min<std::uint64_t>(planned_, kFewerPreemptionsCap);
      const auto fewer = search_fewer_preemptions(cell_, j, *v.preemptions, cap, memory_.memory(),
                                                  within_budget, watch_, fewer_executions_);
      if (fewer) {
        v.first_found_schedule = v.schedule;
        v.first_found_preemptions = *v.preemptions;
        v.preemptions = fewer->preemptions;
        reported = fewer->schedule;
        reported_verdict = fewer->verdict;
        v.message = reported_verdict.message;
        v.seed = reported.seed;
        v.schedule = encode(reported);
      }
    }
    v.replay_command = cell_.replay_command(v.schedule);
    const auto error = [&](const std::string& what) {
      return "nondeterminism in the tool: " + what + " (schedule " + v.schedule + ")";
    };
    auto confirmed = confirm(cell_, reported, reported_verdict, watch_);
    if (auto* err = std::get_if<std::string>(&confirmed)) return error(*err);
    v.trace = std::move(std::get<Confirmed>(confirmed).trace);
    v.steps = std::get<Confirmed>(confirmed).steps;
    if (!j.claimed) {
      v.shrink = ShrinkNote{.skipped = "the evidence of a property the primitive does not claim"};
    } else if (auto err = shrink_into(v, cell_, reported, reported_verdict,
                                      last_.outcome == sim::Outcome::frame_misuse,
                                      search_ != nullptr, plan_, watch_)) {
      return error(*err);
    }
    return v;
  }

  std::optional<std::string> progress(std::uint64_t executions, double seconds) override {
    // Only an exhaustive search runs long enough to show how far it has got.
    if (!search_) return std::nullopt;
    char text[240];
    std::snprintf(text, sizeof text, "%llu executions (%llu pruned), %.0f/s, depth %llu%s, %.1f s",
                  static_cast<unsigned long long>(executions),
                  static_cast<unsigned long long>(reduction_so_far().executions_pruned),
                  seconds > 0 ? static_cast<double>(executions) / seconds : 0.0,
                  static_cast<unsigned long long>(search_->depth()),
                  search_->bounded() ? ", bounded" : "", seconds);
    std::string line = text;
    if (plan_.shard.whole()) {
      // The search's own count (pruned executions included) against its estimate of the total.
      const double estimate = search_->estimated_executions();
      const double done = static_cast<double>(search_->executions_explored());
      std::snprintf(text, sizeof text, ", about %.0f in all (%.0f%% done)", estimate,
                    estimate > 0 ? 100.0 * done / estimate : 0.0);
      line += text;
    }
    return line;
  }

  std::optional<nlohmann::json> position(std::uint64_t executions) override {
    // The search's checkpoint, or the next execution's number.
    if (search_) return nlohmann::json{{"search", search_->checkpoint()}};
    return nlohmann::json{{"next_execution", next_execution_ + executions}};
  }

  void finish(nlohmann::json& metrics) override {
    if (!search_) return;
    auto& exhaustive = metrics[scenarios::kSearchMetricsKey];
    if (const auto reduction = search_->reduction()) {
      // What the reduction did: executions it ended as redundant, and the classes of equivalent
      // schedules (Mazurkiewicz traces) the executions that ran to their end belonged to.
      exhaustive = {
          {"reduction", "dpor"},
          {"executions_pruned", reduction->executions_pruned - reduction_before_.executions_pruned},
          {"distinct_traces", reduction->distinct_traces - reduction_before_.distinct_traces},
          {"distinct_traces_capped", reduction->traces_capped}};
    } else {
      exhaustive = {{"reduction", "none"}};
    }
    // Element p: the executions that ran to their end with p preemptions.
    nlohmann::json counts = nlohmann::json::array();
    for (const auto& [p, n] : by_preemptions_) {
      while (counts.size() < p) counts.push_back(0);
      counts.push_back(n);
    }
    exhaustive["executions_by_preemptions"] = counts;
    if (fewer_executions_ != 0) exhaustive["fewer_preemptions_executions"] = fewer_executions_;
    if (plan_.shard.whole()) {
      exhaustive["estimated_executions"] =
          static_cast<std::uint64_t>(std::llround(search_->estimated_executions()));
    }
  }

 private:
  /// The run's number of this run's first execution, for a strategy that splits by execution
  /// number: the shard's first, or where an earlier run stopped (the supervisor checked it).
  static std::uint64_t first_execution(const SimStrategySpec& strategy, const CellPlan& plan) {
    if (plan.resume && plan.resume->next_execution) return *plan.resume->next_execution;
    return strategy.splits_by_prefix() ? 0 : plan.shard.range(plan.executions).first;
  }

  ExhaustiveSearch::Reduction reduction_so_far() const {
    return search_ ? search_->reduction().value_or(ExhaustiveSearch::Reduction{})
                   : ExhaustiveSearch::Reduction{};
  }

  const Cell& cell_;
  const CellPlan& plan_;
  ExecutionWatch& watch_;
  const std::unique_ptr<ExhaustiveSearch> search_;  // an exhaustive search, else null
  const std::unique_ptr<Strategy> sampler_;         // any other strategy, else null
  MemoryModelStrategy memory_;  // the search or the sampler, under the strategy's memory model
  RecordingStrategy recorder_;
  std::optional<Execution> execution_;  // the one in progress (or the last)
  const std::unique_ptr<sim::Runtime> runtime_;
  std::uint64_t next_execution_;  // the run's number of this run's first execution (seeded)
  std::uint64_t planned_;
  ExhaustiveSearch::Reduction reduction_before_;  // a resumed search's counts before it
  std::map<std::uint32_t, std::uint64_t> by_preemptions_;
  std::uint64_t fewer_executions_ = 0;  // run by search_fewer_preemptions
  sim::ExecutionResult last_;
};

}  // namespace

CellResult run_sim_cell(const Cell& cell, const SimStrategySpec& strategy, const CellPlan& plan,
                        ExecutionWatch& watch) {
  CellResult out = cell.identity();
  // The cell's strategy as given (a portfolio names itself, not its first member).
  out.schedule = strategy.describe();
  SimTrials trials(cell, strategy, plan, watch);
  LoopPlan loop = loop_plan(cell, plan);
  loop.executions = trials.planned();
  run_cell_loop(out, trials, loop, watch, trials.note(out));
  return out;
}

}  // namespace syncstress::scenarios
