// The primitive under test, the same way for every kind and mode: how a family builds it, and
// how an actor acquires it (an async primitive's awaitable as it is, a sync primitive's blocking
// call wrapped in an awaitable that never suspends). Used by the scenario families on every
// platform (scenarios/harness.hpp).
#pragma once

#include <coroutine>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "primitives/catalog.hpp"

namespace syncstress::scenarios {

/// An awaiter, and a type that gives one through its member operator co_await.
template <class R>
concept awaiter = requires(R& r) {
  r.await_resume();
};
template <class R>
concept awaitable_by_member = !awaiter<R> && requires(R & r) {
  r.operator co_await();
};

/// What an acquisition leaves the caller: for an awaitable (async mode), what co_await gives;
/// for a blocking call (sync mode), what it returns.
template <class R>
struct acquired {
  using type = R;
};
template <awaiter R>
struct acquired<R> {
  using type = decltype(std::declval<R&>().await_resume());
};
template <awaitable_by_member R>
struct acquired<R> {
  using type = decltype(std::declval<R&>().operator co_await().await_resume());
};

/// The harness drops what an acquisition returns and releases through unlock() (or release()):
/// a result that releases when destroyed (a scoped guard) would release at once and then again.
/// Refused at compile time, naming the fix.
template <class R>
constexpr void require_droppable_result() {
  using T = typename acquired<R>::type;
  static_assert(std::is_void_v<T> || std::is_trivially_destructible_v<T>,
                "syncstress: this primitive's lock()/lock_shared()/acquire() gives an object "
                "that does something when destroyed (a guard?). The harness drops it and calls "
                "unlock()/unlock_shared()/release() itself, so a guard would release twice: "
                "register an adapter whose acquisition gives nothing (primitives/README.md, "
                "\"kind / mode\").");
}

/// The primitive under test, built as its kind is: a semaphore with `capacity` tokens, an
/// event not set, anything else by default. On the heap, so no family needs an optional.
template <Kind K, class Prim>
std::unique_ptr<Prim> make_primitive(std::int64_t capacity) {
  if constexpr (K == Kind::mutex || K == Kind::shared_mutex) {
    require_droppable_result<decltype(std::declval<Prim&>().lock())>();
  }
  if constexpr (K == Kind::shared_mutex) {
    require_droppable_result<decltype(std::declval<Prim&>().lock_shared())>();
  }
  if constexpr (K == Kind::semaphore) {
    require_droppable_result<decltype(std::declval<Prim&>().acquire())>();
    return std::make_unique<Prim>(capacity);
  } else if constexpr (K == Kind::event) {
    (void)capacity;
    return std::make_unique<Prim>(false);
  } else {
    (void)capacity;
    return std::make_unique<Prim>();
  }
}

/// An awaitable that runs a blocking call when awaited and never suspends: how a sync
/// primitive's lock() looks from inside an actor's task.
template <class F>
struct blocking_call {
  F f;
  bool await_ready() {
    f();
    return true;
  }
  void await_suspend(std::coroutine_handle<>) noexcept {}
  void await_resume() noexcept {}
};
template <class F>
blocking_call(F) -> blocking_call<F>;

// Uniform entry points over the kind interfaces of primitives/README.md.
template <Mode M, class Prim>
auto acquire(Prim& p) {
  if constexpr (M == Mode::async) {
    return p.lock();
  } else {
    return blocking_call{[&p] { p.lock(); }};
  }
}
template <Mode M, class Prim>
auto acquire_shared(Prim& p) {
  if constexpr (M == Mode::async) {
    return p.lock_shared();
  } else {
    return blocking_call{[&p] { p.lock_shared(); }};
  }
}
template <Mode M, class Prim>
auto acquire_token(Prim& p) {
  if constexpr (M == Mode::async) {
    return p.acquire();
  } else {
    return blocking_call{[&p] { p.acquire(); }};
  }
}
template <Mode M, class Prim>
auto wait_for(Prim& p) {
  if constexpr (M == Mode::async) {
    return p.wait();
  } else {
    return blocking_call{[&p] { p.wait(); }};
  }
}

}  // namespace syncstress::scenarios
