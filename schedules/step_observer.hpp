// What a reducing search sees of an execution: every step, and the shared objects it touched.
// The runtime reports to the observer an execution names (Execution::steps), and collects the
// accesses only when there is one, so the other strategies do not pay for them.
#pragma once

#include <cstdint>
#include <span>

#include "schedules/strategy.hpp"

namespace syncstress {

/// A shared object a step touched, as a reducing search sees it. `object` names the same
/// object in every execution that shares the prefix which created it (the runtime numbers
/// objects by creating thread and creation order, not by address); `write` is false for an
/// access that changes nothing (a load, a failed compare-exchange, a wait that returned
/// because the value differed). Two steps of different threads are dependent when they touch
/// the same object and one of them writes.
///
/// `follows_write` marks a read that the step could make only after the object's last write
/// (a join of a thread that has exited): the step is ordered after that write, but the two
/// cannot be reordered, so they are not a race for a reduction to reverse.
///
/// `chained` marks a follows_write access whose step races with an earlier step through a
/// chain it also writes (a lock after an unlock, whose race is with the lock before, through
/// the mutex's acquisitions): that ordering does not hide the race. Other follows_write
/// accesses (a join, a twin's first access) order their step after everything before the
/// write, and no race of the step with such a step is one to reverse.
///
/// Under the C++ model (sim's memory=c11), an atomic's accesses say more. `store` names the
/// store a write made (a number unique in the execution, never 0). A `free_read` is a load (or
/// a compare-exchange that failed) that could read any store coherence allows, whatever other
/// threads did before it (not seq_cst, not a repeated read bound to the newest store): its
/// `store` names the store it read (0: one made before any step). Such a read is ordered after
/// that store only; a write of another thread that came before it, and that it did not read,
/// is no race with it (it could have come first and be read the same way), but for the writes
/// its `races_store` accesses name; and a read like it taken while such a write sleeps leaves
/// the write asleep.
struct Access {
  std::uint64_t object = 0;
  bool write = true;
  bool follows_write = false;
  bool chained = false;
  bool free_read = false;
  std::uint64_t store = 0;
  /// A read that races with the write that made `store` alone, whatever other writes of the
  /// object came between: a failing compare-exchange's, with a read-modify-write that read a
  /// store the compare-exchange could have succeeded on had it come first.
  bool races_store = false;
};

/// The object of a read that orders its step after the latest step of every other thread, a
/// race with none of them: the step a quiescence waiter takes once woken, which can come only
/// when every other thread has blocked or exited. No step writes it.
inline constexpr std::uint64_t kAfterEveryThread = ~std::uint64_t{0};

class StepObserver {
 public:
  virtual ~StepObserver() = default;

  /// The step `thread` just took and the objects it touched, at every scheduling point (with
  /// any number of runnable threads, before the strategy would be asked who runs next).
  /// Returns false to end the execution here, unreported (sim::Outcome::pruned): a reduction
  /// has proven that every continuation is equivalent to one already explored.
  virtual bool step_taken(ThreadId thread, std::span<const Access> accesses,
                          std::span<const ThreadId> runnable) = 0;

  /// A free read (Access::free_read) of the step under way is about to choose which store it
  /// reads among `stores` (Access::store, newest in modification order first): the answers of
  /// the choice that follows, when there are several. `writes` is empty for a load, whose
  /// answer is the store it read alone; for a compare-exchange it holds, per answer, 1 where
  /// the compare-exchange succeeds there (and so writes), else 0.
  virtual void reading(std::span<const std::uint64_t> stores,
                       std::span<const std::uint8_t> writes) {
    (void)stores;
    (void)writes;
  }

  /// The execution ends inside a step of `thread` (a failed check, an exception), whose
  /// accesses so far are `accesses`; `runnable` are the threads that could still have run.
  /// Their next steps are never seen, which a reduction must allow for.
  virtual void last_step(ThreadId thread, std::span<const Access> accesses,
                         std::span<const ThreadId> runnable) = 0;
};

}  // namespace syncstress
