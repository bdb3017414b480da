// The work-queue family, used by the progress and spurious-wakeups presets: producers push
// distinct items, the single consumer runs the document's consumer loop until it has had as
// many deliveries as items pushed. Checks, on every delivery: the item was pushed, and not
// delivered before. Together they mean every item was processed exactly once when the loop
// ends (n deliveries of distinct pushed items out of n), so no end-of-run check is needed. A
// lost wake-up or a dropped item leaves the consumer blocked with deliveries missing, which sim
// and Relacy report as a deadlock naming the consumer's wait. Each producer writes its item's
// payload (a platform cell) before the push and the consumer reads it on delivery, so under
// Relacy a queue that hands items over without a release/acquire edge races on the payload.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios::work_queue {

inline std::vector<ParamSpec> specs() {
  using T = ParamSpec::Type;
  return {
      {"producers", T::integer, 1, 16, 2, "producer threads"},
      {"items", T::integer, 1, 1000, 3, "items pushed by each producer"},
  };
}

template <Platform P, Kind K, Mode M, class Prim>
void run(Observations& obs, std::uint32_t claims, const Params& p) {
  static_assert(K == Kind::work_queue);
  PropertyChecks<P> checks(claims, obs);
  const auto producers = p.integer("producers");
  const auto items = p.integer("items");
  const auto total = producers * items;
  std::vector<int> seen(static_cast<std::size_t>(total), 0);
  std::int64_t processed = 0;
  std::vector<std::unique_ptr<typename P::template cell<std::int64_t>>> payload;
  for (std::int64_t i = 0; i < total; ++i) {
    payload.push_back(std::make_unique<typename P::template cell<std::int64_t>>(0));
  }
  Prim queue;
  Actors<P> group(obs);
  // The producers are interchangeable: each pushes items of its own, and the consumer checks
  // every item alike.
  constexpr Role kProducers{0};
  for (std::int64_t i = 0; i < producers; ++i) {
    group.add(
        [&, i]() -> task<P> {
          for (std::int64_t k = 0; k < items; ++k) {
            const std::int64_t item = i * items + k;
            payload[static_cast<std::size_t>(item)]->with_mut(
                [item](std::int64_t& v) { v = item + 1; });
            queue.push(item);
          }
          co_return;
        },
        kProducers);
  }
  group.add([&]() -> task<P> {
    while (processed < total) {
      queue.consume_once([&](std::int64_t item) {
        const bool known = item >= 0 && item < total;
        checks.require(kNoLostWakeups, known, "the consumer got an item nobody pushed");
        if (!known) return;
        ++processed;
        const int times = ++seen[static_cast<std::size_t>(item)];
        checks.require(
            kNoLostWakeups, times == 1,
            "item " + std::to_string(item) + " processed " + std::to_string(times) + " times");
        const auto value =
            payload[static_cast<std::size_t>(item)]->with([](const std::int64_t& v) { return v; });
        checks.require(kNoLostWakeups, value == item + 1,
                       "item " + std::to_string(item) + " arrived before its payload");
      });
    }
    co_return;
  });
  group.run();
  obs.numbers["items_processed"] += static_cast<double>(processed);
}

}  // namespace syncstress::scenarios::work_queue
