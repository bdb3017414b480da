// The deterministic runtime (`sim`): runs one execution of a scenario on simulated threads.
//
// Simulated threads are fibers on the calling OS thread. Every operation of the Sim platform
// (src/platform/sim.hpp) is a scheduling point: it is recorded in the trace and the Strategy
// picks who runs next whenever more than one thread could. Nothing else influences the order,
// so the same strategy answers give the same trace, byte for byte.
//
// Detection ends an execution early and never crashes the tool: deadlock, the step bound,
// failed Sim::check, an exception escaping a simulated thread, and misuse of task<Sim>
// coroutine frames. The unfinished fibers of an execution that ended early are torn down by
// forced unwinding (see "Teardown" in src/sim/engine.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "schedules/strategy.hpp"

namespace syncstress::sim {

/// Per-runtime switches. Each fault injection is a recorded choice (Strategy::next_u64(2))
/// asked only when its switch is on, so schedules stay short when it is off.
struct Options {
  /// Step bound: exceeding it ends the execution (livelock, starvation).
  std::uint64_t max_steps = 100000;
  /// wait_on_address and parker::park may return spuriously: at the call, or while blocked at
  /// any later scheduling point where another thread could run (see src/sim/engine.hpp).
  bool spurious_wakeups = false;
  /// compare_exchange_weak may fail spuriously (asked only when it would succeed).
  bool spurious_cas_failures = false;
  /// Executions that explore faults (Execution::faults) get spurious
  /// wake-ups, and weak-CAS failures, as if the two switches above were on. Set by a cell whose
  /// family and primitive allow them (src/backends/sim/execution.cpp).
  bool offer_spurious_wakeups = false;
  bool offer_spurious_cas_failures = false;
  /// A pool worker may take any queued item, not only the oldest.
  bool delay_posted_work = false;
  /// Simulated thread-pool workers behind Sim::post / resume_on_signal (created lazily).
  unsigned pool_workers = 2;
  /// Spin loops run as one step (src/sim/spin.cpp): a thread that reads again, at the same
  /// line, an object it read since its own last write, none of whose reads another thread has
  /// written since, runs its loop's further reads without scheduling points until it does
  /// something else; after spin_limit operations alone it waits for a write to what it reads
  /// (and does so at once when that loop spins again in the execution), and a loop nothing can
  /// release is a livelock. Off: every read is a scheduling point.
  bool spin_reduction = true;
  /// Operations a spin runs alone before it is taken for one that never ends alone: above the
  /// 10,000 iterations (a read and a yield or pause each) that published spin-then-sleep
  /// primitives commonly spin. A longer spin is never seen to give up.
  std::uint64_t spin_limit = 50000;
  /// Record a TraceEntry per step. Off only for speed (benchmarks, long searches).
  bool record_trace = true;
  /// Usable stack bytes per fiber; 0 picks the default (256 KiB, 1 MiB under ASan).
  std::size_t stack_size = 0;

  friend bool operator==(const Options&, const Options&) = default;
};

/// How an execution ended. `pruned`: its step observer ended it because a reduction proved every
/// continuation equivalent to one already explored (StepObserver::step_taken); it is neither a
/// finding nor a completed run.
enum class Outcome { completed, violation, deadlock, step_bound, frame_misuse, exception, pruned };

/// "completed", "violation", "deadlock", "step_bound", "frame_misuse", "exception", "pruned".
std::string_view to_string(Outcome outcome);

/// One step of an execution.
struct TraceEntry {
  std::uint64_t step = 0;
  ThreadId thread = 0;
  std::string_view op;  // a string literal: "load", "lock", "wait_on_address", ...
  std::string object;   // the object's name (set_name) or "<kind>#<n>"
  std::string values;   // integers and bools printed; pointers only as null / non-null
  const char* file = nullptr;
  unsigned line = 0;
};

struct ExecutionResult {
  Outcome outcome = Outcome::completed;
  /// Short id: "check", "deadlock", "step-bound", "resume-after-destroy", "double-resume",
  /// "null-resume", "destroy-while-queued", "frame-leaked", "exception" (empty when completed).
  std::string property;
  /// Human text; for a deadlock the wait-for picture: every blocked thread, the object it
  /// waits on (by name), the op and the source line.
  std::string message;
  /// Where the violation was raised, if known.
  const char* file = nullptr;
  unsigned line = 0;
  std::uint64_t steps = 0;
  std::vector<TraceEntry> trace;
  /// Fibers that could not be unwound during teardown (a noexcept frame or a destructor that
  /// spins forever was on their stack) and were abandoned; what their stacks owned leaks.
  unsigned abandoned_fibers = 0;

  /// One line per entry, "<step> t<thread> <op> <object> [<values>] <file>:<line>", files
  /// relative to the source tree; deterministic text.
  std::string format_trace() const;
};

namespace detail {
class Engine;
}

class Runtime {
 public:
  explicit Runtime(Options options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  /// Runs one execution: `main` is simulated thread 0; it spawns others through Sim::thread.
  /// `execution` is what strategy.new_execution() returned (the caller calls it; run() never
  /// does): whether it explores faults, who observes its steps, its uniform draws. Not
  /// reentrant: an OS thread runs one execution at a time.
  ExecutionResult run(Strategy& strategy, const Execution& execution, std::function<void()> main);

  /// Gives a finished result's trace storage back for the next run() to reuse (optional: a
  /// search that discards most results avoids reallocating and page-faulting the trace).
  void recycle(ExecutionResult&& result);

  const Options& options() const;

 private:
  std::unique_ptr<detail::Engine> engine_;
};

/// True inside run() on a simulated thread.
bool in_execution();
/// The running simulated thread (0 outside an execution).
ThreadId current_thread();
/// Steps taken so far in this execution: the virtual clock (0 outside an execution).
std::uint64_t current_step();
/// The trace of the execution in progress on this OS thread so far, formatted as
/// ExecutionResult::format_trace does (empty outside an execution, or with record_trace off).
/// Meant for a report made from a signal handler on a thread stuck inside an execution
/// (src/supervise/watchdog.cpp's hang and crash notes): it allocates, so it is not
/// async-signal-safe.
std::string trace_so_far();
/// Blocks the calling simulated thread until every other thread is blocked or has finished
/// (engine.hpp, "Quiescence"); returns at once outside an execution.
void await_quiescence(std::source_location loc = std::source_location::current());
/// Names a sim object (mutex, atomic, event, ...) in traces and deadlock reports; otherwise
/// objects are named "<kind>#<n>" in creation order per execution. A name given inside an
/// execution lasts until it ends; one given outside lasts for the OS thread.
void set_name(const void* object, std::string name);

}  // namespace syncstress::sim
