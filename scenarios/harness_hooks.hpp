// What the scenario harness needs from a platform beyond the Platform concept: HarnessHooks,
// specialized beside each backend's driver, with the defaults where a platform provides less;
// and how the harness tells a reducing search on sim of the state it keeps itself.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress::scenarios {

/// What the harness needs from a platform beyond the Platform concept, which is all a primitive
/// may use. One specialization per platform, beside its driver: src/backends/sim/on_sim.hpp,
/// src/backends/relacy/child/on_relacy.hpp, src/backends/stress/on_real.hpp. Each provides
///   static std::uint64_t now();                     the clock of wait times (sim: steps)
///   static void name(const void* object, const std::string& name);   for deadlock reports
///   static void found(const Finding&, const source_location& where)
///                                                   a claimed property broke: end the execution
///   static void retire(std::shared_ptr<void> state)  harness state that a finishing actor may
///                     still touch (its flag, its frame): keep it until the execution ends
/// and, where the clock is a wall clock (real threads), optionally
///   static std::uint64_t settle_delay();            how long after its arrival a thread blocking
///                     in a sync primitive counts as queued (WaitBook; 0 when absent)
///   static std::uint64_t victim_wait_bound();       the longest one wait of a starvation victim
///                     may last before a claimed starvation freedom fails (0: none; absent: none)
/// and, where the platform knows which threads are blocked (sim),
///   static void await_quiescence(source_location);  returns once every other thread is blocked
///                     or has finished
template <class P>
struct HarnessHooks;

/// HarnessHooks<P>::settle_delay(), or 0 where the platform has none.
template <class P>
std::uint64_t settle_delay() {
  if constexpr (requires { HarnessHooks<P>::settle_delay(); }) {
    return HarnessHooks<P>::settle_delay();
  } else {
    return 0;
  }
}

/// HarnessHooks<P>::victim_wait_bound(), or 0 (no bound) where the platform has none.
template <class P>
std::uint64_t victim_wait_bound() {
  if constexpr (requires { HarnessHooks<P>::victim_wait_bound(); }) {
    return HarnessHooks<P>::victim_wait_bound();
  } else {
    return 0;
  }
}

/// Waits until every other thread is blocked or has finished, where P can tell
/// (HarnessHooks<P>::await_quiescence): true then; false at once where it cannot.
template <class P>
bool await_quiescence(source_location loc = source_location::current()) {
  if constexpr (requires { HarnessHooks<P>::await_quiescence(loc); }) {
    HarnessHooks<P>::await_quiescence(loc);
    return true;
  } else {
    return false;
  }
}

/// Whether every heap allocation and free is a choice of P's scheduler
/// (HarnessHooks<P>::kAllocationsAreChoices): Relacy draws at every free whether to defer the
/// block's reuse, so what the harness allocates is part of every Relacy schedule: a change to
/// it changes the executions a seed and iteration run.
template <class P>
constexpr bool allocations_are_choices() {
  if constexpr (requires { HarnessHooks<P>::kAllocationsAreChoices; }) {
    return HarnessHooks<P>::kAllocationsAreChoices;
  } else {
    return false;
  }
}

/// Tells a reducing search on sim (Sim::note_access) that the current step reads or writes
/// harness state whose order a verdict depends on; nothing on the other platforms.
template <Platform P>
void note_harness_access(const void* object, bool write) {
  if constexpr (requires { P::note_access(object, write); }) P::note_access(object, write);
}

/// Tells a reducing search on sim (Sim::note_created) that harness state it will be told of
/// was just made by the current thread, so it names it by creator, not address.
template <Platform P>
void note_harness_created(const void* object) {
  if constexpr (requires { P::note_created(object); }) P::note_created(object);
}

}  // namespace syncstress::scenarios
