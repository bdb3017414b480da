#include "run/matrix.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "backends/backend.hpp"
#include "backends/bind.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/exhaustive_search.hpp"
#include "util/concat.hpp"
#include "util/interrupt.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace {

/// A cell with everything it runs with.
struct PlannedCell {
  scenarios::Cell cell;
  StrategySpec strategy;
  const Backend* backend = nullptr;
  scenarios::CellPlan plan;
  /// Run at its preset's model-checking size: its violations name every --set value it ran with.
  bool model_checking_size = false;
};

/// Whether `strategy` is a model-checking session: the sim's exhaustive search.
bool model_checks(const StrategySpec& strategy) {
  const auto* sim = std::get_if<SimStrategySpec>(&strategy);
  return sim != nullptr && sim->exhaustive() != nullptr;
}

bool fits(const scenarios::Preset& preset, const PrimitiveInfo& p) {
  return p.kind == preset.kind && scenarios::applies(preset.family, p);
}

/// The primitives a tool's own family runs on, for messages: "a, b".
std::string bound_to(scenarios::Family family) {
  std::string names;
  for (const auto& p : all_primitives()) {
    if (scenarios::applies(family, p)) names += concat(names.empty() ? "" : ", ", p.name);
  }
  return names.empty() ? std::string("none") : names;
}

/// The primitives a cell of `preset` is made for: each of `named` (which must fit), else
/// every primitive of the catalogue that fits.
std::vector<const PrimitiveInfo*> primitives_for(const scenarios::Preset& preset,
                                                 const std::vector<const PrimitiveInfo*>& named) {
  std::vector<const PrimitiveInfo*> out;
  for (const auto* p : named) {
    if (p->kind == preset.kind && scenarios::is_tool_family(preset.family) && !fits(preset, *p)) {
      throw UsageError(concat("--primitive ", p->name, ": scenario '", preset.name,
                              "' is of the family '", to_string(preset.family),
                              "', which this tool registered for its own primitives; it runs on ",
                              bound_to(preset.family), ". Name one of those, or leave out ",
                              "--primitive"));
    }
    if (!fits(preset, *p)) {
      throw UsageError(concat("--primitive ", p->name, ": a ", to_string(p->mode), " ",
                              to_string(p->kind), " does not fit scenario '", preset.name, "' (",
                              to_string(preset.family), " of a ", to_string(preset.kind), ")"));
    }
    out.push_back(p);
  }
  if (!named.empty()) return out;
  for (const auto& p : all_primitives()) {
    if (fits(preset, p)) out.push_back(&p);
  }
  return out;
}

/// SYNCSTRESS_TEST_SLOWDOWN=F: the tests' stand-in for a machine F times slower (the cell loop
/// of sim and stress cells; Relacy keeps its own clock).
double test_slowdown() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process sets the environment.
  const char* v = std::getenv("SYNCSTRESS_TEST_SLOWDOWN");
  if (v == nullptr) return 1;
  char* end = nullptr;
  const double f = std::strtod(v, &end);
  return end != v && *end == '\0' && f >= 1 && f <= 1000 ? f : 1;
}

/// The schedules under which some primitive of `preset` runs, but those of `except`: for
/// messages.
std::string schedules_for(const scenarios::Preset& preset, const Backend& except) {
  std::string out;
  for (const auto& info : all_strategies()) {
    const Backend& backend = backend_for(make_strategy_spec(info.name, {}));
    if (&backend == &except) continue;
    for (const auto& p : all_primitives()) {
      if (fits(preset, p) && backend.runs(p, preset.family)) {
        out += concat(out.empty() ? "" : ", ", info.name);
        break;
      }
    }
  }
  return out;
}

scenarios::CellPlan plan_of(const scenarios::Preset& preset, const RunConfig& config,
                            const StrategySpec& strategy) {
  // Trials on real threads are a soak by nature: their time budget is a plan, not a search
  // cut short (no trial is a proof, however many run).
  const bool stress = std::holds_alternative<StressSearch>(strategy);
  const scenarios::PresetSchedule& own = preset.schedule;
  scenarios::CellPlan plan{config.seed.value_or(own.seed),
                           config.executions.value_or(own.executions),
                           config.time_budget_seconds.value_or(own.time_budget_seconds),
                           config.soak || own.soak || stress,
                           test_slowdown(),
                           config.shard};
  plan.shrink = config.shrink;
  plan.shrink_seconds = config.shrink_seconds;
  return plan;
}

/// Refuses --shard for a strategy that does not split into shards.
void check_shardable(const StrategySpec& strategy, const RunConfig& config) {
  if (config.shard.whole() || splitting_of(strategy) != Splitting::none) return;
  throw UsageError(
      concat("--shard ", config.shard.describe(), ": ", describe(strategy),
             " does not split into shards; the schedules that do: ", shardable_strategy_names()));
}

/// How a position names the shard that wrote it: empty for a run that was not split.
std::string shard_label(const Shard& shard) { return shard.whole() ? "" : shard.describe(); }

/// --resume refusing the position of `cell` in `report` for `what`.
UsageError position_refused(const std::string& report, const std::string& cell,
                            const std::string& what) {
  return UsageError(concat("--resume ", report, ": the position of cell ", cell, " ", what,
                           "; resume the report as run wrote it, or run the cell again"));
}

/// Refuses a position that contradicts itself or the plan the earlier run's settings give its
/// cell now: --resume goes on only from where that run could have stopped.
void check_resume(const scenarios::ResumePoint& r, const scenarios::CellPlan& plan,
                  const StrategySpec& strategy, const std::string& report,
                  const std::string& cell) {
  const auto refuse = [&](const std::string& what) { throw position_refused(report, cell, what); };
  const auto n = [](std::uint64_t v) { return std::to_string(v); };
  if (r.shard != shard_label(plan.shard)) {
    refuse(concat("was written by ", r.shard.empty() ? "an unsharded run" : "shard " + r.shard,
                  ", but config.shard says ",
                  plan.shard.whole() ? "the run was not split" : plan.shard.describe()));
  }
  if (r.executions_left == 0) {
    refuse("has executions_left 0: a cell stopped with nothing left to run keeps no position");
  }
  const Splitting splitting = splitting_of(strategy);
  const bool by_prefix = splitting == Splitting::by_prefix;
  const bool numbered = splitting == Splitting::by_number;
  if (splitting == Splitting::none) {
    refuse(concat("is for ", describe(strategy), ", which never stops with one"));
  }
  if (by_prefix && (r.search.is_null() || r.next_execution)) {
    refuse("must hold the exhaustive search's checkpoint (\"search\") and no next_execution");
  }
  if (numbered && (!r.next_execution || !r.search.is_null())) {
    refuse(concat("must hold next_execution and no search checkpoint (", describe(strategy), ")"));
  }
  const std::uint64_t first = plan.shard.range(plan.executions).first;
  const std::uint64_t planned = shard_executions(strategy, plan.shard, plan.executions);
  if (r.planned != planned) {
    refuse(concat("has planned_executions ", n(r.planned), ", but its run's settings plan ",
                  n(planned)));
  }
  if (r.executions_left > planned || r.executions_done != planned - r.executions_left) {
    refuse(concat("has executions ", n(r.executions_done), " and executions_left ",
                  n(r.executions_left), ", which do not add up to its planned_executions ",
                  n(planned)));
  }
  if (by_prefix) {
    // The checkpoint, read by the search this cell would resume, before anything runs.
    const auto* sim = std::get_if<SimStrategySpec>(&strategy);
    const auto search = sim != nullptr ? sim->make_search(plan.shard) : nullptr;
    if (search == nullptr) refuse(concat("is for a search, and ", describe(strategy), " is none"));
    try {
      search->resume(r.search);
    } catch (const CheckpointError& e) {
      refuse(concat("has a search checkpoint run could not have written: its field ", e.what()));
    }
    // Every execution started counts, the pruned ones too; a shard's search also starts those
    // of its prefix that end at once, which the cell does not count.
    const std::uint64_t explored = search->executions_explored();
    if (plan.shard.whole() ? explored != r.executions_done : explored < r.executions_done) {
      refuse(concat("has a search checkpoint whose state.explored, ", n(explored),
                    ", does not match its executions, ", n(r.executions_done),
                    plan.shard.whole() ? "" : " (a shard's search starts at least as many)"));
    }
  }
  if (r.next_execution) {
    if (*r.next_execution != first + r.executions_done) {
      refuse(concat("has next_execution ", n(*r.next_execution), ", but after ",
                    n(r.executions_done), " executions from ", n(first), " the next is ",
                    n(first + r.executions_done)));
    }
  }
}

/// Runs one planned cell and settles its verdict from how it stopped.
CellResult run_cell(const PlannedCell& p) {
  CellResult result = p.backend->run(p.cell, p.strategy, p.plan);
  if (!result.position.is_null()) {
    result.position["cell"] = position_owner(result);
    if (!p.plan.shard.whole()) result.position["shard"] = shard_label(p.plan.shard);
  }
  if (result.planned_executions == 0) result.planned_executions = p.plan.executions;
  if (p.model_checking_size) {
    // The size is not the preset's own: replays from the report must be told it.
    for (Violation& v : result.violations) {
      if (v.overrides.empty()) v.overrides = p.cell.overrides;
    }
  }
  if (interrupt::requested() != 0 && result.verdict == Verdict::error) {
    // A child that the signal reached first (syncstress-relacy before its handler is in).
    result.stopped_by = StopReason::interrupted;
  }
  settle_verdict(result, p.plan.soak);
  return result;
}

/// Relacy's random search runs the iterations from the seed on, numbered as 64-bit integers: a
/// run that would pass 2^64-1 wraps around (and Relacy divides by zero when it lands on 0).
void check_relacy_iterations(const StrategySpec& strategy, const scenarios::CellPlan& plan) {
  const auto* search = std::get_if<RelacySearch>(&strategy);
  constexpr std::uint64_t kLast = std::numeric_limits<std::uint64_t>::max();
  // Relacy numbers iterations from 1; the seed is the first, and the last is seed + executions - 1.
  if (search == nullptr || !search->takes_seed() || plan.seed <= kLast - (plan.executions - 1)) {
    return;
  }
  throw UsageError(concat("--seed ", std::to_string(plan.seed), " with ",
                          std::to_string(plan.executions),
                          " executions: relacy-random runs Relacy's iterations from the seed on, "
                          "and these would pass its last, 2^64-1; give a --seed of at most ",
                          std::to_string(kLast - (plan.executions - 1))));
}

/// Refuses --seed for a strategy that takes none. A preset's own seed is simply unused there;
/// an explicit one is a mistake to point out.
void check_seed_taken(const scenarios::Preset& preset, const RunConfig& config,
                      const StrategySpec& strategy) {
  if (!config.seed || takes_seed(strategy)) return;
  throw UsageError(concat("--seed ", std::to_string(*config.seed), ": ", describe(strategy),
                          config.strategy ? "" : concat(" (scenario '", preset.name, "')"),
                          " takes no seed: it runs the same executions whatever the seed. "
                          "The schedules that take one: ",
                          seeded_strategy_names()));
}

/// --resume: gives `plan` the position the earlier run left the cell of `primitive` in
/// `preset` at, checked against the plan; false for a cell that run finished, which runs no
/// more.
bool take_resume_position(const scenarios::Preset& preset, const PrimitiveInfo& primitive,
                          const RunConfig& config, const StrategySpec& strategy,
                          scenarios::CellPlan& plan) {
  if (config.resume.empty()) return true;
  const auto it =
      config.resume.find({std::string(primitive.name), preset.name, describe(strategy)});
  if (it == config.resume.end()) return true;
  if (!it->second) return false;
  check_resume(*it->second, plan, strategy, config.resume_from,
               concat(primitive.name, " x ", preset.name));
  plan.resume = it->second;
  return true;
}

/// --resume: refuses a cell of the earlier report that is not a cell of the run its config
/// describes (another primitive, scenario or schedule than the run's own would make).
void check_resumed_cells_planned(const RunConfig& config, const std::vector<PlannedCell>& planned) {
  std::set<CellName> names;
  for (const auto& p : planned) {
    names.insert({std::string(p.cell.primitive->name), p.cell.preset.name, describe(p.strategy)});
  }
  for (const auto& [name, position] : config.resume) {
    if (!position || names.contains(name)) continue;
    throw UsageError(concat("--resume ", config.resume_from, ": cell ", name.primitive, " x ",
                            name.scenario, " (", name.schedule,
                            ") is not a cell of the run its config describes; resume the report "
                            "as run wrote it, or run the cells again"));
  }
}

/// Checks the cells of `preset` on `backend` by `first`: they share their parameters and
/// budget. Refuses them, naming the schedules of the other platforms, when it cannot run.
void check_cells_run(const scenarios::Preset& preset, const Backend& backend,
                     const StrategySpec& strategy, const PlannedCell& first) {
  try {
    backend.check(first.cell, strategy, first.plan);
  } catch (const UsageError& e) {
    throw UsageError(
        concat("scenario '", preset.name, "' does not run on ", backend.platform(),
               " as configured: ", e.what(),
               ". Change what it names (--set, --seed, --executions), or use a schedule of "
               "another platform: ",
               schedules_for(preset, backend)));
  }
}

/// The cells of `preset` the run has, added to `planned`: each primitive of `named` (or of the
/// catalogue) that runs there, less those `--resume` finished already, every cell checked
/// before any runs. Throws UsageError for a named primitive or a preset that cannot run.
void plan_preset(const scenarios::Preset& given, const std::vector<const PrimitiveInfo*>& named,
                 const RunConfig& config, std::vector<PlannedCell>& planned) {
  const bool each_named_must_fit = config.presets.size() == 1;
  const StrategySpec strategy = strategy_for(given, config.strategy);
  // A model-checking session runs the preset at its model-checking size, beneath --set.
  const bool model_checking_size = model_checks(strategy) && given.model_checking.has_value();
  const auto [preset, overrides] = model_checking_size
                                       ? scenarios::at_model_checking_size(given, config.overrides)
                                       : scenarios::ModelCheckingRun{given, config.overrides};
  check_seed_taken(preset, config, strategy);
  check_shardable(strategy, config);
  const Backend& backend = backend_for(strategy);
  const std::size_t planned_before = planned.size();
  std::size_t finished_before = 0;  // --resume: cells the earlier run finished
  check_relacy_iterations(strategy, plan_of(preset, config, strategy));
  for (const auto* primitive : primitives_for(preset, named)) {
    if (!backend.runs(*primitive, preset.family)) {
      // Named on purpose: say why it cannot run. Otherwise it is simply not in the matrix.
      if (!named.empty()) {
        throw UsageError(concat("--primitive ", primitive->name, " does not run on ",
                                backend.platform(), " (", to_string(preset.family),
                                "); the primitives that do: ", backend.catalogue()));
      }
      continue;
    }
    auto plan = plan_of(preset, config, strategy);
    if (!take_resume_position(preset, *primitive, config, strategy, plan)) {
      ++finished_before;
      continue;
    }
    planned.push_back({scenarios::make_cell(preset, *primitive, overrides), strategy, &backend,
                       std::move(plan), model_checking_size});
  }
  if (planned.size() == planned_before) {
    // --all leaves out what does not run here; one scenario asked for says where it runs.
    if (!each_named_must_fit || finished_before != 0) return;
    throw UsageError(concat("scenario '", preset.name, "' does not run on ", backend.platform(),
                            ": no primitive runs its ", to_string(preset.family),
                            " family there (see ", backend.catalogue(),
                            "). Its schedules: ", schedules_for(preset, backend)));
  }
  check_cells_run(preset, backend, strategy, planned[planned_before]);
}

/// `preset` as `config` runs it: under a --schedule of its cross check's platform and not of its
/// own schedule's (a memory-model preset's Relacy run, named by a relacy-* schedule), with the
/// cross check's seed and budgets.
scenarios::Preset as_scheduled(const scenarios::Preset& preset, const RunConfig& config) {
  if (!config.strategy || !preset.cross_check) return preset;
  scenarios::Preset cross = scenarios::cross_checked(preset);
  const Backend& named = backend_for(*config.strategy);
  if (&named == &backend_for(strategy_for(cross)) && &named != &backend_for(strategy_for(preset))) {
    return cross;
  }
  return preset;
}

}  // namespace

StrategySpec strategy_for(const scenarios::Preset& preset,
                          const std::optional<StrategySpec>& given) {
  StrategySpec out;
  try {
    out = given ? *given
                : make_strategy_spec(preset.schedule.strategy, preset.schedule.strategy_params);
  } catch (const StrategyError& e) {
    throw UsageError(e.what());
  }
  auto* sim = std::get_if<SimStrategySpec>(&out);
  // sc stays unnamed: a schedule string that names no model replays under sc.
  if (sim != nullptr && !sim->memory && preset.memory != MemoryModel::sc) {
    sim->memory = preset.memory;
  }
  return out;
}

std::vector<scenarios::Preset> preset_runs(const RunConfig& config) {
  std::vector<scenarios::Preset> out;
  for (const auto& preset : config.presets) {
    out.push_back(as_scheduled(preset, config));
    if (config.cross_checks && !config.strategy && preset.cross_check) {
      out.push_back(scenarios::cross_checked(preset));
    }
  }
  return out;
}

RunOutcome run_matrix(const RunConfig& config) {
  // Resolve every cell before running any, so bad input fails before work starts.
  std::vector<PlannedCell> planned;
  // With one preset a named primitive must fit it; --all narrows every preset to those that do.
  const bool each_named_must_fit = config.presets.size() == 1;
  for (const auto& preset : preset_runs(config)) {
    std::vector<const PrimitiveInfo*> named;
    for (const auto* p : config.primitives) {
      if (each_named_must_fit || fits(preset, *p)) named.push_back(p);
    }
    if (!config.primitives.empty() && named.empty()) continue;
    plan_preset(preset, named, config, planned);
  }
  if (planned.empty() && config.resume.empty()) {
    throw UsageError("no primitive fits the requested scenario(s); see `syncstress list`");
  }
  check_resumed_cells_planned(config, planned);
  RunOutcome outcome;
  for (const auto& p : planned) {
    if (interrupt::requested() != 0) break;
    if (config.verbosity == Verbosity::verbose) {
      std::fprintf(stderr, "running %s on %s\n", p.cell.preset.name.c_str(),
                   std::string(p.cell.primitive->name).c_str());
    }
    try {
      outcome.cells.push_back(run_cell(p));
    } catch (const PositionRefused& e) {
      // A resumed search whose first execution left the position's path.
      throw position_refused(config.resume_from,
                             concat(p.cell.primitive->name, " x ", p.cell.preset.name), e.what());
    }
  }
  outcome.interrupted_by = interrupt::requested();
  outcome.cells_planned = planned.size();
  return outcome;
}

}  // namespace syncstress::supervise
