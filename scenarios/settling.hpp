// An awaitable wrapper that tells the harness when a coroutine is certainly in line for a
// primitive: once the primitive's await_suspend has returned with the coroutine suspended.
#pragma once

#include <coroutine>
#include <type_traits>
#include <utility>

#include "scenarios/awaitables.hpp"

namespace syncstress::scenarios {

/// Wraps a primitive's awaitable and calls `queued()` (or `queued(handle)`, if it takes the
/// suspended coroutine's handle) once the primitive's await_suspend has returned with the
/// coroutine suspended: from then on the coroutine is certainly in line. An awaitable that gives
/// its awaiter through operator co_await (a task) is wrapped as that awaiter, which co_await
/// makes while this wrapper, its operand, lives.
template <class Inner, class OnQueued>
struct settling {
  Inner inner;
  OnQueued queued;

  auto operator co_await() && requires awaitable_by_member<Inner> {
    using Awaiter = decltype(std::move(inner).operator co_await());
    return settling<Awaiter, OnQueued>{std::move(inner).operator co_await(), queued};
  }
  auto operator co_await() && requires awaitable_by_function<Inner> {
    using Awaiter = decltype(operator co_await(std::move(inner)));
    return settling<Awaiter, OnQueued>{operator co_await(std::move(inner)), queued};
  }

  bool await_ready() requires awaiter<Inner> { return inner.await_ready(); }
  template <class Handle>
  auto await_suspend(Handle h) requires awaiter<Inner> {
    // A copy first: once the inner await_suspend has queued the coroutine, another thread may
    // resume it (and end this awaiter's life) before the call returns here.
    OnQueued notify = queued;
    // The notification may take the suspended coroutine's handle (e.g. to cancel it later).
    auto notify_queued = [&notify, h] {
      if constexpr (std::is_invocable_v<OnQueued&, std::coroutine_handle<>>) {
        notify(std::coroutine_handle<>(h));
      } else {
        (void)h;
        notify();
      }
    };
    using R = decltype(inner.await_suspend(h));
    if constexpr (std::is_void_v<R>) {
      inner.await_suspend(h);
      notify_queued();
    } else if constexpr (std::is_same_v<R, bool>) {
      const bool suspended = inner.await_suspend(h);
      if (suspended) notify_queued();
      return suspended;
    } else {
      auto next = inner.await_suspend(h);
      notify_queued();
      return next;
    }
  }
  decltype(auto) await_resume() requires awaiter<Inner> { return inner.await_resume(); }
};
template <class Inner, class OnQueued>
settling(Inner, OnQueued) -> settling<Inner, OnQueued>;

}  // namespace syncstress::scenarios
