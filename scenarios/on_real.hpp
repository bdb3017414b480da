// The harness on the `real` platform (OS threads): wait times in nanoseconds of the steady
// clock, and a claimed property that breaks is recorded by Real::check, which does not stop
// the threads (whoever runs the body reads Real::take_failures() afterwards).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "platform/real.hpp"
#include "scenarios/harness.hpp"

namespace syncstress::scenarios {

template <>
struct HarnessHooks<Real> {
  static std::uint64_t now() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
  static void name(const void*, const std::string&) {}
  static void found(const Finding& f, const source_location& where) {
    Real::check(false, f.property + ": " + f.message, where);
  }
  /// Kept until release_retired(), which a trial calls once its threads and pool are idle.
  static void retire(std::shared_ptr<void> state) {
    const std::lock_guard<std::mutex> lock(retired_mutex());
    retired().push_back(std::move(state));
  }
  static void release_retired() {
    std::vector<std::shared_ptr<void>> gone;
    {
      const std::lock_guard<std::mutex> lock(retired_mutex());
      gone.swap(retired());
    }
  }

 private:
  static std::mutex& retired_mutex() {
    static std::mutex m;
    return m;
  }
  static std::vector<std::shared_ptr<void>>& retired() {
    static std::vector<std::shared_ptr<void>> list;
    return list;
  }
};

}  // namespace syncstress::scenarios
