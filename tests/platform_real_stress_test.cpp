// Stress mode's side of the real platform: with it off, operations record nothing and inject
// nothing; with it on, each thread's ring holds its last operations (a cell's accesses too) with
// their source lines, a cell's access draws noise as an atomic's does, and the fault switches
// make weak compare-exchanges and waits end spuriously, as the standard allows, and only when
// switched on.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "platform/real.hpp"
#include "platform/real_stress.hpp"

namespace syncstress {
namespace platform_real_stress_test {
namespace {

/// A trial (keeping rings or not) in which this thread runs fetch_add then store and another
/// thread a load, then one more fetch_add after it: returns the store's line.
std::uint32_t three_operations(bool ring) {
  real_stress::begin_trial({real_stress::Noise::low, false, false, 7, ring});
  Real::atomic<std::int32_t> a{0};
  a.fetch_add(1);
  const auto line = __LINE__ + 1;
  a.store(5);
  std::thread other([&] { (void)a.load(); });
  other.join();
  real_stress::end_trial();
  a.fetch_add(1);  // off: not recorded
  return line;
}

TEST(PlatformRealStress, EachThreadKeepsItsLastOperationWithItsLine) {
  const auto line = three_operations(/*ring=*/false);
  const auto threads = real_stress::recent_operations(2);
  ASSERT_EQ(threads.size(), 2u);
  const auto& mine = threads[0];
  EXPECT_EQ(mine.operations, 0u);  // not counted without a ring
  ASSERT_EQ(mine.recent.size(), 1u);
  EXPECT_EQ(mine.recent[0].op, "store");
  EXPECT_EQ(mine.recent[0].line, line);
  EXPECT_EQ(mine.recent[0].file, "tests/platform_real_stress_test.cpp");
  ASSERT_EQ(threads[1].recent.size(), 1u);  // kept after its thread exited
  EXPECT_EQ(threads[1].recent[0].op, "load");
  EXPECT_NE(threads[1].os_thread, mine.os_thread);
}

TEST(PlatformRealStress, EachThreadsRingHoldsItsLastOperationsWithTheirLines) {
  const auto line = three_operations(/*ring=*/true);
  const auto threads = real_stress::recent_operations(2);
  ASSERT_EQ(threads.size(), 2u);
  const auto& mine = threads[0];
  EXPECT_EQ(mine.operations, 2u);
  ASSERT_EQ(mine.recent.size(), 2u);
  EXPECT_EQ(mine.recent[0].op, "fetch_add");
  EXPECT_EQ(mine.recent[1].op, "store");
  EXPECT_EQ(mine.recent[1].line, line);
  EXPECT_EQ(mine.recent[1].file, "tests/platform_real_stress_test.cpp");
  EXPECT_EQ(threads[1].recent.at(0).op, "load");
  EXPECT_NE(threads[1].os_thread, mine.os_thread);
}

TEST(PlatformRealStress, WeakCompareExchangeFailsSpuriouslyOnlyWhenSwitchedOn) {
  Real::atomic<std::int32_t> a{0};
  auto failures = [&](bool on) {
    real_stress::begin_trial({real_stress::Noise::off, false, on, 3});
    int failed = 0;
    for (int i = 0; i < 2000; ++i) {
      std::int32_t expected = a.load();
      if (!a.compare_exchange_weak(expected, expected + 1)) {
        ++failed;
        EXPECT_EQ(expected, a.load());  // a spurious failure still reports the current value
      }
    }
    real_stress::end_trial();
    return failed;
  };
  EXPECT_EQ(failures(false), 0);
  const int on = failures(true);
  EXPECT_GT(on, 50);  // about one in sixteen
  EXPECT_LT(on, 400);
}

TEST(PlatformRealStress, WaitsEndSpuriouslyOnlyWhenSwitchedOnAndOutsideATrialNever) {
  // The draw wait_on_address and park make before they sleep: true means "return now".
  auto spurious = [](bool on) {
    real_stress::begin_trial({real_stress::Noise::off, on, false, 11});
    int n = 0;
    for (int i = 0; i < 2000; ++i) n += real_detail::stress_spurious_wakeup() ? 1 : 0;
    real_stress::end_trial();
    return n;
  };
  EXPECT_EQ(spurious(false), 0);
  const int on = spurious(true);
  EXPECT_GT(on, 50);
  EXPECT_LT(on, 400);
  // With a permit granted first, park returns at once whatever the draw; and a wait on a word
  // that already differs returns at once: neither needs the fault to end.
  real_stress::begin_trial({real_stress::Noise::high, true, true, 5});
  Real::current_parker().unpark();
  Real::current_parker().park();
  Real::atomic<std::int32_t> word{2};
  Real::wait_on_address(word, 1);
  real_stress::end_trial();
  const auto threads = real_stress::recent_operations(4);
  ASSERT_FALSE(threads.empty());
  EXPECT_EQ(threads[0].recent.back().op, "wait_on_address");
}

TEST(PlatformRealStress, CellAccessesAreOperationsWithTheirLinesOnlyInATrial) {
  Real::cell<std::int32_t> c{0};
  real_stress::begin_trial({real_stress::Noise::high, false, false, 9, /*ring=*/true});
  const auto write_line = __LINE__ + 1;
  c.with_mut([](std::int32_t& v) { ++v; });
  const auto read_line = __LINE__ + 1;
  const auto seen = c.with([](const std::int32_t& v) { return v; });
  real_stress::end_trial();
  c.with_mut([](std::int32_t& v) { ++v; });  // off: not recorded
  EXPECT_EQ(seen, 1);
  const auto threads = real_stress::recent_operations(4);
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_EQ(threads[0].operations, 2u);
  ASSERT_EQ(threads[0].recent.size(), 2u);
  EXPECT_EQ(threads[0].recent[0].op, "cell.with_mut");
  EXPECT_EQ(threads[0].recent[0].line, write_line);
  EXPECT_EQ(threads[0].recent[1].op, "cell.with");
  EXPECT_EQ(threads[0].recent[1].line, read_line);
  EXPECT_EQ(threads[0].recent[1].file, "tests/platform_real_stress_test.cpp");
}

/// This thread's next 256 fault draws in a trial (seed 13, spurious wake-ups on) after `first`
/// has run as its first operation.
template <class F>
std::vector<bool> draws_after(real_stress::Noise noise, F first) {
  real_stress::begin_trial({noise, true, false, 13});
  first();
  std::vector<bool> draws(256);
  for (auto&& draw : draws) draw = real_detail::stress_spurious_wakeup();
  real_stress::end_trial();
  return draws;
}

TEST(PlatformRealStress, ACellAccessDrawsNoiseFromTheSeededStreamAsAnAtomicDoes) {
  Real::atomic<std::int32_t> a{0};
  Real::cell<std::int32_t> c{0};
  const auto store = [&] { a.store(1); };
  const auto write = [&] { c.with_mut([](std::int32_t& v) { v = 1; }); };
  const auto read = [&] { (void)c.with([](const std::int32_t& v) { return v; }); };
  const auto nothing = [] {};
  // With noise, each operation takes one draw from the thread's stream, a cell's as an atomic's:
  // the fault draws after it are the same, and one draw later than after no operation at all.
  const auto after_store = draws_after(real_stress::Noise::high, store);
  EXPECT_EQ(draws_after(real_stress::Noise::high, write), after_store);
  EXPECT_EQ(draws_after(real_stress::Noise::low, read), after_store);
  EXPECT_NE(draws_after(real_stress::Noise::high, nothing), after_store);
  // Without noise, nothing is drawn at either.
  const auto quiet = draws_after(real_stress::Noise::off, nothing);
  EXPECT_EQ(draws_after(real_stress::Noise::off, write), quiet);
  EXPECT_EQ(draws_after(real_stress::Noise::off, store), quiet);
}

}  // namespace
}  // namespace platform_real_stress_test
}  // namespace syncstress
