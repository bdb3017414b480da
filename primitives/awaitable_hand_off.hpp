// cancel_unlink::hand_off: document 003's library (awaitable_library.hpp) extended so that a
// waiter destroyed after a release granted it, but before it ran, loses nothing. Not from the
// documents; the primitives' *_cancel_handoff variants use it.
//
// Under the corrected unlink such a waiter sits on the releaser's local resumption list: it is
// resumed after its frame is gone and its grant (the mutex, a token) is lost with it. Here:
//   - every node has a stage, read and written only under the state's mutex: queued ->
//     granted (resume_one/resume_all moved it to a local list) -> committed (the releaser
//     took it off that list to resume it) or withdrawn (taken off and never resumed);
//   - destruct_node sets the node's atomic `dying` flag before it waits for the mutex (a
//     destroyer blocked on the mutex is otherwise invisible to the releaser holding it), then
//     under the mutex unlinks a queued or granted node from whichever list holds it (the queue
//     and the local lists are alike) and, if granted, gives the grant back with
//     State::abandon(list, extra), an action like any other;
//   - the releaser pops its local list one node at a time under the mutex, marks the node
//     committed, then reads `dying`: set, the node is withdrawn and abandoned into the same
//     list; clear, its handle is copied and resumed after the lock.
// Nobody waits for anybody: a destroyer that waited for the releaser would deadlock when the
// releaser is its own thread (a waiter resumed synchronously destroying a bunchmate granted by
// the same release). The local list empties only under the lock, so no destroyer touches it
// after resume_list returns. Cost: one lock/unlock more per resumed waiter.
//
// Destruction alone cannot close the committed stage: resume() and destroy() are both
// irrevocable once called and the library runs only after each, so a gap always remains
// between the releaser's look and the resumption (on sim, the scheduling point inside
// Sim::resume, or the time a post waits in the pool). Hence try_cancel, cancellation as a
// request: under the mutex it finds the waiter by coroutine handle on the state's list of
// pending nodes (never through the awaiter, which may be gone by then), withdraws it if
// queued or granted (handing a grant on) and says true; once committed it says false and the
// caller must let the waiter run. Cost: a second link per node and a walk per try_cancel.
#pragma once

#include <coroutine>
#include <memory>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/awaitable_library.hpp"
#include "primitives/detail/lock_guard.hpp"

namespace syncstress::async_helpers {

namespace impl {

/// Where a hand_off node is. All transitions under the owning state's mutex: queued ->
/// granted -> committed, or withdrawn (from granted by the releaser that found it dying, from
/// queued or granted by try_cancel).
enum class node_stage : unsigned char { queued, granted, committed, withdrawn };

/// The document's node plus what the protocol needs. The document's nodes carry none of it.
template <Platform P, typename Extra>
struct hand_off_node : node<Extra> {
  using node<Extra>::node;

  /// The second link: threads the node onto its state's list of pending (queued or granted)
  /// waiters, where try_cancel finds it by handle.
  struct pending_link : node_base {
    hand_off_node* owner = nullptr;
  };

  node_stage stage{node_stage::queued};  // guarded by the state's mutex
  pending_link pending{};                // guarded by the state's mutex
  // dying: false, then true once, when the frame is being destroyed (destruct_node). Written
  // before the destroyer takes the mutex, so a releaser holding it sees it.
  typename P::template atomic<bool> dying{false};
};

}  // namespace impl

/// The document's awaitable_state with the hand-off protocol. State also supplies
/// `void abandon(node_list&, extra_await_data const&)`: give back what a granted waiter with
/// that extra data received (a set, a token, an unlock), moving any waiter it resumes to list.
template <Platform P, typename State, library_options kOptions>
class hand_off_state : public awaitable_state<P, State, kOptions> {
  static_assert(kOptions.unlink == cancel_unlink::hand_off);
  using base = awaitable_state<P, State, kOptions>;

 public:
  using typename base::extra_await_data;
  using typename base::node_list;
  using awaiter_node = impl::hand_off_node<P, extra_await_data>;

  /// As the document's, and the node is now granted.
  bool resume_one(node_list& list) noexcept {
    if (!base::resume_one(list)) return false;
    node_of(*list.prev).stage = impl::node_stage::granted;  // appended at the tail
    return true;
  }

  /// As the document's, and every node moved is now granted.
  bool resume_all(node_list& list) noexcept {
    for (auto n = this->sentinel_.next; n != std::addressof(this->sentinel_); n = n->next) {
      node_of(*n).stage = impl::node_stage::granted;
    }
    return base::resume_all(list);
  }

  /// As the document's, and the node also joins the pending list, in the same critical section.
  bool await_suspend(std::coroutine_handle<> handle, awaiter_node& node) {
    auto guard = primitives_detail::lock_guard(this->mutex_);
    if (this->parent().claim(node.extra)) return false;
    node.handle = handle;
    node.stage = impl::node_stage::queued;
    node.pending.owner = std::addressof(node);
    pending_.append_node(node.pending);
    this->sentinel_.append_node(node);
    return true;
  }

  /// The awaiter's destructor: a queued or granted waiter leaves its list and a granted one's
  /// grant goes on. A committed one is left alone: its resumption is under way (the caller's
  /// race); a withdrawn one was already handed on.
  void destruct_node(awaiter_node& node) noexcept {
    if (!node.handle) return;
    // release: pairs with resume_list's acquire load. Before the mutex, in the same step as
    // the frame's death, so a releaser holding the mutex sees it.
    node.dying.store(true, std::memory_order_release);
    node_list handed_on;
    {
      auto guard = primitives_detail::lock_guard(this->mutex_);
      if (node.stage == impl::node_stage::committed) return;
      if (node.stage == impl::node_stage::withdrawn) return;
      // Queued: off the queue. Granted: off the releaser's list, which it reads only under
      // this lock.
      unlink(node);
      if (node.stage == impl::node_stage::granted) this->parent().abandon(handed_on, node.extra);
    }
    resume_list(handed_on);
  }

  /// As the document's, resuming through this protocol's resume_list.
  template <typename... Params, typename... Args>
  void action_impl(void (State::*handler)(node_list&, Params...), Args&&... args) {
    node_list list;
    {
      auto guard = primitives_detail::lock_guard(this->mutex_);
      (this->parent().*handler)(list, std::forward<Args>(args)...);
    }
    resume_list(list);
  }

  /// Withdraws the waiter `handle` if its resumption is not committed yet and returns true;
  /// the caller may then destroy its frame. A granted waiter's grant goes on (State::abandon).
  /// Returns false and changes nothing when no such waiter is pending here: never suspended
  /// here, committed (the caller must let it run), or finished.
  bool try_cancel(std::coroutine_handle<> handle) noexcept {
    node_list handed_on;
    bool withdrawn = false;
    {
      auto guard = primitives_detail::lock_guard(this->mutex_);
      for (auto link = pending_.next; link != std::addressof(pending_); link = link->next) {
        auto& node = *static_cast<typename awaiter_node::pending_link*>(link)->owner;
        if (node.handle != handle) continue;
        unlink(node);  // from the queue, or from the releaser's list
        if (node.stage == impl::node_stage::granted) {
          this->parent().abandon(handed_on, node.extra);
        }
        node.stage = impl::node_stage::withdrawn;
        node.handle = nullptr;  // the awaiter's destructor has nothing left to do
        withdrawn = true;
        break;
      }
    }
    resume_list(handed_on);
    return withdrawn;
  }

 private:
  // Every queued or granted node, threaded through its pending link.
  node_list pending_;

  static awaiter_node& node_of(impl::node_base& node) { return static_cast<awaiter_node&>(node); }

  // Takes a pending node off its list (the queue or a releaser's) and off pending_.
  static void unlink(awaiter_node& node) noexcept {
    node.prev->next = node.next;
    node.next->prev = node.prev;
    unlink_pending(node);
  }

  static void unlink_pending(awaiter_node& node) noexcept {
    node.pending.prev->next = node.pending.next;
    node.pending.next->prev = node.pending.prev;
  }

  // One node at a time under the lock, so a destroyer can still take a granted node back out.
  void resume_list(node_list& list) {
    for (;;) {
      std::coroutine_handle<> handle;
      {
        auto guard = primitives_detail::lock_guard(this->mutex_);
        auto head = list.try_remove_head();
        if (!head) return;  // empty under the lock: no destroyer touches `list` any more
        auto& node = node_of(*head);
        unlink_pending(node);  // try_cancel refuses it from now on
        // Committed before the look at `dying`: a destroyer after the look finds it
        // committed, one before it is seen here.
        node.stage = impl::node_stage::committed;
        // acquire: pairs with destruct_node's release store.
        if (node.dying.load(std::memory_order_acquire)) {
          // Its destroyer waits for this mutex: hand the grant on into this same list; the
          // destroyer will find the node withdrawn.
          node.stage = impl::node_stage::withdrawn;
          this->parent().abandon(list, node.extra);
          continue;
        }
        handle = node.handle;  // copied under the lock: the node may die with its frame after
      }
      resume_handle<P, kOptions.resume>(handle);
    }
  }
};

/// The document's awaitable_sync_object, offering try_cancel.
template <typename State>
class hand_off_sync_object : public awaitable_sync_object<State> {
 public:
  using awaitable_sync_object<State>::awaitable_sync_object;

  /// Asks to cancel the waiting coroutine `handle`: true when it was withdrawn and may now be
  /// destroyed, false when it is committed to run (or not waiting here).
  bool try_cancel(std::coroutine_handle<> handle) noexcept {
    return this->get_state().try_cancel(handle);
  }
};

/// The state base for `kOptions`: hand_off's, or the document's.
template <Platform P, typename State, library_options kOptions>
using awaitable_state_for =
    std::conditional_t<kOptions.unlink == cancel_unlink::hand_off,
                       hand_off_state<P, State, kOptions>, awaitable_state<P, State, kOptions>>;

/// The sync-object base for `kOptions`: hand_off's (with try_cancel), or the document's.
template <typename State, library_options kOptions>
using awaitable_sync_object_for =
    std::conditional_t<kOptions.unlink == cancel_unlink::hand_off, hand_off_sync_object<State>,
                       awaitable_sync_object<State>>;

}  // namespace syncstress::async_helpers
