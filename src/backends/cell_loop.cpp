#include "backends/cell_loop.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "backends/progress_line.hpp"
#include "scenarios/family.hpp"
#include "scenarios/metrics.hpp"

namespace syncstress::scenarios {
namespace {

/// What the loop found besides the result's own fields.
struct Found {
  Metrics metrics;
  bool complete = false;                // the source had nothing left to try
  bool any_unclaimed_break = false;     // some trial broke the headline property, unclaimed
  std::optional<Violation> evidence{};  // the first unclaimed break, kept for a measured cell
};

/// The end of every cell: where --resume goes on, the metrics, and the claimed-or-measured rule.
void settle(CellResult& out, TrialSource& source, const LoopPlan& plan, Found& found) {
  if (out.stopped_by == StopReason::time_budget || out.stopped_by == StopReason::interrupted) {
    if (auto where = source.position(out.executions)) {
      out.position = std::move(*where);
      out.position["executions_left"] = plan.executions - out.executions;
    }
  }
  out.metrics = found.metrics.to_json();
  // Only a complete search makes a pass a proof (for its bounds); say which it was.
  out.metrics["search_complete"] = found.complete;
  source.finish(out.metrics);
  settle_claims(out, plan.claims_headline, found.any_unclaimed_break, std::move(found.evidence));
}

}  // namespace

void settle_claims(CellResult& out, bool claims_headline, bool headline_broken_unclaimed,
                   std::optional<Violation> evidence) {
  out.metrics["claims_headline"] = claims_headline;
  if (out.verdict == Verdict::pass && (!claims_headline || headline_broken_unclaimed)) {
    out.verdict = Verdict::measured;
    if (evidence) out.violations.push_back(std::move(*evidence));
  }
}

LoopPlan loop_plan(const Cell& cell, const CellPlan& plan) {
  LoopPlan loop;
  loop.executions = plan.executions;
  loop.time_budget_seconds = plan.time_budget_seconds;
  loop.clock_scale = plan.slowdown;
  loop.family = cell.preset.family;
  loop.claims_headline = cell.claims_headline();
  return loop;
}

// Long (65 lines): the one loop every backend's trials go through, with its budgets, interrupt,
// stop reason and the claimed-or-measured rule in the order they are decided per trial.
void run_cell_loop(CellResult& out, TrialSource& source, const LoopPlan& plan,
                   ExecutionWatch& watch, const ExecutionWatch::Note& note) {
  watch.in_flight(&note);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return plan.clock_scale *
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const std::function<bool()> within_budget = [&] {
    return elapsed() < plan.time_budget_seconds && !watch.stop_requested();
  };
  const std::string headline(to_string(headline_claim(plan.family)));
  Found found{Metrics(plan.wait_percentiles)};
  out.verdict = Verdict::pass;
  out.planned_executions = plan.executions;
  out.stopped_by = StopReason::executions;
  ProgressLine progress(out.primitive + " " + out.scenario);
  while (out.executions < plan.executions) {
    const double t = elapsed();
    if (progress.due(t)) {
      if (const auto text = source.progress(out.executions, t)) progress.show(t, *text);
    }
    if (watch.stop_requested()) {
      out.stopped_by = StopReason::interrupted;
      break;
    }
    if (t >= plan.time_budget_seconds) {
      out.stopped_by = StopReason::time_budget;
      break;
    }
    if (!source.next()) {
      found.complete = true;
      out.stopped_by = StopReason::exhausted;
      break;
    }
    const CellTrial trial = source.run();
    if (!trial.counts) continue;
    ++out.executions;
    out.steps += trial.steps;
    if (!trial.judged) continue;
    const ExecutionVerdict& j = trial.verdict;
    found.metrics.add(trial.observations, j);
    if (trial.observations.unclaimed.count(headline) != 0) found.any_unclaimed_break = true;
    if (!j.broken || (!j.claimed && found.evidence)) continue;
    auto violation = source.violation(trial, within_budget);
    if (auto* error = std::get_if<std::string>(&violation)) {
      out.verdict = Verdict::error;
      out.error = std::move(*error);
      out.stopped_by = StopReason::error;
      break;
    }
    auto& v = std::get<Violation>(violation);
    if (j.claimed) {
      out.verdict = Verdict::fail;
      out.stopped_by = StopReason::violation;
      out.violations.push_back(std::move(v));
      break;
    }
    found.any_unclaimed_break = true;
    found.evidence = std::move(v);
  }
  out.elapsed_seconds = elapsed();
  watch.in_flight(nullptr);
  settle(out, source, plan, found);
}

}  // namespace syncstress::scenarios
