// What the harness needs to know of an awaitable: whether it is an awaiter or gives one through
// operator co_await (so that a wrapper can forward to it: settling.hpp, acquire.hpp), and what
// co_await on it gives (awaited).
#pragma once

#include <utility>

namespace syncstress::scenarios {

/// An awaiter; a type that gives one through its member operator co_await, or through a free
/// one. co_await applies either to the awaitable as an rvalue (task's operator co_await is &&).
template <class R>
concept awaiter = requires(R& r) {
  r.await_resume();
};
template <class R>
concept awaitable_by_member = !awaiter<R> && requires(R && r) {
  static_cast<R&&>(r).operator co_await();
};
template <class R>
concept awaitable_by_function = !awaiter<R> && !awaitable_by_member<R> && requires(R && r) {
  operator co_await(static_cast<R&&>(r));
};

/// What co_await on an awaitable R gives.
template <class R>
struct awaited {
  using type = R;
};
template <awaiter R>
struct awaited<R> {
  using type = decltype(std::declval<R&>().await_resume());
};
template <awaitable_by_member R>
struct awaited<R> {
  using type = typename awaited<decltype(std::declval<R>().operator co_await())>::type;
};
template <awaitable_by_function R>
struct awaited<R> {
  using type = typename awaited<decltype(operator co_await(std::declval<R>()))>::type;
};

}  // namespace syncstress::scenarios
