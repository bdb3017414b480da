// Document 003 (part 2 of the March 2021 series): the library for awaitable synchronization
// objects, as a template over P, with part 3's pooled resumption as an option. Read it against
// the document: each piece below names the lines it ports.
//
// Deviations from the document, each with its reason:
//   - std::mutex becomes P::mutex and std::lock_guard primitives_detail::lock_guard, which
//     passes the source location on so sim traces name these lines;
//     std::experimental::coroutine_handle becomes C++20's std::coroutine_handle.
//   - handle.resume() becomes resume_handle (P::resume for part 2, P::post for part 3), so the
//     runtime sees every resumption.
//   - The document's compile errors are fixed minimally (listed in primitives/README.md,
//     "Where the documents' code does not compile as written").
//   - destruct_node's unlink stays as published by default; library_options picks the
//     corrected unlink, a variant under its own names (README, "Suspected bugs").
//   - awaitable_state's private part is protected and the awaiter embeds the state's
//     `awaiter_node` (here the document's node): awaitable_hand_off.hpp builds its protocol on
//     these, so the document's nodes carry none of its fields.
//   - The copies of awaitable_sync_object and of its awaiter are deleted: the kind interfaces
//     are non-copyable, and a copied awaiter would be a second node for one wait.
//   - Port mechanics: the classes' data members end in `_` (the node structs keep the
//     document's names); names from a dependent base need `this->`.
// Not from the document: the options and resume_handle before the port, calc_claim (part 5)
// and cancellable_by_request after it.
#pragma once

#include <concepts>
#include <coroutine>
#include <memory>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/detail/lock_guard.hpp"

namespace syncstress::async_helpers {

/// How a released waiter is resumed.
enum class resumption {
  synchronous,  ///< part 2: resume_list resumes each waiter on the releasing thread
  pooled,       ///< part 3: resume_list posts each waiter to the platform's pool
};

/// How a cancelled waiter leaves the queue.
enum class cancel_unlink {
  as_published,  ///< destruct_node verbatim: document 003 lines 183-184 (`node.prev->next`)
  corrected,     ///< node.prev->next = node.next; node.next->prev = node.prev
  hand_off,      ///< corrected, and a destroyed granted waiter hands its grant on
                 ///< (awaitable_hand_off.hpp)
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
/// Part 2 where a waiter destroyed after being granted hands its grant on.
inline constexpr library_options kPart2CancelHandoff{resumption::synchronous,
                                                     cancel_unlink::hand_off};
/// Part 3 where a waiter destroyed after being granted hands its grant on.
inline constexpr library_options kPart3CancelHandoff{resumption::pooled, cancel_unlink::hand_off};

/// Resumes a released waiter the way kResume says: what the document's `handle.resume()`
/// (document 003 line 220, `handle.resume()`) becomes.
template <Platform P, resumption kResume>
void resume_handle(std::coroutine_handle<> handle) noexcept {
  if constexpr (kResume == resumption::synchronous) {
    P::resume(handle);  // part 2: on the releasing thread
  } else {
    P::post(handle);  // part 3: on the platform's pool
  }
}

// ---- The port of document 003 ----------------------------------------------------------------

namespace impl {

/// document 003 lines 11-15 (`node_base`). Plain data: touched only under the owning state's
/// mutex, or by the releasing thread once the node has left the queue.
struct node_base {
  node_base* next;
  node_base* prev;
};

/// document 003 lines 17-20 (`node_handle`). `handle` is non-null exactly while the coroutine
/// waits here or is being resumed: set in await_suspend, cleared in await_resume.
struct node_handle : node_base {
  std::coroutine_handle<> handle{};
};

/// document 003 lines 22-30 (`struct node`)
template <typename Extra>
struct node : node_handle {
  template <typename... Args>
  node(Args&&... args) : extra(std::forward<Args>(args)...) {}

  Extra extra;
};

}  // namespace impl

/// document 003 lines 39-82 (`node_list`): an intrusive list with a sentinel, empty when the
/// sentinel points at itself.
struct node_list : impl::node_base {
  node_list() : node_base{this, this} {}
  node_list(node_list const&) = delete;
  void operator=(node_list const&) = delete;

  bool empty() const noexcept { return next == this; }

  void append_node(impl::node_base& node) noexcept {
    node.next = this;
    node.prev = prev;
    prev->next = std::addressof(node);
    prev = std::addressof(node);
  }

  // Moves `other` to the front of this list, not the back: the same where the library uses it
  // (an empty list), see README "Suspected bugs".
  bool append_list(node_list& other) noexcept {
    if (other.empty()) return false;
    other.prev->next = next;
    next->prev = other.prev;
    next = other.next;
    next->prev = this;
    other.next = other.prev = std::addressof(other);
    return true;
  }

  impl::node_base* peek_head() const noexcept { return empty() ? nullptr : next; }

  impl::node_base* try_remove_head() noexcept {
    if (empty()) return nullptr;
    auto node = next;
    next = node->next;
    next->prev = this;
    return node;
  }
};

/// document 003 lines 91-92 (`extra_await_data`): specialize to give each wait extra data.
template <typename State>
struct extra_await_data {};

/// document 003 lines 103-222 (`awaitable_state`): the CRTP base of every state. State supplies
/// `bool claim(extra_await_data const&)` (under the lock), optionally `fast_claim` (without it),
/// and the action handlers `void h(node_list&, ...)` that action_impl runs.
template <Platform P, typename State, library_options kOptions>
class awaitable_state {
 protected:
  typename P::mutex mutex_;            // guards sentinel_ and the links of every queued node
  async_helpers::node_list sentinel_;  // the waiting coroutines, FIFO

  State& parent() { return static_cast<State&>(*this); }

  static auto& extra_node(impl::node_base& node) {
    return static_cast<impl::node<async_helpers::extra_await_data<State>>&>(node);
  }

 public:
  using extra_await_data = async_helpers::extra_await_data<State>;
  using node_list = async_helpers::node_list;
  /// What the awaiter embeds: the document's node.
  using awaiter_node = impl::node<extra_await_data>;

  bool fast_claim(extra_await_data const&) const noexcept { return false; }

  /// Only from within an action (the lock is held).
  extra_await_data* peek_head() const noexcept {
    auto node = sentinel_.peek_head();
    return node ? &extra_node(*node).extra : nullptr;
  }

  /// Only from within an action.
  bool resume_one(node_list& list) noexcept {
    auto node = sentinel_.try_remove_head();
    if (!node) return false;
    list.append_node(*node);
    return true;
  }

  /// Only from within an action.
  bool resume_all(node_list& list) noexcept { return list.append_list(sentinel_); }

  bool await_suspend(std::coroutine_handle<> handle, impl::node<extra_await_data>& node) {
    auto guard = primitives_detail::lock_guard(mutex_);
    if (parent().claim(node.extra)) return false;
    node.handle = handle;
    sentinel_.append_node(node);
    return true;
  }

  void await_resume(impl::node<extra_await_data>& node) noexcept { node.handle = nullptr; }

  /// A waiter destroyed while queued leaves the queue; one destroyed once a release took it is
  /// the caller's race (document 003 line 188, `race`).
  void destruct_node(impl::node_handle& node) noexcept {
    if (node.handle) {
      auto guard = primitives_detail::lock_guard(mutex_);
      if constexpr (kOptions.unlink == cancel_unlink::as_published) {
        // node.prev->next is &node itself: this points the node at itself and leaves its
        // neighbours pointing at it, so it stays queued after its frame is gone.
        node.next = node.prev->next;
        node.prev = node.next->prev;
      } else {
        node.prev->next = node.next;
        node.next->prev = node.prev;
      }
    }
  }

  template <typename... Params, typename... Args>
  void action_impl(void (State::*handler)(node_list&, Params...), Args&&... args) {
    node_list list;
    {
      auto guard = primitives_detail::lock_guard(mutex_);
      (parent().*handler)(list, std::forward<Args>(args)...);
    }
    resume_list(list);
  }

 private:
  void resume_list(node_list& list) {
    auto node = list.next;
    while (node != std::addressof(list)) {
      // The resumed coroutine owns (and may at once destroy) the node: read next first.
      resume_node(std::exchange(node, node->next));
    }
  }

  void resume_node(impl::node_base* node) noexcept {
    resume_handle<P, kOptions.resume>(extra_node(*node).handle);
  }
};

/// document 003 lines 230-279 (`awaitable_sync_object`): a handle on a shared State.
template <typename State>
class awaitable_sync_object {
  std::shared_ptr<State> shared_;

 public:
  template <typename... Args>
  awaitable_sync_object(Args&&... args)
      : shared_(std::make_shared<State>(std::forward<Args>(args)...)) {}
  awaitable_sync_object(const awaitable_sync_object&) = delete;
  awaitable_sync_object& operator=(const awaitable_sync_object&) = delete;

  template <typename Arg = typename State::extra_await_data>
  auto make_awaiter(Arg arg = {}) {
    return awaiter{*shared_, std::forward<Arg>(arg)};
  }

  auto operator co_await() { return awaiter{*shared_}; }

 protected:
  using state = State;

  State& get_state() const noexcept { return *shared_; }

  template <typename... Args>
  void action_impl(Args&&... args) const {
    shared_->action_impl(std::forward<Args>(args)...);
  }

  /// Its destructor is the cancellation hook.
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

// ---- Beyond document 003 ---------------------------------------------------------------------

/// Part 5's claim helper: applies `transition(current, future)` with compare-exchange. The fast
/// form makes one attempt from the guessed `current`; the slow form loops, refreshing
/// `current`, until the transition refuses or the exchange succeeds.
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

}  // namespace syncstress::async_helpers

namespace syncstress {

/// Whether a primitive takes cancellation requests: `try_cancel(handle)` says whether the
/// waiting coroutine was withdrawn and may be destroyed (see awaitable_hand_off.hpp).
template <class Prim>
concept cancellable_by_request = requires(Prim& p, std::coroutine_handle<> h) {
  { p.try_cancel(h) } -> std::same_as<bool>;
};

}  // namespace syncstress
