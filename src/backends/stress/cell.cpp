#include "backends/stress/cell.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "backends/bind.hpp"
#include "backends/cell_loop.hpp"
#include "backends/stress/on_real.hpp"
#include "backends/stress/wait_histogram.hpp"
#include "platform/real_stress.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/replay_command.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/rng.hpp"
#include "util/concat.hpp"

namespace syncstress::scenarios {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The family's thread parameter for `threads` actors in all (the others the family adds,
/// such as a canceller and a releaser, counted out). A tool's own family: its "actors", if it
/// has a parameter of that name (docs/your-primitive.md).
std::pair<std::string, std::int64_t> thread_parameter(const Cell& cell, std::int64_t threads) {
  if (is_tool_family(cell.preset.family)) return {"actors", threads};
  switch (cell.preset.family) {
    case Family::safety:
    case Family::fairness:
      return {"actors", threads};
    case Family::spurious_wakeups:
    case Family::progress:
      if (cell.preset.kind == Kind::work_queue) return {"producers", threads - 1};
      return {"actors", threads};
    case Family::starvation:
      if (cell.preset.kind == Kind::shared_mutex) {
        return {"readers", threads - cell.params.integer("writers")};
      }
      return {"others", threads - 1};
    case Family::cancellation:
      return {"waiters", threads - 2};
  }
  return {"actors", threads};
}

/// The repeat counts a trial multiplies by the scale. A tool's own family: its "rounds", if it
/// has a parameter of that name.
std::vector<std::string> repeat_parameters(Family family) {
  if (is_tool_family(family)) return {"rounds"};
  switch (family) {
    case Family::safety:
      return {"rounds"};
    case Family::fairness:
      return {"acquisitions"};
    case Family::starvation:
      return {"stream_rounds", "victim_rounds"};
    case Family::spurious_wakeups:
    case Family::progress:
      return {"rounds", "items"};
    case Family::cancellation:
      return {};
  }
  return {};
}

/// The verdict on a trial, from its record: a claimed property the family's checks saw, or a
/// check of the primitive's own (Real::check) that failed.
ExecutionVerdict stress_trial_verdict(const Observations& obs, const Real::failures& failures,
                                      Family family, std::uint32_t claims) {
  if (!obs.finding && failures.count == 0) return {};
  return violation_verdict(obs, family, claims, "check",
                           failures.first ? failures.first->what : std::string("a check failed"));
}

/// Each thread's last operations, one line per thread: "thread 2 (tid 812): ... <- fetch_add
/// at primitives/ticket_mutex.hpp:22".
std::vector<std::string> describe_threads(const std::vector<real_stress::ThreadOps>& threads) {
  std::vector<std::string> lines;
  for (const auto& t : threads) {
    // Without history=ring a thread keeps its last operation and no count.
    std::string line =
        t.operations != 0
            ? concat("thread ", std::to_string(t.slot), " (tid ", std::to_string(t.os_thread), ", ",
                     std::to_string(t.operations), " operations):")
            : concat("thread ", std::to_string(t.slot), " (tid ", std::to_string(t.os_thread),
                     "), last operation:");
    for (std::size_t i = 0; i < t.recent.size(); ++i) {
      const auto& op = t.recent[i];
      line += concat(i == 0 ? " " : " -> ", op.op, " at ", op.file, ":", std::to_string(op.line));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

/// The wall-clock measurements of a stress cell, summed over its trials.
struct WallMetrics {
  WaitHistogram waits, victim_waits, other_waits;
  std::vector<std::uint64_t> per_actor;  // acquisitions, summed over trials
  std::uint64_t acquisitions = 0;
  double items = 0;
  double busy_seconds = 0;  // the trials' own time, without the harness's between them

  void add(const Observations& obs, double seconds) {
    busy_seconds += seconds;
    if (per_actor.size() < obs.actors.size()) per_actor.resize(obs.actors.size());
    bool any_victim = false;
    for (const auto& a : obs.actors) any_victim = any_victim || a.victim;
    for (std::size_t i = 0; i < obs.actors.size(); ++i) {
      const auto& a = obs.actors[i];
      per_actor[i] += a.acquisitions;
      acquisitions += a.acquisitions;
      for (const auto w : a.waits) {
        waits.add(w);
        if (any_victim) (a.victim ? victim_waits : other_waits).add(w);
      }
    }
    if (const auto it = obs.numbers.find("items_processed"); it != obs.numbers.end()) {
      items += it->second;
    }
  }

  void write(nlohmann::json& m, Kind kind) const {
    auto& s = m["stress"];
    if (acquisitions > 0) {
      s["acquisitions_per_second"] =
          busy_seconds > 0 ? static_cast<double>(acquisitions) / busy_seconds : 0.0;
      s["wait_ns"] = waits.to_json();
      s["acquisitions_per_actor"] = per_actor;
      double sum = 0, sum_sq = 0;
      for (const auto x : per_actor) {
        sum += static_cast<double>(x);
        sum_sq += static_cast<double>(x) * static_cast<double>(x);
      }
      if (sum_sq > 0) {
        s["jain_fairness_index"] = sum * sum / (static_cast<double>(per_actor.size()) * sum_sq);
      }
      if (victim_waits.count() > 0) {
        // A shared mutex's victims are its writers; a mutex's or semaphore's, the lone actor.
        const bool rw = kind == Kind::shared_mutex;
        s[rw ? "writer_wait_ns" : "victim_wait_ns"] = victim_waits.to_json();
        s[rw ? "reader_wait_ns" : "stream_wait_ns"] = other_waits.to_json();
      }
    }
    if (items > 0) {
      s["items_per_second"] = busy_seconds > 0 ? items / busy_seconds : 0.0;
    }
  }
};

}  // namespace

std::uint64_t stress_trial_seed(std::uint64_t seed, std::uint64_t index) {
  return derive_execution_seed(seed, index);
}

bool runs_on_real(const Cell& cell) {
  return bind_real(cell.preset.family, cell.primitive->name, cell.primitive->claims).has_value();
}

Params stress_params(const Cell& cell, const StressSearch& stress, std::uint64_t threads) {
  const auto specs = sim_param_specs(cell.preset.family);
  auto clamp_to = [&](const std::string& key, std::int64_t v) {
    for (const auto& s : specs) {
      if (s.name == key) return std::clamp(v, s.min, s.max);
    }
    return v;
  };
  auto known = [&](const std::string& key) {
    return std::any_of(specs.begin(), specs.end(),
                       [&](const ParamSpec& s) { return s.name == key; });
  };
  std::map<std::string, std::string> overrides = cell.overrides;
  const auto [name, count] = thread_parameter(cell, static_cast<std::int64_t>(threads));
  if (known(name)) overrides.try_emplace(name, std::to_string(clamp_to(name, count)));
  for (const auto& key : repeat_parameters(cell.preset.family)) {
    if (!known(key)) continue;
    const auto scaled = cell.params.integer(key) * static_cast<std::int64_t>(stress.scale);
    overrides.try_emplace(key, std::to_string(clamp_to(key, scaled)));
  }
  return Params::resolve(specs, cell.preset.parameters, overrides, cell.preset.file.string());
}

namespace {

/// The stress backend's trials: the family body on real threads, each trial's noise drawn from
/// its seed, judged by the wall clock; a broken property is reported with each thread's last
/// operations (a trial has no schedule to replay).
class StressTrials final : public TrialSource {
 public:
  StressTrials(const Cell& cell, const StressSearch& stress, const CellPlan& plan,
               const Params& params, Body body, std::uint64_t threads, std::string schedule,
               ExecutionWatch& watch)
      : cell_(cell),
        stress_(stress),
        plan_(plan),
        params_(params),
        body_(std::move(body)),
        threads_(threads),
        schedule_(std::move(schedule)),
        watch_(watch) {
    // The faults the family allows, as on sim (src/backends/sim/execution.cpp), switched by the
    // strategy's faults=on|off; the spurious-wakeups family's own switches always apply.
    const auto options = offered_faults(cell);
    settings_.noise = static_cast<real_stress::Noise>(stress.noise);
    settings_.ring = stress.ring;
    settings_.spurious_wakeups =
        params.boolean("spurious_wakeups") || (stress.faults && options.spurious_wakeups);
    settings_.cas_failures =
        params.boolean("spurious_cas_failures") || (stress.faults && options.cas_failures);
  }

  /// What the supervisor's crash and stall handlers report: which trial, its seed, and each
  /// thread's last operations.
  ExecutionWatch::Note note() {
    return [this](nlohmann::json& n) {
      n["execution"] = trials_ + 1;
      n["trial_seed"] = trial_seed_;
      nlohmann::json lines = nlohmann::json::array();
      for (auto& line : describe_threads(real_stress::recent_operations())) lines.push_back(line);
      n["threads"] = lines;
    };
  }

  /// Trials never run out (nor cover anything completely): the plan or the clock ends them.
  bool next() override { return true; }

  CellTrial run() override {
    trial_seed_ = stress_trial_seed(plan_.seed, trials_);
    settings_.seed = trial_seed_;
    CellTrial t;
    watch_.progress();
    real_stress::begin_trial(settings_);
    const auto began = Clock::now();
    body_(t.observations, params_);
    const double seconds = seconds_since(began);
    // Whatever the trial's coroutines may still touch lives until the pool is idle.
    real_stress::wait_pool_idle();
    real_stress::end_trial();
    HarnessHooks<Real>::release_retired();
    watch_.progress();
    ++trials_;
    const auto failures = Real::take_failures();
    breach_ = HarnessHooks<Real>::take_breach();
    t.verdict = stress_trial_verdict(t.observations, failures, cell_.preset.family,
                                     cell_.primitive->claims);
    wall_.add(t.observations, seconds);
    return t;
  }

  std::variant<Violation, std::string> violation(const CellTrial& trial,
                                                 const std::function<bool()>&) override {
    const ExecutionVerdict& j = trial.verdict;
    Violation v;
    v.property = j.property;
    v.message = concat(j.message, " (trial ", std::to_string(trials_), ", seed ",
                       std::to_string(trial_seed_), ")");
    v.seed = trial_seed_;
    // Not replayable step by step: the next thing to try is a search on sim.
    v.replay_command =
        scenarios::run_command(cell_.preset, cell_.primitive->name, cell_.overrides, "portfolio");
    v.trace = {concat("a trial on real threads (", schedule_,
                      "); not replayable step by step. Each thread's last operations at the "
                      "breach:")};
    for (auto& line : describe_threads(breach_ ? *breach_ : real_stress::recent_operations())) {
      v.trace.push_back("  " + line);
    }
    v.trace.push_back(
        concat("next: search for it on the deterministic runtime: ", v.replay_command));
    v.shrink = ShrinkNote{.skipped = "a trial on real threads has no schedule to shrink"};
    return v;
  }

  std::optional<std::string> progress(std::uint64_t executions, double seconds) override {
    char text[160];
    std::snprintf(text, sizeof text, "%llu of %llu trials, %.0f/s, %.1f s, %.1f s left",
                  static_cast<unsigned long long>(executions),
                  static_cast<unsigned long long>(plan_.executions),
                  seconds > 0 ? static_cast<double>(executions) / seconds : 0.0, seconds,
                  std::max(0.0, plan_.time_budget_seconds - seconds));
    return text;
  }

  /// Trials have no position: a stopped stress cell is run again, not resumed.
  std::optional<nlohmann::json> position(std::uint64_t) override { return std::nullopt; }

  void finish(nlohmann::json& metrics) override {
    wall_.write(metrics, cell_.preset.kind);
    auto& s = metrics["stress"];
    s["threads"] = threads_;
    s["noise"] = std::string(to_string(stress_.noise));
    s["spurious_wakeups"] = settings_.spurious_wakeups;
    s["spurious_cas_failures"] = settings_.cas_failures;
    s["first_trial_seed"] = stress_trial_seed(plan_.seed, 0);
    s["trial_seed_rule"] = "trial i (from 0) draws its noise from derive_execution_seed(seed, i)";
    s["replayable"] = false;
    s["trial_seconds"] = wall_.busy_seconds;
  }

 private:
  const Cell& cell_;
  const StressSearch& stress_;
  const CellPlan& plan_;
  const Params& params_;
  Body body_;
  std::uint64_t threads_;
  std::string schedule_;
  ExecutionWatch& watch_;
  real_stress::Settings settings_;
  // Waits here are nanoseconds of the steady clock; the per-execution percentiles in steps
  // have no meaning on real threads.
  WallMetrics wall_;
  std::uint64_t trials_ = 0;
  std::uint64_t trial_seed_ = 0;
  std::optional<std::vector<real_stress::ThreadOps>> breach_;
};

}  // namespace

CellResult run_stress_cell(const Cell& cell, const StressSearch& stress, const CellPlan& plan,
                           ExecutionWatch& watch) {
  CellResult out = cell.identity();
  const auto threads = stress.threads != 0 ? stress.threads : default_stress_threads();
  out.schedule = stress.describe(threads);
  const Params params = stress_params(cell, stress, threads);
  out.parameters = params.as_strings();
  auto body = bind_real(cell.preset.family, cell.primitive->name, cell.primitive->claims);
  if (!body) {
    out.verdict = Verdict::error;
    out.stopped_by = StopReason::error;
    out.error = "this family does not run on real threads for this primitive";
    return out;
  }
  // The judgement's wall-clock bounds, for this process's trials.
  HarnessHooks<Real>::settle_delay_ns().store(stress.settle_ms * 1'000'000);
  HarnessHooks<Real>::victim_wait_bound_ns().store(stress.max_wait_ms * 1'000'000);
  StressTrials trials(cell, stress, plan, params, std::move(*body), threads, out.schedule, watch);
  (void)Real::take_failures();
  (void)HarnessHooks<Real>::take_breach();
  LoopPlan loop = loop_plan(cell, plan);
  loop.wait_percentiles = false;
  run_cell_loop(out, trials, loop, watch, trials.note());
  return out;
}

}  // namespace syncstress::scenarios
