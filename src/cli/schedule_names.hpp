// The strategy names `--schedule` accepts, from the schedules layer.
#pragma once

#include <string>
#include <vector>

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

/// Throws UsageError unless `schedule` ("pct" or "pct:d=3,k=400") names a strategy the
/// factory can build with those parameters; the message names --schedule and the choices.
void require_valid_schedule(const std::string& schedule);

}  // namespace syncstress::cli
