// The strategies `--schedule` accepts, from the schedules layer: listed for `list schedules`,
// and the flag checked and parsed once into a StrategySpec.
#pragma once

#include <string>
#include <vector>

#include "schedules/strategy_spec.hpp"

namespace syncstress::cli {

struct ScheduleParameter {
  std::string name;
  std::string default_value;
  std::string description;
};

struct ScheduleName {
  std::string name;
  std::string description;
  std::vector<ScheduleParameter> parameters;
};

/// Every strategy the schedules factory can build, in its order.
std::vector<ScheduleName> schedule_names();

/// `schedule` ("pct" or "pct:d=3,k=400") parsed into the strategy it names. Throws UsageError
/// naming --schedule and the choices (with the nearest name) when it names none, or the
/// parameter that is wrong.
StrategySpec parse_schedule_flag(const std::string& schedule);

}  // namespace syncstress::cli
