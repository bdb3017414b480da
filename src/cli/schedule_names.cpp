#include "cli/schedule_names.hpp"

#include "schedules/relacy_strategies.hpp"
#include "schedules/strategy_factory.hpp"
#include "util/concat.hpp"
#include "util/known_names.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {

std::vector<ScheduleName> schedule_names() {
  std::vector<ScheduleName> names;
  for (const auto& catalog : {strategy_catalog(), relacy_strategy_catalog()}) {
    for (const auto& info : catalog) {
      ScheduleName name{std::string(info.name), std::string(info.summary), {}};
      for (const auto& param : info.params) {
        name.parameters.push_back({std::string(param.name), std::string(param.default_value),
                                   std::string(param.summary)});
      }
      names.push_back(std::move(name));
    }
  }
  return names;
}

void require_valid_schedule(const std::string& schedule) {
  std::vector<std::string> names;
  for (const auto& s : schedule_names()) names.push_back(s.name);
  require_known_name("schedule", "--schedule", schedule.substr(0, schedule.find(':')), names);
  try {
    const auto [name, params] = parse_strategy_description(schedule);
    if (is_relacy_strategy(name)) {
      make_relacy_search(name, params);
    } else {
      // Building it once is the only complete check of its parameters; seed 0 is arbitrary.
      make_strategy_from_description(schedule, 0);
    }
  } catch (const StrategyError& e) {
    throw UsageError(concat("--schedule: ", e.what()));
  }
}

}  // namespace syncstress::cli
