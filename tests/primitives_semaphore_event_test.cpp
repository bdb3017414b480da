// Basic contracts of the semaphore and event primitives, on every platform: token counting,
// an acquirer blocked until a release, at most `capacity` holders under concurrency; events
// set/reset/wait, one waiter per set for auto-reset events, everyone for manual-reset ones.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/all.hpp"
#include "tests/primitives_test_support.hpp"

namespace syncstress {
namespace primitives_semaphore_event_test {
namespace {

using testing::detached;
using testing::Env;

std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->name()) + " / " + info->type_param();
}

/// Spins (yielding) until `a` reaches at least `n`.
template <class P>
void await_at_least(typename P::template atomic<int>& a, int n) {
  while (a.load() < n) P::yield();
}

// ---- sync semaphores ----------------------------------------------------------------------

template <class C>
class SyncSemaphore : public ::testing::Test {};
using SyncSemaphoreCases =
    testing::OnAllPlatforms<cooperative_semaphore, wait_on_address_semaphore>;
TYPED_TEST_SUITE(SyncSemaphore, SyncSemaphoreCases);

TYPED_TEST(SyncSemaphore, TokensAreCountedOnOneThread) {
  using P = typename TypeParam::Platform;
  Env<P>::run(test_name(), [] {
    typename TypeParam::Type s(2);
    for (int round = 0; round < 2; ++round) {
      s.acquire();
      s.acquire();  // both initial tokens taken without blocking
      s.release();
      s.release();
    }
  });
}

TYPED_TEST(SyncSemaphore, AcquirerBlocksUntilARelease) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type s(1);
        s.acquire();
        typename P::template atomic<int> acquired{0};
        typename P::thread other([&] {
          s.acquire();
          acquired.store(1);
          s.release();
        });
        P::check(acquired.load() == 0, "acquired a token that did not exist");
        s.release();
        other.join();
        P::check(acquired.load() == 1, "the release never reached the acquirer");
      },
      Env<P>::kExecutions);
}

TYPED_TEST(SyncSemaphore, KeepsAtMostCapacityHoldersUnderContention) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        constexpr int kCapacity = 2;
        typename TypeParam::Type s(kCapacity);
        typename P::template atomic<int> inside{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&] {
            for (int i = 0; i < Env<P>::kIterations; ++i) {
              s.acquire();
              P::check(inside.fetch_add(1) < kCapacity, "more holders than tokens");
              inside.fetch_sub(1);
              s.release();
            }
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<P>::kExecutions);
}

TEST(CooperativeSemaphore, ScopedLockReleasesOnScopeExit) {
  Env<Real>::run("ScopedLockReleasesOnScopeExit", [] {
    cooperative_semaphore<Real> s(1);
    { cooperative_semaphore<Real>::scoped_lock lock(s); }
    { cooperative_semaphore<Real>::scoped_lock lock(s); }  // would block if not released
  });
}

// ---- async semaphores ---------------------------------------------------------------------

template <class P, class S>
detached<P> acquire_n(S& s, int n, typename P::template atomic<int>& acquired) {
  for (int i = 0; i < n; ++i) {
    co_await s.acquire();
    acquired.fetch_add(1);
  }
}

template <class P, class S>
detached<P> semaphore_worker(S& s, typename P::template atomic<int>& inside, int capacity,
                             int iterations) {
  for (int i = 0; i < iterations; ++i) {
    co_await s.acquire();
    P::check(inside.fetch_add(1) < capacity, "more holders than tokens");
    inside.fetch_sub(1);
    s.release();
  }
}

template <class C>
class AsyncSemaphore : public ::testing::Test {};
using AsyncSemaphoreCases =
    testing::OnAllPlatforms<semaphore_part6, semaphore_part6_pooled, semaphore_part6_cancel_fixed>;
TYPED_TEST_SUITE(AsyncSemaphore, AsyncSemaphoreCases);

TYPED_TEST(AsyncSemaphore, TokensAreCountedAndSetManyReleasesSeveralWaiters) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type s(2);
        typename P::template atomic<int> acquired{0};
        typename P::manual_reset_event first(false), second(false);
        acquire_n<P>(s, 2, acquired).start(first);  // both initial tokens
        first.wait();
        P::check(acquired.load() == 2, "initial tokens not granted");
        acquire_n<P>(s, 3, acquired).start(second);  // no token left: waits
        P::check(acquired.load() == 2, "acquired a token that did not exist");
        s.release();
        await_at_least<P>(acquired, 3);
        s.set_many(2);
        second.wait();
        P::check(acquired.load() == 5, "set_many did not hand out both tokens");
      },
      Env<P>::kExecutions);
}

TYPED_TEST(AsyncSemaphore, KeepsAtMostCapacityHoldersUnderContention) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        constexpr int kCapacity = 2;
        typename TypeParam::Type s(kCapacity);
        typename P::template atomic<int> inside{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&] {
            typename P::manual_reset_event done(false);
            semaphore_worker<P>(s, inside, kCapacity, Env<P>::kIterations).start(done);
            done.wait();
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<P>::kExecutions);
}

// ---- sync events --------------------------------------------------------------------------

template <class C>
class SyncEvent : public ::testing::Test {};
using SyncEventCases =
    testing::OnAllPlatforms<platform_auto_reset_event, platform_manual_reset_event>;
TYPED_TEST_SUITE(SyncEvent, SyncEventCases);

TYPED_TEST(SyncEvent, SetEventLetsAWaitThroughAndResetClearsIt) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type e(true);
        e.wait();  // initially set
        e.set();
        e.reset();
        typename P::template atomic<int> released{0};
        typename P::thread waiter([&] {
          e.wait();
          released.store(1);
        });
        P::check(released.load() == 0, "a reset event released a waiter");
        e.set();
        waiter.join();
        P::check(released.load() == 1, "set never reached the waiter");
      },
      Env<P>::kExecutions);
}

TYPED_TEST(SyncEvent, OneSetReleasesOneWaiterOrAllByResetMode) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type e(false);
        typename P::template atomic<int> released{0};
        std::vector<typename P::thread> waiters;
        for (int i = 0; i < 2; ++i) {
          waiters.emplace_back([&] {
            e.wait();
            released.fetch_add(1);
          });
        }
        e.set();
        await_at_least<P>(released, 1);
        if (TypeParam::Type::kAutoReset) {
          P::check(released.load() == 1, "one auto-reset signal released two waiters");
          e.set();
        }
        for (auto& t : waiters) t.join();
        P::check(released.load() == 2, "a waiter was never released");
      },
      Env<P>::kExecutions);
}

// ---- async events -------------------------------------------------------------------------

template <class P, class E>
detached<P> wait_and_count(E& e, typename P::template atomic<int>& released) {
  co_await e.wait();
  released.fetch_add(1);
}

template <class C>
class AsyncEvent : public ::testing::Test {};
using AsyncEventCases =
    testing::OnAllPlatforms<manual_reset_event_part4, manual_reset_event_part4_pooled,
                            manual_reset_event_part4_cancel_fixed, auto_reset_event_part5,
                            auto_reset_event_part5_pooled, auto_reset_event_part5_cancel_fixed>;
TYPED_TEST_SUITE(AsyncEvent, AsyncEventCases);

TYPED_TEST(AsyncEvent, SetEventLetsAWaitThroughAndResetClearsIt) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type e(true);
        typename P::template atomic<int> released{0};
        typename P::manual_reset_event first(false), second(false);
        wait_and_count<P>(e, released).start(first);  // initially set: completes
        first.wait();
        e.set();
        e.reset();
        wait_and_count<P>(e, released).start(second);
        P::check(released.load() == 1, "a reset event released a waiter");
        e.set();
        second.wait();
        P::check(released.load() == 2, "set never reached the waiter");
      },
      Env<P>::kExecutions);
}

TYPED_TEST(AsyncEvent, OneSetReleasesOneWaiterOrAllByResetMode) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type e(false);
        typename P::template atomic<int> released{0};
        typename P::manual_reset_event a(false), b(false);
        wait_and_count<P>(e, released).start(a);
        wait_and_count<P>(e, released).start(b);
        P::check(released.load() == 0, "an unset event released a waiter");
        e.set();
        await_at_least<P>(released, 1);
        if (TypeParam::Type::kAutoReset) {
          P::check(released.load() == 1, "one auto-reset signal released two waiters");
          e.set();
        }
        a.wait();
        b.wait();
        P::check(released.load() == 2, "a waiter was never released");
      },
      Env<P>::kExecutions);
}

TYPED_TEST(AsyncEvent, WaitersOnSeveralThreadsAreAllReleased) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type e(false);
        typename P::template atomic<int> released{0};
        std::vector<typename P::thread> threads;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          threads.emplace_back([&] {
            typename P::manual_reset_event done(false);
            wait_and_count<P>(e, released).start(done);
            done.wait();
          });
        }
        // One set per release, each after the previous release landed (a set on a set
        // auto-reset event is lost by design), releases everyone whatever the reset mode.
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          e.set();
          await_at_least<P>(released, t + 1);
        }
        for (auto& t : threads) t.join();
        P::check(released.load() == Env<P>::kThreads, "a waiter was never released");
      },
      Env<P>::kExecutions);
}

}  // namespace
}  // namespace primitives_semaphore_event_test
}  // namespace syncstress
