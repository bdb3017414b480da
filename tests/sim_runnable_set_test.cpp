// The engine's runnable set (sim/runnable_set.hpp): what the Strategy is shown must be exactly
// the runnable ids, ascending, after any sequence of adds and removes, including adding an id
// already present and removing one that is absent.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "schedules/rng.hpp"
#include "sim/runnable_set.hpp"

namespace syncstress {
namespace sim_runnable_set_test {
namespace {

std::vector<ThreadId> shown(const sim::detail::RunnableSet& set) {
  const std::span<const ThreadId> ids = set;
  return {ids.begin(), ids.end()};
}

TEST(SimRunnableSet, KeepsIdsAscendingWhateverTheOrderOfChanges) {
  sim::detail::RunnableSet set;
  set.reserve(5);
  set.add(3);
  set.add(0);
  set.add(4);
  set.add(1);
  EXPECT_EQ(shown(set), (std::vector<ThreadId>{0, 1, 3, 4}));
  set.add(3);  // already there
  EXPECT_EQ(shown(set), (std::vector<ThreadId>{0, 1, 3, 4}));
  set.remove(1);
  set.remove(2);  // not there
  EXPECT_EQ(shown(set), (std::vector<ThreadId>{0, 3, 4}));
  set.remove(4);
  set.remove(0);
  set.add(2);
  EXPECT_EQ(shown(set), (std::vector<ThreadId>{2, 3}));
  EXPECT_EQ(set.size(), 2U);
  EXPECT_EQ(set[0], 2U);
  EXPECT_EQ(set[1], 3U);
  set.remove(2);
  set.remove(3);
  EXPECT_TRUE(set.empty());
}

TEST(SimRunnableSet, AgreesWithAnOrderedSetOverRandomChanges) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Xoshiro256 rng(seed);
    const std::size_t threads = 1 + static_cast<std::size_t>(rng.below(40));
    sim::detail::RunnableSet set;
    set.reserve(threads);
    std::set<ThreadId> expected;
    for (int change = 0; change < 2000; ++change) {
      const auto id = static_cast<ThreadId>(rng.below(threads));
      if (rng.below(2) == 0) {
        set.add(id);
        expected.insert(id);
      } else {
        set.remove(id);
        expected.erase(id);
      }
      ASSERT_EQ(shown(set), (std::vector<ThreadId>(expected.begin(), expected.end())))
          << "seed " << seed << ", change " << change;
    }
  }
}

}  // namespace
}  // namespace sim_runnable_set_test
}  // namespace syncstress
