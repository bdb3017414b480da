// The strategy names `--schedule` accepts, from the schedules layer.
#pragma once

#include <string>
#include <vector>

namespace syncstress::cli {

struct ScheduleName {
  std::string name;
  std::string description;
};

/// Every strategy the schedules factory can build, in its order.
std::vector<ScheduleName> schedule_names();

}  // namespace syncstress::cli
