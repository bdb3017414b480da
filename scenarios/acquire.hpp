// The primitive under test, the same way for every kind and mode: how a family builds it, how
// an actor acquires it (an async primitive's awaitable, a sync primitive's blocking call wrapped
// in an awaitable that never suspends), and what the actor keeps from the acquisition until it
// releases (a Held): nothing, whether it acquired, or the guard whose destruction releases
// (primitives/README.md, "What an acquisition gives"). Used by the scenario families on every
// platform (scenarios/harness.hpp).
#pragma once

#include <concepts>
#include <coroutine>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/awaitables.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/property_checks.hpp"

namespace syncstress::scenarios {

/// The acquisitions of the kind interfaces, each named by its call: lock() (released by
/// unlock()), lock_shared() (unlock_shared()), a semaphore's acquire() (release()), an event's
/// wait() (nothing to release).
enum class Acquisition { lock, lock_shared, acquire, wait };

/// The exclusive acquisition of a kind: a semaphore's acquire(), else lock().
constexpr Acquisition exclusive_acquisition(Kind k) {
  return k == Kind::semaphore ? Acquisition::acquire : Acquisition::lock;
}

/// The call, as messages name it: "lock()", "lock_shared()", "acquire()", "wait()".
constexpr const char* call_name(Acquisition a) {
  switch (a) {
    case Acquisition::lock:
      return "lock()";
    case Acquisition::lock_shared:
      return "lock_shared()";
    case Acquisition::acquire:
      return "acquire()";
    case Acquisition::wait:
      return "wait()";
  }
  return "?";
}

/// The call that makes acquisition A of `p`: for an async primitive, the awaitable.
template <Acquisition A, class Prim>
decltype(auto) acquisition_call(Prim& p) {
  if constexpr (A == Acquisition::lock) {
    return p.lock();
  } else if constexpr (A == Acquisition::lock_shared) {
    return p.lock_shared();
  } else if constexpr (A == Acquisition::acquire) {
    return p.acquire();
  } else {
    return p.wait();
  }
}

/// What an acquisition leaves the caller, from the type R of its call: for a blocking call (sync
/// mode), what it returns; for an awaitable (async mode), what co_await on it gives.
template <Mode M, class R>
using acquired_t =
    typename std::conditional_t<M == Mode::sync, std::type_identity<R>, awaited<R>>::type;

/// What an acquisition gives, as the harness takes it (primitives/README.md, "What an
/// acquisition gives"). Read once from the type, by gives().
enum class Gives {
  nothing,  ///< void, an lvalue reference, or a value whose destruction does nothing: dropped
  flag,     ///< a bool: whether it acquired
  guard,    ///< a movable object whose destruction does something: kept, destroyed to release
};

/// What acquisition A giving T gives; a T of none of the three shapes is refused at compile
/// time, with the fix.
template <Acquisition A, class T>
constexpr Gives gives() {
  using Value = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<Value, bool>) {
    return Gives::flag;
  } else if constexpr (std::is_void_v<T> || std::is_lvalue_reference_v<T> ||
                       std::is_trivially_destructible_v<Value>) {
    // What an lvalue reference names belongs to someone else; an rvalue reference (a task's
    // result) is the caller's to take, as a value is.
    return Gives::nothing;  // a pointer, a number, an empty tag, a reference to the primitive
  } else {
    static_assert(A != Acquisition::wait,
                  "syncstress: this event's wait() (or what co_await on it gives) is an object "
                  "that does something when destroyed, and an event has nothing to release: "
                  "register an adapter whose wait gives nothing or a bool (primitives/README.md, "
                  "\"What an acquisition gives\").");
    static_assert(std::is_move_constructible_v<Value>,
                  "syncstress: this primitive's lock()/lock_shared()/acquire() (or what co_await "
                  "on it gives) is an object that does something when destroyed but cannot be "
                  "moved. The harness keeps a guard until it releases, so it moves it there: make "
                  "the guard movable (a moved-from guard releases nothing), or register an "
                  "adapter whose acquisition gives nothing, a bool or a movable guard "
                  "(primitives/README.md, \"What an acquisition gives\").");
    return Gives::guard;
  }
}

/// What an actor keeps from acquisition A (in mode M, giving T) until it releases: nothing,
/// whether it acquired, or the guard. Made where the acquisition completes, by running it.
template <Mode M, Acquisition A, class T>
class Held {
 public:
  static constexpr Acquisition kAcquisition = A;
  static constexpr Gives kGives = gives<A, T>();

  /// Runs `complete` (the blocking call, or the awaiter's await_resume) and keeps what it gives.
  /// A guard is moved in once: a correct guard's moved-from husk releases nothing.
  template <std::invocable Complete>
  explicit Held(Complete complete) {
    if constexpr (kGives == Gives::guard) {
      kept_.emplace(complete());
    } else if constexpr (kGives == Gives::flag) {
      kept_ = complete();
    } else {
      static_cast<void>(complete());
    }
  }

  /// Whether the acquisition acquired: false for a false bool, and for a guard that converts to
  /// false (a std::unique_lock that does not own its mutex).
  bool acquired() const {
    if constexpr (kGives == Gives::flag) {
      return kept_;
    } else if constexpr (kGives == Gives::guard) {
      if constexpr (std::is_constructible_v<bool, const Guard&>) return static_cast<bool>(*kept_);
      return true;
    } else {
      return true;
    }
  }

  /// Releases `p`: destroys the guard, or makes the release call of A. Precondition: acquired(),
  /// and not released yet.
  template <class Prim>
  void release(Prim& p) {
    static_assert(A != Acquisition::wait, "an event's wait has nothing to release");
    if constexpr (kGives == Gives::guard) {
      kept_.reset();
    } else if constexpr (A == Acquisition::lock) {
      p.unlock();
    } else if constexpr (A == Acquisition::lock_shared) {
      p.unlock_shared();
    } else {
      p.release();
    }
  }

  /// "lock() gave false", "co_await acquire() gave a guard that holds nothing", ...
  static std::string failure() {
    // Appended, not `std::string(...) + ...`: g++ 12 at -O3 flags that with a false
    // -Warray-bounds where the unit inlines it (GCC bug 105329).
    std::string out = M == Mode::async ? "co_await " : "";
    out += call_name(A);
    out += kGives == Gives::flag ? " gave false" : " gave a guard that holds nothing";
    return out;
  }

 private:
  using Guard = std::remove_cvref_t<T>;
  struct Nothing {};
  using Kept = std::conditional_t<kGives == Gives::guard, std::optional<Guard>,
                                  std::conditional_t<kGives == Gives::flag, bool, Nothing>>;
  Kept kept_{};
};

/// The Held of acquisition A of a Prim used in mode M.
template <Mode M, Acquisition A, class Prim>
using HeldBy = Held<M, A, acquired_t<M, decltype(acquisition_call<A>(std::declval<Prim&>()))>>;

/// Whether the acquisition `held` keeps acquired. One that says it did not is a breach of the
/// kind (acquisition_failed): every acquisition the families make blocks until it acquires,
/// nothing times out or cancels it (a cancelled waiter is destroyed, never resumed).
template <Platform P, Mode M, Acquisition A, class T>
bool acquired(PropertyChecks<P>& checks, const Held<M, A, T>& held,
              source_location loc = source_location::current()) {
  if (held.acquired()) return true;
  checks.breach_of_kind("acquisition_failed",
                        held.failure() + ": a blocking acquisition must acquire", loc);
  return false;
}
/// The same, counting an acquisition in `me`.
template <Platform P, Mode M, Acquisition A, class T>
bool acquired(PropertyChecks<P>& checks, const Held<M, A, T>& held, ActorStats& me,
              source_location loc = source_location::current()) {
  if (!acquired(checks, held, loc)) return false;
  ++me.acquisitions;
  return true;
}

/// The primitive under test, built as its kind is: a semaphore with `capacity` tokens, an
/// event not set, anything else by default. On the heap, so no family needs an optional. What
/// each acquisition of its kind gives is checked here, once (gives()).
template <Kind K, Mode M, class Prim>
std::unique_ptr<Prim> make_primitive(std::int64_t capacity) {
  if constexpr (K == Kind::mutex || K == Kind::shared_mutex) {
    static_cast<void>(HeldBy<M, Acquisition::lock, Prim>::kGives);
  }
  if constexpr (K == Kind::shared_mutex) {
    static_cast<void>(HeldBy<M, Acquisition::lock_shared, Prim>::kGives);
  }
  if constexpr (K == Kind::semaphore) {
    static_cast<void>(HeldBy<M, Acquisition::acquire, Prim>::kGives);
    return std::make_unique<Prim>(capacity);
  } else if constexpr (K == Kind::event) {
    static_cast<void>(HeldBy<M, Acquisition::wait, Prim>::kGives);
    (void)capacity;
    return std::make_unique<Prim>(false);
  } else {
    (void)capacity;
    return std::make_unique<Prim>();
  }
}

/// An awaitable that runs a blocking call when awaited and never suspends: how a sync
/// primitive's acquisition A looks from inside an actor's task. Gives a Held.
template <Acquisition A, class F>
struct blocking_call {
  F f;
  bool await_ready() noexcept { return true; }
  void await_suspend(std::coroutine_handle<>) noexcept {}
  Held<Mode::sync, A, std::invoke_result_t<F&>> await_resume() {
    return Held<Mode::sync, A, std::invoke_result_t<F&>>(f);
  }
};

/// Awaits what an async primitive's acquisition A gives (its awaitable, as it is or wrapped, as
/// in settling) and gives a Held of it. Built by acquiring(), which makes the awaitable in place:
/// the primitive's awaiter is never moved.
template <Acquisition A, class Inner>
class holding {
 public:
  template <class Make>
  explicit holding(Make make) : inner_(make()) {}

  bool await_ready() requires awaiter<Inner> { return inner_.await_ready(); }
  template <class Handle>
  auto await_suspend(Handle h) requires awaiter<Inner> {
    return inner_.await_suspend(h);
  }
  Held<Mode::async, A, acquired_t<Mode::async, Inner>> await_resume() requires awaiter<Inner> {
    return Held<Mode::async, A, acquired_t<Mode::async, Inner>>(
        [this]() -> decltype(auto) { return inner_.await_resume(); });
  }

  // An awaitable that gives its awaiter through operator co_await: the holding of that awaiter,
  // made while this one (the co_await's operand) lives.
  auto operator co_await() && requires awaitable_by_member<Inner> {
    auto make = [this]() -> decltype(auto) { return std::move(inner_).operator co_await(); };
    return holding<A, decltype(make())>(make);
  }
  auto operator co_await() && requires awaitable_by_function<Inner> {
    auto make = [this]() -> decltype(auto) { return operator co_await(std::move(inner_)); };
    return holding<A, decltype(make())>(make);
  }

 private:
  Inner inner_;
};

/// co_await acquiring<A>(make): awaits make()'s awaitable for acquisition A and gives a Held.
template <Acquisition A, class Make>
holding<A, std::invoke_result_t<Make&>> acquiring(Make make) {
  return holding<A, std::invoke_result_t<Make&>>(make);
}

/// Acquisition A of `p` in mode M, as an awaitable that gives a Held.
template <Mode M, Acquisition A, class Prim>
auto acquisition(Prim& p) {
  if constexpr (M == Mode::async) {
    return acquiring<A>([&p]() -> decltype(auto) { return acquisition_call<A>(p); });
  } else {
    auto f = [&p]() -> decltype(auto) { return acquisition_call<A>(p); };
    return blocking_call<A, decltype(f)>{f};
  }
}

// Uniform entry points over the kind interfaces of primitives/README.md.
template <Mode M, class Prim>
auto acquire(Prim& p) {
  return acquisition<M, Acquisition::lock>(p);
}
template <Mode M, class Prim>
auto acquire_shared(Prim& p) {
  return acquisition<M, Acquisition::lock_shared>(p);
}
template <Mode M, class Prim>
auto acquire_token(Prim& p) {
  return acquisition<M, Acquisition::acquire>(p);
}
template <Mode M, class Prim>
auto wait_for(Prim& p) {
  return acquisition<M, Acquisition::wait>(p);
}

}  // namespace syncstress::scenarios
