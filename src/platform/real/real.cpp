// The non-template half of the real platform: futex calls, the parker, events, the thread
// pool and the failure record. See platform/real.hpp for the contracts.
#include "platform/real.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <vector>

namespace syncstress {

namespace real_detail {

void futex_wait(const void* word, std::uint32_t expected) noexcept {
  // EAGAIN (value differs), EINTR and a plain wake all mean "re-check": nothing to report.
  ::syscall(SYS_futex, const_cast<void*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

void futex_wait_for(const void* word, std::uint32_t expected,
                    std::chrono::nanoseconds timeout) noexcept {
  if (timeout <= std::chrono::nanoseconds::zero()) return;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  timespec relative{};
  relative.tv_sec = static_cast<time_t>(seconds.count());
  relative.tv_nsec = static_cast<long>((timeout - seconds).count());
  // ETIMEDOUT, EAGAIN, EINTR and a wake all mean "re-check".
  ::syscall(SYS_futex, const_cast<void*>(word), FUTEX_WAIT_PRIVATE, expected, &relative, nullptr,
            0);
}

void futex_wake(const void* word, int count) noexcept {
  ::syscall(SYS_futex, const_cast<void*>(word), FUTEX_WAKE_PRIVATE, count, nullptr, nullptr, 0);
}

namespace {

// Hands the signal to one blocked thread. Called with the event's mutex held: the waiter
// takes that mutex once more before it returns, so `w` stays alive until the wake is done.
void release_thread(thread_waiter* w) noexcept {
  w->released.store(1, std::memory_order_release);  // pairs with the acquire load in wait()
  futex_wake(&w->released, 1);
}

// A fixed set of workers taking coroutine handles from one FIFO queue.
class thread_pool {
 public:
  thread_pool() {
    const std::size_t n = std::max<std::size_t>(2, std::thread::hardware_concurrency());
    workers_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) workers_.emplace_back([this] { run(); });
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  // At exit: each worker finishes the coroutine it is running, queued handles are dropped
  // (resuming them during static destruction could touch objects already destroyed).
  ~thread_pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (auto& w : workers_) w.join();
  }

  void post(std::coroutine_handle<> h) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(h);
    }
    ready_.notify_one();
  }

  std::size_t size() const noexcept { return workers_.size(); }

  /// Blocks until the queue is empty and no worker is inside a coroutine.
  void wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
  }

 private:
  void run() {
    for (;;) {
      std::coroutine_handle<> h;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        h = queue_.front();
        queue_.pop_front();
        ++running_;
      }
      Real::resume(h);
      {
        std::lock_guard lock(mutex_);
        --running_;
        if (queue_.empty() && running_ == 0) idle_.notify_all();
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable idle_;
  std::size_t running_ = 0;                    // guarded by mutex_: workers inside Real::resume
  std::deque<std::coroutine_handle<>> queue_;  // guarded by mutex_
  bool stopping_ = false;                      // guarded by mutex_
  std::vector<std::thread> workers_;
};

thread_pool& pool() {
  static thread_pool instance;
  return instance;
}

// Never destroyed: a check may fail on a pool worker while statics are being torn down.
struct failure_log {
  std::mutex mutex;
  Real::failures recorded;  // guarded by mutex
};
failure_log& failure_record() {
  static failure_log* log = new failure_log();
  return *log;
}

}  // namespace

void event_core::set_auto() {
  std::coroutine_handle<> to_post;
  {
    std::lock_guard lock(mutex_);
    if (waits_.empty()) {
      signaled_ = true;
      return;
    }
    const event_wait w = waits_.front();
    waits_.pop_front();
    if (w.thread != nullptr) {
      release_thread(w.thread);
    } else {
      to_post = w.coroutine;
    }
  }
  // Posted outside the lock so the pool's mutex is never taken under an event's.
  if (to_post) pool_post(to_post);
}

void event_core::set_manual() {
  std::vector<std::coroutine_handle<>> to_post;
  {
    std::lock_guard lock(mutex_);
    signaled_ = true;
    for (const event_wait& w : waits_) {
      if (w.thread != nullptr) {
        release_thread(w.thread);
      } else {
        to_post.push_back(w.coroutine);
      }
    }
    waits_.clear();
  }
  for (auto h : to_post) pool_post(h);
}

void event_core::reset() {
  std::lock_guard lock(mutex_);
  signaled_ = false;
}

void event_core::wait(bool consume) {
  thread_waiter me;
  {
    std::lock_guard lock(mutex_);
    // Invariant: signaled_ implies waits_ is empty, so a signal never skips a queued wait.
    if (signaled_) {
      if (consume) signaled_ = false;
      return;
    }
    waits_.push_back(event_wait{&me, {}});
  }
  // acquire pairs with the release store in release_thread.
  while (me.released.load(std::memory_order_acquire) == 0) futex_wait(&me.released, 0);
  // The setter stores and wakes while holding mutex_; taking it once more means it is done
  // with `me` before `me` leaves this frame.
  std::lock_guard lock(mutex_);
}

bool event_core::wait_for(bool consume, std::chrono::nanoseconds timeout) {
  thread_waiter me;
  {
    std::lock_guard lock(mutex_);
    if (signaled_) {
      if (consume) signaled_ = false;
      return true;
    }
    waits_.push_back(event_wait{&me, {}});
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // acquire pairs with the release store in release_thread.
  while (me.released.load(std::memory_order_acquire) == 0) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::nanoseconds::zero()) break;
    futex_wait_for(&me.released, 0, left);
  }
  std::lock_guard lock(mutex_);
  // A setter that took the lock first has handed this wait the signal: it counts.
  if (me.released.load(std::memory_order_acquire) != 0) return true;
  for (auto it = waits_.begin(); it != waits_.end(); ++it) {
    if (it->thread == &me) {
      waits_.erase(it);
      break;
    }
  }
  return false;
}

bool event_core::try_wait(bool consume) {
  std::lock_guard lock(mutex_);
  if (!signaled_) return false;
  if (consume) signaled_ = false;
  return true;
}

void event_core::register_wait(std::coroutine_handle<> h) {
  {
    std::lock_guard lock(mutex_);
    if (!signaled_) {
      waits_.push_back(event_wait{nullptr, h});
      return;
    }
    signaled_ = false;  // already signaled: this registration consumes it now
  }
  pool_post(h);
}

std::size_t event_core::queued_waits() const {
  std::lock_guard lock(mutex_);
  return waits_.size();
}

void pool_post(std::coroutine_handle<> h) { pool().post(h); }

void pool_wait_idle() { pool().wait_idle(); }

std::size_t pool_size() { return pool().size(); }

void record_failure(std::string_view what, const std::source_location& loc) {
  failure_log& log = failure_record();
  std::lock_guard lock(log.mutex);
  if (log.recorded.count++ == 0) {
    log.recorded.first = Real::failure{std::string(what), loc.file_name(), loc.line()};
  }
}

}  // namespace real_detail

void Real::parker::park(source_location where) noexcept {
  real_detail::on_op(real_detail::op::park, where);
  // A spurious return (stress mode's fault injection) leaves any permit where it is.
  if (real_detail::stress_active() && real_detail::stress_spurious_wakeup()) {
    return;
  }
  // acquire pairs with the release exchange in unpark(): what the unparker wrote before
  // unpark() is visible after park() returns.
  if (state_.exchange(kEmpty, std::memory_order_acquire) == kPermit) return;
  std::uint32_t expected = kEmpty;
  if (!state_.compare_exchange_strong(expected, kParked, std::memory_order_acquire,
                                      std::memory_order_acquire)) {
    // An unpark() landed between the two steps: take its permit.
    state_.store(kEmpty, std::memory_order_relaxed);  // the failed CAS above was the acquire
    return;
  }
  for (;;) {
    real_detail::futex_wait(&state_, kParked);
    expected = kPermit;
    if (state_.compare_exchange_strong(expected, kEmpty, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
      return;
    }
    // Still kParked: a spurious or stray wake; sleep again.
  }
}

void Real::parker::unpark(source_location where) noexcept {
  real_detail::on_op(real_detail::op::unpark, where);
  // release pairs with park()'s acquire. The wake may reach the futex after the owner has
  // already taken the permit and moved on; every futex sleeper here re-checks, so a stray
  // wake is harmless.
  if (state_.exchange(kPermit, std::memory_order_release) == kParked) {
    real_detail::futex_wake(&state_, 1);
  }
}

Real::parker& Real::current_parker(source_location) noexcept {
  thread_local parker p;
  return p;
}

void Real::yield(source_location where) noexcept {
  real_detail::on_op(real_detail::op::yield, where);
  ::sched_yield();
}

void Real::pause(source_location where) noexcept {
  real_detail::on_op(real_detail::op::pause, where);
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

Real::failures Real::take_failures() {
  real_detail::failure_log& log = real_detail::failure_record();
  std::lock_guard lock(log.mutex);
  return std::exchange(log.recorded, Real::failures{});
}

}  // namespace syncstress
