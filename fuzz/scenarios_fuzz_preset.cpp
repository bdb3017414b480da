// libFuzzer target: a preset file (`syncstress run --preset FILE`, and every scenarios/*.json
// that `list` and `run --scenario` read), taken through what the CLI does with it before a cell
// runs: the shared JSON reader, the summary `list scenarios` shows, the full check, the preset's
// own strategy, and its parameters resolved against its family's.
//
// What must hold for every input: each step accepts it or throws UsageError (or, for the
// strategy, StrategyError, which the CLI turns into one). Any other exception, a crash or a
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/replay_command.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/strategy_factory.hpp"
#include "schedules/strategy_spec.hpp"
#include "util/json_input.hpp"
#include "util/usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace syncstress;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path file = "fuzz-preset.json";
  try {
    const auto doc = parse_json_input(text, file.string());
    scenarios::preset_summary(doc, file);
    const scenarios::Preset preset = scenarios::parse_preset(doc, file);
    try {
      describe(make_strategy_spec(preset.schedule.strategy, preset.schedule.strategy_params));
    } catch (const StrategyError&) {
    }
    scenarios::Params::resolve(scenarios::sim_param_specs(preset.family), preset.parameters, {},
                               file.string());
    scenarios::replay_command(preset, "ticket_mutex", {}, "rl1.random.1");
  } catch (const UsageError&) {
  }
  return 0;
}
