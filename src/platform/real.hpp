// The `real` platform: every Platform operation is the operating system's own.
//
// Used by stress mode (`--schedule stress`), the unit tests and the benchmarks. Atomics are
// std::atomic, the mutex is std::mutex, wait-on-address and the parker are futex(2) on a 4-byte
// word, threads are std::thread, and the executor is a fixed-size pool of OS threads. Nothing
// here schedules: the interleavings are whatever the hardware and the kernel produce. Each
// operation, and each access to a cell, first tells stress mode of itself and its
// source_location (real/stress_hook.hpp): while a stress trial runs, that is the thread's ring of
// recent operations and the seeded noise and faults; otherwise a relaxed load and a branch.
//
// This header (with src/platform/real/real.cpp behind it) is where <atomic>, <mutex>,
// <thread> and the Linux futex headers live; primitives/ never includes them itself.
#pragma once

#include <atomic>
#include <bit>
#include <chrono>
#include <climits>
#include <concepts>
#include <condition_variable>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <semaphore>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "platform/real/stress_hook.hpp"

namespace syncstress {

namespace real_detail {

/// futex(FUTEX_WAIT_PRIVATE): sleeps while *word == expected. Returns on a wake, on a
/// signal, or at once when the word already differs; callers re-check their condition.
void futex_wait(const void* word, std::uint32_t expected) noexcept;
/// futex_wait for at most `timeout`.
void futex_wait_for(const void* word, std::uint32_t expected,
                    std::chrono::nanoseconds timeout) noexcept;
/// futex(FUTEX_WAKE_PRIVATE): wakes up to `count` threads sleeping on `word`.
void futex_wake(const void* word, int count) noexcept;

/// One thread blocked in an event's wait(): the setter hands it the signal by storing 1 in
/// `released` (release; pairs with the waiter's acquire load) and waking the futex on it.
struct thread_waiter {
  std::atomic<std::uint32_t> released{0};
};

/// An entry in an event's FIFO of waits: a blocked thread or a registered coroutine
/// (resume_on_signal). Exactly one of the two is set.
struct event_wait {
  thread_waiter* thread = nullptr;
  std::coroutine_handle<> coroutine{};
};

/// The shared body of both event kinds. One FIFO holds blocked threads and registered
/// coroutines alike, so a set() hands the signal straight to the oldest wait: nobody can
/// steal it between the set and the waiter waking, and registrations are not starved by
/// threads (or the reverse).
class event_core {
 public:
  explicit event_core(bool initially_set) : signaled_(initially_set) {}
  event_core(const event_core&) = delete;
  event_core& operator=(const event_core&) = delete;

  /// Auto-reset: hands the signal to the oldest wait, or leaves the event signaled if none.
  void set_auto();
  /// Manual-reset: signals the event and releases every current wait.
  void set_manual();
  void reset();
  /// Blocks until the signal is handed to this thread (auto) or the event is set (manual).
  void wait(bool consume);
  /// wait for at most `timeout`: false if it timed out (its wait is then off the queue).
  bool wait_for(bool consume, std::chrono::nanoseconds timeout);
  bool try_wait(bool consume);
  /// Registers h to be posted to the pool when the signal is handed to it (auto-reset only).
  void register_wait(std::coroutine_handle<> h);
  /// How many waits are queued (blocked threads plus pending registrations).
  std::size_t queued_waits() const;

 private:
  mutable std::mutex mutex_;
  bool signaled_;                 // guarded by mutex_
  std::deque<event_wait> waits_;  // guarded by mutex_; FIFO, oldest first
};

/// The pool behind Real::post: size max(2, hardware_concurrency), started on first use,
/// joined when the process exits (static destruction).
void pool_post(std::coroutine_handle<> h);
/// How many worker threads the pool has (starting it if it has not started).
std::size_t pool_size();
/// Blocks until the pool has nothing queued and no worker inside a coroutine.
void pool_wait_idle();

void record_failure(std::string_view what, const std::source_location& loc);

}  // namespace real_detail

/// The real platform. All members are static functions or nested types.
struct Real {
  /// std::atomic<T> with every operation's memory order passed through unchanged.
  template <class T>
  class atomic {
    static_assert(std::is_trivially_copyable_v<T>, "Platform atomics hold trivially copyable T");

    // As std::atomic: fetch_* for the integral types other than bool.
    static constexpr bool kIntegral = std::integral<T> && !std::same_as<T, bool>;

   public:
    /// Value-initialises the held value (as std::atomic does since C++20).
    atomic() noexcept = default;
    constexpr explicit(false) atomic(T initial) noexcept : value_(initial) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    /// std::atomic::load.
    T load(std::memory_order mo = std::memory_order_seq_cst,
           source_location where = source_location::current()) const noexcept {
      real_detail::on_op(real_detail::op::load, where);
      return value_.load(mo);
    }
    /// std::atomic::store.
    void store(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::store, where);
      value_.store(v, mo);
    }
    /// std::atomic::exchange.
    T exchange(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::exchange, where);
      return value_.exchange(v, mo);
    }
    /// std::atomic::compare_exchange_weak (may fail spuriously), one order for both outcomes.
    bool compare_exchange_weak(T& expected, T desired,
                               std::memory_order mo = std::memory_order_seq_cst,
                               source_location where = source_location::current()) noexcept {
      return compare_exchange_weak(expected, desired, mo, failure_order(mo), where);
    }
    /// std::atomic::compare_exchange_weak with separate success and failure orders.
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure,
                               source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::cas_weak, where);
      if (real_detail::stress_active() && real_detail::stress_cas_failure()) [[unlikely]] {
        // A spurious failure, as LL/SC hardware gives: the current value, nothing written.
        expected = value_.load(failure);
        return false;
      }
      return value_.compare_exchange_weak(expected, desired, success, failure);
    }
    /// std::atomic::compare_exchange_strong, one order for both outcomes.
    bool compare_exchange_strong(T& expected, T desired,
                                 std::memory_order mo = std::memory_order_seq_cst,
                                 source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::cas_strong, where);
      return value_.compare_exchange_strong(expected, desired, mo);
    }
    /// std::atomic::compare_exchange_strong with separate success and failure orders.
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure,
                                 source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::cas_strong, where);
      return value_.compare_exchange_strong(expected, desired, success, failure);
    }
    /// std::atomic::fetch_add (integral T other than bool).
    T fetch_add(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location where = source_location::current()) noexcept requires kIntegral {
      real_detail::on_op(real_detail::op::fetch_add, where);
      return value_.fetch_add(v, mo);
    }
    /// std::atomic::fetch_sub (integral T other than bool).
    T fetch_sub(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location where = source_location::current()) noexcept requires kIntegral {
      real_detail::on_op(real_detail::op::fetch_sub, where);
      return value_.fetch_sub(v, mo);
    }
    /// std::atomic::fetch_and (integral T other than bool).
    T fetch_and(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location where = source_location::current()) noexcept requires kIntegral {
      real_detail::on_op(real_detail::op::fetch_and, where);
      return value_.fetch_and(v, mo);
    }
    /// std::atomic::fetch_or (integral T other than bool).
    T fetch_or(T v, std::memory_order mo = std::memory_order_seq_cst,
               source_location where = source_location::current()) noexcept requires kIntegral {
      real_detail::on_op(real_detail::op::fetch_or, where);
      return value_.fetch_or(v, mo);
    }
    /// std::atomic::fetch_xor (integral T other than bool).
    T fetch_xor(T v, std::memory_order mo = std::memory_order_seq_cst,
                source_location where = source_location::current()) noexcept requires kIntegral {
      real_detail::on_op(real_detail::op::fetch_xor, where);
      return value_.fetch_xor(v, mo);
    }
    /// std::atomic::wait: returns once the value differs from `old` (never spuriously).
    void wait(T old, std::memory_order mo = std::memory_order_seq_cst,
              source_location where = source_location::current()) const noexcept {
      real_detail::on_op(real_detail::op::atomic_wait, where);
      value_.wait(old, mo);
    }
    /// std::atomic::notify_one.
    void notify_one(source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::notify_one, where);
      value_.notify_one();
    }
    /// std::atomic::notify_all.
    void notify_all(source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::notify_all, where);
      value_.notify_all();
    }

   private:
    friend struct Real;
    /// The failure order std::atomic derives from a single order.
    static constexpr std::memory_order failure_order(std::memory_order mo) noexcept {
      if (mo == std::memory_order_acq_rel) return std::memory_order_acquire;
      if (mo == std::memory_order_release) return std::memory_order_relaxed;
      return mo;
    }
    std::atomic<T> value_{};
  };

  /// Plain shared data. On real, with/with_mut call f directly: races on it are found by
  /// Relacy or TSan, not here. Each access is an operation to stress mode, as an atomic's is
  /// (the thread's ring names it, and noise may delay it before f runs), so a stress trial also
  /// widens a window that ends at a plain access, such as a store just after the
  /// compare-exchange that publishes what it stores.
  template <class T>
  class cell {
   public:
    template <class... Args>
    explicit cell(Args&&... args) : value_(std::forward<Args>(args)...) {}
    cell(const cell&) = delete;
    cell& operator=(const cell&) = delete;

    /// Reads: calls f(const T&) and returns what f returns.
    template <class F>
    decltype(auto) with(F&& f, source_location where = source_location::current()) const {
      real_detail::on_op(real_detail::op::cell_read, where);
      return std::forward<F>(f)(static_cast<const T&>(value_));
    }
    /// Writes: calls f(T&) and returns what f returns.
    template <class F>
    decltype(auto) with_mut(F&& f, source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::cell_write, where);
      return std::forward<F>(f)(value_);
    }

   private:
    T value_;
  };

  /// std::mutex: not recursive; unlocking a mutex the caller does not hold is undefined.
  class mutex {
   public:
    mutex() = default;
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;

    /// Blocks until the caller holds the mutex.
    void lock(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::mutex_lock, where);
      m_.lock();
    }
    /// Takes the mutex if it is free; never blocks. May fail spuriously (as std::mutex may).
    bool try_lock(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::mutex_try_lock, where);
      return m_.try_lock();
    }
    /// Releases the mutex. Precondition: the caller holds it.
    void unlock(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::mutex_unlock, where);
      m_.unlock();
    }

   private:
    std::mutex m_;
  };

  /// Sleeps while `a` holds `expected` (futex FUTEX_WAIT_PRIVATE on the atomic's storage).
  /// Returns at once when the value already differs, after a wake, and also spuriously (a
  /// signal, or a stray wake on a reused address): callers must re-check in a loop, exactly
  /// as with WaitOnAddress.
  template <class T>
  static void wait_on_address(atomic<T>& a, std::type_identity_t<T> expected,
                              source_location where = source_location::current()) noexcept {
    static_assert(sizeof(T) == 4 && sizeof(std::atomic<T>) == 4,
                  "wait_on_address needs a 4-byte word (a futex)");
    real_detail::on_op(real_detail::op::wait_on_address, where);
    if (real_detail::stress_active() && real_detail::stress_spurious_wakeup()) [[unlikely]]
      return;
    real_detail::futex_wait(&a.value_, std::bit_cast<std::uint32_t>(expected));
  }
  /// Wakes at most one thread sleeping in wait_on_address on `a`.
  template <class T>
  static void wake_by_address_single(atomic<T>& a,
                                     source_location where = source_location::current()) noexcept {
    static_assert(sizeof(T) == 4, "wake_by_address needs a 4-byte word (a futex)");
    real_detail::on_op(real_detail::op::wake_one, where);
    real_detail::futex_wake(&a.value_, 1);
  }
  /// Wakes every thread sleeping in wait_on_address on `a`.
  template <class T>
  static void wake_by_address_all(atomic<T>& a,
                                  source_location where = source_location::current()) noexcept {
    static_assert(sizeof(T) == 4, "wake_by_address needs a 4-byte word (a futex)");
    real_detail::on_op(real_detail::op::wake_all, where);
    real_detail::futex_wake(&a.value_, INT_MAX);
  }

  /// A per-thread binary permit on a futex word (ConcRT Context::Block/Unblock).
  /// Only the owning thread parks; any thread unparks. An unpark() before park() is kept;
  /// several unparks before a park leave one permit. Unparking a parker whose thread has
  /// exited is undefined (the parker lives in that thread's storage).
  class parker {
   public:
    parker() = default;
    parker(const parker&) = delete;
    parker& operator=(const parker&) = delete;

    /// Consumes the permit, blocking until one arrives. Never returns spuriously.
    void park(source_location = source_location::current()) noexcept;
    /// Grants the permit (if not already granted) and wakes the owner if it is parked.
    void unpark(source_location = source_location::current()) noexcept;

   private:
    // States: kEmpty (no permit, owner running), kPermit (unpark came, not yet consumed),
    // kParked (owner asleep or about to sleep on the futex). Transitions: unpark any -> kPermit
    // (waking the futex if it was kParked); park kPermit -> kEmpty (return) or
    // kEmpty -> kParked -> sleep until kPermit, then kPermit -> kEmpty.
    static constexpr std::uint32_t kEmpty = 0;
    static constexpr std::uint32_t kPermit = 1;
    static constexpr std::uint32_t kParked = 2;
    std::atomic<std::uint32_t> state_{kEmpty};
  };

  /// The calling thread's parker.
  static parker& current_parker(source_location = source_location::current()) noexcept;

  /// sched_yield(2).
  static void yield(source_location = source_location::current()) noexcept;
  /// The CPU's spin-wait hint (x86 `pause`, Arm `yield`); a no-op elsewhere.
  static void pause(source_location = source_location::current()) noexcept;

  /// std::chrono::steady_clock::now().
  static std::chrono::steady_clock::time_point now(
      source_location where = source_location::current()) noexcept {
    real_detail::on_op(real_detail::op::clock_now, where);
    return std::chrono::steady_clock::now();
  }

  /// std::counting_semaphore (a futex word): release adds tokens and wakes waiters, acquire
  /// takes one, blocking while there is none. Never returns spuriously.
  class counting_semaphore {
   public:
    /// Starts with `initial` tokens (>= 0).
    explicit counting_semaphore(std::ptrdiff_t initial) : s_(initial) {}
    counting_semaphore(const counting_semaphore&) = delete;
    counting_semaphore& operator=(const counting_semaphore&) = delete;

    /// Adds `n` tokens (n >= 1).
    void release(std::ptrdiff_t n = 1, source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::semaphore_release, where);
      s_.release(n);
    }
    void acquire(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::semaphore_acquire, where);
      s_.acquire();
    }
    bool try_acquire(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::semaphore_try_acquire, where);
      return s_.try_acquire();
    }
    /// acquire that gives up after `timeout` of steady_clock time: false then.
    bool try_acquire_for(std::chrono::nanoseconds timeout,
                         source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::semaphore_acquire, where);
      return s_.try_acquire_for(timeout);
    }

   private:
    std::counting_semaphore<> s_;
  };

  /// std::condition_variable_any over Real::mutex. wait unlocks the mutex and sleeps in one
  /// step and locks it again before returning; it may return spuriously (as the standard's
  /// may, and more often under stress, which injects spurious returns).
  class condition_variable {
   public:
    condition_variable() = default;
    condition_variable(const condition_variable&) = delete;
    condition_variable& operator=(const condition_variable&) = delete;

    /// Precondition: the caller holds `m`.
    void wait(mutex& m, source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::condvar_wait, where);
      relock lock{m, where};
      if (real_detail::stress_active() && real_detail::stress_spurious_wakeup()) [[unlikely]] {
        lock.unlock();
        lock.lock();
        return;
      }
      cv_.wait(lock);
    }
    /// wait until a notify, a spurious wake or `timeout` of steady_clock time.
    std::cv_status wait_for(mutex& m, std::chrono::nanoseconds timeout,
                            source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::condvar_wait, where);
      relock lock{m, where};
      return cv_.wait_for(lock, timeout);
    }
    void notify_one(source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::condvar_notify, where);
      cv_.notify_one();
    }
    void notify_all(source_location where = source_location::current()) noexcept {
      real_detail::on_op(real_detail::op::condvar_notify, where);
      cv_.notify_all();
    }

   private:
    /// The mutex as the standard's wait takes it, its relocking traced at the caller's line.
    struct relock {
      mutex& m;
      source_location where;
      void lock() { m.lock(where); }
      void unlock() { m.unlock(where); }
    };
    std::condition_variable_any cv_;
  };

  /// std::atomic_thread_fence and std::atomic_signal_fence (stress mode may delay the thread
  /// at either, as at every operation).
  static void atomic_thread_fence(std::memory_order mo,
                                  source_location where = source_location::current()) noexcept {
    real_detail::on_op(real_detail::op::thread_fence, where);
    std::atomic_thread_fence(mo);
  }
  static void atomic_signal_fence(std::memory_order mo,
                                  source_location where = source_location::current()) noexcept {
    real_detail::on_op(real_detail::op::signal_fence, where);
    std::atomic_signal_fence(mo);
  }

  /// How an event's signal ends: consumed by the one wait it releases (auto-reset), or
  /// only by reset() (manual-reset).
  enum class reset_mode : std::uint8_t { automatic, manual };

  /// A Win32 event of either reset mode; the Platform's two events are its two instances.
  /// auto_reset_event: set() releases exactly one wait (a blocked thread or a resume_on_signal
  /// registration, the oldest first) and stays clear; with nobody waiting the event stays
  /// signaled until one wait or try_wait consumes it. Setting a signaled event does nothing.
  /// manual_reset_event: set() releases every current waiter and keeps the event signaled
  /// (later waits return at once) until reset(); a set() followed at once by a reset() still
  /// releases everyone who was waiting at the set.
  /// Destroying an event with waits pending is undefined.
  template <reset_mode kMode>
  class event {
    // An auto-reset event's waits consume the signal; a manual-reset event's leave it set.
    static constexpr bool kWaitConsumes = kMode == reset_mode::automatic;

   public:
    explicit event(bool initially_set = false) : core_(initially_set) {}

    /// Signals: auto-reset, hands the signal to the oldest wait or leaves the event signaled;
    /// manual-reset, signals and releases every current waiter.
    void set(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::event_set, where);
      if constexpr (kMode == reset_mode::automatic) {
        core_.set_auto();
      } else {
        core_.set_manual();
      }
    }
    /// Clears the signal (for auto-reset: if no wait has consumed it yet).
    void reset(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::event_reset, where);
      core_.reset();
    }
    /// Blocks until the event is signaled; auto-reset, this call consumes the signal. Never
    /// returns spuriously.
    void wait(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::event_wait, where);
      core_.wait(kWaitConsumes);
    }
    /// wait for at most `timeout` of steady_clock time: false if it timed out.
    bool wait_for(std::chrono::nanoseconds timeout,
                  source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::event_wait, where);
      return core_.wait_for(kWaitConsumes, timeout);
    }
    /// True if the event is signaled, consuming the signal of an auto-reset event; never
    /// blocks, and never clears a manual-reset event.
    bool try_wait(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::event_try_wait, where);
      return core_.try_wait(kWaitConsumes);
    }

    /// Diagnostic, not part of the Platform: how many waits (blocked threads and
    /// resume_on_signal registrations) are queued right now. Lets tests know a waiter is
    /// really blocked before they signal.
    std::size_t queued_waits() const { return core_.queued_waits(); }

   private:
    friend struct Real;
    real_detail::event_core core_;
  };
  using auto_reset_event = event<reset_mode::automatic>;
  using manual_reset_event = event<reset_mode::manual>;

  /// Queues h to run (through Real::resume) on a pool worker. The pool has
  /// max(2, hardware_concurrency) threads, starts on first use and is joined at process
  /// exit: a handle still queued then is never resumed, exit waits for the coroutine each
  /// worker is running to suspend or finish, and posting during static destruction is
  /// undefined.
  static void post(std::coroutine_handle<> h, source_location where = source_location::current()) {
    real_detail::on_op(real_detail::op::post, where);
    real_detail::pool_post(h);
  }
  /// Diagnostic, not part of the Platform: the pool's worker count (starts the pool).
  static std::size_t pool_size() { return real_detail::pool_size(); }
  /// The thread-pool wait: once `e` is (or becomes) signaled, this registration consumes the
  /// signal and h is posted to the pool. No pool worker blocks on the event meanwhile.
  static void resume_on_signal(auto_reset_event& e, std::coroutine_handle<> h,
                               source_location where = source_location::current()) {
    real_detail::on_op(real_detail::op::resume_on_signal, where);
    e.core_.register_wait(h);
  }
  /// Resumes h on the calling thread: the one place where real resumes a coroutine.
  static void resume(std::coroutine_handle<> h,
                     source_location where = source_location::current()) {
    real_detail::on_op(real_detail::op::resume, where);
    h.resume();
  }

  /// std::thread. Unlike std::thread, destroying a still-joinable thread joins it instead of
  /// terminating the process, so a scenario that forgets to join is reported, not a crash.
  class thread {
   public:
    // F must be invocable, which a thread is not: the move constructor stays in charge.
    // NOLINTBEGIN(bugprone-forwarding-reference-overload)
    template <class F>
    requires std::invocable < std::decay_t<F>
    & > explicit thread(F&& f, source_location where = source_location::current())
        : t_((real_detail::on_op(real_detail::op::thread_start, where), std::forward<F>(f))) {}
    // NOLINTEND(bugprone-forwarding-reference-overload)
    thread(thread&&) noexcept = default;
    thread& operator=(thread&&) = delete;
    thread(const thread&) = delete;
    ~thread() {
      if (t_.joinable()) t_.join();
    }

    /// Waits for the thread's function to return. Precondition: not joined before.
    void join(source_location where = source_location::current()) {
      real_detail::on_op(real_detail::op::join, where);
      t_.join();
    }

   private:
    std::thread t_;
  };

  /// A property check. On real a failed check does not stop anything: it is counted, the
  /// first one (what, file, line) is kept in a process-wide record that the caller reads
  /// with take_failures(), and the thread carries on.
  static void check(bool ok, std::string_view what,
                    source_location loc = source_location::current()) {
    if (!ok) [[unlikely]]
      real_detail::record_failure(what, loc);
  }

  /// A failed check, as recorded by check().
  struct failure {
    std::string what;
    std::string file;
    std::uint_least32_t line = 0;
  };
  /// The failed checks since the last take_failures().
  struct failures {
    std::uint64_t count = 0;       ///< how many checks failed
    std::optional<failure> first;  ///< the first of them, if any
  };
  /// Returns the failed checks recorded so far and clears the record.
  static failures take_failures();

  /// Storage for a harness task's frame: the global operator new.
  static void* frame_allocate(std::size_t n, source_location = source_location::current()) {
    return ::operator new(n);
  }
  /// Releases a frame's storage.
  static void frame_deallocate(void* p, std::size_t n,
                               source_location = source_location::current()) noexcept {
    ::operator delete(p, n);
  }
  /// Storage for a primitive's heap node: the global operator new.
  static void* node_allocate(std::size_t n) { return ::operator new(n); }
  /// Releases a node's storage.
  static void node_deallocate(void* p, std::size_t n) noexcept { ::operator delete(p, n); }
  // Frame lifetime is not tracked on real: misuse detection is sim's job, where it is
  // deterministic and replayable; tracking here would put a global lock on every coroutine
  // birth and death and smooth out the very races real threads are run to provoke.
  /// No-op on real (see above).
  static void frame_created(std::coroutine_handle<>,
                            source_location = source_location::current()) noexcept {}
  /// No-op on real (see above).
  static void frame_destroyed(std::coroutine_handle<>,
                              source_location = source_location::current()) noexcept {}
  /// No-op on real (see above).
  static void frame_awaits(std::coroutine_handle<>, const source_location&) noexcept {}
};

static_assert(Platform<Real>);

}  // namespace syncstress
