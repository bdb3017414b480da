// Stress mode on the real platform: what the per-operation hook calls (joining a trial, noise,
// the fault draws; platform/real/stress_hook.hpp) and the trial's control and rings
// (platform/real_stress.hpp).
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>

#include "platform/real/stress_hook.hpp"
#include "platform/real_stress.hpp"
#include "util/source_path.hpp"

namespace syncstress {
namespace {

constexpr std::size_t kMaxRings = 512;

using real_detail::op_ring;

// The current trial's rings, by slot: a live thread's own ring, or its copy in g_exited once
// the thread has exited. Null until the slot's thread joins the trial.
std::array<std::atomic<const op_ring*>, kMaxRings> g_registry{};
std::array<op_ring, kMaxRings> g_exited;
std::atomic<std::uint32_t> g_claimed{0};
std::atomic<std::uint64_t> g_trials{0};      // trials begun
std::atomic<std::uint64_t> g_generation{0};  // the latest trial's stress_state.generation
// Written by begin_trial while the trial's threads are not running operations; read relaxed.
std::atomic<bool> g_spurious_wakeups{false};
std::atomic<bool> g_cas_failures{false};
std::atomic<std::uint64_t> g_seed{0};

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// This thread's generator (xorshift64*), seeded when it joins a trial.
thread_local constinit std::uint64_t t_rng = 0;

std::uint64_t next_draw() {
  t_rng ^= t_rng >> 12;
  t_rng ^= t_rng << 25;
  t_rng ^= t_rng >> 27;
  return t_rng * 0x2545f4914f6cdd1dULL;
}

/// Joins the current trial if this thread has not yet (a fault draw may come first).
void ensure_joined() {
  const auto generation = real_detail::stress_state.generation.load(std::memory_order_relaxed);
  if (generation != 0 && real_detail::t_stress_generation != generation) {
    real_detail::stress_join(generation);
  }
}

void pause_spin(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
  }
}

void copy_ring(const op_ring& from, op_ring& to) {
  for (std::size_t i = 0; i < real_detail::kOpRingSize; ++i) {
    to.entries[i].store(from.entries[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  to.last.store(from.last.load(std::memory_order_relaxed), std::memory_order_relaxed);
  to.os_thread.store(from.os_thread.load(std::memory_order_relaxed), std::memory_order_relaxed);
  to.count.store(from.count.load(std::memory_order_relaxed), std::memory_order_release);
}

// Destroyed when its thread exits: if the thread is in the current trial, its ring (about to
// go with the thread's storage) is copied to the platform's storage and the registry points
// there. Constructed on a thread's first join, off the per-operation path.
struct ring_keeper {
  std::uint64_t generation = 0;
  std::uint32_t slot = kMaxRings;
  ring_keeper() = default;
  ring_keeper(const ring_keeper&) = delete;
  ring_keeper& operator=(const ring_keeper&) = delete;
  ~ring_keeper() {
    if (slot >= kMaxRings || generation != g_generation.load(std::memory_order_acquire)) return;
    copy_ring(real_detail::t_op_ring, g_exited[slot]);
    g_registry[slot].store(&g_exited[slot], std::memory_order_release);
  }
};
thread_local ring_keeper t_keeper;

void sleep_us(std::uint64_t us) {
  timespec ts{0, static_cast<long>(us * 1000)};
  ::nanosleep(&ts, nullptr);
}

}  // namespace

namespace real_detail {

void stress_join(std::uint64_t generation) noexcept {
  t_stress_generation = generation;
  const auto slot = g_claimed.fetch_add(1, std::memory_order_relaxed);
  t_op_ring.count.store(0, std::memory_order_relaxed);
  t_op_ring.last.store(0, std::memory_order_relaxed);
  t_op_ring.os_thread.store(static_cast<std::uint32_t>(::syscall(SYS_gettid)),
                            std::memory_order_relaxed);
  t_keeper.generation = generation;
  t_keeper.slot = slot;
  if (slot < kMaxRings) g_registry[slot].store(&t_op_ring, std::memory_order_release);
  t_rng = splitmix(g_seed.load(std::memory_order_relaxed) ^ splitmix(slot + 1)) | 1;
}

void stress_noise(std::uint64_t level) noexcept {
  // low: 1/32 spin, 1/256 yield, 1/8192 sleep; high: 1/4, 1/32, 1/1024.
  const std::uint64_t x = next_draw();
  const unsigned spin_bits = level == 2 ? 2 : 5;
  const unsigned yield_bits = level == 2 ? 5 : 8;
  const unsigned sleep_bits = level == 2 ? 10 : 13;
  const auto r = x >> 40;
  if ((x & ((1ULL << sleep_bits) - 1)) == 0) {
    sleep_us(10 + r % 90);
  } else if (((x >> 13) & ((1ULL << yield_bits) - 1)) == 0) {
    ::sched_yield();
  } else if (((x >> 24) & ((1ULL << spin_bits) - 1)) == 0) {
    pause_spin(1 + r % (level == 2 ? 512 : 128));
  }
}

bool stress_spurious_wakeup() noexcept {
  if (!g_spurious_wakeups.load(std::memory_order_relaxed)) return false;
  ensure_joined();
  return (next_draw() & 15) == 0;  // one wait in 16
}

bool stress_cas_failure() noexcept {
  if (!g_cas_failures.load(std::memory_order_relaxed)) return false;
  ensure_joined();
  return (next_draw() & 15) == 0;  // one weak CAS in 16
}

}  // namespace real_detail

namespace real_stress {

void begin_trial(const Settings& settings) {
  g_spurious_wakeups.store(settings.spurious_wakeups, std::memory_order_relaxed);
  g_cas_failures.store(settings.cas_failures, std::memory_order_relaxed);
  g_seed.store(settings.seed, std::memory_order_relaxed);
  for (auto& ring : g_registry) ring.store(nullptr, std::memory_order_relaxed);
  g_claimed.store(0, std::memory_order_relaxed);
  // A new generation: every thread claims a fresh ring at its next operation.
  const auto trial = g_trials.fetch_add(1, std::memory_order_relaxed) + 1;
  const auto generation = (trial << 3) | (settings.ring ? real_detail::kRingBit : 0) |
                          static_cast<std::uint64_t>(settings.noise);
  g_generation.store(generation, std::memory_order_release);
  real_detail::stress_state.generation.store(generation, std::memory_order_release);
}

void end_trial() { real_detail::stress_state.generation.store(0, std::memory_order_release); }

namespace {
RecentOp decode(std::uint64_t packed) {
  const auto where = std::bit_cast<std::source_location>(packed >> 8);
  return {op_name(static_cast<real_detail::op>(packed & 0xff)), source_relative(where.file_name()),
          where.line()};
}
}  // namespace

std::vector<ThreadOps> recent_operations(std::size_t per_thread) {
  std::vector<ThreadOps> out;
  const auto claimed = std::min<std::size_t>(g_claimed.load(std::memory_order_acquire), kMaxRings);
  for (std::size_t slot = 0; slot < claimed; ++slot) {
    const op_ring* registered = g_registry[slot].load(std::memory_order_acquire);
    if (registered == nullptr) continue;  // claimed, not yet registered
    const op_ring& ring = *registered;
    ThreadOps t;
    t.slot = static_cast<std::uint32_t>(slot);
    t.os_thread = ring.os_thread.load(std::memory_order_relaxed);
    t.operations = ring.count.load(std::memory_order_acquire);
    if (t.operations == 0) {
      // The trial keeps each thread's last operation only (or the thread has run none).
      if (const auto last = ring.last.load(std::memory_order_relaxed); last != 0) {
        t.recent.push_back(decode(last));
      }
      out.push_back(std::move(t));
      continue;
    }
    const auto kept = std::min<std::uint64_t>(
        {t.operations, std::uint64_t{real_detail::kOpRingSize}, std::uint64_t{per_thread}});
    for (std::uint64_t i = t.operations - kept; i < t.operations; ++i) {
      const auto packed =
          ring.entries[i & (real_detail::kOpRingSize - 1)].load(std::memory_order_relaxed);
      t.recent.push_back(decode(packed));
    }
    out.push_back(std::move(t));
  }
  return out;
}

// One table, a case per operation of real_detail::op: as long as the enum is.
std::string_view op_name(real_detail::op kind) {
  using real_detail::op;
  switch (kind) {
    case op::load:
      return "load";
    case op::store:
      return "store";
    case op::exchange:
      return "exchange";
    case op::cas_weak:
      return "compare_exchange_weak";
    case op::cas_strong:
      return "compare_exchange_strong";
    case op::fetch_add:
      return "fetch_add";
    case op::fetch_sub:
      return "fetch_sub";
    case op::fetch_and:
      return "fetch_and";
    case op::fetch_or:
      return "fetch_or";
    case op::fetch_xor:
      return "fetch_xor";
    case op::atomic_wait:
      return "wait";
    case op::notify_one:
      return "notify_one";
    case op::notify_all:
      return "notify_all";
    case op::mutex_lock:
      return "mutex.lock";
    case op::mutex_try_lock:
      return "mutex.try_lock";
    case op::mutex_unlock:
      return "mutex.unlock";
    case op::wait_on_address:
      return "wait_on_address";
    case op::wake_one:
      return "wake_by_address_single";
    case op::wake_all:
      return "wake_by_address_all";
    case op::park:
      return "park";
    case op::unpark:
      return "unpark";
    case op::yield:
      return "yield";
    case op::event_set:
      return "event.set";
    case op::event_reset:
      return "event.reset";
    case op::event_wait:
      return "event.wait";
    case op::event_try_wait:
      return "event.try_wait";
    case op::post:
      return "post";
    case op::resume_on_signal:
      return "resume_on_signal";
    case op::resume:
      return "resume";
    case op::thread_start:
      return "thread";
    case op::join:
      return "join";
    case op::thread_fence:
      return "atomic_thread_fence";
    case op::signal_fence:
      return "atomic_signal_fence";
    case op::semaphore_release:
      return "semaphore.release";
    case op::semaphore_acquire:
      return "semaphore.acquire";
    case op::semaphore_try_acquire:
      return "semaphore.try_acquire";
    case op::condvar_wait:
      return "condition_variable.wait";
    case op::condvar_notify:
      return "condition_variable.notify";
    case op::clock_now:
      return "now";
    case op::pause:
      return "pause";
    case op::cell_read:
      return "cell.with";
    case op::cell_write:
      return "cell.with_mut";
  }
  return "operation";
}

}  // namespace real_stress
}  // namespace syncstress
