#include "schedules/relacy_strategies.hpp"

#include <array>
#include <charconv>

namespace syncstress {
namespace {

constexpr std::array<StrategyParamInfo, 1> kBoundParams{{
    {"bound", "1", "preemptions per execution the context-bound search explores (1..8)"},
}};

constexpr std::array<StrategyInfo, 3> kCatalog{{
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

std::span<const StrategyInfo> relacy_strategy_catalog() { return kCatalog; }

bool is_relacy_strategy(std::string_view name) {
  for (const auto& info : kCatalog) {
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
  search.scheduler = std::string(name.substr(std::string_view("relacy-").size()));
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

std::string describe(const RelacySearch& search) {
  std::string out = "relacy-" + search.scheduler;
  if (search.scheduler == "bound") out += ":bound=" + std::to_string(search.context_bound);
  return out;
}

std::string relacy_schedule_string(const std::string& scheduler, const std::string& state) {
  std::string out(kPrefix);
  out += scheduler;
  out += '.';
  for (char c : state) out += c == ' ' ? '_' : c;
  // A trailing separator is part of Relacy's state ("7 " for the random scheduler) but reads
  // as a typo in a schedule string; parse puts it back.
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

bool is_relacy_schedule_string(std::string_view text) { return text.starts_with(kPrefix); }

RelacySchedule parse_relacy_schedule_string(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return StrategyError("'" + std::string(text) + "' is not a Relacy schedule string (" + why +
                         "); copy the \"schedule\" of a violation from the report");
  };
  if (!is_relacy_schedule_string(text)) throw bad("it does not start with rl1.");
  text.remove_prefix(kPrefix.size());
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) throw bad("no scheduler name");
  std::string scheduler(text.substr(0, dot));
  if (scheduler != "random" && scheduler != "bound" && scheduler != "full") {
    throw bad("unknown scheduler '" + scheduler + "'");
  }
  std::string state;
  for (char c : text.substr(dot + 1)) {
    if (c == '_') {
      state += ' ';
    } else if ((c >= '0' && c <= '9') || c == '-') {
      state += c;
    } else {
      throw bad(std::string("unexpected character '") + c + "'");
    }
  }
  if (state.empty() || state.front() < '0' || state.front() > '9') throw bad("no iteration");
  return {scheduler, state + ' '};
}

}  // namespace syncstress
