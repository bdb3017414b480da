// Tests of the real platform: each operation alone, then the multi-threaded hand-offs.
//
// Every test that blocks runs under a Watchdog, so a lost wake-up fails the test (abort with
// a message) instead of hanging CTest.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "platform/real.hpp"
#include "platform/task.hpp"
#include "watchdog.hpp"

namespace syncstress {
namespace platform_real_test {
namespace {

using namespace std::chrono_literals;

using testing::Watchdog;

// Spins (yielding) until pred() holds; the test's Watchdog bounds it.
template <class Pred>
void spin_until(Pred pred) {
  while (!pred()) std::this_thread::yield();
}

// For claims of the form "and nothing more happens": gives a wrong extra release time to
// show up. It cannot prove absence, but a bug that releases two waiters per set shows here.
void settle() { std::this_thread::sleep_for(20ms); }

// ---------------------------------------------------------------- atomic<T>

template <class A>
concept HasFetchOps = requires(A& a, typename std::remove_cvref_t<decltype(a.load())> v) {
  a.fetch_add(v, std::memory_order_relaxed);
  a.fetch_sub(v, std::memory_order_relaxed);
  a.fetch_and(v, std::memory_order_relaxed);
  a.fetch_or(v, std::memory_order_relaxed);
  a.fetch_xor(v, std::memory_order_relaxed);
};
static_assert(HasFetchOps<Real::atomic<int>> && HasFetchOps<Real::atomic<std::uint32_t>>);
static_assert(!HasFetchOps<Real::atomic<bool>>, "fetch_* exists only for integral T, not bool");
static_assert(!HasFetchOps<Real::atomic<void*>>, "fetch_* exists only for integral T");

template <class T>
class RealAtomicTest : public ::testing::Test {};
using IntegralTypes = ::testing::Types<int, std::int32_t, std::int64_t, std::uint32_t>;
TYPED_TEST_SUITE(RealAtomicTest, IntegralTypes);

// Runs one sequence of every operation on Real::atomic<T> and on std::atomic<T> side by side
// and compares every returned value and every updated `expected`.
TYPED_TEST(RealAtomicTest, EveryOperationReturnsWhatStdAtomicReturns) {
  using T = TypeParam;
  Real::atomic<T> ours{T{5}};
  std::atomic<T> theirs{T{5}};
  const auto mo = std::memory_order_seq_cst;
  const auto acq = std::memory_order_acquire;
  const auto rel = std::memory_order_release;
  const auto acq_rel = std::memory_order_acq_rel;
  const auto relaxed = std::memory_order_relaxed;

  EXPECT_EQ(ours.load(), theirs.load());
  EXPECT_EQ(ours.load(acq), theirs.load(acq));
  ours.store(T{7}, rel);
  theirs.store(T{7}, rel);
  EXPECT_EQ(ours.load(relaxed), T{7});
  ours.store(T{9});
  theirs.store(T{9});
  EXPECT_EQ(ours.exchange(T{11}, acq_rel), theirs.exchange(T{11}, acq_rel));
  EXPECT_EQ(ours.load(mo), T{11});

  // Failing compare-exchanges report the current value through `expected`.
  T oe = T{1}, te = T{1};
  EXPECT_EQ(ours.compare_exchange_strong(oe, T{2}, acq_rel, acq),
            theirs.compare_exchange_strong(te, T{2}, acq_rel, acq));
  EXPECT_EQ(oe, te);
  EXPECT_EQ(oe, T{11});
  oe = te = T{1};
  EXPECT_EQ(ours.compare_exchange_strong(oe, T{2}, mo),
            theirs.compare_exchange_strong(te, T{2}, mo));
  EXPECT_EQ(oe, te);
  oe = te = T{1};
  EXPECT_FALSE(ours.compare_exchange_weak(oe, T{2}, acq_rel, relaxed));
  EXPECT_FALSE(theirs.compare_exchange_weak(te, T{2}, acq_rel, relaxed));
  EXPECT_EQ(oe, te);
  oe = te = T{1};
  EXPECT_FALSE(ours.compare_exchange_weak(oe, T{2}, mo));
  EXPECT_FALSE(theirs.compare_exchange_weak(te, T{2}, mo));
  EXPECT_EQ(oe, te);

  // Succeeding ones (weak ones may fail spuriously, so they retry as real code does).
  oe = te = T{11};
  EXPECT_TRUE(ours.compare_exchange_strong(oe, T{12}, acq_rel, acq));
  EXPECT_TRUE(theirs.compare_exchange_strong(te, T{12}, acq_rel, acq));
  EXPECT_EQ(oe, T{11});
  EXPECT_TRUE(ours.compare_exchange_strong(oe = T{12}, T{13}, mo));
  EXPECT_TRUE(theirs.compare_exchange_strong(te = T{12}, T{13}, mo));
  while (!ours.compare_exchange_weak(oe = T{13}, T{14}, acq_rel, relaxed)) {
  }
  while (!theirs.compare_exchange_weak(te = T{13}, T{14}, acq_rel, relaxed)) {
  }
  while (!ours.compare_exchange_weak(oe = T{14}, T{15}, mo)) {
  }
  while (!theirs.compare_exchange_weak(te = T{14}, T{15}, mo)) {
  }
  EXPECT_EQ(ours.load(), theirs.load());
  EXPECT_EQ(ours.load(), T{15});

  EXPECT_EQ(ours.fetch_add(T{3}, relaxed), theirs.fetch_add(T{3}, relaxed));
  EXPECT_EQ(ours.fetch_sub(T{6}, acq_rel), theirs.fetch_sub(T{6}, acq_rel));
  EXPECT_EQ(ours.fetch_and(T{0x6}, mo), theirs.fetch_and(T{0x6}, mo));
  EXPECT_EQ(ours.fetch_or(T{0x30}, rel), theirs.fetch_or(T{0x30}, rel));
  EXPECT_EQ(ours.fetch_xor(T{0x11}, acq), theirs.fetch_xor(T{0x11}, acq));
  EXPECT_EQ(ours.fetch_sub(T{100}, mo), theirs.fetch_sub(T{100}, mo));  // wraps for unsigned
  EXPECT_EQ(ours.load(), theirs.load());
}

TEST(RealAtomic, BoolAndPointerAtomicsBehaveAsStdAtomic) {
  Real::atomic<bool> flag{false};
  EXPECT_FALSE(flag.exchange(true, std::memory_order_acq_rel));
  bool expected = false;
  EXPECT_FALSE(flag.compare_exchange_strong(expected, false, std::memory_order_seq_cst));
  EXPECT_TRUE(expected);
  EXPECT_TRUE(flag.load(std::memory_order_acquire));

  int x = 0, y = 0;
  Real::atomic<void*> p{&x};
  EXPECT_EQ(p.exchange(&y, std::memory_order_seq_cst), &x);
  void* e = &x;
  EXPECT_FALSE(
      p.compare_exchange_strong(e, nullptr, std::memory_order_seq_cst, std::memory_order_relaxed));
  EXPECT_EQ(e, &y);
  EXPECT_TRUE(p.compare_exchange_strong(e, nullptr, std::memory_order_seq_cst));
  EXPECT_EQ(p.load(), nullptr);
}

TEST(RealAtomic, DefaultConstructedAtomicHoldsZero) {
  Real::atomic<std::int64_t> a;
  EXPECT_EQ(a.load(std::memory_order_relaxed), 0);
}

TEST(RealAtomic, WaitReturnsAtOnceWhenTheValueAlreadyDiffers) {
  Watchdog dog("atomic::wait on a differing value");
  Real::atomic<int> a{1};
  a.wait(0, std::memory_order_acquire);
  SUCCEED();  // reaching here (not the watchdog) is the claim
}

TEST(RealAtomic, WaitReturnsAfterAnotherThreadStoresAndNotifies) {
  Watchdog dog("atomic::wait / notify_one");
  Real::atomic<int> a{0};
  int payload = 0;
  Real::thread t([&] {
    payload = 42;
    a.store(1, std::memory_order_release);  // pairs with the acquire wait below
    a.notify_one();
  });
  a.wait(0, std::memory_order_acquire);
  EXPECT_EQ(a.load(std::memory_order_relaxed), 1);
  EXPECT_EQ(payload, 42);
  t.join();
}

// ---------------------------------------------------------------- cell, mutex, thread

TEST(RealCell, WithReadsAndWithMutWritesThePlainValue) {
  Real::cell<std::vector<int>> c(3, 7);
  EXPECT_EQ(c.with([](const std::vector<int>& v) { return v.size(); }), 3u);
  c.with_mut([](std::vector<int>& v) { v.push_back(9); });
  EXPECT_EQ(c.with([](const std::vector<int>& v) { return v.back(); }), 9);
  int& first = c.with_mut([](std::vector<int>& v) -> int& { return v[0]; });
  EXPECT_EQ(first, 7);
}

TEST(RealMutex, TryLockFailsWhileAnotherThreadHoldsItAndSucceedsAfterUnlock) {
  Watchdog dog("mutex try_lock");
  Real::mutex m;
  EXPECT_TRUE(m.try_lock());
  bool got_while_held = true;
  Real::thread([&] { got_while_held = m.try_lock(); }).join();
  EXPECT_FALSE(got_while_held);
  m.unlock();
  bool got_after_unlock = false;
  Real::thread([&] {
    // try_lock may fail spuriously per the standard; a free mutex is taken within a few tries.
    for (int i = 0; i < 1000 && !got_after_unlock; ++i) got_after_unlock = m.try_lock();
    if (got_after_unlock) m.unlock();
  }).join();
  EXPECT_TRUE(got_after_unlock);
}

TEST(RealMutex, LockGivesMutualExclusionToFourThreadsIncrementingACell) {
  Watchdog dog("mutex mutual exclusion");
  Real::mutex m;
  Real::cell<long> counter(0L);
  constexpr int kThreads = 4, kRounds = 20000;
  std::vector<Real::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        m.lock();
        counter.with_mut([](long& v) { v = v + 1; });
        m.unlock();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(counter.with([](const long& v) { return v; }), long{kThreads} * kRounds);
}

TEST(RealThread, RunsItsCallableAndJoinWaitsForItToReturn) {
  Real::atomic<int> ran{0};
  std::thread::id id;
  Real::thread t([&] {
    id = std::this_thread::get_id();
    ran.store(1, std::memory_order_relaxed);  // join() orders it before the read below
  });
  t.join();
  EXPECT_EQ(ran.load(std::memory_order_relaxed), 1);
  EXPECT_NE(id, std::this_thread::get_id());
}

TEST(RealThread, AcceptsAPlainFunctionPointer) {
  static std::atomic<int> calls;
  calls.store(0);  // static, so reset it for --gtest_repeat
  Real::thread t(+[] { calls.fetch_add(1, std::memory_order_relaxed); });
  t.join();
  EXPECT_EQ(calls.load(), 1);
}

// ---------------------------------------------------------------- wait-on-address

TEST(RealWaitOnAddress, ReturnsImmediatelyWhenTheValueDiffers) {
  Watchdog dog("wait_on_address with a differing value");
  Real::atomic<std::int32_t> word{1};
  Real::wait_on_address(word, std::int32_t{0});
  Real::atomic<std::uint32_t> uword{7};
  Real::wait_on_address(uword, 8u);
  SUCCEED();  // reaching here (not the watchdog) is the claim
}

TEST(RealWaitOnAddress, WakeWithNobodyWaitingIsHarmless) {
  Real::atomic<std::int32_t> word{0};
  Real::wake_by_address_single(word);
  Real::wake_by_address_all(word);
  EXPECT_EQ(word.load(), 0);
}

// Two threads pass a turn back and forth 10000 times, each sleeping on the futex while it is
// the other's turn. A lost wake-up hangs (and the watchdog fails the test).
TEST(RealWaitOnAddress, FutexHandsTheTurnBackAndForthBetweenTwoThreads) {
  Watchdog dog("futex ping-pong");
  constexpr int kRounds = 10000;
  Real::atomic<std::int32_t> turn{0};
  long a_sum = 0;
  auto player = [&](std::int32_t me, long* sum) {
    for (int r = 0; r < kRounds; ++r) {
      for (std::int32_t t; (t = turn.load(std::memory_order_acquire)) != me;) {
        Real::wait_on_address(turn, t);  // may return spuriously: the loop re-checks
      }
      if (sum) ++*sum;
      turn.store(1 - me, std::memory_order_release);  // pairs with the other's acquire load
      Real::wake_by_address_single(turn);
    }
  };
  Real::thread other([&] { player(1, nullptr); });
  player(0, &a_sum);
  other.join();
  EXPECT_EQ(a_sum, kRounds);
  EXPECT_EQ(turn.load(), 0);
}

TEST(RealWaitOnAddress, WakeAllReleasesEverySleeper) {
  Watchdog dog("wake_by_address_all");
  Real::atomic<std::int32_t> gate{0};
  Real::atomic<int> through{0};
  std::vector<Real::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      while (gate.load(std::memory_order_acquire) == 0) Real::wait_on_address(gate, 0);
      through.fetch_add(1, std::memory_order_relaxed);
    });
  }
  gate.store(1, std::memory_order_release);  // pairs with the sleepers' acquire load
  Real::wake_by_address_all(gate);
  for (auto& t : threads) t.join();
  EXPECT_EQ(through.load(), 4);
}

// ---------------------------------------------------------------- parker, yield

TEST(RealParker, PermitGrantedBeforeParkIsNotLost) {
  Watchdog dog("parker permit before park");
  Real::parker& me = Real::current_parker();
  me.unpark();
  me.park();  // must return at once: the permit was already there
  SUCCEED();
}

TEST(RealParker, CurrentParkerIsPerThread) {
  Real::parker* mine = &Real::current_parker();
  Real::parker* theirs = nullptr;
  Real::thread([&] { theirs = &Real::current_parker(); }).join();
  EXPECT_EQ(mine, &Real::current_parker());
  EXPECT_NE(mine, theirs);
}

// Two unparks before a park leave one permit: the second park must wait for a third unpark.
TEST(RealParker, PermitIsBinarySoASecondParkBlocksUntilTheNextUnpark) {
  Watchdog dog("binary permit");
  Real::parker& me = Real::current_parker();
  me.unpark();
  me.unpark();
  me.park();
  Real::atomic<int> unparked_late{0};
  Real::thread late([&] {
    settle();  // give a wrong second permit the chance to let park() return early
    unparked_late.store(1, std::memory_order_relaxed);  // unpark's release publishes it
    me.unpark();
  });
  me.park();
  EXPECT_EQ(unparked_late.load(std::memory_order_relaxed), 1);
  late.join();
}

TEST(RealParker, ParkAndUnparkHandOffBetweenTwoThreads) {
  Watchdog dog("parker ping-pong");
  constexpr int kRounds = 10000;
  Real::parker& main_parker = Real::current_parker();
  Real::atomic<Real::parker*> other_parker{nullptr};
  Real::cell<int> shared(0);
  Real::thread other([&] {
    other_parker.store(&Real::current_parker(), std::memory_order_release);
    for (int r = 0; r < kRounds; ++r) {
      Real::current_parker().park();
      shared.with_mut([](int& v) { ++v; });  // ordered by the park/unpark pair
      main_parker.unpark();
    }
  });
  Real::parker* op;
  while ((op = other_parker.load(std::memory_order_acquire)) == nullptr) Real::yield();
  for (int r = 0; r < kRounds; ++r) {
    shared.with_mut([](int& v) { ++v; });
    op->unpark();
    main_parker.park();
  }
  other.join();
  EXPECT_EQ(shared.with([](const int& v) { return v; }), 2 * kRounds);
}

// ---------------------------------------------------------------- events, single thread

TEST(RealAutoResetEvent, InitiallySetEventIsConsumedByExactlyOneTryWait) {
  Real::auto_reset_event e(true);
  EXPECT_TRUE(e.try_wait());
  EXPECT_FALSE(e.try_wait());
}

TEST(RealAutoResetEvent, SetOnASignaledEventDoesNotAccumulate) {
  Real::auto_reset_event e(false);
  EXPECT_FALSE(e.try_wait());
  e.set();
  e.set();
  EXPECT_TRUE(e.try_wait());
  EXPECT_FALSE(e.try_wait());
}

TEST(RealAutoResetEvent, ResetClearsAnUnconsumedSignal) {
  Real::auto_reset_event e(true);
  e.reset();
  EXPECT_FALSE(e.try_wait());
}

TEST(RealAutoResetEvent, WaitOnASignaledEventReturnsAndClearsIt) {
  Watchdog dog("auto-reset wait on a signaled event");
  Real::auto_reset_event e(false);
  e.set();
  e.wait();
  EXPECT_FALSE(e.try_wait());
}

TEST(RealManualResetEvent, StaysSignaledForEveryWaitUntilReset) {
  Watchdog dog("manual-reset wait on a signaled event");
  Real::manual_reset_event e(true);
  EXPECT_TRUE(e.try_wait());
  EXPECT_TRUE(e.try_wait());
  e.wait();
  e.wait();
  e.reset();
  EXPECT_FALSE(e.try_wait());
  e.set();
  EXPECT_TRUE(e.try_wait());
}

TEST(RealManualResetEvent, InitiallyClearEventIsNotSignaled) {
  Real::manual_reset_event e(false);
  EXPECT_FALSE(e.try_wait());
}

// ---------------------------------------------------------------- events, threads

TEST(RealAutoResetEvent, EachSetReleasesExactlyOneOfFourBlockedWaiters) {
  Watchdog dog("auto-reset event, one waiter per set");
  constexpr int kWaiters = 4;
  Real::auto_reset_event e(false);
  Real::atomic<int> released{0};
  std::vector<Real::thread> threads;
  for (int i = 0; i < kWaiters; ++i) {
    threads.emplace_back([&] {
      e.wait();
      released.fetch_add(1, std::memory_order_relaxed);
    });
  }
  spin_until([&] { return e.queued_waits() == kWaiters; });
  for (int k = 1; k <= kWaiters; ++k) {
    e.set();
    EXPECT_EQ(e.queued_waits(), static_cast<std::size_t>(kWaiters - k));
    spin_until([&] { return released.load(std::memory_order_relaxed) >= k; });
    settle();
    EXPECT_EQ(released.load(std::memory_order_relaxed), k) << "after set number " << k;
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(e.try_wait()) << "every signal went to a waiter; none may be left over";
}

TEST(RealAutoResetEvent, SignalHandedToAWaiterCannotBeStolenByTryWait) {
  Watchdog dog("auto-reset hand-off vs try_wait");
  Real::auto_reset_event e(false);
  Real::thread waiter([&] { e.wait(); });
  spin_until([&] { return e.queued_waits() == 1; });
  e.set();
  EXPECT_FALSE(e.try_wait());  // the signal already belongs to the blocked waiter
  waiter.join();
}

TEST(RealManualResetEvent, SetReleasesEveryBlockedWaiterEvenIfResetAtOnce) {
  Watchdog dog("manual-reset set+reset releases everyone");
  constexpr int kWaiters = 4;
  Real::manual_reset_event e(false);
  Real::atomic<int> released{0};
  std::vector<Real::thread> threads;
  for (int i = 0; i < kWaiters; ++i) {
    threads.emplace_back([&] {
      e.wait();
      released.fetch_add(1, std::memory_order_relaxed);
    });
  }
  spin_until([&] { return e.queued_waits() == kWaiters; });
  e.set();
  e.reset();
  for (auto& t : threads) t.join();
  EXPECT_EQ(released.load(), kWaiters);
  EXPECT_FALSE(e.try_wait());
}

// ---------------------------------------------------------------- executor

// Suspends the coroutine and posts it to the pool: it continues on a worker.
struct post_to_pool {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { Real::post(h); }
  void await_resume() noexcept {}
};

// Suspends the coroutine until `e` is signaled, through the pool's wait.
struct resume_on {
  Real::auto_reset_event& e;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { Real::resume_on_signal(e, h); }
  void await_resume() noexcept {}
};

// Suspends for good, then counts: once `finished` is incremented the frame is suspended and
// the test may destroy it, which waiting for final_suspend from another thread would not
// allow (the worker may still be inside the coroutine's epilogue).
struct park_and_count {
  std::atomic<int>& finished;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) noexcept {
    finished.fetch_add(1, std::memory_order_release);  // pairs with the test's acquire load
  }
  void await_resume() noexcept {}
};

TEST(RealExecutor, PoolHasAtLeastTwoWorkers) {
  EXPECT_GE(Real::pool_size(), 2u);
  EXPECT_GE(Real::pool_size(), std::thread::hardware_concurrency());
}

TEST(RealExecutor, PoolRunsEveryPostedCoroutineOnAWorkerThread) {
  Watchdog dog("pool runs posted coroutines");
  constexpr int kTasks = 64;
  std::atomic<int> finished{0};
  std::vector<std::thread::id> ran_on(kTasks);
  auto body = [&](int i) -> task<Real> {
    co_await post_to_pool{};
    ran_on[i] = std::this_thread::get_id();
    co_await park_and_count{finished};
  };
  std::vector<task<Real>> tasks;
  for (int i = 0; i < kTasks; ++i) {
    tasks.push_back(body(i));
    tasks.back().start();
  }
  spin_until([&] { return finished.load(std::memory_order_acquire) == kTasks; });
  tasks.clear();  // destroys the suspended frames
  for (const auto& id : ran_on) EXPECT_NE(id, std::this_thread::get_id());
}

TEST(RealExecutor, AwaitedTaskResumesItsParentThroughTheTaskHandOff) {
  Watchdog dog("task<Real> co_await across the pool");
  std::atomic<int> finished{0};
  int result = 0;
  auto child = []() -> task<Real, int> {
    co_await post_to_pool{};
    co_return 41;
  };
  auto parent = [&]() -> task<Real> {
    result = co_await child() + 1;
    co_await park_and_count{finished};
  };
  task<Real> t = parent();
  t.start();
  spin_until([&] { return finished.load(std::memory_order_acquire) == 1; });
  EXPECT_EQ(result, 42);
}

TEST(RealExecutor, ResumeOnSignalResumesExactlyOneRegisteredCoroutinePerSet) {
  Watchdog dog("resume_on_signal, one per set");
  constexpr int kCoroutines = 4;
  Real::auto_reset_event e(false);
  std::atomic<int> resumed{0};
  auto body = [&]() -> task<Real> {
    co_await resume_on{e};
    co_await park_and_count{resumed};
  };
  std::vector<task<Real>> tasks;
  for (int i = 0; i < kCoroutines; ++i) {
    tasks.push_back(body());
    tasks.back().start();
  }
  EXPECT_EQ(e.queued_waits(), static_cast<std::size_t>(kCoroutines));
  EXPECT_EQ(resumed.load(), 0);
  for (int k = 1; k <= kCoroutines; ++k) {
    e.set();
    EXPECT_EQ(e.queued_waits(), static_cast<std::size_t>(kCoroutines - k));
    spin_until([&] { return resumed.load(std::memory_order_acquire) >= k; });
    settle();
    EXPECT_EQ(resumed.load(std::memory_order_acquire), k) << "after set number " << k;
  }
  EXPECT_FALSE(e.try_wait()) << "each signal was consumed by a registration";
}

TEST(RealExecutor, ResumeOnSignalOnASignaledEventConsumesTheSignalAndRuns) {
  Watchdog dog("resume_on_signal on a signaled event");
  Real::auto_reset_event e(true);
  std::atomic<int> resumed{0};
  auto body = [&]() -> task<Real> {
    co_await resume_on{e};
    co_await park_and_count{resumed};
  };
  task<Real> t = body();
  t.start();
  EXPECT_FALSE(e.try_wait());
  spin_until([&] { return resumed.load(std::memory_order_acquire) == 1; });
}

// More registrations than workers are pending, yet posted work still runs: a registration
// does not hold a worker while it waits.
TEST(RealExecutor, PendingResumeOnSignalDoesNotOccupyAPoolWorker) {
  Watchdog dog("resume_on_signal must not block workers");
  const int pending = static_cast<int>(Real::pool_size()) + 2;
  Real::auto_reset_event e(false);
  std::atomic<int> resumed{0};
  std::atomic<int> posted_ran{0};
  auto waiter = [&]() -> task<Real> {
    co_await resume_on{e};
    co_await park_and_count{resumed};
  };
  auto worker = [&]() -> task<Real> {
    co_await post_to_pool{};
    co_await park_and_count{posted_ran};
  };
  std::vector<task<Real>> tasks;
  for (int i = 0; i < pending; ++i) {
    tasks.push_back(waiter());
    tasks.back().start();
  }
  tasks.push_back(worker());
  tasks.back().start();
  spin_until([&] { return posted_ran.load(std::memory_order_acquire) == 1; });
  EXPECT_EQ(resumed.load(), 0);
  for (int i = 0; i < pending; ++i) e.set();
  spin_until([&] { return resumed.load(std::memory_order_acquire) == pending; });
}

// exit() runs the pool's destructor, which stops and joins every worker; a worker left
// blocked or a join on a dead thread would hang or crash the child instead of exiting 0.
TEST(RealExecutor, PoolJoinsItsWorkersCleanlyAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the pool may already run in this process
  Watchdog dog("pool shutdown at exit");
  EXPECT_EXIT(
      {
        std::atomic<int> finished{0};
        auto body = [&]() -> task<Real> {
          co_await post_to_pool{};
          co_await park_and_count{finished};
        };
        std::vector<task<Real>> tasks;
        for (int i = 0; i < 8; ++i) {
          tasks.push_back(body());
          tasks.back().start();
        }
        spin_until([&] { return finished.load(std::memory_order_acquire) == 8; });
        tasks.clear();
        std::exit(finished.load() == 8 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(RealExecutor, ResumeRunsTheCoroutineOnTheCallingThread) {
  std::thread::id ran_on;
  auto body = [&]() -> task<Real> {
    ran_on = std::this_thread::get_id();
    co_return;
  };
  task<Real> t = body();
  Real::resume(t.handle());
  EXPECT_TRUE(t.done());
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

// ---------------------------------------------------------------- check, frames

TEST(RealCheck, FailedCheckRecordsTheFirstFailureWithFileAndLineAndCarriesOn) {
  (void)Real::take_failures();  // start from a clean record
  Real::check(true, "holds");
  EXPECT_EQ(Real::take_failures().count, 0u);

  const auto first_line = std::source_location::current().line() + 1;
  Real::check(false, "first broken property");
  Real::check(false, "second broken property");
  Real::check(true, "holds");
  const Real::failures f = Real::take_failures();
  EXPECT_EQ(f.count, 2u);
  ASSERT_TRUE(f.first.has_value());
  EXPECT_EQ(f.first->what, "first broken property");
  EXPECT_EQ(f.first->line, first_line);
  EXPECT_NE(f.first->file.find("platform_real_test.cpp"), std::string::npos);

  const Real::failures cleared = Real::take_failures();
  EXPECT_EQ(cleared.count, 0u);
  EXPECT_FALSE(cleared.first.has_value());
}

TEST(RealCheck, FailuresFromManyThreadsAreAllCounted) {
  (void)Real::take_failures();
  std::vector<Real::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([] {
      for (int r = 0; r < 100; ++r) Real::check(false, "broken");
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Real::take_failures().count, 400u);
}

TEST(RealFrames, FrameAllocateGivesWritableAlignedStorage) {
  void* p = Real::frame_allocate(256);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t), 0u);
  std::memset(p, 0xab, 256);
  Real::frame_deallocate(p, 256);
}

}  // namespace
}  // namespace platform_real_test
}  // namespace syncstress
