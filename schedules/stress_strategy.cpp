#include "schedules/stress_strategy.hpp"

#include <array>
#include <charconv>
#include <thread>

namespace syncstress {
namespace {

constexpr std::array<StrategyParamInfo, 8> kParams{{
    {"threads", "cores x 2",
     "actors per trial (2..64); more than the cores, so the kernel preempts"},
    {"noise", "low",
     "off, low or high: pause spins, sched_yield and short sleeps at operations and cell "
     "accesses"},
    {"faults", "on", "on or off: spurious wake-ups and weak-CAS failures where the family allows"},
    {"scale", "50",
     "the family's repeat counts (rounds, items, acquisitions) times this (1..1000)"},
    {"settle_ms", "20", "a thread waiting this long is surely queued (FIFO, bypass judgement)"},
    {"max_wait_ms", "2000", "one wait of a starvation victim longer than this fails the claim"},
    {"stall", "10", "seconds without a trial starting or ending before the cell is a hang"},
    {"history", "last",
     "last or ring: each thread's last operation, or its last 16, for crash and hang reports"},
}};

constexpr std::array<StrategyInfo, 1> kStressCatalog{{
    {"stress",
     "real OS threads on real cores, with seeded noise at every operation and cell access; "
     "measured in "
     "wall-clock time (not replayable step by step)",
     kParams},
}};

std::uint64_t whole_number(std::string_view key, const std::string& value, std::uint64_t low,
                           std::uint64_t high) {
  std::uint64_t out = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || out < low ||
      out > high) {
    throw StrategyError("stress: parameter " + std::string(key) + "='" + value +
                        "' must be a whole number from " + std::to_string(low) + " to " +
                        std::to_string(high));
  }
  return out;
}

bool on_off(std::string_view key, const std::string& value) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw StrategyError("stress: parameter " + std::string(key) + "='" + value +
                      "' must be on or off");
}

}  // namespace

std::string_view to_string(StressNoise noise) {
  switch (noise) {
    case StressNoise::off:
      return "off";
    case StressNoise::low:
      return "low";
    case StressNoise::high:
      return "high";
  }
  return "low";
}

std::span<const StrategyInfo> stress_strategy_catalog() { return kStressCatalog; }

bool is_stress_strategy(std::string_view name) { return name == "stress"; }

std::uint64_t default_stress_threads() {
  return std::max<std::uint64_t>(2, 2 * std::uint64_t{std::thread::hardware_concurrency()});
}

StressSearch make_stress_search(const StrategyParams& params) {
  StressSearch s;
  for (const auto& [key, value] : params) {
    if (key == "threads") {
      s.threads = whole_number(key, value, 2, 64);
    } else if (key == "noise") {
      if (value == "off") {
        s.noise = StressNoise::off;
      } else if (value == "low") {
        s.noise = StressNoise::low;
      } else if (value == "high") {
        s.noise = StressNoise::high;
      } else {
        throw StrategyError("stress: parameter noise='" + value + "' must be off, low or high");
      }
    } else if (key == "faults") {
      s.faults = on_off(key, value);
    } else if (key == "scale") {
      s.scale = whole_number(key, value, 1, 1000);
    } else if (key == "settle_ms") {
      s.settle_ms = whole_number(key, value, 0, 10'000);
    } else if (key == "max_wait_ms") {
      s.max_wait_ms = whole_number(key, value, 1, 3'600'000);
    } else if (key == "stall") {
      s.stall_seconds = whole_number(key, value, 1, 3600);
    } else if (key == "history") {
      if (value != "last" && value != "ring") {
        throw StrategyError("stress: parameter history='" + value + "' must be last or ring");
      }
      s.ring = value == "ring";
    } else {
      throw StrategyError(
          "stress: unknown parameter '" + key +
          "'; valid: threads, noise, faults, scale, settle_ms, max_wait_ms, stall, history");
    }
  }
  return s;
}

std::string StressSearch::describe(std::uint64_t resolved_threads) const {
  const StressSearch& s = *this;
  std::string out = "stress:threads=";
  const auto threads = s.threads != 0 ? s.threads : resolved_threads;
  out += threads != 0 ? std::to_string(threads) : std::string("auto");
  out += ",noise=";
  out += to_string(s.noise);
  out += s.faults ? ",faults=on" : ",faults=off";
  if (s.scale != StressSearch{}.scale) out += ",scale=" + std::to_string(s.scale);
  if (s.settle_ms != StressSearch{}.settle_ms) out += ",settle_ms=" + std::to_string(s.settle_ms);
  if (s.max_wait_ms != StressSearch{}.max_wait_ms) {
    out += ",max_wait_ms=" + std::to_string(s.max_wait_ms);
  }
  if (s.ring) out += ",history=ring";
  if (s.stall_seconds != StressSearch{}.stall_seconds) {
    out += ",stall=" + std::to_string(s.stall_seconds);
  }
  return out;
}

}  // namespace syncstress
