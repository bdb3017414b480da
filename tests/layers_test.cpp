// The layers form a DAG, and this test keeps them one: it reads every quoted #include of src/,
// scenarios/, schedules/, primitives/, tests/, fuzz/ and bench/ and checks it against the rule
// table below. Lowest layer first (docs/development.md, "Layout"):
//   L0 util; L1 schedules < sim < platform; L2 primitives (with the catalogue); L3 scenarios;
//   L4 supervise < backends < run, and report; L5 cli. Besides them: the syncstress-relacy
//   program (src/backends/relacy/child), tests, the fuzz targets, benchmarks.
// The table's unit tests give every rule an include that breaks it, so no rule is vacuous.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syncstress {
namespace layers_test {
namespace {

/// Where the build puts the include "syncstress/primitive_headers.hpp".
constexpr std::string_view kGeneratedPrimitiveList = "build/generated/syncstress/";

enum class Layer {
  util,
  schedules,
  sim,
  platform,
  primitives,
  scenarios,
  supervise,
  backends,
  run,
  report,
  cli,
  relacy_child,
  tests,
  fuzz,
  bench,
};

std::string name(Layer layer) {
  static const std::map<Layer, std::string> names = {
      {Layer::util, "util"},
      {Layer::schedules, "schedules"},
      {Layer::sim, "sim"},
      {Layer::platform, "platform"},
      {Layer::primitives, "primitives"},
      {Layer::scenarios, "scenarios"},
      {Layer::supervise, "supervise"},
      {Layer::backends, "backends"},
      {Layer::run, "run"},
      {Layer::report, "report"},
      {Layer::cli, "cli"},
      {Layer::relacy_child, "the syncstress-relacy program"},
      {Layer::tests, "tests"},
      {Layer::fuzz, "fuzz"},
      {Layer::bench, "bench"},
  };
  return names.at(layer);
}

/// Where each layer lives: a prefix of a repository path, the first that matches.
struct Place {
  std::string_view prefix;
  Layer layer;
};
constexpr Place kPlaces[] = {
    {"src/util/", Layer::util},
    {"schedules/", Layer::schedules},
    {"src/sim/", Layer::sim},
    {"src/platform/", Layer::platform},
    {"primitives/", Layer::primitives},
    // The list of primitives/*.hpp that CMake generates for primitives/all.hpp.
    {kGeneratedPrimitiveList, Layer::primitives},
    {"scenarios/", Layer::scenarios},
    {"src/supervise/", Layer::supervise},
    {"src/backends/relacy/child/", Layer::relacy_child},
    {"src/backends/", Layer::backends},
    {"src/run/", Layer::run},
    {"src/report/", Layer::report},
    {"src/cli/", Layer::cli},
    {"tests/", Layer::tests},
    {"fuzz/", Layer::fuzz},
    {"bench/", Layer::bench},
};

/// What each layer may include besides itself: only layers below it.
const std::map<Layer, std::set<Layer>>& rules() {
  using L = Layer;
  static const std::set<L> below_scenarios = {L::util, L::schedules, L::sim, L::platform,
                                              L::primitives};
  static const std::map<L, std::set<L>> table = [] {
    std::map<L, std::set<L>> t;
    t[L::util] = {};  // generic helpers: nothing of ours
    t[L::schedules] = {L::util};
    t[L::sim] = {L::util, L::schedules};  // the runtime knows strategies, not the Sim platform
    t[L::platform] = {L::util, L::schedules, L::sim};
    t[L::primitives] = {L::platform};  // and their own detail/
    t[L::scenarios] = below_scenarios;
    t[L::supervise] = below_scenarios;
    t[L::supervise].insert(L::scenarios);
    t[L::backends] = t[L::supervise];
    t[L::backends].insert(L::supervise);
    t[L::run] = t[L::backends];
    t[L::run].insert(L::backends);
    t[L::report] = t[L::supervise];  // never supervise, backends or run: a report is data
    t[L::cli] = t[L::run];
    t[L::cli].insert({L::run, L::report});
    // Relacy takes over operator new for its program: platform, primitives, scenarios, util,
    // and schedules (below platform) for the check of a Relacy state string.
    t[L::relacy_child] = {L::util, L::schedules, L::platform, L::primitives, L::scenarios};
    t[L::tests] = t[L::cli];
    t[L::tests].erase(L::cli);  // nothing outside the cli reaches cli
    t[L::fuzz] = t[L::tests];
    t[L::fuzz].erase(L::tests);
    t[L::bench] = t[L::backends];
    t[L::bench].insert(L::backends);
    for (auto& [layer, allowed] : t) allowed.insert(layer);
    return t;
  }();
  return table;
}

std::optional<Layer> layer_of_file(std::string_view path) {
  for (const auto& place : kPlaces) {
    if (path.starts_with(place.prefix)) return place.layer;
  }
  return std::nullopt;
}

/// What is wrong with `from_file` including `to_file` (repository paths); empty when the rules
/// allow it.
std::string check_include(std::string_view from_file, std::string_view to_file) {
  const auto from = layer_of_file(from_file);
  if (!from) return std::string(from_file) + " belongs to no layer: move it into one";
  const auto to = layer_of_file(to_file);
  if (!to) return std::string(to_file) + " belongs to no layer: move it into one";
  if (rules().at(*from).count(*to)) return "";
  std::string allowed;
  for (const Layer l : rules().at(*from)) allowed += (allowed.empty() ? "" : ", ") + name(l);
  return std::string(from_file) + " (" + name(*from) + ") includes " + std::string(to_file) + " (" +
         name(*to) + "); " + name(*from) + " may include only " + allowed;
}

TEST(LayersRules, EachRuleRefusesAnIncludeThatBreaksIt) {
  const std::vector<std::pair<const char*, const char*>> breaking = {
      // primitives reach only src/platform (and primitives/, their detail/ included)
      {"primitives/ticket_mutex.hpp", "scenarios/harness.hpp"},
      {"primitives/ticket_mutex.hpp", "src/sim/runtime.hpp"},
      {"primitives/ticket_mutex.hpp", "schedules/strategy.hpp"},
      {"primitives/ticket_mutex.hpp", "src/util/concat.hpp"},
      // the catalogue is the primitives' layer
      {"primitives/catalog.cpp", "scenarios/family.hpp"},
      // scenarios never reach supervise, backends, run, report or cli
      {"scenarios/resolved_cell.hpp", "src/supervise/watchdog.hpp"},
      {"scenarios/resolved_cell.cpp", "src/backends/bind.hpp"},
      {"scenarios/family.cpp", "src/backends/cell_loop.hpp"},
      {"scenarios/resolved_cell.cpp", "src/run/run_config.hpp"},
      {"scenarios/outcome.cpp", "src/report/report.hpp"},
      {"scenarios/preset.cpp", "src/cli/resolve.hpp"},
      {"scenarios/families/safety.hpp", "src/backends/relacy/child/registry.hpp"},
      // supervise never reaches backends, run, report or cli
      {"src/supervise/isolated.cpp", "src/backends/backend.hpp"},
      {"src/supervise/watchdog.cpp", "src/run/matrix.hpp"},
      {"src/supervise/isolated.cpp", "src/report/report.hpp"},
      {"src/supervise/program.cpp", "src/cli/commands.hpp"},
      // backends never reach run, report or cli
      {"src/backends/sim/cell.cpp", "src/run/run_config.hpp"},
      {"src/backends/stress/cell.cpp", "src/report/report.hpp"},
      {"src/backends/relacy/backend.cpp", "src/cli/resolve.hpp"},
      {"src/backends/extra/register_sim.cpp", "src/run/matrix.hpp"},
      // sim never reaches primitives, scenarios, or the platform built on it
      {"src/sim/fiber.cpp", "primitives/all.hpp"},
      {"src/sim/fiber.cpp", "scenarios/finding.hpp"},
      {"src/sim/fiber.cpp", "src/platform/sim.hpp"},
      // platform and schedules never reach primitives, scenarios, supervise, report or cli
      {"src/platform/real/real.cpp", "primitives/catalog.hpp"},
      {"src/platform/sim.hpp", "scenarios/harness.hpp"},
      {"src/platform/sim.hpp", "src/backends/backend.hpp"},
      {"src/platform/sim.hpp", "src/report/report.hpp"},
      {"src/platform/sim.hpp", "src/cli/commands.hpp"},
      {"schedules/pct_strategy.cpp", "src/sim/runtime.hpp"},
      {"schedules/pct_strategy.cpp", "src/platform/platform.hpp"},
      {"schedules/pct_strategy.cpp", "primitives/catalog.hpp"},
      // util includes nothing of ours
      {"src/util/lines.cpp", "schedules/schedule.hpp"},
      {"src/util/lines.cpp", "scenarios/outcome.hpp"},
      // report never reaches supervise, backends, run or cli: a report is data
      {"src/report/report.cpp", "src/supervise/isolated.hpp"},
      {"src/report/html.cpp", "src/backends/sim/replay.hpp"},
      {"src/report/report.cpp", "src/run/matrix.hpp"},
      {"src/report/report.cpp", "src/cli/commands.hpp"},
      // run never reaches report or cli
      {"src/run/matrix.cpp", "src/report/report.hpp"},
      {"src/run/matrix.cpp", "src/cli/resolve.hpp"},
      // syncstress-relacy never reaches cli, report, run, supervise or the CLI's backends
      {"src/backends/relacy/child/main.cpp", "src/cli/commands.hpp"},
      {"src/backends/relacy/child/main.cpp", "src/report/report.hpp"},
      {"src/backends/relacy/child/main.cpp", "src/run/matrix.hpp"},
      {"src/backends/relacy/child/main.cpp", "src/supervise/program.hpp"},
      {"src/backends/relacy/child/main.cpp", "src/backends/relacy/program.hpp"},
      // nothing outside the cli reaches cli
      {"tests/cli_list_test.cpp", "src/cli/commands.hpp"},
      {"bench/sim_step_bench.cpp", "src/cli/commands.hpp"},
      {"fuzz/report_fuzz_reader.cpp", "src/cli/commands.hpp"},
      {"fuzz/report_fuzz_reader.cpp", "tests/cli_harness.hpp"},
      {"bench/sim_step_bench.cpp", "src/report/report.hpp"},
      // files in no layer
      {"src/cli/app.cpp", "elsewhere/thing.hpp"},
      {"src/runner.hpp", "src/util/usage_error.hpp"},
  };
  for (const auto& [file, include] : breaking) {
    EXPECT_NE(check_include(file, include), "") << file << " -> " << include;
  }
}

TEST(LayersRules, IncludesOfTheSameLayerOrOfALowerOneAreAllowed) {
  const std::vector<std::pair<const char*, const char*>> fine = {
      {"primitives/shared_mutex_part8.hpp", "primitives/awaitable_library.hpp"},
      {"primitives/work_queue.hpp", "primitives/detail/intrusive_slist.hpp"},
      {"primitives/ticket_mutex.hpp", "src/platform/platform.hpp"},
      {"primitives/all.hpp", "build/generated/syncstress/primitive_headers.hpp"},
      {"src/platform/sim.hpp", "src/sim/runtime.hpp"},
      {"src/sim/runtime.hpp", "schedules/strategy.hpp"},
      {"src/backends/sim/cell.cpp", "schedules/strategy_spec.hpp"},
      {"src/backends/sim/bind.cpp", "primitives/all.hpp"},
      {"src/backends/backend.hpp", "scenarios/resolved_cell.hpp"},
      {"src/backends/sim/backend.cpp", "src/supervise/isolated.hpp"},
      {"src/run/matrix.cpp", "src/backends/backend.hpp"},
      {"src/backends/extra/register_sim.cpp", "src/backends/sim/on_sim.hpp"},
      {"primitives/catalog.cpp", "primitives/catalog.hpp"},
      {"src/report/report.cpp", "scenarios/outcome_json.hpp"},
      {"src/cli/run_command.cpp", "src/run/matrix.hpp"},
      {"src/cli/run_command.cpp", "src/report/report.hpp"},
      {"src/backends/relacy/child/registry.hpp", "src/backends/relacy/child/on_relacy.hpp"},
      {"src/backends/relacy/child/main.cpp", "src/backends/relacy/child/registry.hpp"},
      {"tests/sim_frames_test.cpp", "tests/sim_test_support.hpp"},
      {"tests/report_gate_test.cpp", "tests/cli_harness.hpp"},
      {"tests/run_matrix_test.cpp", "src/run/matrix.hpp"},
      {"fuzz/scenarios_fuzz_preset.cpp", "scenarios/preset.hpp"},
      {"src/backends/relacy/child/main.cpp", "schedules/relacy_strategies.hpp"},
  };
  for (const auto& [file, include] : fine) {
    EXPECT_EQ(check_include(file, include), "") << file << " -> " << include;
  }
}

/// One quoted include of the tree.
struct Include {
  std::string file;  ///< repository path of the includer
  std::string path;  ///< as written between the quotes
};

std::vector<Include> includes_of_the_tree(const std::filesystem::path& root) {
  static const std::regex kInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<Include> out;
  for (const char* dir :
       {"src", "scenarios", "schedules", "primitives", "tests", "fuzz", "bench"}) {
    if (!std::filesystem::is_directory(root / dir)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h")) continue;
      const auto file = std::filesystem::relative(entry.path(), root).generic_string();
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, kInclude)) out.push_back({file, m[1]});
      }
    }
  }
  return out;
}

/// The repository path of the file `include` names, as the compiler's quoted search finds it
/// (the includer's directory, then the root and src/, both include directories); the
/// generated list of primitives; nullopt for no file of the tree.
std::optional<std::string> resolve(const std::filesystem::path& root, const Include& include) {
  if (include.path == "syncstress/primitive_headers.hpp") {
    return std::string(kGeneratedPrimitiveList) + "primitive_headers.hpp";
  }
  const auto dir = std::filesystem::path(include.file).parent_path();
  for (const auto& candidate : {dir / include.path, std::filesystem::path(include.path),
                                std::filesystem::path("src") / include.path}) {
    if (std::filesystem::is_regular_file(root / candidate)) {
      return candidate.lexically_normal().generic_string();
    }
  }
  return std::nullopt;
}

TEST(LayersOfTheTree, EveryIncludeNamesAFileOfTheTree) {
  const std::filesystem::path root = SYNCSTRESS_SOURCE_DIR;
  for (const auto& include : includes_of_the_tree(root)) {
    EXPECT_TRUE(resolve(root, include))
        << include.file << " includes \"" << include.path << "\", which is no file of the tree";
  }
}

TEST(LayersOfTheTree, EveryIncludeKeepsToTheLayerRules) {
  const std::filesystem::path root = SYNCSTRESS_SOURCE_DIR;
  const auto includes = includes_of_the_tree(root);
  ASSERT_GT(includes.size(), 100u) << "the walk found almost nothing under " << root;
  for (const auto& include : includes) {
    const auto to = resolve(root, include);
    if (!to) continue;  // EveryIncludeNamesAFileOfTheTree says so
    EXPECT_EQ(check_include(include.file, *to), "") << "#include \"" << include.path << '"';
  }
}

}  // namespace
}  // namespace layers_test
}  // namespace syncstress
