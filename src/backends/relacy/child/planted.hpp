// Primitives that only syncstress-relacy knows: the tool's tests of itself on the relacy
// platform (tests/cli_relacy_child_test.cpp). The deliberately broken ones each break one thing
// that sim, being sequentially consistent, cannot see or can see only as a hang; beside them, a
// shape of the kind interface the catalogue has none of (a lock whose lock() gives a guard), and
// its broken twin. `syncstress-relacy list --planted` shows them, the plain `list` (what the CLI
// runs) does not.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

#include "platform/platform.hpp"

namespace syncstress::relacy_planted {

/// A futex lock whose unlock stores with memory_order_relaxed: mutual exclusion holds on every
/// interleaving, but nothing orders one holder's writes before the next holder's reads, so
/// Relacy reports a data race on the guarded cell.
template <Platform P>
class relaxed_unlock_mutex {
 public:
  void lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(word_, 1);
  }
  void unlock() {
    word_.store(0, std::memory_order_relaxed);  // the planted bug: release is needed
    P::wake_by_address_single(word_);
  }

 private:
  typename P::template atomic<std::int32_t> word_{0};
};

/// A futex lock whose unlock forgets to wake a sleeper: the next waiter sleeps for ever once
/// the holders are done, which Relacy reports as a deadlock (a lost wake-up).
template <Platform P>
class forgetful_wake_mutex {
 public:
  void lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(word_, 1);
  }
  void unlock() { word_.store(0, std::memory_order_release); }  // the planted bug: no wake

 private:
  typename P::template atomic<std::int32_t> word_{0};
};

/// A lock made of a semaphore of one token, taken with a timed acquire retried until it
/// succeeds: correct, a control for P::counting_semaphore and its timeouts.
template <Platform P>
class semaphore_mutex {
 public:
  void lock() {
    while (!tokens_.try_acquire_for(std::chrono::milliseconds(1))) {
    }
  }
  void unlock() { tokens_.release(); }

 private:
  typename P::counting_semaphore tokens_{1};
};

/// A lock made of a flag, a mutex and a condition variable. `kRecheck`: the waiter re-checks the
/// flag after each wait (correct, a control for P::condition_variable); else it checks once,
/// the planted bug: a spurious return lets two threads take the lock.
template <Platform P, bool kRecheck>
class flag_condvar_mutex {
 public:
  void lock() {
    m_.lock();
    if constexpr (kRecheck) {
      while (held_.with([](bool h) { return h; })) cv_.wait(m_);
    } else if (held_.with([](bool h) { return h; })) {
      cv_.wait(m_);
    }
    held_.with_mut([](bool& h) { h = true; });
    m_.unlock();
  }
  void unlock() {
    m_.lock();
    held_.with_mut([](bool& h) { h = false; });
    m_.unlock();
    cv_.notify_one();
  }

 private:
  typename P::mutex m_;
  typename P::condition_variable cv_;
  typename P::template cell<bool> held_{false};
};
template <Platform P>
using condvar_mutex = flag_condvar_mutex<P, true>;
template <Platform P>
using if_condvar_mutex = flag_condvar_mutex<P, false>;

/// A futex lock whose lock() gives a guard, the only way to unlock it: the guard unlocks when
/// destroyed and a moved-from guard holds nothing (primitives/README.md, "What an acquisition
/// gives"). With kGuardUnlocks false, the planted bug: the guard forgets to, so the next locker
/// sleeps for ever.
template <Platform P, bool kGuardUnlocks>
class guard_lock_mutex {
 public:
  class guard {
   public:
    explicit guard(guard_lock_mutex& m) : m_(&m) {}
    guard(guard&& other) noexcept : m_(std::exchange(other.m_, nullptr)) {}
    guard& operator=(guard&&) = delete;
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    ~guard() {
      if (m_ != nullptr && kGuardUnlocks) m_->unlock();
    }

   private:
    guard_lock_mutex* m_;
  };

  guard lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(word_, 1);
    return guard(*this);
  }

 private:
  void unlock() {
    word_.store(0, std::memory_order_release);  // pairs with lock's acquire exchange
    P::wake_by_address_single(word_);
  }

  typename P::template atomic<std::int32_t> word_{0};
};

}  // namespace syncstress::relacy_planted
