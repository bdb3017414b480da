// What every family's execution shares (ScenarioContext): the observations, the property
// checks, the parameters, who holds the primitive (Occupancy) and the steps of a hold.
#pragma once

#include <cstdint>
#include <string>

#include "platform/platform.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/counter.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"
#include "scenarios/property_checks.hpp"

namespace syncstress::scenarios {

/// Holders of a primitive right now.
template <Platform P>
struct Occupancy {
  Counter<P> exclusive;
  Counter<P> shared;
};

/// Steps taken inside a critical section: real scheduling points, so other actors get to run
/// (and to break in, if the primitive lets them) while the section is held.
template <Platform P>
void hold(typename P::template atomic<std::int64_t>& work, std::int64_t steps) {
  for (std::int64_t i = 0; i < steps; ++i) work.fetch_add(1, std::memory_order_relaxed);
}

/// What every family's execution shares: its observations, its property checks, the
/// parameters, who holds the primitive, and the checks made on entering a hold.
template <Platform P>
struct ScenarioContext {
  ScenarioContext(Observations& o, std::uint32_t claims, const Params& p)
      : obs(o), checks(claims, o), params(p) {}
  Observations& obs;
  PropertyChecks<P> checks;
  const Params& params;
  Occupancy<P> occupancy;
  typename P::template atomic<std::int64_t> work{0};
  /// Data only exclusive holders write and shared holders read: the primitive must order
  /// these accesses (a race on it is Relacy's evidence of a missing edge).
  typename P::template cell<std::int64_t> guarded{0};

  /// One more exclusive holder (for a semaphore: one more token holder); at most `capacity`
  /// may hold it, and never with a shared holder inside.
  void enter_exclusive(std::int64_t capacity = 1,
                       source_location loc = source_location::current()) {
    const auto holders = occupancy.exclusive.add(1);
    const auto shared = occupancy.shared.get();
    checks.require(
        kMutualExclusion, holders <= capacity && shared == 0,
        [&] {
          return std::to_string(holders) + " exclusive holders where at most " +
                 std::to_string(capacity) + " are allowed, " + std::to_string(shared) +
                 " shared holders inside";
        },
        loc);
    // Holders of a multi-token semaphore overlap by design: only a lone holder writes.
    if (capacity == 1) guarded.with_mut([](std::int64_t& v) { ++v; });
  }
  /// One more shared holder; never with an exclusive holder inside.
  void enter_shared(source_location loc = source_location::current()) {
    occupancy.shared.add(1);
    checks.require(kMutualExclusion, occupancy.exclusive.get() == 0,
                   "a shared holder entered while an exclusive holder is inside", loc);
    (void)guarded.with([](const std::int64_t& v) { return v; });
  }
  /// The hold_steps scheduling points of a critical section. Where a reducing search sees what
  /// steps touch (sim), yields, which touch nothing: holders inside together (readers, a
  /// semaphore's token holders) do not order each other's steps. Elsewhere increments of
  /// `work`, as Relacy's searches and the stress trials have always run them.
  void hold_section() {
    // The hold_steps parameter is looked up once per execution, not per section (a lookup by
    // name costs more than a step), by hold_steps().
    if constexpr (requires { P::note_access(nullptr, false); }) {
      for (std::int64_t i = hold_steps(); i > 0; --i) P::yield();
    } else {
      hold<P>(work, hold_steps());
    }
  }
  void leave_exclusive() { occupancy.exclusive.add(-1); }
  void leave_shared() { occupancy.shared.add(-1); }

 private:
  /// params' hold_steps, once hold_section asked (never negative). Atomic: actors on real
  /// threads ask at once (and write the same value).
  std::int64_t hold_steps() {
    std::int64_t steps = hold_steps_.load(std::memory_order_relaxed);
    if (steps < 0) {
      steps = params.integer("hold_steps");
      hold_steps_.store(steps, std::memory_order_relaxed);
    }
    return steps;
  }
  std::atomic<std::int64_t> hold_steps_{-1};
};

}  // namespace syncstress::scenarios
