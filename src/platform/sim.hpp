// The `sim` platform: every operation is a scheduling point of the deterministic runtime.
//
// Primitives compiled against syncstress::Sim run on simulated threads (fibers) inside
// sim::Runtime::run(); every operation is recorded in the trace with the primitive's own
// source line, then the Strategy picks who runs next. By default sequentially consistent:
// memory orders are accepted and ignored. Under the C++ memory model (an execution whose
// strategy says memory=c11; src/sim/memory.hpp) a load may read an older store than the
// newest, the memory orders and fences decide what happens before what, and cell<T> accesses
// not ordered by it are a data race. cell<T> accesses are never scheduling points. Outside an
// execution the operations act directly on their objects, single-threaded; one that would
// block forever throws std::logic_error.
#pragma once

#include <chrono>
#include <concepts>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "sim/engine.hpp"
#include "sim/runtime.hpp"
#include "sim/sync_objects.hpp"

namespace syncstress {

namespace sim::detail {

/// Whether a 64-bit integer holds an address, as primitives that keep a waiter list in a
/// `std::uintptr_t` do: a value from 2^44 to 2^48, where Linux maps user memory (heaps of
/// position-independent programs from 0x55..., other mappings and stacks up to 0x7fff...),
/// above any count a bounded execution reaches and below the high bits packed words use as
/// flags. The low 3 bits are kept: tags on aligned addresses.
inline bool holds_address(std::uint64_t v) { return v >= (1ULL << 44) && v < (1ULL << 48); }

/// How a value appears in a trace: integers and bools printed, pointers only as null or
/// non-null and 64-bit integers that hold an address as "address" (addresses differ from one
/// run of an execution to the next), other types by size.
template <class T>
std::string show(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
    return v ? "non-null" : "null";
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (sizeof(T) == 8) {
      const auto bits = static_cast<std::uint64_t>(v);
      if (holds_address(bits)) {
        const std::uint64_t tag = bits & 7U;
        return tag == 0 ? "address" : "address|" + std::to_string(tag);
      }
    }
    return std::to_string(v);
  } else {
    return "<" + std::to_string(sizeof(T)) + " bytes>";
  }
}

template <class T>
bool same_bits(const T& a, const T& b) {
  // NOLINTNEXTLINE(bugprone-sizeof-expression): T may be a pointer; its bits are compared.
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// A value's bits as the memory model keeps them (values of up to 8 bytes).
template <class T>
std::uint64_t bits_of(const T& v) {
  std::uint64_t b = 0;
  // NOLINTNEXTLINE(bugprone-sizeof-expression): T may be a pointer; its bits are kept.
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
/// `like` with the bits `b` (T need not be default-constructible).
template <class T>
T with_bits(T like, std::uint64_t b) {
  // NOLINTNEXTLINE(bugprone-sizeof-expression): T may be a pointer; its bits are set.
  std::memcpy(&like, &b, sizeof(T));
  return like;
}
/// The engine, when the running execution follows the C++ memory model and T is one it keeps
/// (at most 8 bytes; a larger atomic stays sequentially consistent); else null.
template <class T>
Engine* c11_engine() {
  // NOLINTNEXTLINE(bugprone-sizeof-expression): T may be a pointer; its size is compared.
  if constexpr (sizeof(T) <= sizeof(std::uint64_t)) {
    Engine* e = t_engine;
    return e != nullptr && e->c11() ? e : nullptr;
  } else {
    return nullptr;
  }
}
/// A compare-exchange's failure order when only one order is given (as std::atomic derives it).
constexpr std::memory_order failure_order(std::memory_order mo) {
  if (mo == std::memory_order_acq_rel) return std::memory_order_acquire;
  if (mo == std::memory_order_release) return std::memory_order_relaxed;
  return mo;
}

}  // namespace sim::detail

struct Sim {
  template <class T>
  class atomic {
    static_assert(std::is_trivially_copyable_v<T>, "Sim::atomic<T> needs a trivially copyable T");
    using Kind = sim::detail::Kind;

   public:
    atomic() noexcept(std::is_nothrow_default_constructible_v<T>) : v_() { named(); }
    atomic(T v) noexcept : v_(v) {
      named();
    }  // NOLINT(google-explicit-constructor): as std::atomic
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    T load(std::memory_order mo = std::memory_order_seq_cst,
           source_location loc = source_location::current()) const {
      ahead(loc, false);
      if (auto* e = sim::detail::c11_engine<T>()) [[unlikely]]
        return weak_load(*e, mo, loc);
      T r = v_;
      op(
          "load", [&] { return sim::detail::show(r); }, loc, kUnwind, kReads);
      return r;
    }
    void store(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) {
      // Under the C++ model every store is a new one, whatever the value.
      ahead(loc, weak() || !sim::detail::same_bits(v_, v));
      if (auto* e = sim::detail::c11_engine<T>()) [[unlikely]] {
        // It may go before stores already made: the value is the newest store's.
        const sim::detail::Placed at = e->c11_store(this, where_, bits(v_), bits(v), mo, loc);
        v_ = sim::detail::with_bits(v_, at.newest);
        op(
            "store", [&] { return sim::detail::show(v) + at.note(); }, loc,
            sim::detail::Point::plain, true);
        return;
      }
      const bool writes = !sim::detail::same_bits(v_, v);
      v_ = v;
      op(
          "store", [&] { return sim::detail::show(v); }, loc, sim::detail::Point::plain, writes);
    }
    T exchange(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) {
      ahead(loc, weak() || !sim::detail::same_bits(v_, v));
      if (auto* e = sim::detail::c11_engine<T>()) [[unlikely]]
        return weak_rmw(
            *e, "exchange", [v](T) { return v; }, mo, kUnwind, loc);
      T old = std::exchange(v_, v);
      op(
          "exchange", [&] { return arrow(old, v); }, loc, kUnwind, !sim::detail::same_bits(old, v));
      return old;
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure,
                               source_location loc = source_location::current()) {
      return cas(expected, desired, true, success, failure, loc);
    }
    bool compare_exchange_weak(T& expected, T desired,
                               std::memory_order mo = std::memory_order_seq_cst,
                               source_location loc = source_location::current()) {
      return cas(expected, desired, true, mo, sim::detail::failure_order(mo), loc);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure,
                                 source_location loc = source_location::current()) {
      return cas(expected, desired, false, success, failure, loc);
    }
    bool compare_exchange_strong(T& expected, T desired,
                                 std::memory_order mo = std::memory_order_seq_cst,
                                 source_location loc = source_location::current()) {
      return cas(expected, desired, false, mo, sim::detail::failure_order(mo), loc);
    }

    T fetch_add(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires std::integral<T> &&
        (!std::same_as<T, bool>) {
      return rmw(
          "fetch_add", [v](T cur) { return static_cast<T>(cur + v); }, mo, loc);
    }
    T fetch_sub(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires std::integral<T> &&
        (!std::same_as<T, bool>) {
      return rmw(
          "fetch_sub", [v](T cur) { return static_cast<T>(cur - v); }, mo, loc);
    }
    T fetch_and(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires std::integral<T> &&
        (!std::same_as<T, bool>) {
      return rmw(
          "fetch_and", [v](T cur) { return static_cast<T>(cur & v); }, mo, loc);
    }
    T fetch_or(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) requires std::integral<T> &&
        (!std::same_as<T, bool>) {
      return rmw(
          "fetch_or", [v](T cur) { return static_cast<T>(cur | v); }, mo, loc);
    }
    T fetch_xor(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires std::integral<T> &&
        (!std::same_as<T, bool>) {
      return rmw(
          "fetch_xor", [v](T cur) { return static_cast<T>(cur ^ v); }, mo, loc);
    }

    /// Blocks while the value equals `old`; never returns spuriously (std::atomic::wait).
    void wait(T old, std::memory_order mo = std::memory_order_seq_cst,
              source_location loc = source_location::current()) const {
      for (;;) {
        ahead(loc, sim::detail::same_bits(v_, old));
        sim::detail::Engine* e = sim::detail::t_engine;
        if (!sim::detail::same_bits(v_, old)) {
          // It compares the newest store (a futex reads memory as it is).
          if (auto* w = sim::detail::c11_engine<T>())
            w->c11_read_newest(this, where_, bits(v_), mo);
          op(
              "wait", [&] { return "value " + sim::detail::show(v_); }, loc, kUnwind, kReads);
          return;
        }
        if (e == nullptr) throw std::logic_error("Sim::atomic::wait would block forever");
        auto on = [&] { return "on " + sim::detail::show(old); };
        if (!e->block(Kind::atomic, this, sim::detail::Wait::address, "wait", on, loc)) {
          return;
        }
      }
    }
    void notify_one(source_location loc = source_location::current()) {
      if (auto* e = sim::detail::t_engine) e->wake_address(this, false, "notify_one", loc);
    }
    void notify_all(source_location loc = source_location::current()) {
      if (auto* e = sim::detail::t_engine) e->wake_address(this, true, "notify_all", loc);
    }

   private:
    friend struct Sim;
    void named() {
      if (sim::detail::t_engine) sim::detail::register_object(Kind::atomic, this);
      if (auto* e = sim::detail::c11_engine<T>()) e->c11_created(this, where_, bits(v_));
    }
    static bool weak() { return sim::detail::c11_engine<T>() != nullptr; }
    static std::uint64_t bits(const T& v) { return sim::detail::bits_of(v); }
    /// A load under the C++ model: the store it reads is a choice (engine.hpp, c11_load).
    T weak_load(sim::detail::Engine& e, std::memory_order mo, const source_location& loc) const {
      const sim::detail::ReadFrom from = e.c11_load(this, where_, bits(v_), mo, loc);
      const T r = sim::detail::with_bits(v_, from.bits);
      op(
          "load", [&] { return sim::detail::show(r) + from.note(); }, loc, kUnwind, kReads);
      return r;
    }
    template <class F>
    void op(std::string_view name, F&& values, const source_location& loc,
            sim::detail::Point point = sim::detail::Point::plain, bool writes = true) const {
      // The values are formatted by the engine, only when it records a trace.
      if (auto* e = sim::detail::t_engine) {
        e->step(Kind::atomic, this, name, values, loc, point, writes);
      }
    }
    /// Before the operation acts (Engine::before): `writes` when it would change the value.
    void ahead(const source_location& loc, bool writes) const {
      if (auto* e = sim::detail::t_engine) e->before(this, loc, writes);
    }
    static constexpr sim::detail::Point kUnwind = sim::detail::Point::unwind;
    static constexpr bool kReads = false;  // op(): the operation changed nothing
    static std::string arrow(const T& a, const T& b) {
      return sim::detail::show(a) + " -> " + sim::detail::show(b);
    }
    /// A read-modify-write whose new value is `next(old)`. One that leaves the value as it was
    /// changes nothing another thread can see (sim is sequentially consistent): for a reducing
    /// search and for the spin-loop reduction it is a read.
    template <class Next>
    T rmw(std::string_view name, Next next, std::memory_order mo, const source_location& loc) {
      ahead(loc, weak() || !sim::detail::same_bits(v_, next(v_)));
      if (auto* e = sim::detail::c11_engine<T>()) [[unlikely]]
        return weak_rmw(*e, name, next, mo, sim::detail::Point::plain, loc);
      const T value = next(v_);
      T old = std::exchange(v_, value);
      op(
          name, [&] { return arrow(old, value); }, loc, sim::detail::Point::plain,
          !sim::detail::same_bits(old, value));
      return old;
    }
    /// A read-modify-write under the C++ model: the store it reads is a choice (engine.hpp,
    /// c11_rmw_read), its new value `next` of that store's; the atomic keeps the newest value.
    template <class Next>
    T weak_rmw(sim::detail::Engine& e, std::string_view name, Next next, std::memory_order mo,
               sim::detail::Point point, const source_location& loc) {
      const sim::detail::ReadFrom from = e.c11_rmw_read(this, where_, bits(v_), mo, loc);
      const T old = sim::detail::with_bits(v_, from.bits);
      const T value = next(old);
      v_ = sim::detail::with_bits(v_, e.c11_rmw_write(bits(value), mo, name.data(), loc).newest);
      op(
          name, [&] { return arrow(old, value) + from.note(); }, loc, point, true);
      return old;
    }
    bool cas(T& expected, T desired, bool weak, std::memory_order success,
             std::memory_order failure, const source_location& loc) {
      ahead(loc, sim::detail::same_bits(v_, expected) &&
                     (this->weak() || !sim::detail::same_bits(v_, desired)));
      if (auto* e = sim::detail::c11_engine<T>()) [[unlikely]]
        return weak_cas(*e, expected, desired, weak, success, failure, loc);
      const std::string_view name = weak ? "cas_weak" : "cas_strong";
      if (!sim::detail::same_bits(v_, expected)) {
        expected = v_;
        op(
            name, [&] { return "failed, saw " + sim::detail::show(expected); }, loc, kUnwind,
            kReads);
        return false;
      }
      auto* e = sim::detail::t_engine;
      if (weak && e && e->inject(e->spurious_cas_failures_on())) {
        op(
            name, [] { return std::string("spurious failure"); }, loc, kUnwind, kReads);
        return false;
      }
      T old = std::exchange(v_, desired);
      op(
          name, [&] { return arrow(old, desired); }, loc, kUnwind,
          !sim::detail::same_bits(old, desired));
      return true;
    }

    /// A compare-exchange under the C++ model: a failing one may read an older store.
    bool weak_cas(sim::detail::Engine& e, T& expected, T desired, bool weak,
                  std::memory_order success, std::memory_order failure,
                  const source_location& loc) {
      const std::string_view name = weak ? "cas_weak" : "cas_strong";
      bool succeeds = false;
      const sim::detail::ReadFrom from =
          e.c11_cas(this, where_, bits(v_), bits(expected), failure, name.data(), loc, &succeeds);
      if (!succeeds) {
        expected = sim::detail::with_bits(v_, from.bits);
        op(
            name, [&] { return "failed, saw " + sim::detail::show(expected) + from.note(); }, loc,
            kUnwind, kReads);
        return false;
      }
      if (weak && e.inject(e.spurious_cas_failures_on())) {
        e.c11_read_newest(this, where_, bits(v_), failure);
        op(
            name, [] { return std::string("spurious failure"); }, loc, kUnwind, kReads);
        return false;
      }
      const T old = sim::detail::with_bits(v_, from.bits);
      v_ = sim::detail::with_bits(v_,
                                  e.c11_rmw_write(bits(desired), success, name.data(), loc).newest);
      op(
          name, [&] { return arrow(old, desired) + from.note(); }, loc, kUnwind, true);
      return true;
    }

    T v_;
    // Its location in the C++ model (memory=c11) in the current execution, found once.
    mutable sim::detail::Where where_{};
  };

  /// Plain shared data. with/with_mut are not scheduling points: races on cells are Relacy's
  /// job; sim only interleaves at platform operations.
  template <class T>
  class cell {
   public:
    cell() { created(); }
    explicit cell(T v) : v_(std::move(v)) { created(); }
    /// Under the C++ memory model (memory=c11) an access not ordered by happens-before with
    /// another thread's earlier access, one of them a write, ends the execution with a
    /// data_race naming both lines.
    template <class F>
    decltype(auto) with(F&& f, source_location loc = source_location::current()) const {
      note_access(this, false);
      if (auto* e = sim::detail::t_engine; e != nullptr && e->c11()) [[unlikely]]
        e->cell_access(this, false, loc);
      return std::forward<F>(f)(static_cast<const T&>(v_));
    }
    template <class F>
    decltype(auto) with_mut(F&& f, source_location loc = source_location::current()) {
      note_access(this, true);
      if (auto* e = sim::detail::t_engine; e != nullptr && e->c11()) [[unlikely]]
        e->cell_access(this, true, loc);
      return std::forward<F>(f)(v_);
    }

   private:
    void created() {
      note_created(this);
      if (auto* e = sim::detail::t_engine; e != nullptr && e->c11()) e->cell_created(this);
    }
    T v_{};
  };

  /// Tells a reducing search (exhaustive with reduction) that the current step reads or
  /// writes `object`, shared data that is not a Platform object (a cell's value, the scenario
  /// harness's counters): steps that touch it are then ordered as they happened, in every
  /// execution the search counts as equivalent. Adds no scheduling point; nothing outside an
  /// execution or when no reduction runs.
  static void note_access(const void* object, bool write) {
    if (auto* e = sim::detail::t_engine; e != nullptr && e->notes_accesses()) {
      e->note_access(object, write);
    }
  }
  /// The harness's own acq_rel read-modify-write of a std::atomic at `object` (task<Sim>'s
  /// hand-off between a finishing coroutine and the one awaiting it): under the C++ memory
  /// model it orders what came before it on one side before what comes after it on the other,
  /// as it does on real threads. No step; nothing under the sequentially consistent model.
  static void harness_acq_rel(const void* object) {
    if (auto* e = sim::detail::t_engine; e != nullptr && e->c11()) e->harness_acq_rel(object);
  }
  /// Tells a reducing search that the current thread has just made `object`, shared data that
  /// is not a Platform object and that note_access will name: it is then known by its creator
  /// and creation order, as Platform objects are, not by its address (which another execution
  /// or process need not repeat). Nothing outside an execution or when no reduction runs.
  static void note_created(const void* object) {
    if (auto* e = sim::detail::t_engine; e != nullptr && e->observing()) e->note_created(object);
  }

  using mutex = sim::mutex;
  using parker = sim::parker;
  using auto_reset_event = sim::auto_reset_event;
  using manual_reset_event = sim::manual_reset_event;
  using counting_semaphore = sim::counting_semaphore;
  using condition_variable = sim::condition_variable;

  /// The execution's virtual clock (sim/engine.hpp, "Timeouts"): it starts at 0 and advances by
  /// a microsecond at each now() and to a timed wait's deadline when the wait times out. A step
  /// that writes the clock, so a loop that polls it until a deadline ends. Outside an
  /// execution: 0.
  static std::chrono::steady_clock::time_point now(
      source_location loc = source_location::current()) {
    std::uint64_t ns = 0;
    if (auto* e = sim::detail::t_engine) ns = e->clock_now(loc);
    return std::chrono::steady_clock::time_point(
        std::chrono::nanoseconds(static_cast<std::int64_t>(ns)));
  }

  /// Blocks while `a` holds `expected`. Returns on a wake, at once if the value differs, or
  /// spuriously when Options::spurious_wakeups is on (a recorded choice, at the call or later
  /// while blocked).
  template <class T>
  static void wait_on_address(atomic<T>& a, std::type_identity_t<T> expected,
                              source_location loc = source_location::current()) {
    static_assert(sizeof(T) == 4, "wait_on_address takes a 4-byte word");
    auto* e = sim::detail::t_engine;
    if (e != nullptr) e->before(&a, loc, sim::detail::same_bits(a.v_, expected));
    const bool equal = sim::detail::same_bits(a.v_, expected);
    if (e == nullptr) {
      if (equal) throw std::logic_error("Sim::wait_on_address would block forever");
      return;
    }
    auto on = [&] { return "on " + sim::detail::show(expected); };
    e->wait_on_address(&a, equal, on, loc);
  }
  /// Wakes one thread waiting on `a` (chosen by the strategy if several).
  template <class T>
  static void wake_by_address_single(atomic<T>& a,
                                     source_location loc = source_location::current()) {
    if (auto* e = sim::detail::t_engine) e->wake_address(&a, false, "wake_single", loc);
  }
  template <class T>
  static void wake_by_address_all(atomic<T>& a, source_location loc = source_location::current()) {
    if (auto* e = sim::detail::t_engine) e->wake_address(&a, true, "wake_all", loc);
  }

  /// The calling simulated thread's parker.
  static parker& current_parker();
  /// A scheduling point that tells the strategy the thread is spinning. Inline, as the atomics'
  /// operations are: a spin loop's step returns straight into it after a fiber switch.
  static void yield(source_location loc = source_location::current()) {
    if (auto* e = sim::detail::t_engine) {
      e->step(sim::detail::Kind::none, nullptr, "yield", {}, loc, sim::detail::Point::yield);
    }
  }

  /// A CPU pause hint in a spin loop: a scheduling point, as yield is.
  static void pause(source_location loc = source_location::current()) {
    if (auto* e = sim::detail::t_engine) {
      e->step(sim::detail::Kind::none, nullptr, "pause", {}, loc, sim::detail::Point::yield);
    }
  }

  /// Fences. Sequentially consistent (the default), every operation is, so a fence orders
  /// nothing a thread could see: it is no scheduling point and leaves no trace. Under the C++
  /// model (memory=c11) a thread fence orders as C++ says; a seq_cst one is a step, the others
  /// change only what their thread's later operations carry or take. A signal fence orders a
  /// thread against its own signal handlers, which sim has none of.
  static void atomic_thread_fence(std::memory_order mo,
                                  source_location loc = source_location::current()) {
    if (auto* e = sim::detail::t_engine; e != nullptr && e->c11()) e->thread_fence(mo, loc);
  }
  static void atomic_signal_fence(std::memory_order,
                                  source_location = source_location::current()) noexcept {}

  /// Runs `h` on a simulated pool worker (via resume).
  static void post(std::coroutine_handle<> h, source_location loc = source_location::current());
  /// Once `e` is signaled (and this registration is chosen), consumes the signal and posts h.
  static void resume_on_signal(auto_reset_event& e, std::coroutine_handle<> h,
                               source_location loc = source_location::current());
  /// Resumes `h` on the calling thread; refuses (and reports) a destroyed, finished or queued
  /// task<Sim> frame.
  static void resume(std::coroutine_handle<> h, source_location loc = source_location::current());

  /// A simulated thread; the destructor joins if still joinable (as std::jthread).
  class thread {
   public:
    // F must be invocable, which a thread is not: the move constructor stays in charge.
    // NOLINTBEGIN(bugprone-forwarding-reference-overload)
    template <class F>
    requires std::invocable < std::decay_t<F>
    & > explicit thread(F&& f, source_location loc = source_location::current())
        : id_(start(std::function<void()>(std::forward<F>(f)), loc)) {}
    // NOLINTEND(bugprone-forwarding-reference-overload)
    thread(thread&& other) noexcept
        : epoch_(other.epoch_), id_(other.id_), joinable_(std::exchange(other.joinable_, false)) {}
    thread& operator=(thread&&) = delete;
    thread(const thread&) = delete;
    // NOLINTNEXTLINE(bugprone-exception-escape): joins without unwinding (see Engine::join).
    ~thread();
    /// Waits for the thread's function to return. Precondition: not joined before.
    void join(source_location loc = source_location::current());
    /// The simulated thread's id.
    ThreadId id() const { return id_; }

   private:
    ThreadId start(std::function<void()> fn, const source_location& loc);
    // epoch_ before id_: start() (which initializes id_) sets epoch_, and a default member
    // initializer running after it would reset epoch_ to 0 and make join() a no-op.
    std::uint64_t epoch_ = 0;
    ThreadId id_;
    bool joinable_ = true;
  };

  /// The next thread the current thread starts runs the same body with the same parameters as
  /// `twin`, and no property checked tells the two apart: a reducing search explores only the
  /// executions in which `twin` makes its first access to a shared object first (their mirror
  /// images have the same verdicts). Nothing outside an execution.
  static void next_thread_twin_of(const thread& twin) {
    if (auto* e = sim::detail::t_engine; e != nullptr) e->next_thread_twin_of(twin.id());
  }

  /// A property check; a failure ends the execution with a violation ("check", `what`, the
  /// caller's line). Not a scheduling point. Outside an execution a failure throws
  /// std::logic_error.
  static void check(bool ok, std::string_view what,
                    source_location loc = source_location::current()) {
    if (!ok) [[unlikely]]
      check_failed(what, loc);
  }

  /// Frame storage: freed storage is quarantined until the execution ends, so a primitive
  /// that reads a destroyed frame reads stale memory, not freed memory; later executions
  /// reuse it.
  static void* frame_allocate(std::size_t n) {
    if (auto* e = sim::detail::t_engine) return e->frame_allocate(n);
    return ::operator new(n);
  }
  static void frame_deallocate(void* p, std::size_t n) {
    if (auto* e = sim::detail::t_engine) {
      e->quarantine(p, n);
    } else {
      ::operator delete(p, n);
    }
  }
  /// Storage for a primitive's own heap nodes (a work queue's items). Inside an execution a
  /// freed node is kept by the execution and handed out again, last freed first, per size (as
  /// malloc's caches do), before the global allocator is asked: whether a new node gets a freed
  /// one's address, and so the outcome of a compare-exchange on pointers (ABA), follows from
  /// the schedule alone, not from what the process allocated before. Everything kept goes
  /// back to the allocator when the execution ends.
  static void* node_allocate(std::size_t n);
  static void node_deallocate(void* p, std::size_t n);
  static void frame_created(std::coroutine_handle<> h) {
    if (auto* e = sim::detail::t_engine) e->frame_created(h.address());
  }
  static void frame_destroyed(std::coroutine_handle<> h) {
    if (auto* e = sim::detail::t_engine) e->frame_destroyed(h.address());
  }
  /// Kept for the deadlock picture: where each suspended coroutine waits.
  static void frame_awaits(std::coroutine_handle<> h, const source_location& loc) {
    if (auto* e = sim::detail::t_engine) e->frame_awaits(h.address(), loc);
  }

 private:
  static void check_failed(std::string_view what, const source_location& loc);
};

static_assert(Platform<Sim>);

}  // namespace syncstress
