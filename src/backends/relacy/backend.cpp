// The Relacy backend: a cell, or the replay of one failing iteration, in the syncstress-relacy
// program (program.hpp), which is a child process already.
#include "backends/backend.hpp"

#include <optional>
#include <utility>
#include <variant>

#include "backends/cell_loop.hpp"
#include "backends/relacy/program.hpp"

namespace syncstress::supervise {
namespace {

/// What syncstress-relacy needs for `cell` and `search`, with no budget yet.
relacy::CellSpec relacy_spec(const scenarios::Cell& cell, const RelacySearch& search) {
  relacy::CellSpec spec;
  spec.family = std::string(to_string(cell.preset.family));
  spec.kind = std::string(to_string(cell.preset.kind));
  spec.primitive = std::string(cell.primitive->name);
  spec.search = search;
  const auto wanted = relacy::parameter_names(cell.preset.family);
  for (const auto& [k, v] : cell.params.as_strings()) {
    if (wanted.count(k)) spec.params[k] = v;
  }
  return spec;
}

/// The same with the plan's budget: the seed is the random search's first iteration.
relacy::CellSpec planned_spec(const scenarios::Cell& cell, const StrategySpec& strategy,
                              const scenarios::CellPlan& plan) {
  auto spec = relacy_spec(cell, std::get<RelacySearch>(strategy));
  // A shard runs its range of the iterations (schedules/shard.hpp); a resumed cell the rest.
  const auto [first, end] = plan.shard.range(plan.executions);
  spec.start = plan.seed + first;
  spec.iterations = end - first;
  if (plan.resume) {
    spec.start = plan.seed + plan.resume->next_execution.value_or(first);
    spec.iterations = plan.resume->executions_left;
  }
  // The child stops itself at the budget, as an iteration begins; the deadline after which it
  // is killed is only the backstop.
  spec.time_budget_seconds = plan.time_budget_seconds;
  spec.timeout_seconds = 2 * plan.time_budget_seconds + 60;
  return spec;
}

class RelacyBackend final : public Backend {
 public:
  std::string_view platform() const override { return "Relacy"; }
  std::string_view catalogue() const override { return "syncstress-relacy list"; }

  /// What `syncstress-relacy list` says (the first call runs it).
  bool runs(const PrimitiveInfo& primitive, scenarios::Family family) const override {
    const auto& table = relacy::supported();
    const auto it = table.find(std::string(primitive.name));
    return it != table.end() && it->second.count(std::string(to_string(family))) != 0;
  }

  /// Asks syncstress-relacy, which knows the ranges its compiled thread budget takes.
  void check(const scenarios::Cell& cell, const StrategySpec& strategy,
             const scenarios::CellPlan& plan) const override {
    relacy::check_cell(planned_spec(cell, strategy, plan));
  }

  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override {
    const auto spec = planned_spec(cell, strategy, plan);
    auto out = relacy::run_cell(spec);
    const auto& search = std::get<RelacySearch>(strategy);
    if (search.takes_seed() &&
        (out.stopped_by == StopReason::time_budget || out.stopped_by == StopReason::interrupted)) {
      // Where `run --resume` goes on: the next iteration, numbered from the seed.
      out.position = {{"next_execution", spec.start - plan.seed + out.executions},
                      {"executions_left", spec.iterations - out.executions}};
    }
    const CellResult identity = cell.identity();
    out.primitive = identity.primitive;
    out.scenario = identity.scenario;
    out.parameters = identity.parameters;
    // Relacy stops at its first break: where the primitive does not claim the headline
    // property, that break is the evidence of a measured cell, as on sim.
    const bool headline = cell.claims_headline();
    const bool unclaimed_break = !headline && out.verdict == Verdict::fail;
    std::optional<Violation> evidence;
    if (unclaimed_break) {
      if (!out.violations.empty()) evidence = std::move(out.violations.front());
      out.violations.clear();
      out.verdict = Verdict::pass;
    }
    scenarios::settle_claims(out, headline, unclaimed_break, std::move(evidence));
    for (auto& v : out.violations) {
      if (v.replay_command.empty()) v.replay_command = cell.replay_command(v.schedule);
    }
    return out;
  }

  ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                       const std::string& text) const override {
    auto spec = relacy_spec(cell, RelacySearch{});
    spec.iterations = 1;
    spec.timeout_seconds = 600;
    auto out = relacy::replay(spec, std::get<RelacySchedule>(schedule), text);
    if (out.violation) out.violation->replay_command = cell.replay_command(text);
    return out;
  }
};

}  // namespace

const Backend& relacy_backend() {
  static const RelacyBackend backend;
  return backend;
}

}  // namespace syncstress::supervise
