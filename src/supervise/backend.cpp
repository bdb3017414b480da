#include "supervise/backend.hpp"

#include <variant>

#include "supervise/relacy_backend.hpp"
#include "supervise/sim_backend.hpp"

namespace syncstress::supervise {
namespace {

const SimBackend kSim;
const RelacyBackend kRelacy;

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
  return std::visit(Overloaded{[](const SimStrategySpec&) -> const Backend& { return kSim; },
                               [](const RelacySearch&) -> const Backend& { return kRelacy; }},
                    strategy);
}

const Backend& backend_for(const RecordedSchedule& schedule) {
  return std::visit(Overloaded{[](const Schedule&) -> const Backend& { return kSim; },
                               [](const RelacySchedule&) -> const Backend& { return kRelacy; }},
                    schedule);
}

}  // namespace syncstress::supervise
