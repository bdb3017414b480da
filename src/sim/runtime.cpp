// sim::Runtime (sim/runtime.hpp) over the engine, and what a caller may ask about the
// execution in progress.
#include "sim/runtime.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim {

using detail::Engine;
using detail::t_engine;

Runtime::Runtime(Options options) : engine_(std::make_unique<Engine>(options)) {}
Runtime::~Runtime() = default;
ExecutionResult Runtime::run(Strategy& strategy, const Execution& execution,
                             std::function<void()> main) {
  return engine_->run(strategy, execution, std::move(main));
}
void Runtime::recycle(ExecutionResult&& result) { engine_->recycle(std::move(result)); }
const Options& Runtime::options() const { return engine_->options(); }

bool in_execution() { return t_engine != nullptr && t_engine->on_fiber(); }
ThreadId current_thread() { return t_engine ? t_engine->current_id() : 0; }
std::uint64_t current_step() { return t_engine ? t_engine->steps() : 0; }
void await_quiescence(std::source_location loc) {
  if (in_execution()) t_engine->await_quiescence(loc);
}
std::string trace_so_far() { return t_engine ? t_engine->partial_result().format_trace() : ""; }

}  // namespace syncstress::sim
