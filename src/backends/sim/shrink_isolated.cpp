#include "backends/sim/shrink_isolated.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "backends/sim/execution.hpp"
#include "backends/sim/replay.hpp"
#include "schedules/forwarding_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "sim/runtime.hpp"
#include "supervise/child_process.hpp"
#include "supervise/isolated.hpp"
#include "util/lines.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace {

using scenarios::Cell;
using scenarios::ExecutionVerdict;
using scenarios::Trial;

/// The most answers a trial's log keeps (shared with the child, so fixed): several per step of
/// the default step bound. A trial that answers more is not taken (AnswerLog::complete()).
constexpr std::uint64_t kLogCapacity = 1 << 20;

/// What a child shares with its parent: the answer log and the step reached.
struct Shared {
  AnswerLog log;
  std::uint64_t step = 0;  ///< the simulated step of the last answer
};

/// Passes every answer on, noting the step it was asked at in shared memory first.
class StepNoting final : public ForwardingStrategy {
 public:
  StepNoting(Strategy& inner, Shared& shared) : ForwardingStrategy(inner), shared_(shared) {}
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override {
    shared_.step = sim::current_step();
    return ForwardingStrategy::next_thread(runnable, current, current_yielded);
  }
  std::uint64_t next_u64(std::uint64_t bound) override {
    shared_.step = sim::current_step();
    return ForwardingStrategy::next_u64(bound);
  }

 private:
  Shared& shared_;
};

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

/// Runs each trial in a forked child; the log lives in an anonymous shared mapping.
class ForkedRunner final : public scenarios::TrialRunner {
 public:
  explicit ForkedRunner(double trial_seconds) : trial_seconds_(trial_seconds) {
    bytes_ = sizeof(Shared) + kLogCapacity * sizeof(LoggedAnswer);
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap()");
    shared_ = new (p) Shared{};
    shared_->log.entries = reinterpret_cast<LoggedAnswer*>(static_cast<char*>(p) + sizeof(Shared));
    shared_->log.capacity = kLogCapacity;
  }
  ~ForkedRunner() override { ::munmap(shared_, bytes_); }
  ForkedRunner(const ForkedRunner&) = delete;
  ForkedRunner& operator=(const ForkedRunner&) = delete;

  AnswerLog& log() override { return shared_->log; }

  Trial run(const Cell& cell, Strategy& strategy, const Execution& execution) override {
    // Made here, so that each child inherits it instead of making its own.
    sim::Runtime& runtime = runtime_(cell);
    shared_->step = 0;
    const ChildExit e = run_child(
        1,
        [&](std::span<const int> fds) {
          // A crash ends the trial with the signal's default action: that is what is measured.
          for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
          StepNoting noting(strategy, *shared_);
          const Execution noted = noting.begin_execution(execution);
          scenarios::Observations obs;
          const auto r =
              scenarios::execute(cell, runtime, noting, noted, obs, scenarios::no_watch());
          const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
          const std::string out = nlohmann::json{
              {"broken", j.broken},
              {"claimed", j.claimed},
              {"property", j.property},
              {"message", j.message},
              {"steps", r.steps}}.dump();
          [[maybe_unused]] const auto n = ::write(fds[0], out.data(), out.size());
          ::_exit(0);
        },
        trial_seconds_);
    Trial t;
    t.steps = shared_->step;
    if (e.signal != 0 && !e.timed_out && !e.interrupted) {
      t.verdict =
          ExecutionVerdict{true, true, "crash", "the process died of " + signal_text(e.signal)};
      return t;
    }
    if (e.exit_code == 0 && !e.outputs.empty()) {
      try {
        const auto j = nlohmann::json::parse(e.outputs.front());
        t.verdict = ExecutionVerdict{j.at("broken").get<bool>(), j.at("claimed").get<bool>(),
                                     j.at("property").get<std::string>(),
                                     j.at("message").get<std::string>()};
        t.steps = j.at("steps").get<std::uint64_t>();
        return t;
      } catch (const nlohmann::json::exception&) {
        // Written by a dying child: counts as below.
      }
    }
    // A hang, an interrupt or an exit without a result: not the crash being shrunk.
    t.verdict = ExecutionVerdict{true, true, e.timed_out ? "hang" : "exit",
                                 "the trial ended without a result"};
    return t;
  }

  bool keeps_strategy_state() const override { return false; }

 private:
  double trial_seconds_;
  std::size_t bytes_ = 0;
  Shared* shared_ = nullptr;
  scenarios::RuntimeForCells runtime_;
};

/// Replays `schedule` of `cell` in a child, twice; both must break `property` with the same
/// trace. Returns the first replay (for a crash, its violation's message names the thread and
/// step, its trace leads up to it), or nullopt.
std::optional<ReplayOutcome> confirm_in_child(const Cell& cell, const Schedule& schedule,
                                              const std::string& property, double trial_seconds) {
  const std::string text = encode(schedule);
  Violation identity;
  identity.seed = schedule.seed;
  identity.schedule = text;
  identity.replay_command = cell.replay_command(text);
  std::optional<ReplayOutcome> first;
  for (int round = 0; round < 2; ++round) {
    ReplayOutcome o;
    try {
      o = replay_isolated(
          [&](scenarios::ExecutionWatch& watch) {
            return scenarios::replay_sim_execution(cell, schedule, text, watch);
          },
          identity, 60 + 2 * trial_seconds, Stall{trial_seconds, StallClock::cpu});
    } catch (const UsageError&) {
      return std::nullopt;
    }
    if (!o.violation || o.violation->property != property) return std::nullopt;
    if (round == 0) {
      first = std::move(o);
    } else if (o.violation->trace != first->violation->trace) {
      return std::nullopt;
    }
  }
  return first;
}

}  // namespace

bool shrinks_in_children(const Violation& v) {
  return !v.schedule.empty() &&
         (v.property == "crash" || (v.shrink && !v.shrink->in_children.empty()));
}

void shrink_in_children(Violation& v, const Cell& cell, const scenarios::ShrinkLimits& limits,
                        double trial_seconds) {
  const std::string why_here = v.shrink ? v.shrink->in_children : std::string();
  Schedule found;
  try {
    found = decode(v.schedule);
  } catch (const ScheduleFormatError&) {
    v.shrink = ShrinkNote{.skipped = "the crash note's schedule was cut short"};
    return;
  }
  const ExecutionVerdict broken{true, true, v.property, v.message};
  ForkedRunner runner(trial_seconds);
  const auto shrunk =
      scenarios::shrink_violation(cell, found, broken, limits, runner, scenarios::no_watch());
  if (!shrunk) {
    v.shrink = ShrinkNote{.skipped = "re-running the schedule in a child did not break " +
                                     v.property + " again"};
    return;
  }
  v.shrink = scenarios::shrink_note(*shrunk);
  // Why the trials ran in children, when a trial in the cell's process ended it.
  v.shrink->in_children = why_here;
  v.preemptions = shrunk->original_preemptions;
  if (!scenarios::shrank(*shrunk, found)) return;
  const Cell runs = scenarios::cell_of(*shrunk, cell);
  const auto confirmed = confirm_in_child(runs, shrunk->schedule, v.property, trial_seconds);
  if (!confirmed) {
    v.shrink->not_reported = "two replays of the shrunk schedule did not end the same way";
    return;
  }
  if (v.steps == 0) v.steps = shrunk->original_steps;
  scenarios::report_shrunk(v, *shrunk, runs, confirmed->violation->trace,
                           confirmed->steps != 0 ? confirmed->steps : shrunk->steps);
  v.message = confirmed->violation->message;
}

}  // namespace syncstress::supervise
