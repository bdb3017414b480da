#include "primitives/catalog.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace syncstress {
namespace catalog_test {
namespace {

TEST(Catalog, NamesAreUniqueAndEveryRowIsDescribed) {
  std::set<std::string> seen;
  for (const auto& p : all_primitives()) {
    EXPECT_TRUE(seen.insert(std::string(p.name)).second) << "duplicate " << p.name;
    EXPECT_FALSE(p.source.empty()) << p.name;
    EXPECT_FALSE(p.summary.empty()) << p.name;
  }
}

TEST(Catalog, ClaimNamesAreDistinct) {
  std::set<std::string_view> names;
  for (Claim c : {kMutualExclusion, kFifoHandoff, kStarvationFreedom, kCancellationSafety,
                  kSpuriousWakeupTolerance, kNoLostWakeups}) {
    EXPECT_TRUE(names.insert(to_string(c)).second);
  }
}

}  // namespace
}  // namespace catalog_test
}  // namespace syncstress
