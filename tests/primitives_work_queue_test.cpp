// Basic contracts of the work-queue primitives, on every platform: every pushed item is
// delivered to the single consumer exactly once, from one thread and from concurrent
// producers. A lost wake-up leaves the consumer blocked: a deadlock on sim, the watchdog on
// real. The WaitOnAddress form is also run with spurious wake-ups injected on sim.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "primitives/all.hpp"
#include "tests/primitives_test_support.hpp"

namespace syncstress {
namespace primitives_work_queue_test {
namespace {

using testing::Env;

std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->name()) + " / " + info->type_param();
}

/// Consumes until `expected` items arrived; checks each of 0..expected-1 came exactly once.
template <class P, class Q>
void consume_all(Q& q, int expected) {
  std::vector<int> seen(static_cast<std::size_t>(expected), 0);
  int count = 0;
  while (count < expected) {
    q.consume_once([&](std::int64_t item) {
      const bool in_range = item >= 0 && item < expected;
      P::check(in_range, "an item nobody pushed");
      if (!in_range) return;
      P::check(++seen[static_cast<std::size_t>(item)] == 1, "an item delivered twice");
      ++count;
    });
  }
}

template <class C>
class WorkQueue : public ::testing::Test {};
using WorkQueueCases = testing::OnAllPlatforms<work_queue_auto_reset_event,
                                               work_queue_wait_on_address, locked_work_queue>;
TYPED_TEST_SUITE(WorkQueue, WorkQueueCases);

TYPED_TEST(WorkQueue, DeliversEveryItemPushedOnTheConsumerThread) {
  using P = typename TypeParam::Platform;
  Env<P>::run(test_name(), [] {
    typename TypeParam::Type q;
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < 5; ++i) q.push(i);
      consume_all<P>(q, 5);
    }
  });
}

TYPED_TEST(WorkQueue, DeliversEveryItemFromConcurrentProducers) {
  using P = typename TypeParam::Platform;
  Env<P>::run(
      test_name(),
      [] {
        typename TypeParam::Type q;
        constexpr int per_producer = Env<P>::kIterations;
        std::vector<typename P::thread> producers;
        for (int t = 0; t < Env<P>::kThreads; ++t) {
          producers.emplace_back([&q, t] {
            for (int i = 0; i < per_producer; ++i) q.push(t * per_producer + i);
          });
        }
        consume_all<P>(q, Env<P>::kThreads * per_producer);
        for (auto& t : producers) t.join();
      },
      Env<P>::kExecutions);
}

TEST(WorkQueueWaitOnAddress, ToleratesSpuriousWakeupsOnSim) {
  Env<Sim>::run(
      "ToleratesSpuriousWakeupsOnSim",
      [] {
        work_queue_wait_on_address<Sim> q;
        std::vector<Sim::thread> producers;
        for (int t = 0; t < 2; ++t) {
          producers.emplace_back([&q, t] {
            for (int i = 0; i < 3; ++i) q.push(t * 3 + i);
          });
        }
        consume_all<Sim>(q, 6);
        for (auto& t : producers) t.join();
      },
      Env<Sim>::kExecutions, /*spurious_wakeups=*/true);
}

}  // namespace
}  // namespace primitives_work_queue_test
}  // namespace syncstress
