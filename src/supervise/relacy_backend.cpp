// The Relacy backend: a cell, or the replay of one failing iteration, in the syncstress-relacy
// program (relacy_program.hpp), which is a child process already.
#include <variant>

#include "supervise/backend.hpp"
#include "supervise/relacy_program.hpp"

namespace syncstress::supervise {
namespace {

/// What syncstress-relacy needs for `cell`, `search` and the run's budget.
relacy::CellSpec relacy_spec(const scenarios::Cell& cell, const RelacySearch& search,
                             std::uint64_t start, std::uint64_t iterations, double timeout) {
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

  /// A broken property the primitive does not claim makes the cell measured, as on sim.
  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override {
    const auto& search = std::get<RelacySearch>(strategy);
    auto out = relacy::run_cell(
        relacy_spec(cell, search, plan.seed, plan.executions, 2 * plan.time_budget_seconds + 60));
    const CellResult identity = cell.identity();
    out.primitive = identity.primitive;
    out.scenario = identity.scenario;
    out.parameters = identity.parameters;
    const bool headline = cell.claims_headline();
    out.metrics["claims_headline"] = headline;
    if (!headline && out.verdict == Verdict::fail) out.verdict = Verdict::measured;
    if (!headline && out.verdict == Verdict::pass) out.verdict = Verdict::measured;
    for (auto& v : out.violations) {
      if (v.replay_command.empty()) v.replay_command = cell.replay_command(v.schedule);
    }
    return out;
  }

  ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                       const std::string& text) const override {
    auto out = relacy::replay(relacy_spec(cell, RelacySearch{}, 0, 1, 600),
                              std::get<RelacySchedule>(schedule), text);
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
