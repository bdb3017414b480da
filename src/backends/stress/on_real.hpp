// The harness on the `real` platform (OS threads): wait times in nanoseconds of the steady
// clock, and a claimed property that breaks is recorded by Real::check, which does not stop
// the threads (whoever runs the body reads Real::take_failures() afterwards).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "platform/real.hpp"
#include "platform/real_stress.hpp"
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
    {
      // What every thread was doing at the breach, for the report (stress mode; the first
      // finding of a trial only).
      const std::lock_guard<std::mutex> lock(breach_mutex());
      if (!breach()) breach() = real_stress::recent_operations();
    }
    Real::check(false, f.property + ": " + f.message, where);
  }
  /// The threads' recent operations when the trial's first finding was made, and clears it.
  static std::optional<std::vector<real_stress::ThreadOps>> take_breach() {
    const std::lock_guard<std::mutex> lock(breach_mutex());
    auto out = std::move(breach());
    breach().reset();
    return out;
  }
  /// Kept until release_retired(), which a trial calls once its threads and pool are idle.
  static void retire(std::shared_ptr<void> state) {
    const std::lock_guard<std::mutex> lock(retired_mutex());
    retired().push_back(std::move(state));
  }
  /// Set by the stress cell for its trials (in ns); 0 outside stress mode.
  static std::uint64_t settle_delay() { return settle_delay_ns().load(std::memory_order_relaxed); }
  static std::uint64_t victim_wait_bound() {
    return victim_wait_bound_ns().load(std::memory_order_relaxed);
  }
  static std::atomic<std::uint64_t>& settle_delay_ns() {
    static std::atomic<std::uint64_t> ns{0};
    return ns;
  }
  static std::atomic<std::uint64_t>& victim_wait_bound_ns() {
    static std::atomic<std::uint64_t> ns{0};
    return ns;
  }
  static void release_retired() {
    std::vector<std::shared_ptr<void>> gone;
    {
      const std::lock_guard<std::mutex> lock(retired_mutex());
      gone.swap(retired());
    }
  }

 private:
  static std::mutex& breach_mutex() {
    static std::mutex m;
    return m;
  }
  static std::optional<std::vector<real_stress::ThreadOps>>& breach() {
    static std::optional<std::vector<real_stress::ThreadOps>> ops;
    return ops;
  }
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
