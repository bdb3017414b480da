#include "scenarios/runtime_options.hpp"

#include <cstdint>

namespace syncstress::scenarios {

sim::Options runtime_options(const Params& p, bool trace) {
  sim::Options o;
  o.max_steps = static_cast<std::uint64_t>(p.integer("max_steps"));
  o.spurious_wakeups = p.boolean("spurious_wakeups");
  o.spurious_cas_failures = p.boolean("spurious_cas_failures");
  o.delay_posted_work = p.boolean("delay_posted_work");
  o.pool_workers = static_cast<unsigned>(p.integer("pool_workers"));
  o.record_trace = trace;
  return o;
}

std::vector<ParamSpec> sim_param_specs(Family family) {
  auto specs = family_param_specs(family);
  for (const auto& s : runtime_param_specs()) specs.push_back(s);
  return specs;
}

}  // namespace syncstress::scenarios
