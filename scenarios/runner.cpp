// The runner: for every (preset, primitive) cell, executions on the deterministic runtime
// until the budget is spent or a claimed property breaks; then the verdict, the metrics, and
// for a failure a counterexample that has been replayed (twice, with traces compared byte
// for byte) before it is reported.
#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <tuple>
#include <variant>

#include "scenarios/cell.hpp"
#include "scenarios/isolation.hpp"
#include "scenarios/judge.hpp"
#include "scenarios/relacy_cells.hpp"
#include "scenarios/replay_command.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/relacy_strategies.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"
#include "sim/runtime.hpp"
#include "util/known_names.hpp"
#include "util/lines.hpp"

namespace syncstress {
namespace scenarios {
namespace {

const PrimitiveInfo* find_primitive(std::string_view name) {
  for (const auto& p : all_primitives()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> primitive_names() {
  std::vector<std::string> names;
  for (const auto& p : all_primitives()) names.emplace_back(p.name);
  return names;
}

double percentile(std::vector<std::uint64_t>& v, double q) {
  if (v.empty()) return 0;
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return static_cast<double>(v[i]);
}

/// Metrics summed over a cell's executions.
class Metrics {
 public:
  void add(const Observations& obs, const Judgement& j) {
    if (j.broken) ++broken_[j.property];
    for (const auto& [k, v] : obs.unclaimed) broken_[k] += v;
    for (const auto& [k, v] : obs.numbers) numbers_[k] += v;
    if (obs.actors.empty()) return;
    double sum = 0, sum_sq = 0;
    for (const auto& a : obs.actors) {
      const auto x = static_cast<double>(a.acquisitions);
      sum += x;
      sum_sq += x * x;
      waits_.insert(waits_.end(), a.waits.begin(), a.waits.end());
      max_bypassed_ = std::max(max_bypassed_, a.max_bypassed);
      bypasses_ += a.bypassed;
    }
    if (sum_sq > 0) {
      jain_sum_ += sum * sum / (static_cast<double>(obs.actors.size()) * sum_sq);
      ++jain_count_;
    }
    fifo_violations_ += obs.fifo_violations;
  }

  nlohmann::json to_json() {
    nlohmann::json m = nlohmann::json::object();
    if (jain_count_ > 0) {
      m["jain_fairness_index"] = jain_sum_ / static_cast<double>(jain_count_);
      m["acquisitions"] = waits_.size();
      m["wait_steps"] = {{"p50", percentile(waits_, 0.50)},
                         {"p90", percentile(waits_, 0.90)},
                         {"p99", percentile(waits_, 0.99)},
                         {"max", waits_.empty() ? 0.0
                                                : static_cast<double>(*std::max_element(
                                                      waits_.begin(), waits_.end()))}};
      m["bypasses"] = bypasses_;
      m["max_bypassed_in_one_wait"] = max_bypassed_;
      m["fifo_violations"] = fifo_violations_;
    }
    nlohmann::json broken = nlohmann::json::object();
    for (const auto& [k, v] : broken_) broken[k] = v;
    m["executions_breaking"] = broken;
    for (const auto& [k, v] : numbers_) m[k] = v;
    return m;
  }

 private:
  std::map<std::string, std::uint64_t> broken_;
  std::map<std::string, double> numbers_;
  std::vector<std::uint64_t> waits_;
  std::uint64_t max_bypassed_ = 0, bypasses_ = 0, fifo_violations_ = 0;
  double jain_sum_ = 0;
  std::uint64_t jain_count_ = 0;
};

/// Everything needed to run executions of one cell.
struct Cell {
  Preset preset;
  const PrimitiveInfo* primitive = nullptr;
  Params params;
  Body body;
  std::map<std::string, std::string> overrides;
  bool on_relacy = false;  ///< run by syncstress-relacy instead of the sim runtime

  /// A runtime for this cell's options; reuse it across executions (it keeps its fibers'
  /// stacks).
  std::unique_ptr<sim::Runtime> runtime(bool trace) const {
    return std::make_unique<sim::Runtime>(runtime_options(params, trace));
  }

  sim::ExecutionResult execute(sim::Runtime& runtime, Strategy& strategy, Observations& obs) const {
    note_progress();  // for the stall watchdog of an isolated child
    auto r = runtime.run(strategy, [&] { body(obs, params); });
    note_progress();
    return r;
  }

  /// How long an isolated child may go without progress before it is a hang.
  double stall() const {
    return stall_seconds(static_cast<std::uint64_t>(params.integer("max_steps")));
  }

  std::string replay_command(const std::string& schedule) const {
    return scenarios::replay_command(preset, primitive->name, overrides, schedule);
  }
};

Cell make_cell(const Preset& preset, const PrimitiveInfo& prim,
               const std::map<std::string, std::string>& overrides) {
  Cell c;
  c.preset = preset;
  c.primitive = &prim;
  c.overrides = overrides;
  c.params = Params::resolve(sim_param_specs(preset.family), preset.parameters, overrides,
                             preset.file.string());
  auto body = bind(preset.family, prim.name, prim.claims);
  if (!body) {
    throw UsageError("scenario '" + preset.name + "' (" + std::string(to_string(preset.family)) +
                     ", " + std::string(to_string(preset.kind)) +
                     ") does not apply to primitive '" + std::string(prim.name) + "' (" +
                     std::string(to_string(prim.kind)) + ", " + std::string(to_string(prim.mode)) +
                     ")");
  }
  c.body = std::move(*body);
  return c;
}

/// Replays `schedule` twice with traces on; both must reproduce `expected` with the same
/// trace. Returns the trace, or an error text when the replay diverged.
std::variant<std::vector<std::string>, std::string> confirm(const Cell& cell,
                                                            const Schedule& schedule,
                                                            const Judgement& expected) {
  std::string first_trace;
  const auto runtime = cell.runtime(/*trace=*/true);
  for (int round = 0; round < 2; ++round) {
    ReplayStrategy replay(schedule);
    replay.new_execution();
    Observations obs;
    sim::ExecutionResult r;
    try {
      r = cell.execute(*runtime, replay, obs);
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
    if (round == 0) {
      first_trace = std::move(text);
    } else if (text != first_trace) {
      return std::string("two replays of the same schedule gave different traces");
    }
  }
  return split_lines(first_trace);
}

CellResult run_cell(const Cell& cell, const RunConfig& config) {
  CellResult out;
  out.primitive = std::string(cell.primitive->name);
  out.scenario = cell.preset.name;
  out.parameters = cell.params.as_strings();
  // --schedule may carry parameters ("pct:d=3"); without --schedule the preset's own apply.
  std::string strategy_name = cell.preset.strategy;
  StrategyParams strategy_params = cell.preset.strategy_params;
  if (config.schedule) {
    std::tie(strategy_name, strategy_params) = parse_strategy_description(*config.schedule);
  }
  const auto seed = config.seed.value_or(cell.preset.seed);
  const auto executions = config.executions.value_or(cell.preset.executions);
  const auto budget = config.time_budget_seconds.value_or(cell.preset.time_budget_seconds);
  std::unique_ptr<Strategy> strategy;
  try {
    strategy = make_strategy(strategy_name, seed, strategy_params);
  } catch (const StrategyError& e) {
    throw UsageError(e.what());
  }
  RecordingStrategy recorder(*strategy);
  out.schedule = recorder.describe();

  Metrics metrics;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool any_unclaimed_break = false;
  std::optional<Violation> evidence;  // the first unclaimed break, kept for a measured cell
  out.verdict = Verdict::pass;
  const auto runtime = cell.runtime(/*trace=*/false);
  // For the crash handler of an isolated cell: which execution, and its choices so far.
  const InFlight in_flight{[&recorder] { return encode(recorder.schedule()); }, &out.executions};
  set_in_flight(&in_flight);
  bool search_complete = false;  // the strategy had nothing left to try (exhaustive)
  while (out.executions < executions && elapsed() < budget) {
    if (!recorder.new_execution()) {
      search_complete = true;
      break;
    }
    Observations obs;
    const auto r = cell.execute(*runtime, recorder, obs);
    ++out.executions;
    out.steps += r.steps;
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
    v.replay_command = cell.replay_command(v.schedule);
    auto confirmed = confirm(cell, schedule, j);
    if (auto* err = std::get_if<std::string>(&confirmed)) {
      out.verdict = Verdict::error;
      out.error = "nondeterminism in the tool: " + *err + " (schedule " + v.schedule + ")";
      break;
    }
    v.trace = std::move(std::get<std::vector<std::string>>(confirmed));
    if (j.claimed) {
      out.verdict = Verdict::fail;
      out.violations.push_back(std::move(v));
      break;
    }
    any_unclaimed_break = true;
    evidence = std::move(v);
  }
  set_in_flight(nullptr);
  out.elapsed_seconds = elapsed();
  out.metrics = metrics.to_json();
  // Only a complete search makes a pass a proof (for its bounds); say which it was.
  out.metrics["search_complete"] = search_complete;
  out.metrics["claims_headline"] =
      (cell.primitive->claims & headline_claim(cell.preset.family)) != 0;
  if (out.verdict == Verdict::pass) {
    const bool headline = (cell.primitive->claims & headline_claim(cell.preset.family)) != 0;
    if (!headline || any_unclaimed_break) {
      out.verdict = Verdict::measured;
      if (evidence) out.violations.push_back(std::move(*evidence));
    }
  }
  return out;
}

/// The strategy a cell of `preset` runs under: --schedule's, else the preset's.
std::pair<std::string, StrategyParams> strategy_of(const Preset& preset, const RunConfig& config) {
  if (config.schedule) return parse_strategy_description(*config.schedule);
  return {preset.strategy, preset.strategy_params};
}

/// Whether a primitive runs under `family` on Relacy (syncstress-relacy list).
bool runs_on_relacy(const PrimitiveInfo& p, Family family) {
  const auto& table = relacy::supported();
  const auto it = table.find(std::string(p.name));
  return it != table.end() && it->second.count(std::string(to_string(family))) != 0;
}

/// What syncstress-relacy needs for `cell`, `search` and the run's budget.
relacy::CellSpec relacy_spec(const Cell& cell, const RelacySearch& search, std::uint64_t start,
                             std::uint64_t iterations, double timeout) {
  relacy::CellSpec spec;
  spec.family = std::string(to_string(cell.preset.family));
  spec.kind = std::string(to_string(cell.preset.kind));
  spec.primitive = std::string(cell.primitive->name);
  spec.search = search;
  spec.start = start;
  spec.iterations = iterations;
  spec.timeout_seconds = timeout;
  const auto wanted = relacy::parameter_names(spec.family);
  for (const auto& [k, v] : cell.params.as_strings()) {
    if (wanted.count(k)) spec.params[k] = v;
  }
  return spec;
}

/// A cell on Relacy: syncstress-relacy runs it; a broken property the primitive does not claim
/// makes the cell measured, as on sim.
CellResult run_relacy_cell(const Cell& cell, const RunConfig& config) {
  const auto [name, params] = strategy_of(cell.preset, config);
  RelacySearch search;
  try {
    search = make_relacy_search(name, params);
  } catch (const StrategyError& e) {
    throw UsageError(e.what());
  }
  const double budget = config.time_budget_seconds.value_or(cell.preset.time_budget_seconds);
  auto out = relacy::run_cell(relacy_spec(cell, search, config.seed.value_or(cell.preset.seed),
                                          config.executions.value_or(cell.preset.executions),
                                          2 * budget + 60));
  out.primitive = std::string(cell.primitive->name);
  out.scenario = cell.preset.name;
  out.parameters = cell.params.as_strings();
  const bool headline = (cell.primitive->claims & headline_claim(cell.preset.family)) != 0;
  out.metrics["claims_headline"] = headline;
  if (!headline && out.verdict == Verdict::fail) out.verdict = Verdict::measured;
  if (!headline && out.verdict == Verdict::pass) out.verdict = Verdict::measured;
  for (auto& v : out.violations) {
    if (v.replay_command.empty()) v.replay_command = cell.replay_command(v.schedule);
  }
  return out;
}

std::vector<const PrimitiveInfo*> primitives_for(const Preset& preset,
                                                 const std::vector<std::string>& wanted) {
  std::vector<const PrimitiveInfo*> out;
  if (!wanted.empty()) {
    const auto names = primitive_names();
    for (const auto& name : wanted) {
      require_known_name("primitive", "--primitive", name, names);
      const auto* p = find_primitive(name);
      if (p->kind != preset.kind || !applies(preset.family, p->kind, p->mode)) {
        throw UsageError("--primitive " + name + ": a " + std::string(to_string(p->mode)) + " " +
                         std::string(to_string(p->kind)) + " does not fit scenario '" +
                         preset.name + "' (" + std::string(to_string(preset.family)) + " of a " +
                         std::string(to_string(preset.kind)) + ")");
      }
      out.push_back(p);
    }
    return out;
  }
  for (const auto& p : all_primitives()) {
    if (p.kind == preset.kind && applies(preset.family, p.kind, p.mode)) out.push_back(&p);
  }
  return out;
}

}  // namespace
}  // namespace scenarios

RunOutcome run_matrix(const RunConfig& config) {
  using namespace scenarios;
  // Resolve every cell before running any, so bad input fails before work starts.
  std::vector<std::pair<Cell, bool>> cells;
  std::vector<Preset> presets;
  if (config.preset_file) {
    presets.push_back(load_preset(*config.preset_file));
  } else {
    for (const auto& name : config.scenarios) presets.push_back(find_preset(name));
  }
  if (config.schedule) {
    std::vector<std::string> names;
    for (const auto& s : strategy_catalog()) names.emplace_back(s.name);
    for (const auto& s : relacy_strategy_catalog()) names.emplace_back(s.name);
    try {
      const auto [name, params] = parse_strategy_description(*config.schedule);
      require_known_name("schedule", "--schedule", name, names);
      // Parameters are checked before any cell runs.
      if (is_relacy_strategy(name)) {
        make_relacy_search(name, params);
      } else {
        make_strategy(name, 0, params);
      }
    } catch (const StrategyError& e) {
      throw UsageError(std::string("--schedule: ") + e.what());
    }
  }
  RunOutcome outcome;
  std::vector<Cell> resolved;
  for (const auto& preset : presets) {
    const bool all = config.primitives.empty();
    std::vector<std::string> wanted;
    if (!all) {
      // With --all, --primitive narrows every preset to the named primitives that fit it.
      for (const auto& name : config.primitives) {
        const auto* p = find_primitive(name);
        if (!p || config.scenarios.size() == 1 || config.preset_file ||
            (p->kind == preset.kind && applies(preset.family, p->kind, p->mode))) {
          wanted.push_back(name);
        }
      }
      if (wanted.empty()) continue;
    }
    const bool on_relacy = is_relacy_strategy(strategy_of(preset, config).first);
    for (const auto* prim : primitives_for(preset, wanted)) {
      if (on_relacy && !runs_on_relacy(*prim, preset.family)) {
        // Named on purpose: say why it cannot run. Otherwise it is simply not in the matrix.
        if (!wanted.empty()) {
          throw UsageError("--primitive " + std::string(prim->name) + " does not run on Relacy (" +
                           std::string(to_string(preset.family)) +
                           "); the primitives that do: syncstress-relacy list");
        }
        continue;
      }
      resolved.push_back(make_cell(preset, *prim, config.overrides));
      resolved.back().on_relacy = on_relacy;
    }
  }
  if (resolved.empty()) {
    throw UsageError("no primitive fits the requested scenario(s); see `syncstress list`");
  }
  for (const auto& cell : resolved) {
    if (config.verbosity == Verbosity::verbose) {
      std::fprintf(stderr, "running %s on %s\n", cell.preset.name.c_str(),
                   std::string(cell.primitive->name).c_str());
    }
    if (cell.on_relacy) {  // syncstress-relacy is a child process already
      outcome.cells.push_back(run_relacy_cell(cell, config));
      continue;
    }
    if (!isolation_enabled()) {
      outcome.cells.push_back(run_cell(cell, config));
      continue;
    }
    CellResult identity;
    identity.primitive = std::string(cell.primitive->name);
    identity.scenario = cell.preset.name;
    identity.schedule = config.schedule.value_or(cell.preset.strategy);
    identity.parameters = cell.params.as_strings();
    const double budget = config.time_budget_seconds.value_or(cell.preset.time_budget_seconds);
    auto result = run_isolated([&] { return run_cell(cell, config); }, identity,
                               2 * budget + 60 + cell.stall(), cell.stall());
    for (auto& v : result.violations) {
      // A crash or hang note carries only the schedule string: the rest follows from it.
      if (v.replay_command.empty() && !v.schedule.empty()) {
        v.replay_command = cell.replay_command(v.schedule);
        try {
          v.seed = decode(v.schedule).seed;
        } catch (const ScheduleFormatError&) {
          // A note written by a dying process may be cut short; the replay will say so.
        }
      }
    }
    outcome.cells.push_back(std::move(result));
  }
  return outcome;
}

namespace scenarios {
namespace {

/// Replays one execution with its trace on, in this process.
ReplayOutcome replay_execution(const Cell& cell, const Schedule& schedule,
                               const std::string& schedule_text) {
  const Preset& preset = cell.preset;
  ReplayStrategy strategy(schedule);
  strategy.new_execution();
  // For the handlers of an isolated child: the trace up to a crash or a hang.
  const InFlight in_flight{nullptr, nullptr, /*trace=*/true};
  set_in_flight(&in_flight);
  struct Clear {
    ~Clear() { set_in_flight(nullptr); }
  } clear;
  Observations obs;
  sim::ExecutionResult r;
  auto diverged = [&](const std::string& what) {
    return UsageError(std::string("--schedule does not fit scenario '") + preset.name +
                      "' on primitive '" + std::string(cell.primitive->name) + "': " + what +
                      " (same scenario, primitive and --set values as the recorded run?)");
  };
  try {
    r = cell.execute(*cell.runtime(/*trace=*/true), strategy, obs);
    strategy.finish();
  } catch (const ScheduleDivergence& e) {
    throw diverged(e.what());
  }
  // The runtime turns a strategy's exception inside an execution into an outcome.
  if (r.outcome == sim::Outcome::exception && r.message.find("diverged") != std::string::npos) {
    throw diverged(r.message);
  }
  ReplayOutcome out;
  out.steps = r.steps;
  out.trace = split_lines(r.format_trace());
  const auto j = judge(r, obs, preset.family, cell.primitive->claims);
  if (j.broken) {
    Violation v;
    v.property = j.property;
    v.message = j.message;
    v.seed = schedule.seed;
    v.schedule = schedule_text;
    v.replay_command = cell.replay_command(schedule_text);
    v.trace = out.trace;
    out.violation = std::move(v);
  }
  return out;
}

}  // namespace
}  // namespace scenarios

ReplayOutcome replay(const ReplayConfig& config) {
  using namespace scenarios;
  const Preset preset =
      config.preset_file ? load_preset(*config.preset_file) : find_preset(config.scenario);
  const auto names = primitive_names();
  require_known_name("primitive", "--primitive", config.primitive, names);
  const Cell cell = make_cell(preset, *find_primitive(config.primitive), config.overrides);
  if (is_relacy_schedule_string(config.schedule)) {
    if (!runs_on_relacy(*cell.primitive, preset.family)) {
      throw UsageError("--primitive " + config.primitive + " does not run on Relacy (" +
                       std::string(to_string(preset.family)) + ")");
    }
    auto spec = relacy_spec(cell, RelacySearch{}, 0, 1, 600);
    auto out = relacy::replay(spec, config.schedule);
    if (out.violation) out.violation->replay_command = cell.replay_command(config.schedule);
    return out;
  }
  Schedule schedule;
  try {
    schedule = decode(config.schedule);
  } catch (const ScheduleFormatError& e) {
    throw UsageError(std::string("--schedule: ") + e.what());
  }
  if (isolation_enabled()) {
    Violation identity;
    identity.seed = schedule.seed;
    identity.schedule = config.schedule;
    identity.replay_command = cell.replay_command(config.schedule);
    return replay_isolated([&] { return replay_execution(cell, schedule, config.schedule); },
                           identity, 60 + 2 * cell.stall(), cell.stall());
  }
  return replay_execution(cell, schedule, config.schedule);
}

}  // namespace syncstress
