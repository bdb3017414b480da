// Who waits for the primitive, since when (WaitBook): the bookkeeping behind bypass counts,
// FIFO violations and wait times; settle_in_book settles a coroutine's wait (see settling.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "platform/platform.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/harness_hooks.hpp"

namespace syncstress::scenarios {

/// Who is waiting, since when: the bookkeeping behind bypass counts, FIFO violations and wait
/// times.
///
/// A waiter *arrives* (the tick its acquisition starts) and is *settled* once it is certainly
/// in line: for a thread blocking in a sync primitive, at arrival (its first operation is its
/// doorway as far as the harness can tell); for a coroutine, once the primitive's await_suspend
/// returned with the coroutine suspended, i.e. queued. B is bypassed by A when A acquires while
/// B, settled strictly before A arrived, still waits. A primitive whose doorway comes after a
/// few steps (a failed fast path, then the queue) is thus not blamed for the order in which
/// two waiters raced through that doorway. On real threads a thread may be preempted between
/// its arrival and its doorway for as long as the kernel likes, so a sync waiter counts as
/// settled only settle_delay() after it arrived.
///
/// What a reducing search on sim is told (note_harness_access): nothing unless `ordered`, i.e.
/// a verdict compares the book's entries in order (a claimed FIFO hand-off or starvation
/// freedom); otherwise the book only feeds measurements. When ordered, only the orders a
/// bypass depends on: a waiter's settling against another's arrival (settled_at < arrival),
/// and acquisitions against each other (whether the other still waits). Two arrivals of
/// coroutines, or an acquisition and an arrival, are not ordered for it.
template <Platform P>
class WaitBook {
 public:
  WaitBook(Observations& obs, bool ordered) : obs_(obs), ordered_(ordered) {
    note_harness_created<P>(&settles_);
    note_harness_created<P>(&acquisitions_);
  }

  struct Ticket {
    std::size_t actor;
    std::uint64_t arrival;
    std::uint64_t serial;
  };

  /// Stamps `actor`'s arrival. A `victim` is watched for starvation: see worst_victim().
  Ticket arrive(std::size_t actor, bool settled, bool victim = false) {
    note(&settles_, settled);
    const std::lock_guard<std::mutex> lock(mutex_);
    Ticket t{actor, HarnessHooks<P>::now(), ++serials_};
    if (victim) obs_.actors[actor].victim = true;
    waiting_.push_back({t, 0, victim, settled ? t.arrival + settle_delay<P>() : kNotSettled});
    return t;
  }

  /// Marks the wait of `t` as settled now; a no-op if it already ended.
  void settle(const Ticket& t) {
    note(&settles_, true);
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto& w : waiting_) {
      if (w.ticket.serial == t.serial && w.settled_at == kNotSettled) {
        w.settled_at = HarnessHooks<P>::now();
      }
    }
  }

  /// Records the acquisition; returns how many earlier, settled waiters it bypassed.
  std::uint64_t acquired(const Ticket& t) {
    note(&acquisitions_, true);
    const std::lock_guard<std::mutex> lock(mutex_);
    std::uint64_t passed = 0;
    for (auto& w : waiting_) {
      if (w.ticket.serial != t.serial && w.settled_at < t.arrival) {
        ++passed;
        ++w.bypasses;
        auto& victim = obs_.actors[w.ticket.actor];
        ++victim.bypassed;
        victim.max_bypassed = std::max(victim.max_bypassed, w.bypasses);
      }
    }
    obs_.fifo_violations += passed;
    auto& me = obs_.actors[t.actor];
    ++me.acquisitions;
    me.waits.push_back(HarnessHooks<P>::now() - t.arrival);
    std::erase_if(waiting_, [&](const Entry& e) { return e.ticket.serial == t.serial; });
    return passed;
  }

  /// The longest a still-waiting victim has waited so far, in clock ticks.
  std::uint64_t longest_victim_wait() const {
    note(&acquisitions_, false);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = HarnessHooks<P>::now();
    std::uint64_t worst = 0;
    for (const auto& w : waiting_) {
      if (w.victim && now > w.ticket.arrival) worst = std::max(worst, now - w.ticket.arrival);
    }
    return worst;
  }

  /// The most bypasses any still-waiting victim has suffered in its current wait.
  std::uint64_t worst_victim() const {
    note(&acquisitions_, false);
    const std::lock_guard<std::mutex> lock(mutex_);
    std::uint64_t worst = 0;
    for (const auto& w : waiting_) {
      if (w.victim) worst = std::max(worst, w.bypasses);
    }
    return worst;
  }

 private:
  static constexpr std::uint64_t kNotSettled = ~std::uint64_t{0};
  void note(const void* what, bool write) const {
    if (ordered_) note_harness_access<P>(what, write);
  }
  struct Entry {
    Ticket ticket;
    std::uint64_t bypasses;
    bool victim;
    std::uint64_t settled_at;
  };
  Observations& obs_;
  bool ordered_;
  // Stand-ins for the reducing search: what settling and acquiring change.
  char settles_ = 0;
  char acquisitions_ = 0;
  std::vector<Entry> waiting_;  // in arrival order; a handful of actors, so a vector
  std::uint64_t serials_ = 0;
  mutable std::mutex mutex_;  // for real threads; see PropertyChecks
};

/// settling for a WaitBook ticket.
template <Platform P>
struct settle_in_book {
  WaitBook<P>* book;
  typename WaitBook<P>::Ticket ticket;
  void operator()() const { book->settle(ticket); }
};

}  // namespace syncstress::scenarios
