#include "cli/schedule_names.hpp"

#include "util/concat.hpp"
#include "util/known_names.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {

std::vector<ScheduleName> schedule_names() {
  std::vector<ScheduleName> names;
  for (const auto& info : all_strategies()) {
    ScheduleName name{std::string(info.name), std::string(info.summary), {}};
    for (const auto& param : info.params) {
      name.parameters.push_back(
          {std::string(param.name), std::string(param.default_value), std::string(param.summary)});
    }
    names.push_back(std::move(name));
  }
  return names;
}

StrategySpec parse_schedule_flag(const std::string& schedule) {
  std::vector<std::string> names;
  for (const auto& s : schedule_names()) names.push_back(s.name);
  require_known_name("schedule", "--schedule", schedule.substr(0, schedule.find(':')), names);
  try {
    return parse_strategy_spec(schedule);
  } catch (const StrategyError& e) {
    throw UsageError(concat("--schedule: ", e.what()));
  }
}

}  // namespace syncstress::cli
