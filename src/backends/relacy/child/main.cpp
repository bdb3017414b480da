// syncstress-relacy: the primitives under Relacy's model of the C++ memory model.
//
// Relacy replaces malloc, operator new and assert for the program it is built into, so it
// lives in this executable of its own; the main CLI runs it as a child process
// (the Relacy backend) and merges its answer into the report. Three commands, each
// answering one JSON document on stdout:
//
//   list                          [{primitive, kind, families}] for every primitive it runs
//   cell   --family F --kind K --primitive P --search random|bound|full [--context-bound B]
//          [--iterations N] [--start K] [--time-budget S] [--set key=value]...
//                                 one cell, as scenarios/outcome_json.hpp writes a CellResult:
//                                 verdict, executions, stopped_by, metrics, violations (each
//                                 with its rl1. schedule and Relacy's history as its trace)
//   cell ... --check              checks the arguments as `cell` does, answers {}, runs nothing
//   replay (the cell's flags) --state STATE
//                                 re-runs the iteration a failing cell reported, with its
//                                 history, and answers in the same shape; a STATE that does not
//                                 fit the cell (schedules/relacy_strategies.hpp, tree_guard.hpp)
//                                 is bad input
//
// A violation's `schedule` is rl1.<search>.<Relacy's state string for the failing iteration>
// (schedules/relacy_strategies.hpp); Relacy re-runs a failing iteration with its history before it
// answers and stops if the re-run does not fail the same way, so every reported failure has been
// replayed once. Bad input: a message on stderr, exit 2, nothing on stdout.
//
// `executions` counts the iterations run; `stopped_by` says why the search ended: "executions"
// (the planned iterations ran), "exhausted" (a bound or full search covered its whole space),
// "violation", "time_budget" (no iteration begins after --time-budget seconds), "interrupted"
// (SIGINT or SIGTERM: the search ends as the next iteration begins and answers as usual, exit 0;
// a second signal kills the program), "error".

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <limits>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backends/relacy/child/registry.hpp"
#include "scenarios/outcome_json.hpp"
#include "schedules/relacy_strategies.hpp"
#include "util/concat.hpp"

namespace syncstress::relacy_main {

namespace {
std::vector<ExtraAdder>& extra_adders() {
  static std::vector<ExtraAdder> adders;
  return adders;
}
}  // namespace

bool register_extra_adder(ExtraAdder adder) {
  extra_adders().push_back(adder);
  return true;
}

void add_extras(std::map<std::string, Entry>& out) {
  for (const ExtraAdder adder : extra_adders()) adder(out);
}

namespace {

const std::map<std::string, Entry>& registry() {
  static const auto table = [] {
    std::map<std::string, Entry> out;
    add_primitives<Kind::mutex>(out);
    add_primitives<Kind::shared_mutex>(out);
    add_primitives<Kind::semaphore>(out);
    add_primitives<Kind::event>(out);
    add_primitives<Kind::work_queue>(out);
    add_planted(out);
    add_extras(out);
    return out;
  }();
  return table;
}

/// The ranges relacy takes, by family: its searches grow fast with threads and rounds, and the
/// dynamic-thread budget of its tests is fixed when they are compiled (registry.hpp). A tool's
/// own family takes its parameters in the ranges it gave them (keeping within the budget is its
/// author's part: docs/your-primitive.md).
struct Range {
  std::int64_t lo, hi;
};
std::map<std::string, Range> relacy_ranges(Family family) {
  if (scenarios::is_tool_family(family)) {
    std::map<std::string, Range> own;
    for (const auto& spec : scenarios::family_param_specs(family)) {
      own[spec.name] = spec.type == scenarios::ParamSpec::Type::boolean ? Range{0, 1}
                                                                        : Range{spec.min, spec.max};
    }
    return own;
  }
  static const std::map<std::string, Range> progress{{"producers", {1, 2}}, {"items", {1, 6}}};
  static const std::map<std::string, Range> safety{
      {"actors", {2, 3}}, {"rounds", {1, 4}}, {"writers", {0, 3}}, {"capacity", {1, 3}}};
  return family == Family::progress ? progress : safety;
}

/// The family's parameters from --set key=value: its defaults, the values given, checked
/// against what relacy takes.
Params parameters(Family family, const std::vector<std::string>& settings) {
  const auto ranges = relacy_ranges(family);
  std::map<std::string, std::string> overrides;
  for (const auto& setting : settings) {
    const auto eq = setting.find('=');
    const std::string key = setting.substr(0, eq);
    if (eq == std::string::npos || ranges.count(key) == 0) {
      std::string names;
      for (const auto& [name, range] : ranges) names += (names.empty() ? "" : ", ") + name;
      throw UsageError(concat("--set ", setting, ": the ", to_string(family),
                              " family on relacy takes key=value with key one of: ", names));
    }
    overrides[key] = setting.substr(eq + 1);
  }
  Params p = Params::resolve(scenarios::family_param_specs(family), json::object(), overrides,
                             "syncstress-relacy");
  for (const auto& [key, range] : ranges) {
    const auto value = p.integer(key);
    if (value < range.lo || value > range.hi) {
      throw UsageError(concat("--set ", key, "=", std::to_string(value), ": ", key,
                              " must be an integer from ", std::to_string(range.lo), " to ",
                              std::to_string(range.hi),
                              " on relacy (its thread budget is fixed when it is compiled)"));
    }
  }
  if (family == Family::safety && p.integer("writers") > p.integer("actors")) {
    throw UsageError("--set writers=" + std::to_string(p.integer("writers")) +
                     ": more writers than actors (" + std::to_string(p.integer("actors")) + ")");
  }
  return p;
}

std::vector<std::string> families_of(const Entry& entry) {
  std::vector<std::string> names;
  names.reserve(entry.bodies.size());
  for (const auto& [name, body] : entry.bodies) names.push_back(name);
  return names;
}

/// Sets the search's cell: the body `entry` runs under `family`, with its parameters.
void choose_cell(const std::string& primitive, const Entry& entry, const std::string& family,
                 const std::vector<std::string>& settings) {
  const auto body = entry.bodies.find(family);
  const auto chosen = scenarios::family_from_string(family);
  if (body == entry.bodies.end() || !chosen) {
    throw UsageError("--family " + family + ": " + primitive + " runs only under " +
                     families_of(entry).front() + " on relacy");
  }
  current_cell() = {body->second, parameters(*chosen, settings)};
}

/// SIGINT and SIGTERM end the search at its next iteration; the handler only sets a flag.
/// SA_RESETHAND: a second signal finds the default action and ends the program.
void on_stop_signal(int /*signal*/) { Relacy::request_stop(); }

void stop_on_signals() {
  struct sigaction action = {};
  action.sa_handler = &on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (const int number : {SIGINT, SIGTERM}) ::sigaction(number, &action, nullptr);
}

/// The command line, as parsed.
struct Options {
  bool with_planted = false;
  std::string family, kind, primitive, scheduler = "random", state;
  unsigned context_bound = 1;
  std::uint64_t iterations = 1000, start = 0;
  double time_budget = 0;
  std::vector<std::string> settings;
  bool check_only = false;
};

/// The three commands and their flags, writing into `o`.
struct Commands {
  CLI::App app{"syncstress-relacy: primitives under Relacy's model of the C++ memory model"};
  CLI::App* list = nullptr;
  CLI::App* cell = nullptr;
  CLI::App* replay = nullptr;

  explicit Commands(Options& o) {
    app.require_subcommand(1);
    list = app.add_subcommand("list", "what it runs, as JSON");
    list->add_flag("--planted", o.with_planted, "also the tests' own primitives");
    cell = app.add_subcommand("cell", "run one cell");
    add_cell_options(cell, o);
    // Any count the main CLI or a preset plans: the time budget bounds the search anyway.
    cell->add_option("--iterations", o.iterations, "iterations to run")
        ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()));
    cell->add_option("--start", o.start, "first iteration (random search)");
    cell->add_flag("--check", o.check_only, "check the arguments, answer {} and run nothing");
    cell->add_option("--time-budget", o.time_budget,
                     "seconds after which no iteration begins (default: none)")
        ->check(CLI::PositiveNumber);
    replay = app.add_subcommand("replay", "re-run a failing iteration");
    add_cell_options(replay, o);
    replay->add_option("--state", o.state, "the schedule a failing cell reported")->required();
  }

 private:
  static void add_cell_options(CLI::App* sub, Options& o) {
    sub->add_option("--family", o.family, "safety, progress, or one of the tool's own (`list`)")
        ->required();
    sub->add_option("--kind", o.kind, "the primitive's kind")->required();
    sub->add_option("--primitive", o.primitive, "a name from `list`")->required();
    sub->add_option("--search", o.scheduler, "random, bound or full")
        ->check(CLI::IsMember({"random", "bound", "full"}));
    sub->add_option("--context-bound", o.context_bound, "preemptions (bound search)")
        ->check(CLI::Range(1u, 8u));
    sub->add_option("--set", o.settings, "key=value, a family parameter");
  }
};

/// `list`: every primitive it runs, with its kind and families.
json list_answer(bool with_planted) {
  json rows = json::array();
  for (const auto& [name, entry] : registry()) {
    if (!with_planted && entry.planted) continue;
    rows.push_back({{"primitive", name},
                    {"kind", std::string(to_string(entry.kind))},
                    {"families", families_of(entry)}});
  }
  return rows;
}

/// The registered primitive `o` names, of the kind it says.
const Entry& chosen_primitive(const Options& o) {
  const auto it = registry().find(o.primitive);
  if (it == registry().end()) {
    throw UsageError("--primitive " + o.primitive + ": not a primitive (see `list`)");
  }
  if (to_string(it->second.kind) != o.kind) {
    throw UsageError("--kind " + o.kind + ": " + o.primitive + " is a " +
                     std::string(to_string(it->second.kind)));
  }
  return it->second;
}

/// The search `o` asks for; `began` is when the program started, which the time budget counts
/// from.
Search search_of(const Options& o, bool replay, std::chrono::steady_clock::time_point began) {
  Search s;
  // CLI::IsMember let only Relacy's three names through.
  s.scheduler = *parse_relacy_scheduler(o.scheduler);
  s.type = s.scheduler == RelacyScheduler::full    ? rl::sched_full
           : s.scheduler == RelacyScheduler::bound ? rl::sched_bound
                                                   : rl::sched_random;
  s.context_bound = o.context_bound;
  s.iterations = o.iterations;
  s.start = o.start;
  if (o.time_budget > 0) {
    // Beyond some centuries the deadline would overflow the clock: that is no deadline.
    const std::chrono::duration<double> budget(o.time_budget);
    if (budget < std::chrono::hours(24 * 365 * 100)) {
      s.deadline = began + std::chrono::duration_cast<std::chrono::nanoseconds>(budget);
    }
  }
  if (replay) {
    // One separator after each number, however many the caller left at the end.
    s.state = o.state.substr(0, o.state.find_last_not_of(' ') + 1) + " ";
    try {
      s.replay_iteration = check_relacy_state(s.scheduler, s.state);
    } catch (const StrategyError& e) {
      throw UsageError(concat("--state '", o.state, "': ", e.what()));
    }
  } else if (o.start != 0 && s.type != rl::sched_random) {
    throw UsageError("--start: only the random search starts at an iteration");
  } else if (o.start > std::numeric_limits<std::uint64_t>::max() - (o.iterations - 1)) {
    throw UsageError(
        concat("--start ", std::to_string(o.start),
               " (the seed of the random search): ", std::to_string(o.iterations),
               " iterations from there would pass iteration 2^64-1; start at ",
               std::to_string(std::numeric_limits<std::uint64_t>::max() - (o.iterations - 1)),
               " at most"));
  }
  return s;
}

int run(int argc, char** argv) {
  // The time budget counts from here: the parent's clock for the cell started a little earlier.
  const auto began = std::chrono::steady_clock::now();
  stop_on_signals();
  Options o;
  Commands commands(o);
  try {
    commands.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return commands.app.exit(e);
    std::cerr << "syncstress-relacy: " << e.what() << " (see --help)\n";
    return 2;
  }
  try {
    if (commands.list->parsed()) {
      std::cout << list_answer(o.with_planted).dump() << '\n';
      return 0;
    }
    const Entry& entry = chosen_primitive(o);
    choose_cell(o.primitive, entry, o.family, o.settings);
    const Search s = search_of(o, commands.replay->parsed(), began);
    if (o.check_only) {
      std::cout << json::object().dump() << '\n';
      return 0;
    }
    const CellResult out = entry.pooled ? search_pooled(s) : search_actors(s);
    std::cout << to_json(out).dump() << '\n';
    return 0;
  } catch (const UsageError& e) {
    std::cerr << "syncstress-relacy: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace
}  // namespace syncstress::relacy_main

// Relacy replaces the plain global operator new and delete (relacy/context.hpp) so that it can
// track every allocation of a test, but not the sized and nothrow forms that C++14 added. The
// library (std::string, std::vector...) deletes with the sized form, whose default calls free()
// directly: a block from Relacy's allocator would reach glibc's free. These send every other
// form to Relacy's.
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { ::operator delete[](p); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return ::operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return ::operator new[](n); }
void operator delete(void* p, const std::nothrow_t&) noexcept { ::operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { ::operator delete[](p); }

int main(int argc, char** argv) {
  try {
    return syncstress::relacy_main::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "syncstress-relacy: " << e.what() << '\n';
    return 3;
  }
}
