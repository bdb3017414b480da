// How an actor acquires a primitive of either mode, on any platform: an async primitive's
// awaitable as it is, a sync primitive's blocking call wrapped in an awaitable that never
// suspends. Used by the scenario families on every platform (scenarios/harness.hpp).
#pragma once

#include <coroutine>

#include "primitives/catalog.hpp"

namespace syncstress::scenarios {

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
