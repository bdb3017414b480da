// What every operation of the real platform tells stress mode (src/platform/real.hpp calls
// on_op at the top of each one, a cell's with and with_mut included). Off, an operation costs one
// relaxed load and a branch; on, the operation is written to the calling thread's ring of recent
// operations (a few stores, no call) and, when noise is on, a seeded draw may delay it. The draws
// and the rings' registry are in src/platform/real/stress.cpp; stress mode is switched on and
// configured between trials through platform/real_stress.hpp.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <type_traits>

namespace syncstress::real_detail {

/// The Platform operations, as a ring entry names them.
enum class op : std::uint8_t {
  load,
  store,
  exchange,
  cas_weak,
  cas_strong,
  fetch_add,
  fetch_sub,
  fetch_and,
  fetch_or,
  fetch_xor,
  atomic_wait,
  notify_one,
  notify_all,
  mutex_lock,
  mutex_try_lock,
  mutex_unlock,
  wait_on_address,
  wake_one,
  wake_all,
  park,
  unpark,
  yield,
  event_set,
  event_reset,
  event_wait,
  event_try_wait,
  post,
  resume_on_signal,
  resume,
  thread_start,
  join,
  thread_fence,
  signal_fence,
  semaphore_release,
  semaphore_acquire,
  semaphore_try_acquire,
  condvar_wait,
  condvar_notify,
  clock_now,
  pause,
  cell_read,  // cell::with
  cell_write  // cell::with_mut
};

/// One thread's recent operations in a trial: entry i % kOpRingSize is its i-th operation,
/// packed as (source_location << 8) | op; or, unless the trial keeps rings, `last` its latest
/// one and nothing else (one store per operation: what a lock/unlock loop feels is the stores
/// waiting before each locked instruction). Each thread writes its own ring, in thread-local
/// storage; the platform keeps a registry of the trial's rings, and a thread copies its ring
/// into storage the platform owns when it exits, so a crash handler may read the ring of a
/// thread that has exited.
inline constexpr std::size_t kOpRingSize = 16;  // a power of two
struct alignas(64) op_ring {
  std::atomic<std::uint64_t> last{0};
  std::atomic<std::uint64_t> count{0};
  std::atomic<std::uint32_t> os_thread{0};
  std::atomic<std::uint64_t> entries[kOpRingSize] = {};
};

/// What every operation reads, on a cache line of its own, so that no primitive's atomic
/// shares the line and turns every operation's read of the switch into a cache miss.
struct alignas(64) stress_switch {
  /// 0 while stress mode is off; else (trial number << 3) | kRingBit when the trial keeps
  /// rings | noise level (1 low, 2 high, 0 off): one load tells an operation whether stress mode
  /// is on, whether its thread has joined this trial, what to keep and whether to draw noise.
  std::atomic<std::uint64_t> generation{0};
};
inline stress_switch stress_state;
inline constexpr std::uint64_t kRingBit = 4;
// This thread's trial and ring; constinit, so reaching them is a plain TLS access.
inline thread_local constinit std::uint64_t t_stress_generation = 0;
inline thread_local constinit op_ring t_op_ring{};

/// Joins trial `generation`: empties this thread's ring, registers it and seeds this thread's
/// generator.
void stress_join(std::uint64_t generation) noexcept;
/// One noise draw for this thread: nothing, a pause spin, sched_yield or a short sleep.
void stress_noise(std::uint64_t level) noexcept;
/// Whether this wait ends spuriously / this weak CAS fails spuriously: a seeded draw, true
/// only in stress mode with that fault switched on.
bool stress_spurious_wakeup() noexcept;
bool stress_cas_failure() noexcept;

static_assert(sizeof(std::source_location) == sizeof(std::uint64_t) &&
                  std::is_trivially_copyable_v<std::source_location>,
              "an op ring entry packs a source_location (one pointer) with the op");

inline void on_op(op kind, const std::source_location& where) noexcept {
  const auto generation = stress_state.generation.load(std::memory_order_relaxed);
  if (generation == 0) [[likely]]
    return;
  if (t_stress_generation != generation) [[unlikely]]
    stress_join(generation);
  const auto packed = (std::bit_cast<std::uint64_t>(where) << 8) | static_cast<std::uint8_t>(kind);
  if ((generation & kRingBit) == 0) [[likely]] {
    t_op_ring.last.store(packed, std::memory_order_relaxed);
  } else {
    const auto n = t_op_ring.count.load(std::memory_order_relaxed);
    t_op_ring.entries[n & (kOpRingSize - 1)].store(packed, std::memory_order_relaxed);
    t_op_ring.count.store(n + 1, std::memory_order_release);
  }
  if ((generation & 3) != 0) [[unlikely]]
    stress_noise(generation & 3);
}

/// Whether stress mode is on (a fault may be drawn).
inline bool stress_active() noexcept {
  return stress_state.generation.load(std::memory_order_relaxed) != 0;
}

}  // namespace syncstress::real_detail
