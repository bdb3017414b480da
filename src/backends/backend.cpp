#include "backends/backend.hpp"

#include <variant>

namespace syncstress::supervise {
namespace {

/// One callable from several lambdas, for std::visit.
/// A visitor that misses an alternative does not compile: a new backend cannot be forgotten.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

const Backend& backend_for(const StrategySpec& strategy) {
  return std::visit(
      Overloaded{[](const SimStrategySpec&) -> const Backend& { return sim_backend(); },
                 [](const RelacySearch&) -> const Backend& { return relacy_backend(); },
                 [](const StressSearch&) -> const Backend& { return stress_backend(); }},
      strategy);
}

const Backend& backend_for(const RecordedSchedule& schedule) {
  return std::visit(
      Overloaded{[](const Schedule&) -> const Backend& { return sim_backend(); },
                 [](const RelacySchedule&) -> const Backend& { return relacy_backend(); }},
      schedule);
}

}  // namespace syncstress::supervise
