// The awaitable-synchronization-object library of document 003 (part 2 of the March 2021
// series), with part 3's pooled resumption and part 5's calc_claim, as a template over P.
//
// Follows document 003 line for line: the intrusive node list (lines 9-83), extra_await_data
// (89-93), awaitable_state with fast_claim/peek_head/resume_one/resume_all/await_suspend/
// await_resume/destruct_node/action_impl/resume_list/resume_node (101-222) and
// awaitable_sync_object with its awaiter (230-280). Deviations, each forced:
//   - std::mutex becomes P::mutex, std::lock_guard a guard that passes the source location;
//     std::experimental::coroutine_handle becomes std::coroutine_handle (C++20).
//   - handle.resume() (line 220) becomes P::resume(handle) (part 2 mode) or P::post(handle)
//     (part 3 mode, chosen by library_options::resume), so the runtime sees every resumption.
//   - The document's compile errors are fixed minimally (listed in primitives/README.md):
//     extra_node's missing return (111-112), peek_head passing a pointer (130) and calling a
//     non-const member from a const one, the two aliases that change the meaning of a name
//     already used in the class (107/117/118), destruct_node reading `handle` through a
//     node_base& (179-181).
//   - awaitable_sync_object's copy is deleted: the kind interfaces make primitives
//     non-copyable. The state is still held by shared_ptr, as published.
//   - Template-port mechanics only: members end in `_`, dependent-base names need `this->`.
// Cancellation (destruct_node, lines 179-186) is kept as published by default. As published
// it does not unlink the node (it rewrites the node's own links instead of its neighbours'),
// so a cancelled waiter stays queued and is later resumed after its frame is gone.
// cancel_unlink::corrected unlinks it properly; that is a corrected variant, never the
// default (see primitives/README.md, "Suspected bugs").
//
// cancel_unlink::hand_off (a further corrected variant) also covers a waiter destroyed after a
// release granted it (moved its node to the releaser's local resumption list) but before the
// releaser resumed it. Under corrected, that waiter is resumed after its frame is gone and what
// it was granted (the mutex, a token) is lost with it. The protocol:
//   - every node has a stage, read and written only under the state's mutex:
//     queued -> granted (resume_one/resume_all moved it to a local list) -> committed (the
//     releaser took it off its local list and is about to resume it) or withdrawn (the
//     releaser took it off and found it dying);
//   - destruct_node first sets the node's atomic `dying` flag, before it waits for the mutex
//     (a destroyer blocked on the mutex is otherwise invisible while the releaser, holding it,
//     commits the node); then, under the mutex: queued -> unlink from the queue; granted ->
//     unlink from the releaser's local list (a doubly linked list with a sentinel, like the
//     queue, so the same two stores) and give back what the waiter was granted with
//     State::abandon(list, extra), an action run like any other (what it moves to `list` is
//     resumed after the lock); withdrawn or committed -> nothing;
//   - the releaser pops its local list one node at a time under the mutex, marks the node
//     committed, then looks at `dying`: if set, the node is withdrawn and its grant handed on
//     (abandon into the same list); else it copies the handle and resumes it after the lock.
// Nobody waits for anybody: the destroyer never blocks on the releaser (a design where it
// waited for the releaser's acknowledgement would deadlock when the releaser is the
// destroyer's own thread: a waiter resumed synchronously that destroys a later waiter of the
// same batch, e.g. two readers granted together), and the releaser's local list only empties
// under the lock, so no destroyer touches the list's sentinel after resume_list returns.
// Cost: one extra lock/unlock per resumed waiter.
// What destruction alone cannot close: destroying a waiter whose node is already committed.
// Resuming a coroutine is irrevocable once the releaser calls resume (or post), and destroying
// it is irrevocable once the destroyer calls destroy(); the library's code runs only after each
// (the awaiter's destructor, await_resume), so any check the releaser makes is followed by a
// gap before the resumption starts (on sim, the scheduling point inside Sim::resume and the
// time a post sits in the pool). hand_off therefore also offers cancellation as a request:
// try_cancel(handle) withdraws a queued or granted waiter under the mutex (found by its
// coroutine handle on the state's pending_ list, never through the awaiter, which may be gone
// by the time the lock is taken), hands a granted waiter's grant on, and returns true; once the
// waiter is committed it returns false and the caller must let the waiter run. A caller that
// destroys only after try_cancel said true never destroys a frame the library will resume.
// Cost: a second link per node, set on suspension and cleared on commit, and a walk of the
// pending waiters per try_cancel.
#pragma once

#include <concepts>
#include <coroutine>
#include <memory>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/detail/lock_guard.hpp"

namespace syncstress::async_helpers {

/// How a released waiter is resumed.
enum class resumption {
  synchronous,  ///< part 2: resume_list resumes each waiter on the releasing thread
  pooled,       ///< part 3: resume_list posts each waiter to the platform's pool
};

/// How destruct_node unlinks a cancelled waiter.
enum class cancel_unlink {
  as_published,  ///< document 003 lines 183-184 verbatim (does not unlink; see file comment)
  corrected,     ///< node.prev->next = node.next; node.next->prev = node.prev
  hand_off,      ///< corrected, and a waiter destroyed once granted gives its grant back
};

/// The library's two knobs, a structural type so it can be a template argument.
struct library_options {
  resumption resume;
  cancel_unlink unlink;
};

/// Part 2 as published: synchronous resumption, destruct_node verbatim.
inline constexpr library_options kPart2{resumption::synchronous, cancel_unlink::as_published};
/// Part 3 as published: pooled resumption, destruct_node verbatim.
inline constexpr library_options kPart3{resumption::pooled, cancel_unlink::as_published};
/// Part 2 with destruct_node's unlink corrected (a corrected variant).
inline constexpr library_options kPart2CancelFixed{resumption::synchronous,
                                                   cancel_unlink::corrected};
/// Part 3 with destruct_node's unlink corrected (a corrected variant).
inline constexpr library_options kPart3CancelFixed{resumption::pooled, cancel_unlink::corrected};
/// Part 2 where a waiter destroyed after being granted hands its grant on (see file comment).
inline constexpr library_options kPart2CancelHandoff{resumption::synchronous,
                                                     cancel_unlink::hand_off};
/// Part 3 where a waiter destroyed after being granted hands its grant on (see file comment).
inline constexpr library_options kPart3CancelHandoff{resumption::pooled, cancel_unlink::hand_off};

namespace impl {

/// A doubly linked list node (document 003 lines 11-15). Plain data: only touched under the
/// owning awaitable_state's mutex, or by the releasing thread after the node left the queue.
struct node_base {
  node_base* next;
  node_base* prev;
};

/// Where a waiter's node is, for cancel_unlink::hand_off (unused by the other settings).
/// Transitions, all under the owning state's mutex: queued -> granted (a release moved the node
/// to its local resumption list) -> committed (the releaser took it off that list to resume it)
/// or withdrawn (the releaser took it off and found its frame being destroyed, or try_cancel
/// took it off its list, from queued or granted).
enum class node_stage : unsigned char { queued, granted, committed, withdrawn };

struct node_handle;

/// hand_off's second link: threads a node onto its state's list of pending waiters (queued or
/// granted, not yet committed), where try_cancel finds it by its coroutine handle.
struct pending_link : node_base {
  node_handle* owner = nullptr;
};

/// A node carrying the waiting coroutine; `handle` is non-null exactly while the coroutine is
/// suspended in the queue or being resumed (set in await_suspend, cleared in await_resume, or
/// by try_cancel when it withdraws the node).
struct node_handle : node_base {
  std::coroutine_handle<> handle{};
  node_stage stage{node_stage::queued};  // hand_off only; guarded by the state's mutex
  pending_link pending{};                // hand_off only; guarded by the state's mutex
};

/// A node with the per-await extra data (document 003 lines 22-30).
template <typename Extra>
struct node : node_handle {
  template <typename... Args>
  node(Args&&... args) : extra(std::forward<Args>(args)...) {}

  Extra extra;
};

/// hand_off's node: also says, without the lock, that its frame is being destroyed. The
/// destroyer sets `dying` before it waits for the state's mutex, so a releaser holding the
/// mutex sees it. States: false, then true once (in destruct_node). Never read after the
/// destroyer has taken the mutex.
template <Platform P, typename Extra>
struct dying_node : node<Extra> {
  using node<Extra>::node;
  typename P::template atomic<bool> dying{false};
};

}  // namespace impl

/// The intrusive list with a sentinel (document 003 lines 39-82): empty when the sentinel
/// points at itself.
struct node_list : impl::node_base {
  node_list() : node_base{this, this} {}
  node_list(node_list const&) = delete;
  void operator=(node_list const&) = delete;

  /// True when no node is linked.
  bool empty() const noexcept { return next == this; }

  /// Links `node` at the tail.
  void append_node(impl::node_base& node) noexcept {
    node.next = this;
    node.prev = prev;
    prev->next = std::addressof(node);
    prev = std::addressof(node);
  }

  /// Moves every node of `other` to the front of this list (as published: a prepend, which is
  /// the same as an append when this list is empty, the only way the library uses it).
  bool append_list(node_list& other) noexcept {
    if (other.empty()) return false;
    other.prev->next = next;
    next->prev = other.prev;
    next = other.next;
    next->prev = this;
    other.next = other.prev = std::addressof(other);
    return true;
  }

  /// The head node, or nullptr when empty.
  impl::node_base* peek_head() const noexcept { return empty() ? nullptr : next; }

  /// Unlinks and returns the head node, or nullptr when empty.
  impl::node_base* try_remove_head() noexcept {
    if (empty()) return nullptr;
    auto node = next;
    next = node->next;
    next->prev = this;
    return node;
  }
};

/// Specialize if you need extra data for co_await (document 003 line 92).
template <typename State>
struct extra_await_data {};

/// Part 5's claim helper: applies `transition(current, future)` with compare-exchange.
/// The fast form makes a single attempt from the guessed `current`; the slow form loops,
/// refreshing `current`, until the transition refuses or the exchange succeeds.
template <bool kFast, class Atomic, class Transition>
bool calc_claim(Atomic& value, Transition transition, decltype(value.load()) current,
                source_location loc = source_location::current()) {
  decltype(current) future{};
  if constexpr (kFast) {
    if (!transition(current, future)) return false;
    // acquire on success: pairs with the release of whoever last released the object.
    return value.compare_exchange_strong(current, future, std::memory_order_acquire,
                                         std::memory_order_relaxed, loc);
  } else {
    while (transition(current, future)) {
      // acquire on success as above; relaxed on failure: `current` is only a new guess.
      if (value.compare_exchange_weak(current, future, std::memory_order_acquire,
                                      std::memory_order_relaxed, loc)) {
        return true;
      }
    }
    return false;
  }
}

/// calc_claim from the current value (part 5's two-argument form).
template <bool kFast, class Atomic, class Transition>
bool calc_claim(Atomic& value, Transition transition,
                source_location loc = source_location::current()) {
  // relaxed: only a guess; the exchange in calc_claim validates it with acquire.
  return calc_claim<kFast>(value, transition, value.load(std::memory_order_relaxed, loc), loc);
}

/// The CRTP base of every state (document 003 lines 103-222). State supplies
/// `bool claim(extra_await_data const&)` (called under the lock), optionally `fast_claim`
/// (called without it), and action handlers `void h(node_list&, ...)` run by action_impl.
/// With cancel_unlink::hand_off, State also supplies `void abandon(node_list&,
/// extra_await_data const&)`: give back what a granted waiter with that extra data received.
template <Platform P, typename State, library_options kOptions>
class awaitable_state {
  typename P::mutex mutex_;            // guards sentinel_, pending_ and every node's links
  async_helpers::node_list sentinel_;  // the waiting coroutines, FIFO
  // hand_off only: every node queued or granted (threaded through node_handle::pending), so
  // try_cancel can find a waiter by its coroutine handle wherever its node is linked.
  async_helpers::node_list pending_;

  State& parent() { return static_cast<State&>(*this); }

  static auto& extra_node(impl::node_base& node) {
    return static_cast<impl::node<async_helpers::extra_await_data<State>>&>(node);
  }

  static constexpr bool kHandOff = kOptions.unlink == cancel_unlink::hand_off;

  static auto& dying_node(impl::node_base& node) {
    return static_cast<impl::dying_node<P, async_helpers::extra_await_data<State>>&>(node);
  }

 public:
  using extra_await_data = async_helpers::extra_await_data<State>;
  using node_list = async_helpers::node_list;
  /// The node type the awaiter embeds: hand_off's carries the `dying` flag.
  using awaiter_node =
      std::conditional_t<kOptions.unlink == cancel_unlink::hand_off,
                         impl::dying_node<P, extra_await_data>, impl::node<extra_await_data>>;

  awaitable_state() = default;
  awaitable_state(const awaitable_state&) = delete;
  awaitable_state& operator=(const awaitable_state&) = delete;

  /// Default fast path: "must do it the slow way".
  bool fast_claim(extra_await_data const&) const noexcept { return false; }

  /// The head waiter's extra data, or nullptr. Only from within an action (lock held).
  extra_await_data* peek_head() const noexcept {
    auto node = sentinel_.peek_head();
    return node ? &extra_node(*node).extra : nullptr;
  }

  /// Moves the head waiter to `list` for resumption. Only from within an action.
  bool resume_one(node_list& list) noexcept {
    auto node = sentinel_.try_remove_head();
    if (!node) return false;
    if constexpr (kHandOff)
      static_cast<impl::node_handle*>(node)->stage = impl::node_stage::granted;
    list.append_node(*node);
    return true;
  }

  /// Moves every waiter to `list` for resumption. Only from within an action.
  bool resume_all(node_list& list) noexcept {
    if constexpr (kHandOff) {
      for (auto n = sentinel_.next; n != std::addressof(sentinel_); n = n->next) {
        static_cast<impl::node_handle*>(n)->stage = impl::node_stage::granted;
      }
    }
    return list.append_list(sentinel_);
  }

  /// Claims under the lock, or queues the coroutine. Returns true to stay suspended.
  bool await_suspend(std::coroutine_handle<> handle, impl::node<extra_await_data>& node) {
    primitives_detail::lock_guard guard(mutex_);
    if (parent().claim(node.extra)) return false;
    node.handle = handle;
    if constexpr (kHandOff) {
      node.stage = impl::node_stage::queued;
      node.pending.owner = std::addressof(node);
      pending_.append_node(node.pending);
    }
    sentinel_.append_node(node);
    return true;
  }

  /// Marks the coroutine as no longer suspended (so destruct_node does nothing).
  void await_resume(impl::node<extra_await_data>& node) noexcept { node.handle = nullptr; }

  /// Cancellation: a waiter destroyed while still queued unlinks itself. Destroying one whose
  /// resumption is already in flight is the caller's race (document 003 line 188).
  /// With hand_off, a granted waiter also leaves the releaser's list and hands its grant on.
  void destruct_node(impl::node_handle& node) noexcept {
    if constexpr (kHandOff) {
      if (node.handle) destruct_node_hand_off(node);
      return;
    }
    if (node.handle) {
      primitives_detail::lock_guard guard(mutex_);
      if constexpr (kOptions.unlink == cancel_unlink::as_published) {
        // Document 003 lines 183-184 verbatim: node.prev->next is &node itself, so this sets
        // node.next = &node and leaves node.prev as it was; the neighbours keep pointing at
        // the node, which stays queued after its frame is destroyed.
        node.next = node.prev->next;
        node.prev = node.next->prev;
      } else {
        node.prev->next = node.next;
        node.next->prev = node.prev;
      }
    }
  }

  /// Runs `handler` under the lock, then resumes whatever it moved to its list.
  template <typename... Params, typename... Args>
  void action_impl(void (State::*handler)(node_list&, Params...), Args&&... args) {
    node_list list;
    {
      primitives_detail::lock_guard guard(mutex_);
      (parent().*handler)(list, std::forward<Args>(args)...);
    }
    resume_list(list);
  }

  /// Cancellation as a request (hand_off only): withdraws the waiter `handle` if its resumption
  /// is not yet committed, and returns true; the caller may then destroy its frame, which the
  /// library no longer references. A queued waiter leaves the queue; a granted one leaves the
  /// releaser's list and hands its grant on (State::abandon). Returns false, and changes
  /// nothing, when no such waiter is pending: not suspended here yet, already committed to be
  /// resumed (the caller must let it run), or finished. Looks the waiter up by handle under the
  /// lock, never through the awaiter, which may be gone by the time the lock is taken.
  bool try_cancel(std::coroutine_handle<> handle) noexcept requires kHandOff {
    node_list handed_on;
    bool withdrawn = false;
    {
      primitives_detail::lock_guard guard(mutex_);
      for (auto link = pending_.next; link != std::addressof(pending_); link = link->next) {
        auto& node = *static_cast<impl::pending_link*>(link)->owner;
        if (node.handle != handle) continue;
        // Queued: unlink from sentinel_. Granted: from the releaser's local list, which the
        // releaser only reads under this lock.
        unlink(node);
        if (node.stage == impl::node_stage::granted) {
          parent().abandon(handed_on, extra_node(node).extra);
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
  // hand_off: takes a pending node off its list (queue or a releaser's) and off pending_.
  static void unlink(impl::node_handle& node) noexcept {
    node.prev->next = node.next;
    node.next->prev = node.prev;
    node.pending.prev->next = node.pending.next;
    node.pending.next->prev = node.pending.prev;
  }

  // hand_off's destruct_node (see the file comment). A committed node is left alone: its
  // resumption is already under way, the caller's race.
  void destruct_node_hand_off(impl::node_handle& node) noexcept {
    // release: pairs with the releaser's acquire load in resume_list. Set before taking the
    // mutex, in the same step as the frame's death, so a releaser holding the mutex sees it.
    dying_node(node).dying.store(true, std::memory_order_release);
    node_list handed_on;
    {
      primitives_detail::lock_guard guard(mutex_);
      // Committed: the caller's race. Withdrawn: the releaser already handed the grant on.
      if (node.stage == impl::node_stage::committed) return;
      if (node.stage == impl::node_stage::withdrawn) return;
      // Queued: unlink from sentinel_. Granted: unlink from the releaser's local list, which
      // the releaser only reads under this lock.
      unlink(node);
      if (node.stage == impl::node_stage::granted) {
        parent().abandon(handed_on, extra_node(node).extra);
      }
    }
    resume_list(handed_on);
  }

  void resume_list(node_list& list) {
    if constexpr (kHandOff) {
      // One node at a time under the lock, so a destroyer can take a granted node back out.
      for (;;) {
        std::coroutine_handle<> handle;
        {
          primitives_detail::lock_guard guard(mutex_);
          auto node = list.try_remove_head();
          if (!node) return;  // empty under the lock: no destroyer touches `list` any more
          auto& h = *static_cast<impl::node_handle*>(node);
          h.pending.prev->next = h.pending.next;  // no longer pending: try_cancel refuses it
          h.pending.next->prev = h.pending.prev;
          // committed before the look at `dying`: a destroyer that comes after the look finds
          // the node committed, one that came before is seen here.
          h.stage = impl::node_stage::committed;
          // acquire: pairs with destruct_node's release store.
          if (dying_node(*node).dying.load(std::memory_order_acquire)) {
            // Its frame is being destroyed (its destroyer waits for this mutex): hand its
            // grant on into this same list; the destroyer will find it withdrawn.
            h.stage = impl::node_stage::withdrawn;
            parent().abandon(list, extra_node(*node).extra);
            continue;
          }
          handle = h.handle;  // copied under the lock: the node may die with its frame after it
        }
        resume_handle(handle);
      }
    }
    auto node = list.next;
    while (node != std::addressof(list)) {
      // The resumed coroutine owns (and may at once destroy) the node: read next first.
      resume_node(std::exchange(node, node->next));
    }
  }

  void resume_node(impl::node_base* node) noexcept {
    auto handle = extra_node(*node).handle;
    if constexpr (kOptions.resume == resumption::synchronous) {
      P::resume(handle);  // part 2: on the releasing thread
    } else {
      P::post(handle);  // part 3: on the platform's pool
    }
  }

  // hand_off's resume_node, from a handle copied under the lock.
  void resume_handle(std::coroutine_handle<> handle) noexcept {
    if constexpr (kOptions.resume == resumption::synchronous) {
      P::resume(handle);
    } else {
      P::post(handle);
    }
  }
};

/// The synchronization object: a handle on a shared State (document 003 lines 230-279).
template <typename State>
class awaitable_sync_object {
  std::shared_ptr<State> shared_;

 public:
  template <typename... Args>
  awaitable_sync_object(Args&&... args)
      : shared_(std::make_shared<State>(std::forward<Args>(args)...)) {}
  awaitable_sync_object(const awaitable_sync_object&) = delete;
  awaitable_sync_object& operator=(const awaitable_sync_object&) = delete;

  /// An awaiter carrying `arg` as its extra data.
  template <typename Arg = typename State::extra_await_data>
  auto make_awaiter(Arg arg = {}) {
    return awaiter{*shared_, std::forward<Arg>(arg)};
  }

  /// co_await the object itself: an awaiter with default extra data.
  auto operator co_await() { return awaiter{*shared_}; }

  /// Asks to cancel the waiting coroutine `handle` (cancel_unlink::hand_off only): true when it
  /// was withdrawn and may now be destroyed, false when it is committed to run (or not waiting
  /// here). See awaitable_state::try_cancel.
  bool try_cancel(std::coroutine_handle<> handle) noexcept requires requires(State& s) {
    s.try_cancel(handle);
  }
  { return shared_->try_cancel(handle); }

 protected:
  using state = State;

  State& get_state() const noexcept { return *shared_; }

  template <typename... Args>
  void action_impl(Args&&... args) const {
    shared_->action_impl(std::forward<Args>(args)...);
  }

  /// The awaiter: tries fast_claim, else queues through the state; its destructor is the
  /// cancellation hook.
  struct awaiter {
    template <typename... Args>
    awaiter(State& state, Args&&... args) : s_(state), node_(std::forward<Args>(args)...) {}
    awaiter(const awaiter&) = delete;
    awaiter& operator=(const awaiter&) = delete;

    State& s_;
    typename State::awaiter_node node_;

    bool await_ready() { return s_.fast_claim(node_.extra); }

    bool await_suspend(std::coroutine_handle<> handle) { return s_.await_suspend(handle, node_); }

    void await_resume() { s_.await_resume(node_); }

    ~awaiter() { s_.destruct_node(node_); }
  };
};

}  // namespace syncstress::async_helpers

namespace syncstress {

/// Whether a primitive takes cancellation requests: `try_cancel(handle)` says whether the
/// waiting coroutine was withdrawn and may be destroyed (see awaitable_state::try_cancel).
template <class Prim>
concept cancellable_by_request = requires(Prim& p, std::coroutine_handle<> h) {
  { p.try_cancel(h) } -> std::same_as<bool>;
};

}  // namespace syncstress
