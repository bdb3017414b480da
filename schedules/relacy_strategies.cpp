#include "schedules/relacy_strategies.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <vector>

namespace syncstress {
namespace {

constexpr std::array<StrategyParamInfo, 1> kBoundParams{{
    {"bound", "1", "preemptions per execution the context-bound search explores (1..8)"},
}};

constexpr std::array<StrategyInfo, 3> kRelacyCatalog{{
    {"relacy-random",
     "Relacy's random scheduler, on its model of the C++ memory model (execution i is seeded "
     "with i; --seed is the first i)",
     {}},
    {"relacy-bound",
     "Relacy's context-bound search: every schedule with at most `bound` preemptions",
     kBoundParams},
    {"relacy-full", "Relacy's full search of every schedule (small configurations only)", {}},
}};

constexpr std::string_view kPrefix = "rl1.";

}  // namespace

std::span<const StrategyInfo> relacy_strategy_catalog() { return kRelacyCatalog; }

std::string_view to_string(RelacyScheduler scheduler) {
  switch (scheduler) {
    case RelacyScheduler::random:
      return "random";
    case RelacyScheduler::bound:
      return "bound";
    case RelacyScheduler::full:
      return "full";
  }
  return "random";
}

std::optional<RelacyScheduler> parse_relacy_scheduler(std::string_view name) {
  for (const auto s : {RelacyScheduler::random, RelacyScheduler::bound, RelacyScheduler::full}) {
    if (to_string(s) == name) return s;
  }
  return std::nullopt;
}

bool is_relacy_strategy(std::string_view name) {
  for (const auto& info : kRelacyCatalog) {
    if (info.name == name) return true;
  }
  return false;
}

RelacySearch make_relacy_search(std::string_view name, const StrategyParams& params) {
  if (!is_relacy_strategy(name)) {
    throw StrategyError("unknown Relacy strategy '" + std::string(name) +
                        "'; valid: relacy-random, relacy-bound, relacy-full");
  }
  RelacySearch search;
  search.scheduler = *parse_relacy_scheduler(name.substr(std::string_view("relacy-").size()));
  for (const auto& [key, value] : params) {
    if (name != "relacy-bound" || key != "bound") {
      throw StrategyError(std::string(name) + ": unknown parameter '" + key +
                          "'; valid: " + (name == "relacy-bound" ? "bound" : "none"));
    }
    std::uint64_t bound = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), bound);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || bound < 1 ||
        bound > 8) {
      throw StrategyError("relacy-bound: parameter bound='" + value +
                          "' must be a whole number from 1 to 8");
    }
    search.context_bound = bound;
  }
  return search;
}

std::string RelacySearch::describe() const {
  std::string out = "relacy-" + std::string(to_string(scheduler));
  if (scheduler == RelacyScheduler::bound) out += ":bound=" + std::to_string(context_bound);
  return out;
}

std::string relacy_schedule_string(RelacyScheduler scheduler, const std::string& state) {
  std::string out(kPrefix);
  out += to_string(scheduler);
  out += '.';
  for (char c : state) out += c == ' ' ? '_' : c;
  // A trailing separator is part of Relacy's state ("7 " for the random scheduler) but reads
  // as a typo in a schedule string; parse puts it back.
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

bool is_relacy_schedule_string(std::string_view text) { return text.starts_with(kPrefix); }

RelacySchedule parse_relacy_schedule_string(const std::string_view whole) {
  auto bad = [&](const std::string& why) {
    return StrategyError("'" + std::string(whole) + "' is not a Relacy schedule string (" + why +
                         "); copy the \"schedule\" of a violation from the report");
  };
  if (!is_relacy_schedule_string(whole)) throw bad("it does not start with rl1.");
  std::string_view text = whole.substr(kPrefix.size());
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) throw bad("no scheduler name");
  const auto scheduler = parse_relacy_scheduler(text.substr(0, dot));
  if (!scheduler) throw bad("unknown scheduler '" + std::string(text.substr(0, dot)) + "'");
  std::string state;
  for (char c : text.substr(dot + 1)) state += c == '_' ? ' ' : c;
  state += ' ';
  try {
    check_relacy_state(*scheduler, state);
  } catch (const StrategyError& e) {
    throw bad(e.what());
  }
  return {*scheduler, state};
}

// Long (63 lines): one check per field of Relacy's scheduler state, in the order Relacy reads it.
std::uint64_t check_relacy_state(RelacyScheduler scheduler, std::string_view state) {
  if (state.size() > kMaxRelacyState) {
    throw StrategyError("its state has " + std::to_string(state.size()) +
                        " characters, more than the " + std::to_string(kMaxRelacyState) +
                        " syncstress-relacy takes");
  }
  if (state.empty() || state.front() == ' ' || state.back() != ' ' ||
      state.find("  ") != std::string_view::npos ||
      state.find_first_not_of("0123456789 ") != std::string_view::npos) {
    throw StrategyError("a state is numbers, each followed by one separator");
  }
  std::vector<std::uint64_t> numbers;
  for (std::size_t start = 0; start < state.size();) {
    const std::size_t end = state.find(' ', start);
    const std::string_view digits = state.substr(start, end - start);
    std::uint64_t value = 0;
    const auto [stop, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || stop != digits.data() + digits.size() ||
        (digits.size() > 1 && digits.front() == '0')) {
      throw StrategyError("'" + std::string(digits) + "' is not a whole number below 2^64");
    }
    numbers.push_back(value);
    start = end + 1;
  }
  const std::uint64_t iteration = numbers.front();
  if (iteration == 0) {
    throw StrategyError("there is no iteration 0: Relacy numbers its iterations from 1");
  }
  if (scheduler == RelacyScheduler::random) {
    if (numbers.size() != 1) {
      throw StrategyError("the random scheduler's state is its iteration alone, not " +
                          std::to_string(numbers.size()) + " numbers");
    }
    return iteration;
  }
  // The search tree of the bound and full schedulers: n, then n nodes of three numbers.
  constexpr std::uint64_t kLargestSchedType = 4;  // rl::sched_type_user
  if (numbers.size() < 2 || (numbers.size() - 2) % 3 != 0 ||
      (numbers.size() - 2) / 3 != numbers[1]) {
    throw StrategyError("the " + std::string(to_string(scheduler)) +
                        " scheduler's state is the iteration, a node count n and n nodes of "
                        "three numbers each; this one has " +
                        std::to_string(numbers.size()) + " numbers");
  }
  for (std::size_t node = 0; node < numbers[1]; ++node) {
    const std::uint64_t count = numbers[2 + 3 * node];
    const std::uint64_t index = numbers[3 + 3 * node];
    const std::uint64_t kind = numbers[4 + 3 * node];
    const std::string where = "node " + std::to_string(node + 1) + " of its search tree";
    if (count == 0 || count > std::numeric_limits<std::uint32_t>::max()) {
      throw StrategyError(where + " has " + std::to_string(count) +
                          " options; Relacy's are 1 to 2^32-1");
    }
    if (index >= count) {
      throw StrategyError(where + " picks option " + std::to_string(index) + " of " +
                          std::to_string(count) + " (they are numbered from 0)");
    }
    if (kind > kLargestSchedType) {
      throw StrategyError(where + " is of kind " + std::to_string(kind) + "; Relacy's are 0 to 4");
    }
  }
  return iteration;
}

}  // namespace syncstress
