// Mutant schemata: scripts/mutate writes a primitive's meta-mutant, one copy of its source in
// which every mutation site asks mutant_on(id) whether it is the active mutant, so one build
// holds every mutant and the environment picks one per run (Untch, Offutt and Harrold, "Mutation
// analysis using mutant schemata", ISSTA 1993).
//
//   SYNCSTRESS_MUTANT=ID             the active mutant (0 or unset: none, the original code)
//   SYNCSTRESS_MUTANT_COVERAGE=FILE  appends the id of each site the first time a process
//                                    reaches it, one per line, so a run tells which sites the
//                                    presets execute at all
//
// Both are read once per process; forked cells and the syncstress-relacy child inherit them.
// Nothing here is a scheduling point: a meta-mutant with no mutant active runs the same steps
// as the original.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>  // std::memory_order
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <source_location>

namespace syncstress {

namespace mutant_detail {

/// Site ids are below this (scripts/mutate numbers them from 1 and refuses more).
inline constexpr std::uint32_t kMaxSites = 1u << 16;

inline std::uint32_t read_active() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once, before any thread of ours starts.
  const char* text = std::getenv("SYNCSTRESS_MUTANT");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const unsigned long id = std::strtoul(text, &end, 10);
  if (*end != '\0' || id >= kMaxSites) {
    const char message[] = "syncstress: SYNCSTRESS_MUTANT must be a site id from scripts/mutate\n";
    (void)!::write(2, message, sizeof message - 1);
    std::_Exit(2);
  }
  return static_cast<std::uint32_t>(id);
}

inline int coverage_fd() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once, as above.
  const char* path = std::getenv("SYNCSTRESS_MUTANT_COVERAGE");
  if (path == nullptr || *path == '\0') return -1;
  return ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

/// Records `id` once per process. Sites run on one OS thread at a time (sim and Relacy run
/// their threads as fibers), so plain flags suffice.
inline void cover(std::uint32_t id) {
  static const int fd = coverage_fd();
  static bool seen[kMaxSites] = {};
  if (fd < 0 || id >= kMaxSites || seen[id]) return;
  seen[id] = true;
  // No allocation: under Relacy this may run inside a test, on Relacy's heap.
  char line[12];
  std::size_t n = sizeof line;
  line[--n] = '\n';
  do {
    line[--n] = static_cast<char>('0' + id % 10);
    id /= 10;
  } while (id != 0);
  (void)!::write(fd, line + n, sizeof line - n);  // O_APPEND: whole lines, whoever writes
}

inline std::memory_order load_part(std::memory_order mo) {
  if (mo == std::memory_order_acq_rel) return std::memory_order_acquire;
  if (mo == std::memory_order_release) return std::memory_order_relaxed;
  return mo;
}

inline std::memory_order store_part(std::memory_order mo) {
  if (mo == std::memory_order_acq_rel) return std::memory_order_release;
  if (mo == std::memory_order_acquire || mo == std::memory_order_consume) {
    return std::memory_order_relaxed;
  }
  return mo;
}

}  // namespace mutant_detail

/// Whether mutation site `id` runs its mutant: true for the one id SYNCSTRESS_MUTANT names.
inline bool mutant_on(std::uint32_t id) {
  static const std::uint32_t active = mutant_detail::read_active();
  mutant_detail::cover(id);
  return id == active;
}

/// The mutant of `a.fetch_add(v, mo)`: a load and a store, so another thread may step in
/// between (a lost update). Each keeps its half of `mo`.
template <class Atomic, class V>
auto mutant_fetch_add_as_load_store(Atomic& a, V v,
                                    std::memory_order mo = std::memory_order_seq_cst,
                                    std::source_location loc = std::source_location::current()) {
  const auto old = a.load(mutant_detail::load_part(mo), loc);
  a.store(static_cast<decltype(old)>(old + v), mutant_detail::store_part(mo), loc);
  return old;
}

/// The mutant of `a.fetch_sub(v, mo)`, as above.
template <class Atomic, class V>
auto mutant_fetch_sub_as_load_store(Atomic& a, V v,
                                    std::memory_order mo = std::memory_order_seq_cst,
                                    std::source_location loc = std::source_location::current()) {
  const auto old = a.load(mutant_detail::load_part(mo), loc);
  a.store(static_cast<decltype(old)>(old - v), mutant_detail::store_part(mo), loc);
  return old;
}

}  // namespace syncstress
