// The sim runtime's engine: simulated threads, the scheduler, blocking and waking, the pool,
// frame tracking and teardown. Internal to src/sim and the Sim platform (src/platform/sim.hpp
// and sim.cpp); users go through runtime.hpp and the Sim platform. Its members are defined one
// job per file: execution.cpp, scheduling.cpp, sync_objects.cpp, executor.cpp, frames.cpp,
// names.cpp, teardown.cpp.
//
// Scheduling: an operation is performed atomically, recorded, then the Strategy picks the next
// thread among the runnable ones (asked only when there are two or more); the engine switches
// straight from fiber to fiber. Waits are bookkeeping on the thread (what it waits on, why,
// where), so a wake scans threads in id order: deterministic, and thread counts are small.
//
// Spurious wake-ups while blocked: with spurious wake-ups on, a thread blocked in
// wait_on_address, park or a condition variable's wait (not a mutex, event, join or
// atomic::wait) may also be woken at any later scheduling point where some other thread could
// run. Each such point asks Strategy::next_u64(2) (wake one?) and, when several wait,
// next_u64(n) (which), inside the step just taken: that step takes the thread off its wait
// list, and the woken thread runs next, its wait returning as a spurious return at the call
// does (a step of its own, traced "spurious"). Nothing is asked when no such thread waits, or
// with spurious wake-ups off: then the questions are exactly those of a runtime without them.
//
// In the reducing search's executions (Execution::reduced) the end of such a wait is instead a
// step of the waiting thread itself, so that the search sees what it depends on: after every
// step the strategy chooses among the runnable threads and the threads whose wait may end now
// (one list, ascending; offer_wait_ends), the thread that has just blocked included, and a
// blocked thread chosen returns from its wait in a step that writes the object's wait list (and
// the clock, for a timeout) and reads what the thread read before the wait (whether the end is
// offered depends on it: offers_spurious). There is no spurious return at the call: the wait
// blocks first. A thread woken by another's wake from such a wait reads the wait list in its
// next step, the race the search reverses to try the wait's own end before the wake. A wait
// that both may time out and wake spuriously asks next_u64(2) which, in its end's step.
//
// Timeouts: a timed wait (counting_semaphore::try_acquire_for, condition_variable::wait_for)
// has a deadline on the execution's virtual clock, which starts at 0 and moves only when
// Sim::now() reads it (by kClockTickNs) or a wait times out (to that wait's deadline). While
// such a wait blocks, the threads whose deadline is the earliest may time out at any later
// scheduling point where some other thread could run, asked as a spurious wake is (the same
// questions, the timed-out thread among the candidates); when no thread can run, time passes:
// one of them times out without a question unless several share that deadline. In the reducing
// search's executions a thread whose last timeout or spurious return led back to a wait with
// nothing it read written since is not offered another (offers_spurious): a loop that only
// times out is a deadlock, not a search that never ends.
//
// Quiescence (await_quiescence): a thread may wait until every other thread is blocked or has
// finished. It is woken, without a question, when no thread can run; several such waiters wake
// in id order, one at a time, before any timeout: time passes only once they are blocked too.
// The harness uses it to act while every other actor is certainly inside its wait.
//
// Teardown (an execution that ended early): the engine enters aborting mode, where no
// operation schedules and blocking operations return at once. The unfinished fibers are then
// resumed in turn from the host, pool workers first, and a fiber's next unwind point throws
// detail::Unwind (not derived from std::exception) when no other exception is in flight,
// unwinding its stack to the fiber's entry so destructors run and nothing leaks. Operations
// called from destructors during that unwinding do not throw.
//
// A resumption (Sim::resume, a post) made in teardown, or under way when the execution ended
// at its step, runs its coroutine: a primitive that took a waiter off its queue to resume it
// counts on the waiter leaving its wait before its frame dies (the frame's awaiter would
// otherwise unlink its node from a list that is gone with its releaser's stack frame). The
// coroutine runs only until its first operation, plain ones included, which throws Unwind
// (outside destructors): its awaiter's await_resume runs, little else does (a primitive's
// noexcept code that an Unwind would meet comes after an operation, at its next wait). An
// Unwind raised in a coroutine stops at its resumption, which returns normally: resumptions
// never throw, because task.hpp calls them from noexcept awaiters. The workers go first so
// that the coroutines still queued for the pool run while the objects on the user threads'
// stacks are alive (what a worker busy at the end leaves queued, a worker started in teardown
// runs); a post made later runs its coroutine at once. Resumptions of destroyed, finished or
// queued frames, of frames that never ran (they wait in nothing: their first operation would
// only be an Unwind, often inside a primitive's noexcept claim), and resume_on_signal, run
// nothing in teardown, but count as operations for the budget below.
//
// Two cases cannot be unwound and are abandoned instead (the fiber is never resumed, its
// stack is reused, what its frames owned leaks; counted in ExecutionResult::abandoned_fibers):
// Unwind reaching a noexcept frame (caught by a terminate handler installed during teardown),
// and a fiber that performs more than kAbortOpBudget operations while being torn down (a
// destructor spinning forever, a catch(...) that swallows Unwind in a loop, a loop of
// resumptions round a cyclic list).
#pragma once

#include <array>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schedules/step_observer.hpp"
#include "schedules/strategy.hpp"
#include "sim/address_map.hpp"
#include "sim/fiber.hpp"
#include "sim/free_list.hpp"
#include "sim/memory.hpp"
#include "sim/runnable_set.hpp"
#include "sim/runtime.hpp"
#include "sim/sync_objects.hpp"
#include "sim/trace_values.hpp"

namespace syncstress::sim {

namespace detail {

/// Object kinds, for default names "<kind>#<n>".
enum class Kind : std::uint8_t {
  atomic,
  mutex,
  auto_reset_event,
  manual_reset_event,
  parker,
  thread,
  pool,
  frame,
  semaphore,
  condvar,
  clock,
  quiescence,
  none,
  count
};

/// Why a thread is blocked.
enum class Wait : std::uint8_t {
  none,
  address,
  mutex,
  parker,
  event,
  join,
  pool,
  spin,
  twin,
  semaphore,
  condvar,
  quiescence
};

/// A wait with no timeout (Thread::deadline).
inline constexpr std::uint64_t kNoDeadline = ~std::uint64_t{0};
/// What Sim::now() advances the virtual clock by: reading the clock takes time, so a loop that
/// polls it until a deadline ends.
inline constexpr std::uint64_t kClockTickNs = 1000;

/// How an operation behaves in teardown. Operations that a spin or wait loop is made of
/// (loads, CAS, yield, try_*) are unwind points: in teardown they throw Unwind on entry.
/// Plain ones (stores, RMWs, unlock, set, wake...) only return, because they are what
/// destructors call. An operation resumed by teardown after its step always returns normally
/// (it completed); a blocking operation resumed in teardown unwinds (its wait did not end).
enum class Point : std::uint8_t { plain, unwind, yield };

/// Thrown through a fiber to unwind it during teardown.
struct Unwind {};

/// Operations a fiber may perform while being torn down before it is abandoned.
inline constexpr unsigned kAbortOpBudget = 10000;

enum class State : std::uint8_t { runnable, blocked, finished };

/// What the spin-loop reduction knows of a thread (spin.cpp): the reads it made since its last
/// write, and whether it goes round a loop of them.
struct SpinState {
  struct Read {
    const void* obj = nullptr;
    const char* file = nullptr;
    std::uint32_t line = 0;
    Kind kind = Kind::none;
    /// The same read: of `o`, at the line of `loc`.
    bool is(const void* o, const source_location& loc) const {
      return obj == o && line == loc.line() && file == loc.file_name();
    }
  };
  static constexpr std::uint8_t kReads = 8;
  /// Reads since the thread's last write, block or other effect, oldest first, each (object,
  /// line) once; a write by another thread to one of their objects empties it.
  std::array<Read, kReads> reads{};
  std::uint8_t size = 0;
  /// While spinning: reads[loop, size) are the loop's reads, the ones it runs without a
  /// scheduling point.
  std::uint8_t loop = 0;
  /// It read an (object, line) of `reads` again: it went round a loop whose reads nobody has
  /// written since, so its next iterations would read the same values.
  bool spinning = false;
  /// Operations of the current spin run without a scheduling point, and its iterations.
  std::uint64_t skipped = 0;
  std::uint64_t turns = 0;
  /// The first reads of this thread's loops that ran Options::spin_limit operations alone in
  /// this execution: when one spins again it waits for a write at once.
  static constexpr std::uint8_t kEndless = 4;
  std::array<Read, kEndless> endless{};
  std::uint8_t endless_count = 0;

  void forget() {
    size = 0;
    spinning = false;
    skipped = 0;
    turns = 0;
  }
  bool reads_object(const void* obj) const {
    for (std::uint8_t i = 0; i < size; ++i) {
      if (reads[i].obj == obj) return true;
    }
    return false;
  }
};

struct Thread {
  ThreadId id = 0;
  bool worker = false;
  bool started = false;
  State state = State::finished;
  Context ctx;
  Stack stack;
  std::function<void()> fn;
  sim::parker parker;
  // What it waits on, while blocked.
  Wait wait = Wait::none;
  Kind wait_kind = Kind::none;
  const void* wait_obj = nullptr;
  std::string_view wait_op;
  source_location wait_loc;
  std::int64_t wait_holder = -1;
  /// A setter handed this waiter the signal (events): its wait returns without re-checking.
  bool handed = false;
  /// Blocked in wait_on_address or park with spurious wake-ups on: a later scheduling point may
  /// wake it spuriously (Engine::wake_spuriously). Meaningful only while blocked.
  bool may_wake_spuriously = false;
  /// Woken so: its wait returns as a spurious one.
  bool woken_spuriously = false;
  /// A timed wait's deadline on the virtual clock (kNoDeadline: untimed), while blocked in it;
  /// timed_out: the wait ended by its timeout (Engine::wake_spuriously).
  std::uint64_t deadline = kNoDeadline;
  bool timed_out = false;
  /// In the reducing search's executions (Engine::offers_spurious): it returned spuriously from a
  /// wait, and nothing it read before that wait has been written since, by it or another thread.
  bool spurious_spent = false;
  /// What it read before its last platform wait (the wait's word or parker included): a write
  /// to one of them makes a spurious return new again.
  std::array<const void*, SpinState::kReads + 1> wait_reads{};
  std::uint8_t wait_reads_size = 0;
  unsigned abort_ops = 0;
  SpinState spin;
  /// Symmetric actors (Engine::meet_twin): the thread started before this one with the same
  /// body and parameters (-1: none), and whether this thread has made its first access to a
  /// shared object yet (always true outside the reducing search's executions).
  std::int64_t twin_before = -1;
  bool met = true;
  /// Objects this thread has created in the execution: with its id, an object's stable name
  /// for a reducing search (Engine::object_id).
  std::uint32_t created = 0;
  /// std::uncaught_exceptions() where the innermost resumption running on this fiber began
  /// (0 outside one): an unwind point throws only at that count, so a coroutine resumed by a
  /// destructor during unwinding still unwinds, and the Unwind stops at its resumption.
  int unwind_base = 0;
  /// The innermost resumption running on this fiber began in teardown: every operation is an
  /// unwind point (see the file comment).
  bool resumed_in_teardown = false;
};

/// A posted coroutine waiting for a pool worker.
struct PoolItem {
  std::coroutine_handle<> handle;
  source_location loc;
};

/// A resume_on_signal registration waiting for its event.
struct PoolWait {
  const void* event;
  std::coroutine_handle<> handle;
  source_location loc;
};

/// A task<Sim> coroutine frame seen through the frame hooks.
struct FrameRecord {
  void* address = nullptr;
  std::uint32_t serial = 0;
  bool destroyed = false;
  bool queued = false;     // posted, not yet taken by a worker
  bool pool_wait = false;  // registered with resume_on_signal, not yet signaled
  bool started = false;    // resumed before (so it may be suspended in some primitive's wait)
  ThreadId creator = 0;
  std::uint64_t created_step = 0;
  ThreadId destroyer = 0;             // when destroyed: the thread that destroyed it
  std::uint64_t destroyed_after = 0;  // ... after this many steps
  source_location last_loc;           // last resume / post / registration
  bool has_loc = false;
  source_location await_loc;  // the co_await the frame last reached (task.hpp's await_transform)
  bool has_await = false;
};

class Engine {
 public:
  explicit Engine(Options options);
  ~Engine();

  ExecutionResult run(Strategy& strategy, const Execution& execution, std::function<void()> main);
  void recycle(ExecutionResult&& result) {
    if (result.trace.capacity() > spare_trace_.capacity()) spare_trace_ = std::move(result.trace);
  }
  const Options& options() const { return options_; }

  // --- State read by the platform on every operation ---------------------------------------
  /// True once the execution has ended (teardown): nothing schedules any more.
  bool aborting() const { return aborting_; }
  std::uint64_t steps() const { return steps_; }
  /// The execution in progress, as recorded so far (its trace, if recorded).
  const ExecutionResult& partial_result() const { return result_; }
  /// The running simulated thread's id (0 on the host during teardown).
  ThreadId current_id() const { return current_ ? current_->id : 0; }
  parker& current_parker() { return current_ ? current_->parker : host_parker_; }

  // --- Scheduling points ---------------------------------------------------------------------
  /// A non-blocking operation on `obj` was performed: record it and let the strategy pick
  /// who runs next. In teardown: may throw Unwind (see the file comment).
  /// `writes` is false for an operation that changes nothing (a load, a failed CAS): two such
  /// steps of different threads commute (see Access). `touches` is false for an operation a
  /// reducing search sees only through the accesses it noted itself (a wake by address, which
  /// touches the address's wait list, not its value): `obj` then only names it in the trace.
  /// `values` are formatted only when traced.
  /// Inline for a search's common case (no trace, no step observer, not in teardown): the
  /// step is counted and schedule() tail-called, so an operation that ends with its step (a
  /// lock, an unlock) returns from the switch straight into its caller.
  void step(Kind kind, const void* obj, std::string_view op, TraceValues values,
            const source_location& loc, Point point = Point::plain, bool writes = true,
            bool touches = true) {
    if (aborting_ || observe_ || tracing_) [[unlikely]] {
      step_noted(kind, obj, op, values, loc, point, writes, touches);
      return;
    }
    if (spin_reduction_ && !spin_step(kind, obj, loc, writes)) return;
    ++steps_;
    schedule(point == Point::yield, After::step);
  }
  /// Called by every operation before it acts on `obj` (`writes`: it will change it): while
  /// the current thread spins, anything but the next read of its loop ends the spin's step
  /// first, with a scheduling point, so other threads may run before this operation.
  void before(const void* obj, const source_location& loc, bool writes) {
    if (current_ != nullptr && current_->spin.spinning && !aborting_) [[unlikely]] {
      spin_boundary(obj, loc, writes);
    }
    if (current_ != nullptr && !current_->met && obj != nullptr) [[unlikely]]
      meet_twin(loc);
  }
  /// Blocks the current thread on `obj` until a wake makes it runnable and it is chosen.
  /// Returns false in teardown (the caller must return at once); unwinds there unless
  /// `may_unwind` is false (a destructor's wait).
  /// Inline, as step() is, with its trace entry and observed accesses out of line.
  bool block(Kind kind, const void* obj, Wait wait, std::string_view op, TraceValues values,
             const source_location& loc, std::int64_t holder = -1, bool may_unwind = true) {
    const After after = may_unwind ? After::blocked : After::blocked_quiet;
    if (aborting_) [[unlikely]] {
      return in_teardown(after);
    }
    Thread& t = *current_;
    t.spin.forget();
    // A spin's wait keeps the loop's reads: released by a write, the loop reads the newest.
    if (c11_ && wait != Wait::spin) [[unlikely]]
      memory_.blocked(t.id);
    t.state = State::blocked;
    t.wait = wait;
    t.wait_kind = kind;
    t.wait_obj = obj;
    t.wait_op = op;
    t.wait_loc = loc;
    t.wait_holder = holder;
    t.handed = false;
    make_blocked(t);
    ++steps_;
    if (observe_ || tracing_) [[unlikely]] {
      note_block(kind, obj, op, values, loc,
                 wait != Wait::join && wait != Wait::mutex && wait != Wait::twin &&
                     wait != Wait::semaphore);
    }
    return schedule(false, after);
  }
  /// Asks the strategy for a number in [0, bound); 0 without asking when bound < 2.
  std::uint64_t choose(std::uint64_t bound);
  /// A fault injection point: asks next_u64(2) only when `enabled`.
  bool inject(bool enabled) { return enabled && !aborting_ && choose(2) == 1; }
  /// Whether this execution injects weak-CAS failures: the option's switch, or its offer taken
  /// by a strategy that explores faults (fixed when run() starts).
  bool spurious_cas_failures_on() const { return spurious_cas_failures_on_; }
  /// Ends the execution with a violation at `loc` (first one wins). Returns only during
  /// teardown, without throwing.
  void violation(Outcome outcome, std::string_view property, std::string message,
                 const source_location* loc);

  // --- The C++ memory model (Execution::memory == c11; memory.hpp) -------------------------
  /// Whether this execution's atomics follow the C++ model (never in teardown, where an
  /// operation acts on the newest store and asks nothing).
  bool c11() const { return c11_ && !aborting_ && current_ != nullptr; }
  /// A load of `obj` (`current`: its newest value): which store it reads, a recorded choice
  /// when it may read more than one. `where`: the atomic's record of its location, as in every
  /// c11_ operation.
  ReadFrom c11_load(const void* obj, Where& where, std::uint64_t current, std::memory_order mo,
                    const source_location& loc) {
    const std::uint64_t n = memory_.choices(current_->id, obj, where, current, mo, loc);
    if (observe_) [[unlikely]]
      announce_read(obj, n, /*expected=*/nullptr);
    const ReadFrom from = c11_read(n > 1 ? choose(n) : 0, mo, "load", loc);
    if (observe_) [[unlikely]]
      model_note_.store = from.step;
    return from;
  }
  /// A compare-exchange's read: a store holding `expected` that a read-modify-write may read
  /// when the CAS is to succeed (`*success`; nothing is applied: c11_rmw_write then stores
  /// after it), else a store holding another value, read with `failure` order. A recorded
  /// choice when several may be.
  ReadFrom c11_cas(const void* obj, Where& where, std::uint64_t current, std::uint64_t expected,
                   std::memory_order failure, const char* what, const source_location& loc,
                   bool* success) {
    const std::uint64_t n =
        memory_.cas_choices(current_->id, obj, where, current, expected, failure, loc);
    // When it fails, a free read racing the read-modify-writes that closed a store holding
    // `expected` to it (see Memory::free()); when it succeeds, a read-modify-write.
    if (observe_) [[unlikely]]
      announce_read(obj, n, &expected);
    const std::uint64_t k = n > 1 ? choose(n) : 0;
    const ReadFrom from = memory_.candidate(k);
    *success = from.bits == expected;
    rmw_pick_ = k;  // for c11_rmw_write
    if (*success) {
      model_note_.free_read = false;
      return from;
    }
    model_note_.store = from.step;
    model_note_.closers = true;
    return c11_read(k, failure, what, loc);
  }
  /// A read of `obj`'s newest store (a spurious CAS failure, a wait's comparison).
  void c11_read_newest(const void* obj, Where& where, std::uint64_t current, std::memory_order mo) {
    memory_.read_newest(current_->id, obj, where, current, mo);
  }
  /// A plain store of `bits` to `obj`, the step about to be taken: where it goes in the
  /// modification order is a recorded choice when it may go in more than one place.
  Placed c11_store(const void* obj, Where& where, std::uint64_t current, std::uint64_t bits,
                   std::memory_order mo, const source_location& loc) {
    memory_.note_op(current_->id, AtomicOp{"store", mo, loc.file_name(), loc.line()});
    const std::uint64_t n = memory_.placements(current_->id, obj, where, current, mo);
    if (observe_) [[unlikely]]
      model_note_ = {obj, steps_ + 1, false};
    return memory_.store(current_->id, n > 1 ? choose(n) : 0, bits, mo, steps_ + 1);
  }
  /// The read of a read-modify-write of `obj` (the step about to be taken): which store it
  /// reads, a recorded choice when it may read more than one. c11_rmw_write stores after it.
  ReadFrom c11_rmw_read(const void* obj, Where& where, std::uint64_t current, std::memory_order mo,
                        const source_location& loc) {
    const std::uint64_t n = memory_.rmw_choices(current_->id, obj, where, current, mo, loc);
    if (observe_) [[unlikely]]
      model_note_ = {obj, 0, false};
    rmw_pick_ = n > 1 ? choose(n) : 0;
    return memory_.candidate(rmw_pick_);
  }
  /// The write of the read-modify-write whose read c11_rmw_read or a succeeding c11_cas chose:
  /// `bits`, right after that store. `what` names the operation, at `loc`, for a data race's
  /// message.
  Placed c11_rmw_write(std::uint64_t bits, std::memory_order mo, const char* what,
                       const source_location& loc) {
    memory_.note_op(current_->id, AtomicOp{what, mo, loc.file_name(), loc.line()});
    model_note_.store = steps_ + 1;
    return memory_.read_modify_write(current_->id, rmw_pick_, bits, mo, steps_ + 1);
  }
  /// An atomic constructed inside the execution.
  void c11_created(const void* obj, Where& where, std::uint64_t bits) {
    memory_.created(current_->id, obj, where, bits);
  }
  /// A reducing search's part of a read's choice (memory_'s last choices): when the read may
  /// read any store coherence allows (Access::free_read), the observer is told the candidates'
  /// stores before the choice (for a compare-exchange, whose `expected` is given, also where
  /// it succeeds), and the step's access will say which it read.
  void announce_read(const void* obj, std::uint64_t n, const std::uint64_t* expected);
  /// Reads candidate `k` of the memory model's last choices (operation `what` at `loc`).
  ReadFrom c11_read(std::uint64_t k, std::memory_order mo, const char* what,
                    const source_location& loc) {
    memory_.note_op(current_->id, AtomicOp{what, mo, loc.file_name(), loc.line()});
    const ReadFrom from = memory_.read(current_->id, k, mo);
    // A store it had not seen: a loop that reads it has not gone round on the same values.
    if (from.unseen) current_->spin.size = 0;
    return from;
  }
  /// Sim::atomic_thread_fence: a seq_cst fence is a step (the fences' order is a choice).
  void thread_fence(std::memory_order mo, const source_location& loc);
  /// A Sim::cell access: a data race ends the execution with a violation naming both lines.
  void cell_access(const void* obj, bool write, const source_location& loc);
  void cell_created(const void* obj) { memory_.cell_created(obj); }
  /// Sim::harness_acq_rel: an acquire then a release of `obj`.
  void harness_acq_rel(const void* obj) { memory_.acquire_release(current_->id, obj); }

  // --- Operations with more logic than a step ------------------------------------------------
  void wait_on_address(const void* obj, bool equal, TraceValues values, const source_location& loc);
  /// notify_one/_all, wake_by_address_single/_all: wakes threads waiting on `obj`.
  void wake_address(const void* obj, bool all, std::string_view op, const source_location& loc);
  // The synchronization objects' operations take `loc` by value (it is one pointer), so the
  // objects' members tail-call them: a frame fewer to return through after a fiber switch.
  void mutex_lock(mutex& m, source_location loc);
  void mutex_unlock(mutex& m, source_location loc);
  /// mutex_lock's wait for a held mutex to be free: false in teardown (return at once);
  /// mutex_unlock of a mutex not held.
  [[gnu::noinline]] bool wait_until_free(mutex& m, source_location loc);
  [[gnu::noinline, gnu::cold]] void unlock_not_held(mutex& m, source_location loc);
  bool mutex_try_lock(mutex& m, source_location loc);
  void park(parker& p, source_location loc);
  void unpark(parker& p, source_location loc);
  void semaphore_release(counting_semaphore& s, std::ptrdiff_t n, source_location loc);
  /// Takes a token, blocking while there is none, until `deadline` on the virtual clock
  /// (kNoDeadline: none); false when it timed out.
  bool semaphore_acquire(counting_semaphore& s, std::uint64_t deadline, source_location loc);
  bool semaphore_try_acquire(counting_semaphore& s, source_location loc);
  /// Unlocks `m` and blocks on `cv` in one step, until a notify, a spurious wake or `deadline`,
  /// then locks `m` again; false when it timed out.
  bool condvar_wait(condition_variable& cv, mutex& m, std::uint64_t deadline, source_location loc);
  void condvar_notify(condition_variable& cv, bool all, source_location loc);
  /// Sim::now(): advances the virtual clock by kClockTickNs and returns it (a step that writes
  /// the clock).
  std::uint64_t clock_now(source_location loc);
  /// Blocks the current thread until no other thread can run ("Quiescence" above).
  void await_quiescence(source_location loc);
  /// The virtual clock `timeout` from now (saturating; a negative timeout is now).
  std::uint64_t deadline_after(std::int64_t timeout_ns) const {
    if (timeout_ns <= 0) return clock_;
    const auto d = static_cast<std::uint64_t>(timeout_ns);
    return d >= kNoDeadline - clock_ ? kNoDeadline - 1 : clock_ + d;
  }
  void event_set(bool& signaled, bool manual, const void* obj, source_location loc);
  void event_reset(bool& signaled, bool manual, const void* obj, source_location loc);
  /// An event's wait, until `deadline` on the virtual clock (kNoDeadline: none); false when it
  /// timed out.
  bool event_wait(bool& signaled, bool manual, const void* obj, std::uint64_t deadline,
                  source_location loc);
  bool event_try_wait(bool& signaled, bool manual, const void* obj, source_location loc);
  /// Starts a user thread; returns its id.
  ThreadId spawn(std::function<void()> fn, const source_location& loc);
  /// Waits for thread `id`; from a destructor it never unwinds.
  void join(ThreadId id, const source_location& loc, bool from_destructor = false);
  std::uint64_t epoch() const { return epoch_; }

  // --- Executor and frames -------------------------------------------------------------------
  void post(std::coroutine_handle<> h, const source_location& loc);
  void resume_on_signal(auto_reset_event& ev, std::coroutine_handle<> h,
                        const source_location& loc);
  /// Sim::resume: the scheduling point and frame checks, then h.resume() on this thread.
  /// Misuse is reported instead of resumed; in teardown the coroutine runs until its first
  /// operation (see the file comment). Never throws Unwind.
  void resume(std::coroutine_handle<> h, const source_location& loc);
  void frame_created(void* address);
  void frame_destroyed(void* address);
  void frame_awaits(void* address, const source_location& loc);
  /// Storage for a task frame of `n` bytes (Sim::frame_allocate): a frame an earlier
  /// execution freed, of that size, else fresh storage (nodes.cpp).
  void* frame_allocate(std::size_t n);
  /// A frame freed in this execution: its storage is not handed out again before the execution
  /// ends, so a primitive that reads a destroyed frame reads what the frame held.
  void quarantine(void* p, std::size_t n) { quarantine_.push_back({p, n}); }
  /// A primitive's heap node (nodes.cpp): the last freed node of size `n` in this execution,
  /// else fresh storage.
  void* node_allocate(std::size_t n);
  /// Keeps a freed node for reuse by a later node_allocate of this execution.
  void node_deallocate(void* p, std::size_t n);
  /// The end of an execution: every kept node goes back to the global allocator, the
  /// quarantined frames to the spare frames of the next execution.
  void release_nodes();
  /// In teardown, unwinds the calling fiber (throws Unwind) when that is safe.
  void abort_point_public() { abort_point(); }
  /// True while a simulated thread (not the host) runs.
  bool on_fiber() const { return current_ != nullptr; }

  // --- What a reducing search sees (Execution::steps) -----------------------------------------
  /// Whether this execution reports its steps to an observer.
  bool observing() const { return observe_; }
  /// Adds `obj` to the objects the current step touches: for data touched outside operations
  /// (Sim::cell, the scenario harness's counters), which takes no scheduling point.
  void note_access(const void* obj, bool write) {
    if (current_ != nullptr && !current_->met) [[unlikely]]
      meet_twin(source_location{});
    if (observe_ && !aborting_) touch(obj, write);
  }
  /// Whether Sim::note_access must reach the engine: a reducing search watches the accesses,
  /// and its executions (and their replays) gate symmetric actors at their first one.
  bool notes_accesses() const { return observe_ || reduced_; }
  /// The next thread the current one starts runs the same body with the same parameters as
  /// thread `twin`, and no property checked tells them apart (Sim::next_thread_twin_of).
  void next_thread_twin_of(ThreadId twin) { next_twin_ = twin; }
  /// Shared data not made by the platform (a cell, the harness's state) was just created by
  /// the current thread: it gets a stable name (object_id) for a reducing search.
  void note_created(const void* obj) {
    if (observe_ && !aborting_) name_new_object(obj);
  }

  // --- Names ---------------------------------------------------------------------------------
  void set_name(const void* obj, std::string name) { names_[obj] = std::move(name); }
  /// The name of an object in traces and reports.
  std::string name_of(Kind kind, const void* obj);
  /// Gives an object constructed inside this execution the next "<kind>#<n>".
  void register_new(Kind kind, const void* obj);

 private:
  static void fiber_entry(ctx::transfer_t transfer);
  [[noreturn]] void thread_main(Thread& self);
  void worker_loop();
  [[noreturn]] void exit_thread(Thread& self);
  void record(Kind kind, const void* obj, std::string_view op, std::string values,
              const source_location& loc);
  /// step() with its trace entry and observed accesses, or in teardown.
  void step_noted(Kind kind, const void* obj, std::string_view op, TraceValues values,
                  source_location loc, Point point, bool writes, bool touches);
  /// A blocking step's trace entry and, where `observed`, its accesses. A join, a lock or a
  /// semaphore's acquire that blocks is not observed: the exit, unlock or release it waits for
  /// wakes every waiter (a lock's or a semaphore's waiters then try again), so whether a thread
  /// waited before it or came after it changes nothing another thread can see.
  void note_block(Kind kind, const void* obj, std::string_view op, TraceValues values,
                  source_location loc, bool observed);
  /// What schedule() does once its thread runs again and finds the execution ended (teardown).
  enum class After : std::uint8_t {
    nothing,
    step,          // the operation completed: budget_point(), return false
    blocked,       // its wait did not end: abort_point() (may unwind), return false
    blocked_quiet  // the same from a destructor's wait: budget_point(), return false
  };
  /// Ends the current thread's step: lets the strategy pick who runs next and switches to it.
  /// Returns once this thread is chosen again: true, or false in teardown (see After).
  ///
  /// The one place a step switches fibers, and step() and block() end by tail-calling it. A
  /// switch resumes a fiber whose return addresses the CPU's return stack has not seen: it
  /// holds the suspended fiber's instead, and each return that differs mispredicts (a few ns
  /// each, the largest part of a step). With one call site and no frame of step() or block()
  /// left in between, the first return is always predicted and the next lands straight in the
  /// operation's caller, often the same site in both fibers.
  [[gnu::noinline]] bool schedule(bool yielded, After after);
  /// schedule()'s return when the execution ended while it waited (or as it decided).
  bool in_teardown(After after);
  void decide(bool yielded) {
    current_->spin.forget();
    schedule(yielded, After::nothing);
  }
  /// decide()'s rare turns, out of its way: the step reported to the step observer (false:
  /// the execution ended), the step bound, and a next_thread asked through the Strategy (false:
  /// the execution ended; else `*index` is the answer).
  bool report_step(const Thread& cur, std::span<const ThreadId> choices);
  void exceed_step_bound();
  bool ask_next_thread(const Thread& cur, std::span<const ThreadId> choices, bool yielded,
                       std::size_t* index);
  /// How a platform wait that blocked ended.
  enum class WaitEnd : std::uint8_t { woken, spurious, timeout, teardown };
  /// Blocks the current thread in a platform wait that may end spuriously (`spurious`:
  /// wait_on_address, park, a condition variable's wait; see "Spurious wake-ups while blocked"
  /// in the file comment) or, with a `deadline`, by its timeout ("Timeouts"). Woken so, the
  /// wait takes a step of its own, `op` on `obj` with `values` and "spurious" or "timed out", as
  /// a spurious return at the call does, before returning WaitEnd::spurious or ::timeout.
  WaitEnd block_platform_wait(Kind kind, const void* obj, Wait wait, std::string_view op,
                              TraceValues values, const source_location& loc, Point point,
                              std::uint64_t deadline = kNoDeadline, bool spurious = true);
  /// At a scheduling point after `cur`'s step, outside the reducing search's executions:
  /// whether to wake a thread blocked in a platform wait spuriously or by its timeout, and
  /// which (recorded choices, asked only when one could be; with no thread runnable only a
  /// timeout, without the first question). Returns the woken thread, which must run next, or
  /// null.
  Thread* wake_spuriously(const Thread& cur);
  /// Whether the waits that may end now are offered as their threads' own steps (the reducing
  /// search's executions; see "Spurious wake-ups while blocked" in the file comment).
  bool wait_ends_are_steps() const {
    return reduced_ && (spurious_wakeups_on_ || timed_waiters_ != 0);
  }
  /// The earliest deadline among the timed waits that may end now (kNoDeadline: none).
  std::uint64_t earliest_deadline() const;
  /// Whether `t`'s wait may end now, spuriously or by its timeout: blocked in a wait that may
  /// end so, offered (offers_spurious), and for a spurious end some thread runnable
  /// (`time_passes` false: a wait that only a spurious wake-up ends is a deadlock).
  bool wait_may_end(const Thread& t, std::uint64_t earliest, bool time_passes) const {
    if (t.state != State::blocked || !offers_spurious(t)) return false;
    const bool times_out = t.deadline == earliest && earliest != kNoDeadline;
    return times_out || (t.may_wake_spuriously && !time_passes);
  }
  /// The reducing search's choices after a step, ascending (into choices_): the runnable
  /// threads and the threads whose wait may end now. Returns the earliest deadline it used.
  std::uint64_t offer_wait_ends();
  /// What the strategy chooses among after a step: choices_ (filled by offer_wait_ends) where
  /// the ends of waits are steps (`wait_ends`), else the runnable threads.
  std::span<const ThreadId> choice_list(bool wait_ends) const {
    return wait_ends ? std::span<const ThreadId>(choices_) : std::span<const ThreadId>(runnable_);
  }
  /// Ends `t`'s wait spuriously, or by its timeout where its deadline is `earliest`; what it
  /// touches (the wait list, the clock) belongs to the step under way. `as_step`: the end is
  /// `t`'s own step (offer_wait_ends), which also reads what `t` read before the wait, and a
  /// wait that may also wake spuriously there asks which way it ends (a recorded choice).
  void end_wait(Thread& t, std::uint64_t earliest, bool as_step);
  /// No thread can run: wakes the first thread waiting for quiescence.
  void wake_quiescent();
  /// Symmetric actors, in the reducing search's executions: of two threads that run the same
  /// body with the same parameters, the later started makes its first access to a shared
  /// object (a Platform operation on one, or a noted access) only after the earlier has made
  /// its own, or has exited; until then it blocks (Wait::twin), touching nothing. An execution
  /// in which the later goes first is the mirror image of one in which the earlier does, with
  /// the same verdicts when no property names either: only one of each pair is explored. The
  /// earlier's first access writes its "met" object; the later's reads it with follows_write.
  void meet_twin(const source_location& loc);
  /// The object a thread's first shared access writes (meet_twin).
  void touch_met(const Thread& t, bool write) {
    accesses_.push_back(Access{facet_id(&t, Facet::met), write, /*follows_write=*/!write});
  }
  /// Adds an access of the current step (`follows_write`: see Access).
  void touch(const void* obj, bool write, bool follows_write = false, bool chained = false) {
    accesses_.push_back(Access{object_id(obj), write, follows_write, chained});
  }
  /// Whether the current step already touches `obj` with a write, or (`write` false) at all.
  bool covered(const void* obj, bool write) const {
    const std::uint64_t id = object_id(obj);
    for (const Access& a : accesses_) {
      if (a.object == id && (a.write || !write)) return true;
    }
    return false;
  }

  // --- The spin-loop reduction (spin.cpp; Options::spin_reduction) -------------------------
  /// step()'s part: records a read, or notices a loop, or runs a read of a spinning thread's
  /// loop without a scheduling point (returns false: the operation returns at once).
  bool spin_step(Kind kind, const void* obj, const source_location& loc, bool writes) {
    Thread& t = *current_;
    if (t.spin.spinning) return spin_turn(t);
    if (obj == nullptr) return true;  // a yield outside a spin
    if (writes) {
      t.spin.size = 0;
      t.spurious_spent = false;
      if ((read_filter_ & filter_bit(obj)) != 0) release_readers(obj);
      return true;
    }
    return note_read(t, kind, obj, loc);
  }
  /// A read `t` makes while not spinning: appended, or it closes a loop (t starts spinning, or
  /// waits at once when the loop is known to be endless alone: returns false, its step taken).
  bool note_read(Thread& t, Kind kind, const void* obj, const source_location& loc);
  /// Another read or yield of the spinning thread `t`'s loop, run without a scheduling point;
  /// after Options::spin_limit of them the loop is taken for one that never ends alone, and `t`
  /// waits for a write to what it reads (spin_wait). Returns false.
  bool spin_turn(Thread& t);
  /// before()'s turn: lets the loop's next read through, else ends the spin.
  void spin_boundary(const void* obj, const source_location& loc, bool writes);
  /// Ends the current thread's spin: when it ran operations without a scheduling point, they
  /// are one step, recorded (trace: "spin") and followed by a scheduling point.
  void end_spin(Thread& t);
  /// `t` has spun alone for Options::spin_limit operations, or its loop is known to: it blocks
  /// (Wait::spin) until a write to an object its loop reads.
  void spin_wait(Thread& t);
  /// The current thread writes `obj`: every other thread that read it since its own last write
  /// forgets its reads, and one that waits in a spin on it runs again; a thread whose platform
  /// wait read it may return spuriously again (spurious_spent).
  void release_readers(const void* obj);
  /// Whether a spurious return of `t` may be offered now. In the reducing search's executions
  /// (Execution::reduced), not when its last spurious return led back to a wait with nothing it
  /// read written since: that return would reach the state the last one did. The condition is
  /// the spin loops' (spin.cpp).
  bool offers_spurious(const Thread& t) const {
    return !reduced_ || !spin_reduction_ || !t.spurious_spent;
  }
  /// Before `t` waits on `obj` in a platform wait: what it read, for release_readers.
  void note_wait_reads(Thread& t, const void* obj);
  /// A bit of read_filter_ for `obj`.
  static std::uint64_t filter_bit(const void* obj) {
    return std::uint64_t{1} << ((reinterpret_cast<std::uintptr_t>(obj) >> 3) & 63);
  }
  /// The trace entry of a spin's step: its loop's first read, and what it did.
  void record_spin(const Thread& t, bool waits);
  /// The loop's lines, "file:line, file:line", for a livelock's message.
  static std::string spin_lines(const Thread& t);
  /// The list of threads blocked on `obj`, as an object of its own: a blocking step reads obj
  /// and writes its waiters; a step that wakes waiters writes both.
  void touch_waiters(const void* obj, bool write = true) {
    accesses_.push_back(Access{facet_id(obj, Facet::waiters), write});
  }
  /// The chain of a mutex's acquisitions, which every lock writes: two locks are dependent
  /// through it, a lock and the unlock it follows are not a race (Access::follows_write).
  void touch_acquisitions(const void* obj) {
    accesses_.push_back(Access{facet_id(obj, Facet::acquisitions), true});
  }
  /// A semaphore's acquire, as a reducing search sees it: a write of the semaphore and of its
  /// acquisitions' chain, so that two acquires are a race even when a release came between.
  /// `last_token`: it takes the one token there is, which only the last write (a release from
  /// none) can have given, so it is ordered after that write, never reordered before it.
  void observe_acquisition(const void* obj, bool last_token) {
    if (!observe_ || aborting_) return;
    touch(obj, true, last_token, /*chained=*/true);
    touch_acquisitions(obj);
  }
  /// Parts of an object that a reducing search sees as objects of their own, each named by the
  /// object's id with a bit of its own set (the bit is its value).
  enum class Facet : unsigned { met = 60, acquisitions = 61, waiters = 62 };
  std::uint64_t facet_id(const void* obj, Facet f) const {
    return object_id(obj) + (std::uint64_t{1} << static_cast<unsigned>(f));
  }
  /// A stable name for `obj`, the same in every execution and every process that runs the
  /// same program: (creating thread, creation order) for an object created in the execution
  /// (Platform objects, coroutine frames, cells and harness state that tell the engine, see
  /// note_created), the thread's id for a thread record or its parker, a constant for the
  /// pool's queue; else its address (an object made before the executions keeps it).
  std::uint64_t object_id(const void* obj) const;
  /// Gives an object created now by the current thread its stable name.
  void name_new_object(const void* obj);
  /// Objects the engine owns across executions, named by what they are, not where they live.
  enum class FixedObject : std::uint8_t { thread, parker, engine };
  void name_fixed_object(const void* obj, FixedObject kind, std::uint64_t n);
  void no_runnable();
  void end_execution(Outcome outcome, std::string_view property, std::string message,
                     const source_location* loc);
  void abort_point();
  void budget_point();
  [[noreturn]] void abandon(Thread& t);
  void teardown();
  void tear_down(Thread& t);
  ThreadId new_thread(std::function<void()> fn, bool worker);
  void make_runnable(Thread& t) { runnable_.add(t.id); }
  void make_blocked(Thread& t) { runnable_.remove(t.id); }
  /// The threads blocked on `obj` in `wait`, in id order, into scratch_.
  void collect_waiters(const void* obj, Wait wait);
  /// Wakes every thread blocked on `obj` in `wait` (collect_waiters' scan, without the list);
  /// returns how many.
  std::size_t wake_all_waiters(const void* obj, Wait wait) {
    if (observe_ && !aborting_) touch_waiters(obj);
    std::size_t woken = 0;
    for (std::uint32_t i = 0; i < thread_count_; ++i) {
      Thread& t = *threads_[i];
      if (t.state == State::blocked && t.wait == wait && t.wait_obj == obj) {
        wake(t, false);
        ++woken;
      }
    }
    return woken;
  }
  void wake(Thread& t, bool handed) {
    t.state = State::runnable;
    t.wait = Wait::none;
    t.handed = handed;
    make_runnable(t);
  }
  void enqueue(std::coroutine_handle<> h, const source_location& loc);
  /// Teardown: whether h may still run (not a destroyed, finished or queued frame, nor one that
  /// never ran, and not on the host).
  bool runnable_in_teardown(std::coroutine_handle<> h);
  /// h.resume(); an Unwind raised inside stops here (the coroutine is left at its final
  /// suspension point).
  void run_coroutine(std::coroutine_handle<> h);
  FrameRecord* frame(void* address);
  std::string frame_name(const FrameRecord& f) const;
  /// "suspended at the co_await at F:L; last resumed or queued at F:L" (or queued, or
  /// registered for a signal).
  static std::string frame_state(const FrameRecord& f);
  /// Neither destroyed nor finished.
  static bool live_frame(const FrameRecord& f);
  /// "t2 destroyed after step 16": who destroyed a destroyed frame, and when.
  static std::string destroyed_when(const FrameRecord& f);
  void check_frames_at_end();
  /// The deadlock's (or, `spinning`, the livelock's) message: every blocked thread and why.
  std::string wait_for_picture(bool spinning);
  static void on_terminate();

  Options options_;
  /// The execution's memory model (memory.hpp), on when Execution::memory is c11.
  bool c11_ = false;
  std::uint64_t rmw_pick_ = 0;  // the store the current read-modify-write reads (c11)
  /// Under the C++ model, what a reducing search is told of the current step's atomic access
  /// (Access::store, Access::free_read), set by the c11_ operations and taken by step_noted.
  struct ModelNote {
    const void* obj = nullptr;
    std::uint64_t store = 0;
    bool free_read = false;
    bool closers = false;  // a failing compare-exchange: Memory::closers() are its races
  };
  ModelNote model_note_;
  std::vector<std::uint64_t> announced_;        // announce_read's stores
  std::vector<std::uint8_t> announced_writes_;  // and, for a compare-exchange, its successes
  Memory memory_;
  /// What a seq_cst fence touches, for a reducing search (their order is what they order).
  char sc_fences_ = 0;
  /// The execution's virtual clock in nanoseconds (see "Timeouts" in the file comment), and
  /// how many threads block in a timed wait (counted by block_platform_wait).
  std::uint64_t clock_ = 0;
  std::uint32_t timed_waiters_ = 0;
  std::uint32_t quiescence_waiters_ = 0;
  char quiescence_ = 0;  // the object a quiescence wait blocks on (its address only)
  bool tracing_;
  bool spin_reduction_;
  /// The filter_bit of every object a thread has kept a read of in this execution: a write to
  /// an object whose bit is clear has no reader to release.
  std::uint64_t read_filter_ = 0;
  bool spurious_wakeups_on_ = false;
  bool reduced_ = false;         // Execution::reduced, fixed when run() starts
  std::int64_t next_twin_ = -1;  // next_thread_twin_of, for the next spawn
  bool spurious_cas_failures_on_ = false;
  StackPool stacks_;
  Strategy* strategy_ = nullptr;
  /// The execution's uniform draws (Execution::draws): with a generator, decide() and choose()
  /// draw (and record) the answers themselves instead of two virtual calls each.
  UniformDraws draws_;
  StepObserver* observer_ = nullptr;  // the execution's (Execution::steps), or null
  bool observe_ = false;              // observer_ != nullptr
  bool event_open_ = false;           // the current thread's step has not been reported yet
  std::vector<Access> accesses_;      // the current step's, when observed
  AddressMap<std::uint64_t> ids_;     // objects created in this execution
  std::uint64_t epoch_ = 0;
  std::uint64_t steps_ = 0;
  bool aborting_ = false;
  bool tearing_down_ = false;
  Context host_;
  Thread* current_ = nullptr;
  std::vector<std::unique_ptr<Thread>> threads_;  // records reused across executions
  std::uint32_t thread_count_ = 0;
  std::uint32_t live_user_threads_ = 0;
  RunnableSet runnable_;
  std::vector<Thread*> scratch_;
  std::vector<Thread*> spurious_candidates_;  // wake_spuriously's, in id order
  std::vector<ThreadId> choices_;             // offer_wait_ends'
  ExecutionResult result_;
  std::vector<TraceEntry> spare_trace_;  // storage handed back through recycle()
  std::size_t last_trace_size_ = 0;      // to size the next trace in one allocation
  AddressMap<std::uint32_t> serials_;
  std::array<std::uint32_t, static_cast<std::size_t>(Kind::count)> kind_counts_{};
  std::map<const void*, std::string> names_;  // set inside this execution
  parker host_parker_;
  // Executor.
  bool workers_started_ = false;
  std::vector<PoolItem> queue_;
  std::vector<PoolWait> pool_waits_;
  // Frames.
  std::vector<FrameRecord> frames_;
  AddressMap<std::uint32_t> frame_index_;
  struct FreedFrame {
    void* storage;
    std::size_t size;
  };
  std::vector<FreedFrame> quarantine_;
  // Frames freed by earlier executions, for frame_allocate: an execution's frames then cost
  // no call to the global allocator.
  FreeList spare_frames_;
  // Primitives' heap nodes freed in this execution: reused before the global allocator is
  // asked, so reuse follows the execution alone (nodes.cpp).
  FreeList free_nodes_;
};

/// The engine running an execution on this OS thread; null outside run().
inline thread_local Engine* t_engine = nullptr;

/// Gives an object constructed inside an execution its "<kind>#<n>" creation-order name.
void register_object(Kind kind, const void* obj);

/// A source file as traces print it: relative to the source tree when inside it (trace.cpp).
std::string_view short_file(const char* file);

}  // namespace detail
}  // namespace syncstress::sim
