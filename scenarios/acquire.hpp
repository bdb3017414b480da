// The primitive under test, the same way for every kind and mode: how a family builds it, and
// how an actor acquires it (an async primitive's awaitable as it is, a sync primitive's blocking
// call wrapped in an awaitable that never suspends). Used by the scenario families on every
// platform (scenarios/harness.hpp).
#pragma once

#include <coroutine>
#include <cstdint>
#include <memory>

#include "primitives/catalog.hpp"

namespace syncstress::scenarios {

/// The primitive under test, built as its kind is: a semaphore with `capacity` tokens, an
/// event not set, anything else by default. On the heap, so no family needs an optional.
template <Kind K, class Prim>
std::unique_ptr<Prim> make_primitive(std::int64_t capacity) {
  if constexpr (K == Kind::semaphore) {
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
