// The `relacy` platform: every Platform operation is one of Relacy's modelled operations.
//
// Relacy runs the threads of a test as fibers and, at each atomic operation, chooses which
// thread goes next and which value a load may see under the C++ memory model (relaxed loads
// may read stale stores, acquire/release pairs order what they order and nothing more). Plain
// shared data kept in a `cell` is checked for data races: two accesses, one a write, that no
// happens-before edge orders, fail the iteration. So a primitive that forgets a release, or
// publishes with a relaxed store, is caught here even though sim (sequentially consistent) and
// real (x86's strong ordering) let it pass.
//
// What maps to what:
//   atomic<T>          rl::atomic<T>, every memory order passed through;
//                      wait/notify and wait_on_address model a futex, as Relacy's own
//                      futex(2) does: the check of the value and the sleep are one step.
//   cell<T>            the value itself plus an rl::var<int> shadow that every access reads
//                      (with) or writes (with_mut): Relacy's race detector sees the accesses.
//   mutex              rl::mutex (std::mutex semantics; unlocking a mutex one does not hold
//                      fails the iteration).
//   wait_on_address    may return spuriously: Relacy explores spurious returns.
//   parker             a per-thread permit on an rl::atomic, slept on like a futex.
//   events             Relacy's model of Win32 events.
//   post / resume_on_signal / thread   Relacy dynamic threads: a posted coroutine runs on a
//                      fresh modelled thread, so the pool's interleavings are explored too.
//   check              fails the iteration with the check's text.
//
// Relacy's objects belong to one iteration: construct them inside a test (its members, its
// before(), its threads). The per-thread parkers live in an IterationScope the test owns.
//
// The header includes <relacy/relacy.hpp> and then removes the macros it defines for test
// code (new, delete, malloc, assert, memory_order_*, VAR...): the primitives are written
// against std::memory_order and must compile unchanged. Include it after every standard or
// third-party header of the translation unit: relacy.hpp also defines pthread and Win32 names
// as macros, which would rewrite any header that comes later.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>  // std::cv_status
#include <coroutine>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"

// Relacy's headers are not written for -Wall -Wextra; they are a system dependency, so their
// warnings are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <relacy/relacy.hpp>
#pragma GCC diagnostic pop

#undef new
#undef delete
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef assert
#undef errno
#undef memory_order_relaxed
#undef memory_order_consume
#undef memory_order_acquire
#undef memory_order_release
#undef memory_order_acq_rel
#undef memory_order_seq_cst
#undef VAR
#undef VAR_T
#undef TLS_T

namespace syncstress {

namespace relacy_detail {

/// Relacy's record of a call site, from the source_location every operation takes.
inline rl::debug_info info(const source_location& loc) {
  return rl::debug_info(loc.function_name(), loc.file_name(), loc.line());
}

/// std::memory_order to Relacy's.
constexpr rl::memory_order order(std::memory_order mo) {
  switch (mo) {
    case std::memory_order_relaxed:
      return rl::mo_relaxed;
    case std::memory_order_consume:
      return rl::mo_consume;
    case std::memory_order_acquire:
      return rl::mo_acquire;
    case std::memory_order_release:
      return rl::mo_release;
    case std::memory_order_acq_rel:
      return rl::mo_acq_rel;
    case std::memory_order_seq_cst:
      return rl::mo_seq_cst;
  }
  return rl::mo_seq_cst;
}

/// The failure order a single-order compare_exchange uses (as std::atomic derives it).
constexpr std::memory_order failure_order(std::memory_order mo) {
  if (mo == std::memory_order_acq_rel) return std::memory_order_acquire;
  if (mo == std::memory_order_release) return std::memory_order_relaxed;
  return mo;
}

/// Fails the current iteration: Relacy records `what` in the history and abandons the
/// iteration's fibers. Never returns.
[[noreturn]] inline void fail(std::string_view what, rl::test_result_e result,
                              const source_location& loc) {
  // fail_test keeps a copy of the text; it must outlive this call only until then.
  const std::string text(what);
  rl::ctx().fail_test(text.c_str(), result, info(loc));
  __builtin_unreachable();  // fail_test switches to Relacy's main fiber for good
}

/// How many dynamic threads (posts, resume_on_signal registrations, P::thread) one iteration
/// may start: the test's compile-time budget, set by the IterationScope.
void take_dynamic_thread(const source_location& loc);

/// The entry of every dynamic thread: runs and deletes the std::function it is given.
inline void* run_body(void* p) {
  std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(p));
  (*body)();
  return nullptr;
}

}  // namespace relacy_detail

/// The Relacy platform. All members are static functions or nested types.
struct Relacy {
  class condition_variable;
  template <class T>
  class atomic {
    static_assert(std::is_trivially_copyable_v<T>, "Platform atomics hold trivially copyable T");
    static constexpr bool kIntegral = std::integral<T> && !std::same_as<T, bool>;

   public:
    atomic() : a_(T{}) {}
    explicit(false) atomic(T initial) : a_(initial) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    T load(std::memory_order mo = std::memory_order_seq_cst,
           source_location loc = source_location::current()) const {
      return a_.load(relacy_detail::order(mo), relacy_detail::info(loc));
    }
    void store(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) {
      a_.store(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    T exchange(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) {
      return a_.exchange(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    bool compare_exchange_weak(T& expected, T desired,
                               std::memory_order mo = std::memory_order_seq_cst,
                               source_location loc = source_location::current()) {
      return compare_exchange_weak(expected, desired, mo, relacy_detail::failure_order(mo), loc);
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure,
                               source_location loc = source_location::current()) {
      const auto i = relacy_detail::info(loc);
      return a_.compare_exchange_weak(expected, desired, relacy_detail::order(success), i,
                                      relacy_detail::order(failure), i);
    }
    bool compare_exchange_strong(T& expected, T desired,
                                 std::memory_order mo = std::memory_order_seq_cst,
                                 source_location loc = source_location::current()) {
      return compare_exchange_strong(expected, desired, mo, relacy_detail::failure_order(mo), loc);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure,
                                 source_location loc = source_location::current()) {
      const auto i = relacy_detail::info(loc);
      return a_.compare_exchange_strong(expected, desired, relacy_detail::order(success), i,
                                        relacy_detail::order(failure), i);
    }
    T fetch_add(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires kIntegral {
      return a_.fetch_add(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    T fetch_sub(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires kIntegral {
      return a_.fetch_sub(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    T fetch_and(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires kIntegral {
      return a_.fetch_and(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    T fetch_or(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location loc = source_location::current()) requires kIntegral {
      return a_.fetch_or(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }
    T fetch_xor(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location loc = source_location::current()) requires kIntegral {
      return a_.fetch_xor(v, relacy_detail::order(mo), relacy_detail::info(loc));
    }

    /// std::atomic::wait: returns once the value differs from `old`, never spuriously.
    void wait(T old, std::memory_order mo = std::memory_order_seq_cst,
              source_location loc = source_location::current()) const {
      while (sleep_if(old, mo, /*spurious=*/false, loc)) {
      }
    }
    void notify_one(source_location loc = source_location::current()) { wake(1, loc); }
    void notify_all(source_location loc = source_location::current()) { wake(0, loc); }

   private:
    friend struct Relacy;

    /// One futex wait: if the value is `old`, sleeps until woken (or, with `spurious`, until
    /// Relacy chooses a spurious return). The check and the sleep are one step, as in the
    /// kernel. Returns whether it slept.
    bool sleep_if(T old, std::memory_order mo, bool spurious, const source_location& loc) const {
      rl::context& c = rl::ctx();
      const auto i = relacy_detail::info(loc);
      c.sched();
      c.atomic_thread_fence_seq_cst();
      T now;
      {
        rl::preemption_disabler no_switch(c);
        now = a_.load(relacy_detail::order(mo), i);
      }
      if (now != old) return false;
      a_.wait(c, false, spurious, i);
      return true;
    }
    /// Wakes up to `count` sleepers (0: all).
    void wake(rl::thread_id_t count, const source_location& loc) {
      rl::context& c = rl::ctx();
      c.sched();
      c.atomic_thread_fence_seq_cst();
      a_.wake(c, count == 0 ? rl::thread_id_t(-1) : count, relacy_detail::info(loc));
    }

    mutable rl::atomic<T> a_;
  };

  /// Plain shared data: the value, and a shadow variable Relacy watches for races.
  template <class T>
  class cell {
   public:
    template <class... Args>
    explicit cell(Args&&... args) : value_(std::forward<Args>(args)...), shadow_(0) {}
    cell(const cell&) = delete;
    cell& operator=(const cell&) = delete;

    template <class F>
    decltype(auto) with(F&& f, source_location loc = source_location::current()) const {
      (void)shadow_(relacy_detail::info(loc)).load();
      return std::forward<F>(f)(static_cast<const T&>(value_));
    }
    template <class F>
    decltype(auto) with_mut(F&& f, source_location loc = source_location::current()) {
      shadow_(relacy_detail::info(loc)).store(0);
      return std::forward<F>(f)(value_);
    }

   private:
    T value_;
    rl::var<int> shadow_;
  };

  class mutex {
   public:
    mutex() = default;
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;

    void lock(source_location loc = source_location::current()) {
      m_.lock(relacy_detail::info(loc));
    }
    bool try_lock(source_location loc = source_location::current()) {
      return m_.try_lock(relacy_detail::info(loc));
    }
    void unlock(source_location loc = source_location::current()) {
      m_.unlock(relacy_detail::info(loc));
    }

   private:
    friend class condition_variable;
    rl::mutex m_;
  };

  /// Sleeps while `a` holds `expected`; may return spuriously (Relacy explores that).
  template <class T>
  static void wait_on_address(atomic<T>& a, std::type_identity_t<T> expected,
                              source_location loc = source_location::current()) {
    static_assert(sizeof(T) == 4, "wait_on_address needs a 4-byte word (a futex)");
    (void)a.sleep_if(expected, std::memory_order_acquire, /*spurious=*/true, loc);
  }
  template <class T>
  static void wake_by_address_single(atomic<T>& a,
                                     source_location loc = source_location::current()) {
    a.wake(1, loc);
  }
  template <class T>
  static void wake_by_address_all(atomic<T>& a, source_location loc = source_location::current()) {
    a.wake(0, loc);
  }

  /// A binary permit per thread: unpark() before park() is kept; park() never returns
  /// spuriously.
  class parker {
   public:
    parker() : permit_(0) {}
    parker(const parker&) = delete;
    parker& operator=(const parker&) = delete;

    void park(source_location loc = source_location::current()) {
      while (permit_.exchange(0, std::memory_order_acquire, loc) == 0) {
        permit_.wait(0, std::memory_order_acquire, loc);
      }
    }
    void unpark(source_location loc = source_location::current()) {
      if (permit_.exchange(1, std::memory_order_release, loc) == 0) permit_.notify_all(loc);
    }

   private:
    atomic<std::uint32_t> permit_;
  };

  /// The calling thread's parker (from the running test's IterationScope).
  static parker& current_parker(source_location loc = source_location::current());

  static void yield(source_location loc = source_location::current()) {
    rl::yield(1, relacy_detail::info(loc));
  }

  /// A spin-wait hint: Relacy's yield, as yield().
  static void pause(source_location loc = source_location::current()) {
    rl::yield(1, relacy_detail::info(loc));
  }

  /// The iteration's clock: it starts at 0 and advances a microsecond at each call, so a loop
  /// that polls it until a deadline ends. Relacy's timed waits do not read it: their timeouts
  /// are Relacy's own choices.
  static std::chrono::steady_clock::time_point now(source_location = source_location::current());

  /// Relacy's fences. A relaxed fence does nothing in C++, and Relacy refuses one: it is skipped.
  static void atomic_thread_fence(std::memory_order mo,
                                  source_location loc = source_location::current()) {
    if (mo == std::memory_order_relaxed) return;
    rl::atomic_thread_fence(relacy_detail::order(mo), relacy_detail::info(loc));
  }
  static void atomic_signal_fence(std::memory_order mo,
                                  source_location loc = source_location::current()) {
    rl::atomic_signal_fence(relacy_detail::order(mo), relacy_detail::info(loc));
  }

  /// A Win32 event as Relacy models it: auto-reset (kManual false) or manual-reset.
  template <bool kManual>
  class win32_event {
   public:
    explicit win32_event(bool initially_set = false,
                         source_location loc = source_location::current()) {
      e_.init(kManual, initially_set, relacy_detail::info(loc));
    }
    ~win32_event() { e_.deinit(relacy_detail::info(source_location::current())); }
    win32_event(const win32_event&) = delete;
    win32_event& operator=(const win32_event&) = delete;

    void set(source_location loc = source_location::current()) { e_.set(relacy_detail::info(loc)); }
    void reset(source_location loc = source_location::current()) {
      e_.reset(relacy_detail::info(loc));
    }
    void wait(source_location loc = source_location::current()) {
      (void)e_.wait(false, false, relacy_detail::info(loc));
    }
    /// wait with a timeout Relacy chooses (the duration is not read): false if it timed out.
    bool wait_for(std::chrono::nanoseconds, source_location loc = source_location::current()) {
      return e_.wait(false, true, relacy_detail::info(loc)) == rl::sema_wakeup_reason_success;
    }
    /// Consumes the signal of an auto-reset event; never blocks.
    bool try_wait(source_location loc = source_location::current()) {
      return e_.wait(true, false, relacy_detail::info(loc)) == rl::sema_wakeup_reason_success;
    }

   private:
    rl::generic_event e_;
  };
  using auto_reset_event = win32_event<false>;
  using manual_reset_event = win32_event<true>;

  /// A counting semaphore as Relacy models one (its POSIX sem_t): release adds tokens and
  /// unblocks waiters, acquire takes one, blocking while there is none, never spuriously; the
  /// timeout of try_acquire_for is Relacy's choice (the duration is not read).
  class counting_semaphore {
   public:
    explicit counting_semaphore(std::ptrdiff_t initial,
                                source_location loc = source_location::current()) {
      s_.init(/*spurious_wakeups=*/false, static_cast<unsigned>(initial), kMaxCount,
              relacy_detail::info(loc));
    }
    ~counting_semaphore() { s_.deinit(relacy_detail::info(source_location::current())); }
    counting_semaphore(const counting_semaphore&) = delete;
    counting_semaphore& operator=(const counting_semaphore&) = delete;

    void release(std::ptrdiff_t n = 1, source_location loc = source_location::current()) {
      unsigned previous = 0;
      const bool added = s_.post(static_cast<unsigned>(n), previous, relacy_detail::info(loc));
      check(added && n >= 1, "a semaphore's release adds 1 to INT_MAX tokens", loc);
    }
    void acquire(source_location loc = source_location::current()) {
      (void)s_.wait(/*try_wait=*/false, /*is_timed=*/false, relacy_detail::info(loc));
    }
    bool try_acquire(source_location loc = source_location::current()) {
      return s_.wait(true, false, relacy_detail::info(loc)) == rl::sema_wakeup_reason_success;
    }
    bool try_acquire_for(std::chrono::nanoseconds,
                         source_location loc = source_location::current()) {
      return s_.wait(false, true, relacy_detail::info(loc)) == rl::sema_wakeup_reason_success;
    }

   private:
    static constexpr unsigned kMaxCount = INT_MAX;
    rl::semaphore<rl::sem_tag_pthread> s_;
  };

  /// A condition variable as Relacy models one (std::condition_variable_any): wait unlocks the
  /// mutex and blocks, then locks it again; it may return spuriously, and wait_for's timeout is
  /// Relacy's choice (the duration is not read).
  class condition_variable {
   public:
    explicit condition_variable(source_location loc = source_location::current()) {
      cv_.init(/*allow_spurious_wakeups=*/true, relacy_detail::info(loc));
    }
    ~condition_variable() { cv_.deinit(relacy_detail::info(source_location::current())); }
    condition_variable(const condition_variable&) = delete;
    condition_variable& operator=(const condition_variable&) = delete;

    void wait(mutex& m, source_location loc = source_location::current()) {
      (void)cv_.wait(m.m_, /*is_timed=*/false, relacy_detail::info(loc));
    }
    std::cv_status wait_for(mutex& m, std::chrono::nanoseconds,
                            source_location loc = source_location::current()) {
      return cv_.wait(m.m_, true, relacy_detail::info(loc)) == rl::sema_wakeup_reason_timeout
                 ? std::cv_status::timeout
                 : std::cv_status::no_timeout;
    }
    void notify_one(source_location loc = source_location::current()) {
      cv_.notify_one(relacy_detail::info(loc));
    }
    void notify_all(source_location loc = source_location::current()) {
      cv_.notify_all(relacy_detail::info(loc));
    }

   private:
    rl::condvar<rl::condvar_tag_std_any> cv_;
  };

  /// Runs h on a fresh dynamic thread: the pool's worker, modelled.
  static void post(std::coroutine_handle<> h, source_location loc = source_location::current());
  /// A dynamic thread waits for `e` and then resumes h: the thread-pool wait, modelled.
  static void resume_on_signal(auto_reset_event& e, std::coroutine_handle<> h,
                               source_location loc = source_location::current());
  static void resume(std::coroutine_handle<> h, source_location = source_location::current()) {
    h.resume();
  }

  /// A Relacy dynamic thread running f; join() waits for it.
  class thread {
   public:
    // NOLINTBEGIN(bugprone-forwarding-reference-overload)
    template <class F>
    requires std::invocable < std::decay_t<F>
    & > explicit thread(F&& f, source_location loc = source_location::current())
        : body_(std::make_unique<std::function<void()>>(std::forward<F>(f))) {
      start(loc);
    }
    // NOLINTEND(bugprone-forwarding-reference-overload)
    thread(thread&&) noexcept = default;
    thread& operator=(thread&&) = delete;
    thread(const thread&) = delete;
    ~thread() = default;

    void join(source_location loc = source_location::current());

   private:
    void start(const source_location& loc);
    std::unique_ptr<std::function<void()>> body_;
    rl::win_waitable_object* handle_ = nullptr;
  };

  /// A failed check fails the iteration; Relacy reports it with the history.
  static void check(bool ok, std::string_view what,
                    source_location loc = source_location::current()) {
    if (!ok) [[unlikely]]
      relacy_detail::fail(what, rl::test_result_user_assert_failed, loc);
  }

  static void* frame_allocate(std::size_t n, source_location = source_location::current()) {
    return ::operator new(n);
  }
  static void frame_deallocate(void* p, std::size_t n,
                               source_location = source_location::current()) noexcept {
    ::operator delete(p, n);
  }
  // A primitive's heap nodes: Relacy's operator new, which tracks them for leaks and races.
  static void* node_allocate(std::size_t n) { return ::operator new(n); }
  static void node_deallocate(void* p, std::size_t n) noexcept { ::operator delete(p, n); }
  // Frame misuse (resume after destroy, ...) is sim's to detect, deterministically; Relacy's
  // job here is the memory model.
  static void frame_created(std::coroutine_handle<>,
                            source_location = source_location::current()) noexcept {}
  static void frame_destroyed(std::coroutine_handle<>,
                              source_location = source_location::current()) noexcept {}
  static void frame_awaits(std::coroutine_handle<>, const source_location&) noexcept {}

  /// What one iteration needs beyond the objects of its test: a parker per thread and the
  /// budget of dynamic threads. A test holds one as its first member; only one exists at a
  /// time.
  class IterationScope {
   public:
    IterationScope(std::size_t threads, std::size_t dynamic_threads);
    ~IterationScope();
    IterationScope(const IterationScope&) = delete;
    IterationScope& operator=(const IterationScope&) = delete;

   private:
    friend struct Relacy;
    friend void relacy_detail::take_dynamic_thread(const source_location& loc);
    std::unique_ptr<parker[]> parkers_;
    std::size_t dynamic_left_;
    std::uint64_t clock_ns_ = 0;  // now()'s clock
  };

  /// The running test's scope (null between iterations); for this header's own functions.
  static IterationScope*& scope();

  /// Why a search stopped before Relacy's own end (its iteration count for the random search,
  /// the end of its space for the bound and full ones).
  enum class SearchStop { none, cap, deadline, interrupt };

  /// The limits of the search about to run, checked as each iteration begins (by the
  /// IterationScope): at most `cap` iterations (Relacy does not limit the bound and full
  /// searches), none begun at or after `deadline`, none after request_stop(). The iteration
  /// they stop ends the search with rl::test_result_until_condition_hit.
  struct SearchLimits {
    std::uint64_t cap = ~std::uint64_t{0};
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    /// A replay: every iteration runs with its history on from the start, and none of them is
    /// Relacy's re-run of a stopping iteration.
    bool replay = false;
  };
  static void start_search(const SearchLimits& limits) { search_state() = {limits}; }
  /// What stopped the latest search early, if anything did.
  static SearchStop search_stop() { return search_state().stop; }
  /// Iterations the latest search began, the one a limit stopped included, Relacy's re-run of
  /// its last iteration not.
  static std::uint64_t iterations_begun() { return search_state().begun; }

  /// Asks the running search to stop as its next iteration begins. Async-signal-safe: a
  /// SIGINT or SIGTERM handler calls it.
  static void request_stop() noexcept { stop_requested_ = 1; }

 private:
  struct SearchState {
    SearchLimits limits;
    SearchStop stop = SearchStop::none;
    std::uint64_t begun = 0;
  };
  static SearchState& search_state() {
    static SearchState state;
    return state;
  }
  /// Set by request_stop(), possibly from a signal handler on the search's own thread; a
  /// volatile sig_atomic_t is what such a handler may write. Constant-initialized, so a
  /// handler never meets a static's first-use guard.
  static inline volatile std::sig_atomic_t stop_requested_ = 0;
};

static_assert(Platform<Relacy>);

inline Relacy::IterationScope*& Relacy::scope() {
  static IterationScope* current = nullptr;
  return current;
}

inline Relacy::IterationScope::IterationScope(std::size_t threads, std::size_t dynamic_threads)
    : parkers_(std::make_unique<parker[]>(threads + dynamic_threads)),
      dynamic_left_(dynamic_threads) {
  scope() = this;
  auto& search = search_state();
  // Once a search has failed or stopped, Relacy runs the same iteration again with its history
  // on. That re-run is neither counted nor checked against the limits: a failing iteration
  // fails again as it did (were it stopped, Relacy would report the stop, not the failure),
  // and a stopped one stops again, as the stop is kept.
  const bool rerun = !search.limits.replay && rl::ctx().collecting_history();
  if (!rerun && search.stop == SearchStop::none) {
    // The clock is read once per iteration: a few tens of nanoseconds against the microseconds
    // an iteration of the smallest family takes.
    if (++search.begun > search.limits.cap) {
      search.stop = SearchStop::cap;
    } else if (stop_requested_ != 0) {
      search.stop = SearchStop::interrupt;
    } else if (std::chrono::steady_clock::now() >= search.limits.deadline) {
      search.stop = SearchStop::deadline;
    }
  }
  if (search.stop != SearchStop::none) {
    relacy_detail::fail("the search's limit", rl::test_result_until_condition_hit,
                        source_location::current());
  }
}

inline Relacy::IterationScope::~IterationScope() { scope() = nullptr; }

inline std::chrono::steady_clock::time_point Relacy::now(source_location) {
  IterationScope* s = scope();
  const std::uint64_t ns = s == nullptr ? 0 : (s->clock_ns_ += 1000);
  return std::chrono::steady_clock::time_point(
      std::chrono::nanoseconds(static_cast<std::int64_t>(ns)));
}

inline Relacy::parker& Relacy::current_parker(source_location loc) {
  IterationScope* s = scope();
  if (s == nullptr) {
    relacy_detail::fail("current_parker outside a test's IterationScope",
                        rl::test_result_user_assert_failed, loc);
  }
  return s->parkers_[rl::ctx().current_thread()];
}

inline void relacy_detail::take_dynamic_thread(const source_location& loc) {
  Relacy::IterationScope* s = Relacy::scope();
  if (s == nullptr || s->dynamic_left_ == 0) {
    fail(
        "relacy_limit: the iteration started more threads (posts, thread-pool waits) than its "
        "test provides; lower the rounds or the actors",
        rl::test_result_user_assert_failed, loc);
  }
  --s->dynamic_left_;
}

inline void Relacy::post(std::coroutine_handle<> h, source_location loc) {
  relacy_detail::take_dynamic_thread(loc);
  auto body = std::make_unique<std::function<void()>>([h] { h.resume(); });
  rl::ctx().create_thread(&relacy_detail::run_body, body.release());
}

inline void Relacy::resume_on_signal(auto_reset_event& e, std::coroutine_handle<> h,
                                     source_location loc) {
  relacy_detail::take_dynamic_thread(loc);
  auto body = std::make_unique<std::function<void()>>([&e, h, loc] {
    e.wait(loc);
    h.resume();
  });
  rl::ctx().create_thread(&relacy_detail::run_body, body.release());
}

inline void Relacy::thread::start(const source_location& loc) {
  relacy_detail::take_dynamic_thread(loc);
  handle_ = rl::ctx().create_thread(&relacy_detail::run_body, body_.release());
}

inline void Relacy::thread::join(source_location loc) {
  handle_->wait(false, false, relacy_detail::info(loc));
  handle_ = nullptr;
}

}  // namespace syncstress
