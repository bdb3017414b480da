#include "cli/schedule_names.hpp"

namespace syncstress::cli {

// The schedules factory has not landed yet; until it does no strategy can be named.
std::vector<ScheduleName> schedule_names() { return {}; }

}  // namespace syncstress::cli
