// Stress mode's side of the real platform: with it off, operations record nothing and inject
// nothing; with it on, each thread's ring holds its last operations with their source lines,
// and the fault switches make weak compare-exchanges and waits end spuriously, as the standard
// allows, and only when switched on.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

#include "platform/real.hpp"
#include "platform/real_stress.hpp"

namespace syncstress {
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

}  // namespace
}  // namespace syncstress
