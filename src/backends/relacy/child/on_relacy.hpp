// The harness on the `relacy` platform. Include it after every other header of the
// translation unit (it includes platform/relacy.hpp, whose macros would rewrite later headers).
//
// A claimed property that breaks fails Relacy's iteration with Relacy::check. Relacy then
// abandons the iteration's fibers, so the Finding cannot wait in the execution's Observations:
// it is copied into a fixed record that the search reads once rl::simulate returns. Fixed-size
// text, because anything allocated during an iteration comes from Relacy's heap and must be
// gone when the iteration ends.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "scenarios/finding.hpp"
#include "scenarios/harness.hpp"
// Last: see the file comment.
#include "platform/relacy.hpp"

namespace syncstress::scenarios {

/// The finding of the latest failing iteration: the search clears it before rl::simulate.
struct RelacyFindingRecord {
  bool present = false;
  char property[64] = {};
  char message[1024] = {};
  char file[512] = {};
  std::uint32_t line = 0;

  static RelacyFindingRecord& current() {
    static RelacyFindingRecord record;
    return record;
  }
  void keep(const Finding& f) {
    present = true;
    copy(property, sizeof property, f.property);
    copy(message, sizeof message, f.message);
    copy(file, sizeof file, f.file);
    line = f.line;
  }

 private:
  static void copy(char* to, std::size_t size, const std::string& from) {
    const std::size_t n = std::min(size - 1, from.size());
    std::memcpy(to, from.data(), n);
    to[n] = '\0';
  }
};

template <>
struct HarnessHooks<Relacy> {
  /// Relacy's operator delete draws a random choice (defer the block's reuse or not): every
  /// allocation the harness makes is part of the schedule (see allocations_are_choices).
  static constexpr bool kAllocationsAreChoices = true;
  /// A logical clock: Relacy runs no timing-sensitive family, so wait times only need to be
  /// monotonic here.
  static std::uint64_t now() {
    static std::atomic<std::uint64_t> ticks{0};
    return ticks.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  static void name(const void*, const std::string&) {}
  static void found(const Finding& f, const source_location& where) {
    RelacyFindingRecord::current().keep(f);
    Relacy::check(false, f.property + ": " + f.message, where);
  }
  /// Kept by the running test until its iteration ends, when every thread has finished.
  static void retire(std::shared_ptr<void> state) { retired()->push_back(std::move(state)); }
  /// The running test's list (set by the test for the length of its iteration).
  static std::vector<std::shared_ptr<void>>*& retired() {
    static std::vector<std::shared_ptr<void>>* list = nullptr;
    return list;
  }
};

}  // namespace syncstress::scenarios
