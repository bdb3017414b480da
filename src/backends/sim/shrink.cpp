#include "backends/sim/shrink.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "backends/bind.hpp"
#include "backends/sim/execution.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"

namespace syncstress::scenarios {
namespace {

/// The family parameters that only size a scenario: lowering one keeps its meaning. (Not
/// `writers`, `capacity`, `cancellations`: they change what is tested; not `max_bypass`: lowering
/// a bound makes a breach easier, not smaller.)
constexpr const char* kSizeParameters[] = {"actors",    "rounds",        "acquisitions",  "readers",
                                           "others",    "victim_rounds", "stream_rounds", "waiters",
                                           "producers", "items",         "hold_steps"};

/// Executions of the finding strategy tried on a cell with one parameter lowered, when the
/// counterexample's own decisions no longer break the property there.
constexpr std::uint64_t kSearchPerParameter = 200;

/// How many steps a preempted thread may go on for before the switch is made, when shrinking
/// tries to defer a preemption (to where the thread blocks, and hands over for free).
constexpr std::size_t kMostDeferred = 4;

/// One trial, as shrinking compares them.
struct Run {
  bool same = false;  ///< breaks the property being shrunk
  Schedule schedule;
  ExecutionVerdict verdict;
  std::vector<Decision> decisions;  ///< what was answered, thread choices by id
  std::uint64_t steps = 0;
  std::uint32_t preemptions = 0;
};

/// Runs trials in this process, on one runtime per cell.
class InProcessRunner final : public TrialRunner {
 public:
  explicit InProcessRunner(ExecutionWatch& watch) : watch_(watch) {
    // A step may ask several questions (a thread, a fault, the store a load reads): the log
    // grows to whatever an execution answers.
    entries_.resize(1 << 16);
    log_.entries = entries_.data();
    log_.capacity = entries_.size();
    log_.growing = &entries_;
  }

  AnswerLog& log() override { return log_; }

  Trial run(const Cell& cell, Strategy& strategy, const Execution& execution) override {
    Observations obs;
    const auto r = execute(cell, runtime_(cell), strategy, execution, obs, watch_);
    return Trial{sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims), r.steps,
                 r.outcome == sim::Outcome::pruned};
  }

  bool keeps_strategy_state() const override { return true; }

 private:
  ExecutionWatch& watch_;
  std::vector<LoggedAnswer> entries_;
  AnswerLog log_;
  RuntimeForCells runtime_;
};

class Shrinker {
 public:
  Shrinker(const Cell& cell, const Schedule& found, const ExecutionVerdict& broken,
           const ShrinkLimits& limits, TrialRunner& runner, ExecutionWatch& watch,
           const nlohmann::json& found_violation)
      : found_violation_(found_violation),
        original_(cell),
        cell_(&cell),
        found_(found),
        broken_(broken),
        limits_(limits),
        runner_(runner),
        watch_(watch),
        overrides_(cell.overrides),
        faults_(describes_faults(found.strategy)),
        reduced_(describes_reduced_search(found.strategy)),
        memory_(described_memory(found.strategy)),
        start_(std::chrono::steady_clock::now()) {}

  std::optional<Shrunk> run() {
    // For the supervisor's crash and stall handlers: the trial in flight.
    const ExecutionWatch::Note note = [this](nlohmann::json& n) {
      n["shrinking"] = true;
      if (!found_violation_.is_null()) n["found"] = found_violation_;
      const AnswerLog& log = runner_.log();
      if (log.complete()) n["schedule"] = encode({found_.strategy, found_.seed, log.choices()});
      note_position(n);
    };
    watch_.in_flight(&note);
    struct Clear {
      ExecutionWatch& watch;
      ~Clear() { watch.in_flight(nullptr); }
    } clear{watch_};

    auto first = attempt(decisions_of(found_));
    if (!first || !first->same) return std::nullopt;
    best_ = std::move(*first);
    original_steps_ = best_.steps;
    Shrunk out;
    out.original_steps = best_.steps;
    out.original_preemptions = best_.preemptions;

    if (limits_.bounded_search && runner_.keeps_strategy_state()) bounded_search();
    bool changed = true;
    while (changed && budget_left()) {
      changed = false;
      changed |= fewer_preemptions();
      changed |= reordered_runs();
      changed |= fewer_steps();
      if (limits_.lower_parameters) changed |= smaller_parameters();
    }

    out.schedule = best_.schedule;
    out.verdict = best_.verdict;
    out.steps = best_.steps;
    out.preemptions = best_.preemptions;
    out.overrides = overrides_;
    out.parameters_changed = overrides_ != original_.overrides;
    out.executions = executions_;
    out.seconds = elapsed();
    out.stopped_by = stopped_by_.empty() ? "done" : stopped_by_;
    return out;
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  bool budget_left() {
    if (!stopped_by_.empty()) return false;
    if (watch_.stop_requested()) {
      stopped_by_ = "interrupted";
    } else if (executions_ >= limits_.executions) {
      stopped_by_ = "executions";
    } else if (steps_ >= limits_.steps) {
      stopped_by_ = "steps";
    } else if (elapsed() >= limits_.seconds) {
      stopped_by_ = "time";
    }
    return stopped_by_.empty();
  }

  /// Runs the next execution of `strategy` on the current cell as a trial; nothing when the
  /// strategy has nothing left to try.
  std::optional<Run> trial(Strategy& strategy, bool* pruned = nullptr) {
    AnswerLog& log = runner_.log();
    MemoryModelStrategy under(strategy, memory_);  // as the counterexample ran
    LoggingStrategy logging(under, log);
    auto execution = logging.new_execution();
    if (!execution) return std::nullopt;
    // Under the counterexample's rules whoever answers (a bounded search's too): its schedule is
    // labelled with the producer that found it, and replays under that producer's rules.
    execution->faults = faults_;
    execution->reduced = reduced_;
    ++executions_;
    const Trial t = runner_.run(*cell_, logging, *execution);
    steps_ += t.steps;
    if (pruned != nullptr) *pruned = t.pruned;
    Run out;
    out.verdict = t.verdict;
    // An execution whose answers overflowed the log cannot be replayed from it.
    out.same = log.complete() && t.verdict.broken && t.verdict.claimed == broken_.claimed &&
               t.verdict.property == broken_.property;
    out.schedule = Schedule{found_.strategy, found_.seed, log.choices()};
    out.decisions = log.decisions();
    out.steps = t.steps;
    out.preemptions = log.preemptions();
    return out;
  }

  /// Runs `decisions` on the current cell; nullopt when the budget is spent.
  std::optional<Run> attempt(std::vector<Decision> decisions) {
    if (!budget_left()) return std::nullopt;
    GuidedStrategy guided(std::move(decisions), faults_, reduced_);
    return trial(guided);
  }

  /// Whether `run` is smaller than the best so far: no longer than the counterexample as found,
  /// and with fewer preemptions, or as many and fewer steps. Takes it if so.
  bool take_if_smaller(std::optional<Run>& run) {
    if (!run || !run->same || run->steps > original_steps_) return false;
    const bool smaller = run->preemptions < best_.preemptions ||
                         (run->preemptions == best_.preemptions && run->steps < best_.steps);
    if (!smaller) return false;
    best_ = std::move(*run);
    return true;
  }

  /// The exhaustive searches with preemption bounds 0, 1, ... below the best's, each allowed a
  /// twentieth of the budget and all of them half: the first execution breaking the property in
  /// no more steps, at the lowest bound that has one. The reduced search first, then the plain one:
  /// the reduction runs one order of independent steps, often not the one that reaches the breach
  /// soonest, which the step limit may need.
  void bounded_search() {
    const std::uint64_t total = limits_.executions / 2;
    const std::uint64_t each = std::max<std::uint64_t>(1, limits_.executions / 20);
    std::uint64_t spent = 0;
    for (std::uint32_t bound = 0; bound < best_.preemptions && budget_left(); ++bound) {
      DporStrategy reduced(bound);
      ExhaustiveStrategy plain(bound);
      for (Strategy* search : {static_cast<Strategy*>(&reduced), static_cast<Strategy*>(&plain)}) {
        const std::uint64_t until = std::min(total, spent + each);
        while (spent < until && budget_left()) {
          bool pruned = false;
          std::optional<Run> run = trial(*search, &pruned);
          if (!run) break;  // the search is complete
          ++spent;
          if (!pruned && take_if_smaller(run)) return;
        }
      }
    }
  }

  /// Each context switch that preempts, from the last: the preempted thread goes on instead,
  /// for the rest of that decision's place (the decisions after it answer the questions after
  /// it), or for one to kMostDeferred more steps before the switch is made (the switch is deferred,
  /// so a thread that was preempted just before it blocked hands over for free).
  bool fewer_preemptions() {
    bool any = false;
    for (std::size_t i = best_.decisions.size(); i-- > 0 && budget_left();) {
      if (i >= best_.decisions.size() || !best_.decisions[i].preempts) continue;
      auto replaced = best_.decisions;
      replaced[i].go_on = true;
      auto run = attempt(std::move(replaced));
      if (take_if_smaller(run)) {
        any = true;
        continue;
      }
      for (std::size_t deferred = 1; deferred <= kMostDeferred && budget_left(); ++deferred) {
        auto later = best_.decisions;
        Decision go_on = later[i];
        go_on.go_on = true;
        later.insert(later.begin() + static_cast<std::ptrdiff_t>(i), deferred, go_on);
        run = attempt(std::move(later));
        if (take_if_smaller(run)) {
          any = true;
          break;
        }
      }
    }
    return any;
  }

  /// Each run of one thread's decisions dropped (the thread runs later, or not at all before
  /// the breach), else swapped with the next run: a thread preempted and then resumed for a
  /// stretch of another's is often the same execution with one switch, made where one of them
  /// blocks.
  bool reordered_runs() {
    bool any = false;
    std::size_t r = 0;
    while (budget_left()) {
      const auto runs = runs_of(best_.decisions);
      if (r + 1 >= runs.size()) break;
      const auto at = [&](std::size_t i) {
        return best_.decisions.begin() + static_cast<std::ptrdiff_t>(runs[i]);
      };
      std::vector<Decision> dropped(best_.decisions.begin(), at(r));
      dropped.insert(dropped.end(), at(r + 1), best_.decisions.end());
      auto run = attempt(std::move(dropped));
      bool taken = take_if_smaller(run);
      if (!taken && r + 2 < runs.size()) {
        std::vector<Decision> swapped(best_.decisions.begin(), at(r));
        swapped.insert(swapped.end(), at(r + 1), at(r + 2));
        swapped.insert(swapped.end(), at(r), at(r + 1));
        swapped.insert(swapped.end(), at(r + 2), best_.decisions.end());
        run = attempt(std::move(swapped));
        taken = take_if_smaller(run);
      }
      if (taken) {
        any = true;
        r = 0;  // the runs changed: from the start again
      } else {
        ++r;
      }
    }
    return any;
  }

  /// Where each run of decisions that choose the same thread starts (number decisions belong
  /// to the run they are asked in), plus the end.
  static std::vector<std::size_t> runs_of(const std::vector<Decision>& decisions) {
    std::vector<std::size_t> starts;
    std::uint64_t thread = ~std::uint64_t{0};
    for (std::size_t i = 0; i < decisions.size(); ++i) {
      if (decisions[i].kind != ChoiceKind::kThread || decisions[i].value == thread) continue;
      thread = decisions[i].value;
      starts.push_back(i);
    }
    if (starts.empty() || starts.front() != 0) starts.insert(starts.begin(), 0);
    starts.push_back(decisions.size());
    return starts;
  }

  /// ddmin over the decisions: chunks from half the list down to single decisions, each
  /// dropped, else (when it holds a preemption) its switches turned into "go on".
  bool fewer_steps() {
    bool any = false;
    std::size_t chunk = std::max<std::size_t>(1, best_.decisions.size() / 2);
    while (budget_left()) {
      bool taken_at_this_size = false;
      std::size_t at = 0;
      while (at < best_.decisions.size() && budget_left()) {
        const std::size_t end = std::min(best_.decisions.size(), at + chunk);
        auto dropped = best_.decisions;
        dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(at),
                      dropped.begin() + static_cast<std::ptrdiff_t>(end));
        auto run = attempt(std::move(dropped));
        bool taken = take_if_smaller(run);
        if (!taken) {
          auto kept = best_.decisions;
          bool preempts = false;
          for (std::size_t i = at; i < end; ++i) {
            preempts |= kept[i].preempts;
            kept[i].go_on = true;
          }
          if (preempts) {
            run = attempt(std::move(kept));
            taken = take_if_smaller(run);
          }
        }
        if (taken) {
          // The list changed from `at` on: look at the same place again.
          any = taken_at_this_size = true;
        } else {
          at += chunk;
        }
      }
      if (taken_at_this_size) continue;
      if (chunk == 1) break;
      chunk /= 2;
    }
    return any;
  }

  /// Each size parameter lowered, to half then to one less, while the property still breaks.
  bool smaller_parameters() {
    bool any = false;
    const auto specs = family_param_specs(cell_->preset.family);
    for (const char* name : kSizeParameters) {
      const auto spec = std::find_if(specs.begin(), specs.end(),
                                     [&](const ParamSpec& s) { return s.name == name; });
      if (spec == specs.end()) continue;
      bool lowered = true;
      while (lowered && budget_left()) {
        lowered = false;
        const std::int64_t value = cell_->params.integer(name);
        for (const std::int64_t to : {std::max(spec->min, value / 2), value - 1}) {
          if (to < spec->min || to >= value || !budget_left()) continue;
          if (try_parameter(name, to)) {
            any = lowered = true;
            break;
          }
        }
      }
    }
    return any;
  }

  /// Runs the best decisions with parameter `name` set to `value`, else, for a counterexample
  /// a seeded strategy found, that strategy's first executions on the smaller cell; keeps the
  /// smaller cell when either gives a smaller counterexample.
  bool try_parameter(const std::string& name, std::int64_t value) {
    auto overrides = overrides_;
    overrides[name] = std::to_string(value);
    auto cell = std::make_unique<Cell>(make_cell(cell_->preset, *cell_->primitive, overrides));
    const Cell* before = cell_;
    cell_ = cell.get();
    auto run = attempt(best_.decisions);
    // The same execution as before: the parameter does not reach this primitive's body (a
    // mutex's `others` on a shared mutex); lowering it would only add noise to the command.
    const bool no_effect = run && run->steps == best_.steps && run->decisions == best_.decisions;
    bool taken = take_if_smaller(run);
    for (std::uint64_t i = 0; !taken && !no_effect && found_.seed != 0 && i < kSearchPerParameter;
         ++i) {
      if (!budget_left()) break;
      taken = search_once(found_.seed + i + 1);
    }
    if (taken) {
      owned_ = std::move(cell);  // may free the cell `before` points to: no longer needed
      overrides_ = std::move(overrides);
      return true;
    }
    cell_ = before;
    return false;
  }

  /// One execution of the strategy that found the counterexample, seeded `seed`, on the
  /// current cell; taken if smaller.
  bool search_once(std::uint64_t seed) {
    std::unique_ptr<Strategy> strategy;
    try {
      strategy = make_strategy_from_description(found_.strategy, seed);
    } catch (const StrategyError&) {
      return false;
    }
    std::optional<Run> run = trial(*strategy);
    return take_if_smaller(run);
  }

  const nlohmann::json& found_violation_;
  const Cell& original_;
  const Cell* cell_;  ///< the cell trials run on: `original_`, or one with lower parameters
  std::unique_ptr<Cell> owned_;  ///< a cell with lowered parameters, once one was taken
  Schedule found_;
  ExecutionVerdict broken_;
  ShrinkLimits limits_;
  TrialRunner& runner_;
  ExecutionWatch& watch_;
  std::map<std::string, std::string> overrides_;
  bool faults_;         ///< the counterexample's producer explored faults: so do the trials
  bool reduced_;        ///< and followed Execution::reduced: so do the trials
  MemoryModel memory_;  ///< and ran under this memory model: so do the trials
  std::chrono::steady_clock::time_point start_;
  Run best_;
  std::uint64_t original_steps_ = 0;
  std::uint64_t executions_ = 0;
  std::uint64_t steps_ = 0;  // the trials' together
  std::string stopped_by_;
};

}  // namespace

std::optional<Shrunk> shrink_violation(const Cell& cell, const Schedule& found,
                                       const ExecutionVerdict& broken, const ShrinkLimits& limits,
                                       TrialRunner& runner, ExecutionWatch& watch,
                                       const nlohmann::json& found_violation) {
  return Shrinker(cell, found, broken, limits, runner, watch, found_violation).run();
}

ShrinkNote shrink_note(const Shrunk& shrunk) {
  ShrinkNote note;
  note.executions = shrunk.executions;
  note.seconds = shrunk.seconds;
  note.stopped_by = shrunk.stopped_by;
  return note;
}

bool shrank(const Shrunk& shrunk, const Schedule& found) {
  return shrunk.parameters_changed || shrunk.schedule.choices != found.choices;
}

Cell cell_of(const Shrunk& shrunk, const Cell& cell) {
  if (!shrunk.parameters_changed) return cell;
  return make_cell(cell.preset, *cell.primitive, shrunk.overrides);
}

void report_shrunk(Violation& v, const Shrunk& shrunk, const Cell& runs,
                   std::vector<std::string> trace, std::uint64_t steps) {
  v.original_schedule = v.schedule;
  v.original_steps = v.steps;
  v.original_preemptions = shrunk.original_preemptions;
  v.original_replay_command = v.replay_command;
  v.schedule = encode(shrunk.schedule);
  v.message = shrunk.verdict.message;
  v.replay_command = runs.replay_command(v.schedule);
  v.preemptions = shrunk.preemptions;
  v.steps = steps;
  v.trace = std::move(trace);
  if (shrunk.parameters_changed) v.overrides = shrunk.overrides;
}

std::optional<Shrunk> shrink_violation(const Cell& cell, const Schedule& found,
                                       const ExecutionVerdict& broken, const ShrinkLimits& limits,
                                       ExecutionWatch& watch,
                                       const nlohmann::json& found_violation) {
  InProcessRunner runner(watch);
  return shrink_violation(cell, found, broken, limits, runner, watch, found_violation);
}

}  // namespace syncstress::scenarios
