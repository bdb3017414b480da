// The actors of an execution (Actors), each a task<P> on a P::thread of its own, and run_to_end,
// which runs one task on the calling thread until it has finished wherever it was resumed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/platform.hpp"
#include "platform/task.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/harness_hooks.hpp"

namespace syncstress::scenarios {

/// Runs `t` on the calling thread and blocks the thread until the task has finished, wherever
/// it was resumed (an async primitive may resume it on a pool worker). A task that never
/// finishes leaves the caller blocked on an atomic named `what`, so a deadlock report says
/// what was being waited for.
template <Platform P>
void run_to_end(task<P> t, const std::string& what) {
  // The flag and the frame outlive this call (see HarnessHooks::retire): the thread that sets
  // the flag may still be inside the coroutine, between the store and its final suspension.
  struct State {
    typename P::template atomic<std::int32_t> finished{0};
    task<P> whole;
  };
  auto state = std::make_shared<State>();
  auto& finished = state->finished;
  HarnessHooks<P>::name(&finished, what);
  auto signal = [](task<P> inner, typename P::template atomic<std::int32_t>& flag) -> task<P> {
    co_await std::move(inner);
    flag.store(1, std::memory_order_release);  // pairs with the acquire load below
    P::wake_by_address_all(flag);
  };
  state->whole = signal(std::move(t), finished);
  state->whole.start();
  while (finished.load(std::memory_order_acquire) == 0) P::wait_on_address(finished, 0);
  HarnessHooks<P>::retire(std::move(state));
}

/// Actors added with the same Role run the same body with the same parameters (their index
/// aside, which only names their own bookkeeping), and no property checked tells them apart: a
/// reducing search explores one of the mirror-image orders in which they first touch the
/// primitive (Sim::next_thread_twin_of). An actor a property or another actor names (a
/// cancellation's target) has no role.
struct Role {
  std::uint32_t id;
};

/// The actors of one execution. Lives on the body's stack; run() starts one P::thread per
/// actor, each starting its task, then waits until every task has finished.
template <Platform P>
class Actors {
 public:
  using Task = task<P>;

  explicit Actors(Observations& obs) : obs_(obs) {}
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;
  // The counter and the frames outlive the group (see HarnessHooks::retire): the last actor
  // may still be waking the counter, or inside its frame, when run() has returned.
  ~Actors() { HarnessHooks<P>::retire(std::move(state_)); }

  /// Adds an actor; `make` is called on the actor's own thread and returns its task.
  void add(std::function<Task()> make, std::optional<Role> role = std::nullopt) {
    members_.push_back({std::move(make), role});
  }

  /// Starts every actor and blocks the calling thread until all have finished. The spawns are
  /// traced at `loc` (the family's call), not inside std::make_unique.
  void run(source_location loc = source_location::current()) {
    state_->tasks.resize(members_.size());
    for (std::size_t i = 0; i < members_.size(); ++i) state_->finished.emplace_back(0);
    std::vector<std::unique_ptr<typename P::thread>> threads;
    // Where allocations are no choices of the platform's scheduler, in one allocation.
    if constexpr (!allocations_are_choices<P>()) threads.reserve(members_.size());
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if constexpr (requires(const typename P::thread& t) { P::next_thread_twin_of(t); }) {
        if (const auto twin = previous_with_role(i)) P::next_thread_twin_of(*threads[*twin]);
      }
      threads.push_back(std::make_unique<typename P::thread>(
          [this, i] {
            state_->tasks[i] = finish_counted(members_[i].make(), i);
            state_->tasks[i].start();
          },
          loc));
    }
    for (auto& t : threads) t->join();
    wait_all_finished();
  }

  /// The task of actor i, e.g. to cancel it by destroying its frame.
  Task& task_of(std::size_t i) { return state_->tasks[i]; }
  /// Counts cancelled actor `i` as finished, so run() stops waiting for it.
  void cancelled(std::size_t i) { mark_finished(state_->finished[i]); }

 private:
  Task finish_counted(Task inner, std::size_t i) {
    co_await inner.finished();
    // An exception escaping an actor is a finding (the scenario's or the primitive's), never
    // swallowed with the task. A runtime's teardown unwinds with a type of its own, not a
    // std::exception, which is left to go its way.
    if (auto error = inner.error()) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        Finding f{std::nullopt, "exception", e.what(), __FILE__, __LINE__};
        {
          const std::lock_guard<std::mutex> lock(finding_mutex_);
          if (!obs_.finding) obs_.finding = f;
        }
        HarnessHooks<P>::found(f, source_location::current());
      } catch (...) {
        throw;
      }
    }
    // Once the flag is set, run() may return and the group (whose members live on the body's
    // stack) go away: only the retired state, through a pointer in this frame, is touched after.
    mark_finished(state_->finished[i]);
  }

  /// The last actor before `i` with i's role, if it has one.
  std::optional<std::size_t> previous_with_role(std::size_t i) const {
    const auto& role = members_[i].role;
    if (!role) return std::nullopt;
    for (std::size_t k = i; k-- > 0;) {
      if (members_[k].role && members_[k].role->id == role->id) return k;
    }
    return std::nullopt;
  }

  /// Sets an actor's flag, each actor's its own: the actors' ends touch no common object, so a
  /// reducing search does not order them against each other.
  static void mark_finished(typename P::template atomic<std::int32_t>& flag) {
    flag.store(1, std::memory_order_release);  // pairs with the acquire load in wait_all_finished
    P::wake_by_address_all(flag);
  }

  void wait_all_finished() {
    for (auto& flag : state_->finished) {
      while (flag.load(std::memory_order_acquire) == 0) P::wait_on_address(flag, 0);
    }
  }

  Observations& obs_;
  std::mutex finding_mutex_;  // real threads may fail together; see PropertyChecks
  struct Member {
    std::function<Task()> make;
    std::optional<Role> role;
  };
  std::vector<Member> members_;
  struct State {
    std::deque<typename P::template atomic<std::int32_t>> finished;  // one flag per actor
    std::vector<Task> tasks;  // after the flags: destroyed first, as the frames go first
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace syncstress::scenarios
