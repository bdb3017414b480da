// Stress mode's control of the real platform: a stress cell (src/backends/stress/cell.cpp)
// switches it on for one trial at a time with that trial's noise, faults and seed, and reads
// each thread's ring of recent operations after the trial or from a crash or stall handler.
// What each operation does meanwhile is real/stress_hook.hpp; both halves are implemented in
// real/stress.cpp.
//
// Noise: at each operation (an atomic's, a blocking one's, a cell's with or with_mut, before it
// acts) a thread draws from its own generator, seeded with the trial's seed and the order in
// which threads first reached an operation (so a trial's noise is seeded and recorded, though
// the kernel's scheduling is not). A draw is nothing most of the time, else a spin of pause
// instructions, a sched_yield or a sleep of some tens of microseconds: the race windows widen
// without the program changing, those that end at plain data as well as at atomics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "platform/real.hpp"
#include "platform/real/stress_hook.hpp"

namespace syncstress::real_stress {

enum class Noise : std::uint8_t { off, low, high };

struct Settings {
  Noise noise = Noise::off;
  bool spurious_wakeups = false;  ///< wait_on_address and park may return at once
  bool cas_failures = false;      ///< compare_exchange_weak may fail at once
  std::uint64_t seed = 0;
  /// Each thread keeps its last kOpRingSize operations (three stores per operation); else only
  /// its last one (one store).
  bool ring = false;
};

/// Switches stress mode on for a trial: every thread starts a fresh ring and generator at its
/// next operation. Call while no thread of the previous trial runs an operation.
void begin_trial(const Settings& settings);
/// Switches it off (the rings stay readable until the next begin_trial).
void end_trial();

/// One operation in a ring.
struct RecentOp {
  std::string_view op;    ///< "fetch_add", "wait_on_address", ...
  std::string_view file;  ///< relative to the source tree when inside it
  std::uint32_t line = 0;
};
/// One thread's ring, oldest operation first.
struct ThreadOps {
  std::uint32_t slot = 0;        ///< the order in which the thread first reached an operation
  std::uint32_t os_thread = 0;   ///< gettid()
  std::uint64_t operations = 0;  ///< this trial; 0 when only the last one is kept
  std::vector<RecentOp> recent;
};

/// Each thread's most recent `per_thread` operations in the current (or last) trial. Read while
/// the threads run (from a crash or stall handler), so a ring may be caught mid-write: best
/// effort, as every crash note is.
std::vector<ThreadOps> recent_operations(std::size_t per_thread = 4);

/// Blocks until the thread pool has nothing queued and no worker inside a coroutine: after a
/// trial, before what its coroutines may still touch is freed.
inline void wait_pool_idle() { real_detail::pool_wait_idle(); }

/// The name of an operation kind.
std::string_view op_name(real_detail::op kind);

}  // namespace syncstress::real_stress
