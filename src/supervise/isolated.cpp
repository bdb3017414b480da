#include "supervise/isolated.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "scenarios/outcome_json.hpp"
#include "supervise/child_process.hpp"
#include "supervise/watchdog.hpp"
#include "util/lines.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace {

using nlohmann::json;

/// How a child ended, as the parent saw it.
// NOLINTNEXTLINE(bugprone-exception-escape): the members' default states allocate nothing.
struct ChildEnding {
  enum class Kind { result, error, crash, hang, interrupted } kind = Kind::result;
  json result;            // Kind::result
  std::string text;       // Kind::error: the message
  json note;              // crash, hang: what the child's handler wrote (may be null)
  int signal = 0;         // crash
  bool deadline = false;  // hang: killed by the parent's deadline, not the child's watchdog
};

/// Runs `work` in a child under the handlers and reads how it ended. The child writes one
/// message: "RESULT <json>", "USAGE <text>", "POSITION <text>", "ERROR <text>", or its handlers'
/// "CRASH <note>" or "HANG <note>".
ChildEnding run_supervised(const std::function<json(scenarios::ExecutionWatch&)>& work,
                           double timeout_seconds, Stall stall) {
  const auto exit = run_child(
      1,
      [&](std::span<const int> fds) {
        install_handlers(fds[0], stall);
        std::string message;
        try {
          json result = work(handler_watch());
          stop_watchdog();
          message = "RESULT " + result.dump();
        } catch (const PositionRefused& e) {
          message = std::string("POSITION ") + e.what();
        } catch (const UsageError& e) {
          message = std::string("USAGE ") + e.what();
        } catch (const std::exception& e) {
          message = std::string("ERROR ") + e.what();
        }
        stop_watchdog();
        write_all(fds[0], message);
        // No exit handlers: the parent owns stdout, the report and every static.
        _exit(0);
      },
      timeout_seconds);

  const std::string& data = exit.outputs[0];
  auto starts = [&](const char* prefix) { return data.rfind(prefix, 0) == 0; };
  ChildEnding out;
  if (starts("RESULT ")) {
    out.result = json::parse(data.substr(7));
    return out;
  }
  if (starts("POSITION ")) throw PositionRefused(data.substr(9));
  if (starts("USAGE ")) throw UsageError(data.substr(6));
  if (starts("ERROR ")) {
    out.kind = ChildEnding::Kind::error;
    out.text = data.substr(6);
    return out;
  }
  if (exit.interrupted && !starts("CRASH ") && !starts("HANG ")) {
    // Killed at the end of its grace, or dead of the signal before its handler was in.
    out.kind = ChildEnding::Kind::interrupted;
    return out;
  }
  if (starts("HANG ") || exit.timed_out) {
    out.kind = ChildEnding::Kind::hang;
    out.deadline = exit.timed_out;
    if (starts("HANG ")) out.note = json::parse(data.substr(5), nullptr, false);
    return out;
  }
  out.kind = ChildEnding::Kind::crash;
  if (starts("CRASH ")) out.note = json::parse(data.substr(6), nullptr, false);
  out.signal =
      exit.signal != 0 ? exit.signal : (out.note.is_object() ? out.note.value("signal", 0) : 0);
  return out;
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

/// The violation for a child that crashed or hung; fills `v` from the handler's note.
void describe_ending(const ChildEnding& e, double timeout_seconds, Violation& v) {
  const bool has_note = e.note.is_object();
  std::string where;
  if (has_note && e.note.contains("execution")) {
    where = " in execution " + std::to_string(e.note["execution"].get<std::uint64_t>());
  }
  if (has_note && e.note.contains("thread")) {
    where += " (thread t" + std::to_string(e.note["thread"].get<std::uint64_t>()) +
             ", after step " + std::to_string(e.note["step"].get<std::uint64_t>()) + ")";
  }
  // A stress trial's note (real threads) names the trial's seed and each thread's last
  // operations; a sim execution's, the simulated thread and step.
  const bool real_threads = has_note && e.note.contains("threads");
  if (real_threads && e.note.contains("trial_seed")) {
    v.seed = e.note["trial_seed"].get<std::uint64_t>();
    where += " (trial seed " + std::to_string(v.seed) + ")";
  }
  if (e.kind == ChildEnding::Kind::hang) {
    v.property = "hang";
    const std::string why =
        real_threads ? ": every thread asleep (a deadlock, a lost wake-up) or one looping"
                     : ": a thread loops without reaching a scheduling point (a spin on plain "
                       "memory, or a walk around a cyclic list?)";
    v.message = e.deadline
                    ? "the run did not finish within " +
                          std::to_string(static_cast<int>(timeout_seconds)) + " s"
                    : "no progress for " + std::to_string(e.note.value("stalled_seconds", 0)) +
                          (e.note.value("cpu_time", false) ? " s of its CPU time" : " s") + where +
                          why;
  } else {
    v.property = "crash";
    v.message = "the process died of " + signal_name(e.signal) + where;
  }
  if (has_note && e.note.contains("schedule")) {
    v.schedule = e.note["schedule"].get<std::string>();
  }
  if (has_note && e.note.contains("trace")) {
    v.trace = split_lines(e.note["trace"].get<std::string>());
  }
  if (real_threads && e.note["threads"].is_array()) {
    v.trace.push_back(
        "a trial on real threads; not replayable step by step. Each thread's "
        "last operations when it ended:");
    for (const auto& line : e.note["threads"]) {
      if (line.is_string()) v.trace.push_back("  " + line.get<std::string>());
    }
  }
}

}  // namespace

bool isolation_enabled() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process sets the environment.
  const char* v = std::getenv("SYNCSTRESS_NO_FORK");
  return !(v && std::strcmp(v, "1") == 0);
}

CellResult run_isolated(const std::function<CellResult(scenarios::ExecutionWatch&)>& work,
                        const CellResult& identity, double timeout_seconds, Stall stall) {
  const auto started = std::chrono::steady_clock::now();
  const auto e = run_supervised([&](scenarios::ExecutionWatch& w) { return to_json(work(w)); },
                                timeout_seconds, stall);
  if (e.kind == ChildEnding::Kind::result) return cell_result_from_json(e.result);
  CellResult out = identity;
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (e.kind == ChildEnding::Kind::error) {
    out.verdict = Verdict::error;
    out.stopped_by = StopReason::error;
    out.error = e.text;
    return out;
  }
  if (e.kind == ChildEnding::Kind::interrupted) {
    out.verdict = Verdict::interrupted;
    out.stopped_by = StopReason::interrupted;
    out.error = "interrupted; the child did not answer within " +
                std::to_string(kInterruptGraceSeconds) + " s, so its executions are not counted";
    return out;
  }
  out.verdict = Verdict::fail;
  out.stopped_by = StopReason::violation;
  Violation v;
  describe_ending(e, timeout_seconds, v);
  if (e.note.is_object() && e.note.contains("execution")) {
    out.executions = e.note["execution"].get<std::uint64_t>();
  }
  if (e.note.is_object() && e.note.contains("found")) {
    // The cell had found and confirmed a violation; a trial of its shrink
    // (src/backends/sim/shrink.hpp) took the child down. The violation stands; the backend shrinks
    // it again in children.
    try {
      Violation found = violation_from_json(e.note["found"]);
      found.shrink = ShrinkNote{.in_children = v.property + ": " + v.message};
      v = std::move(found);
    } catch (const nlohmann::json::exception&) {
      // A note cut short by the dying child: report the ending itself.
    }
  }
  out.violations.push_back(std::move(v));
  return out;
}

ReplayOutcome replay_isolated(const std::function<ReplayOutcome(scenarios::ExecutionWatch&)>& work,
                              const Violation& identity, double timeout_seconds, Stall stall) {
  const auto e = run_supervised([&](scenarios::ExecutionWatch& w) { return to_json(work(w)); },
                                timeout_seconds, stall);
  if (e.kind == ChildEnding::Kind::result) return replay_outcome_from_json(e.result);
  if (e.kind == ChildEnding::Kind::error) throw std::runtime_error(e.text);
  if (e.kind == ChildEnding::Kind::interrupted) throw std::runtime_error("interrupted");
  ReplayOutcome out;
  Violation v = identity;
  describe_ending(e, timeout_seconds, v);
  v.schedule = identity.schedule;  // the replayed schedule, not the prefix the child reached
  if (e.note.is_object() && e.note.contains("step")) {
    out.steps = e.note["step"].get<std::uint64_t>();
  }
  out.trace = v.trace;
  out.violation = std::move(v);
  return out;
}

}  // namespace syncstress::supervise
