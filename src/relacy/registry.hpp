// The registry of syncstress-relacy: for each primitive, its kind and how to run each family
// under a Relacy search, and the search itself (run a test, turn Relacy's answer into a cell).
//
// Relacy's per-test instantiations are heavy (a context per test, thread count and scheduler),
// so each kind registers its primitives from a translation unit of its own (kind_*.cpp) and the
// build compiles them side by side.
#pragma once

// Every standard and third-party header comes before platform/relacy.hpp (see there).
#include <cctype>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "platform/relacy.hpp"
#include "primitives/all.hpp"
#include "primitives/catalog.hpp"
#include "relacy/suites.hpp"

namespace syncstress::relacy_main {

namespace suites = syncstress::relacy_suites;
using json = nlohmann::json;
using suites::Params;

/// Bad input: exit 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One search, as the command line asks for it.
struct Search {
  rl::scheduler_type_e type = rl::sched_random;
  unsigned context_bound = 1;
  std::uint64_t iterations = 1000;
  std::uint64_t start = 0;
  std::string state;  ///< replay: the state to re-run
};

/// Where Relacy writes its history: a fixed buffer that never allocates. Relacy's global
/// operator new serves a test's allocations from its own heap while a search runs, so a growing
/// std::ostringstream would free blocks of one heap into the other. What does not fit is cut.
class HistoryBuffer : public std::streambuf {
 public:
  HistoryBuffer() : text_(std::make_unique<char[]>(kSize)) {
    setp(text_.get(), text_.get() + kSize);
  }
  std::string str() const { return std::string(pbase(), pptr()); }

 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }

 private:
  static constexpr std::size_t kSize = std::size_t{8} << 20;
  std::unique_ptr<char[]> text_;
};

/// A history line without the " [with P = ...]" blocks of GCC's function names, which can
/// run to a kilobyte per line and say nothing the file and line do not.
inline std::string without_template_arguments(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line.compare(i, 7, " [with ") == 0) {
      int depth = 0;
      for (; i < line.size(); ++i) {
        if (line[i] == '[') ++depth;
        if (line[i] == ']' && --depth == 0) break;
      }
      ++i;
      continue;
    }
    out += line[i++];
  }
  return out;
}

/// Replaces the addresses of a history (which change from run to run with ASLR) by object
/// numbers in order of first appearance, so that the same schedule gives the same trace text.
class AddressNames {
 public:
  std::string rewrite(const std::string& line) {
    std::string out;
    std::size_t i = 0;
    while (i < line.size()) {
      if (line.compare(i, 2, "0x") == 0) {
        std::size_t end = i + 2;
        while (end < line.size() && std::isxdigit(static_cast<unsigned char>(line[end]))) ++end;
        const std::string address = line.substr(i, end - i);
        auto [it, added] = names_.emplace(address, "obj" + std::to_string(names_.size() + 1));
        out += it->second;
        i = end;
        continue;
      }
      out += line[i++];
    }
    return out;
  }

 private:
  std::map<std::string, std::string> names_;
};

/// One line of Relacy's history: "[step] thread: <address> what..., in function, file(line)".
struct HistoryLine {
  std::string thread;
  std::string address;  ///< empty for lines about no object
  std::string what;     ///< the operation, up to ", in "
  std::string where;    ///< "file(line)", the source directory cut
};

inline HistoryLine parse_history_line(const std::string& line) {
  HistoryLine out;
  const auto close = line.find("] ");
  const auto colon = line.find(": ", close == std::string::npos ? 0 : close);
  if (close == std::string::npos || colon == std::string::npos) return out;
  out.thread = line.substr(close + 2, colon - close - 2);
  std::string rest = line.substr(colon + 2);
  if (!rest.empty() && rest[0] == '<') {
    const auto end = rest.find("> ");
    if (end != std::string::npos) {
      out.address = rest.substr(1, end - 1);
      rest = rest.substr(end + 2);
    }
  }
  const auto in = rest.find(", in ");
  out.what = rest.substr(0, in);
  const auto comma = rest.rfind(", ");
  if (comma != std::string::npos && comma + 2 < rest.size()) {
    out.where = rest.substr(comma + 2);
    const std::string source = SYNCSTRESS_SOURCE_DIR "/";
    if (out.where.rfind(source, 0) == 0) out.where = out.where.substr(source.size());
  }
  return out;
}

/// "a store at suites.hpp(172) on thread 0 races with a load at suites.hpp(180) on thread 1":
/// the access that tripped the detector (the line before the report) and the latest access to
/// the same variable by another thread.
inline std::string describe_race(const std::vector<std::string>& history) {
  if (history.size() < 2) return "two unordered accesses, one a write";
  const HistoryLine now = parse_history_line(history[history.size() - 2]);
  std::string text = "a " + now.what.substr(0, now.what.find(',')) + " at " + now.where +
                     " on thread " + now.thread;
  for (std::size_t i = history.size() - 2; i-- > 0;) {
    const HistoryLine before = parse_history_line(history[i]);
    if (!now.address.empty() && before.address == now.address && before.thread != now.thread) {
      return text + " is not ordered after the " + before.what.substr(0, before.what.find(',')) +
             " at " + before.where + " on thread " + before.thread;
    }
  }
  return text;
}

/// Runs one search of test T; fills `out` (the cell's JSON).
template <class T>
inline void search(const Search& s, json& out) {
  HistoryBuffer history;
  std::ostream log(&history);
  rl::test_params p;
  p.output_stream = &log;
  p.progress_stream = &log;
  p.progress_output_period = 1u << 30;
  p.search_type = s.type;
  p.context_bound = s.context_bound;
  p.execution_depth_limit = 20000;
  if (!s.state.empty()) {
    // Replay: start at the reported iteration and stop after it, history on.
    p.initial_state = s.state;
    p.iteration_count = std::stoull(s.state);
    p.collect_history = true;
  } else {
    p.iteration_count = s.start + s.iterations;
    if (s.start != 0) p.initial_state = std::to_string(s.start);
  }
  // A replay runs one iteration; a bound or full search at most --iterations.
  Relacy::cap_iterations(!s.state.empty()             ? 1
                         : s.type != rl::sched_random ? s.iterations
                                                      : ~std::uint64_t{0});
  const auto started = std::chrono::steady_clock::now();
  rl::simulate<T>(p);
  out["elapsed_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const bool cap_hit = p.test_result == rl::test_result_until_condition_hit;
  const bool failed = p.test_result != rl::test_result_success && !cap_hit;
  const std::uint64_t first = s.state.empty() ? s.start : std::stoull(s.state);
  out["executions"] = cap_hit                     ? s.iterations
                      : p.stop_iteration >= first ? p.stop_iteration - first + (failed ? 1 : 0)
                                                  : 0;
  out["metrics"] = {{"relacy_scheduler", rl::format(s.type)},
                    {"execution_depth_limit", p.execution_depth_limit},
                    {"search_complete", false}};
  if (!failed) {
    out["verdict"] = "pass";
    out["violations"] = json::array();
    // A bound or full search that ended before its cap covered every schedule in its bounds.
    out["metrics"]["search_complete"] = s.type != rl::sched_random && !cap_hit;
    return;
  }
  // The history Relacy printed for the failing iteration: its first line is the result
  // ("data race detected", "user assert failed (text)", ...), then the execution history.
  std::vector<std::string> lines;
  AddressNames names;
  std::string line;
  std::istringstream in(history.str());
  std::string result;
  bool in_history = false;
  while (std::getline(in, line)) {
    if (line.rfind("execution history", 0) == 0) {
      in_history = true;
      continue;
    }
    if (in_history) {
      if (line.empty()) break;
      lines.push_back(names.rewrite(without_template_arguments(line)));
    } else if (result.empty() && !line.empty() && line.find("iteration") != 0 &&
               line != p.test_name.c_str()) {
      result = line;
    }
  }
  std::string property = "memory_model";
  std::string message = result.empty() ? rl::test_result_str(p.test_result) : result;
  switch (p.test_result) {
    case rl::test_result_data_race:
      property = "data_race";
      message = describe_race(lines);
      break;
    case rl::test_result_deadlock:
      property = "no_lost_wakeups";
      break;
    case rl::test_result_livelock:
      property = "livelock";
      break;
    case rl::test_result_user_assert_failed: {
      // "user assert failed (mutual_exclusion: ...)": the check's own property and text.
      const auto open = message.find('(');
      if (open != std::string::npos && message.back() == ')') {
        message = message.substr(open + 1, message.size() - open - 2);
      }
      const auto colon = message.find(':');
      if (colon != std::string::npos) property = message.substr(0, colon);
      break;
    }
    default:
      break;
  }
  if (property == "relacy_limit") {
    out["verdict"] = "error";
    out["error"] = message;
    out["violations"] = json::array();
    return;
  }
  out["verdict"] = "fail";
  std::string state = s.state.empty() ? std::string(p.final_state.c_str()) : s.state;
  while (!state.empty() && state.back() == ' ') state.pop_back();
  out["violations"] = json::array(
      {json{{"property", property}, {"message", message}, {"schedule", state}, {"trace", lines}}});
}

/// How one (primitive, family) runs: chooses the thread count from the parameters.
using Runner = std::function<void(const Search&, json&)>;

struct Entry {
  Kind kind;
  std::vector<std::string> families;
  std::map<std::string, Runner> runners;
};

/// Dynamic threads a test may start: the pooled variants post every resumption to a fresh
/// modelled thread, async_unfair_mutex registers a thread-pool wait per lock.
constexpr std::size_t kPoolThreads = 12;

template <template <template <class> class, Mode, std::size_t, std::size_t> class Suite,
          template <class> class Prim, Mode M, std::size_t D>
Runner by_threads(int Params::*count, int extra) {
  return [count, extra](const Search& s, json& out) {
    switch (suites::params().*count + extra) {
      case 2:
        search<Suite<Prim, M, 2, D>>(s, out);
        break;
      case 3:
        search<Suite<Prim, M, 3, D>>(s, out);
        break;
      default:
        throw UsageError("thread count out of range");
    }
  };
}

template <template <class> class Prim, Kind K, Mode M, std::size_t D>
Entry make_entry() {
  Entry e{K, {}, {}};
  if constexpr (K == Kind::mutex) {
    e.runners["safety"] = by_threads<suites::MutexSafety, Prim, M, D>(&Params::actors, 0);
  } else if constexpr (K == Kind::shared_mutex) {
    e.runners["safety"] = by_threads<suites::SharedMutexSafety, Prim, M, D>(&Params::actors, 0);
  } else if constexpr (K == Kind::semaphore) {
    e.runners["safety"] = by_threads<suites::SemaphoreSafety, Prim, M, D>(&Params::actors, 0);
  } else if constexpr (K == Kind::event) {
    e.runners["safety"] = by_threads<suites::EventSafety, Prim, M, D>(&Params::actors, 0);
  } else {
    e.runners["progress"] =
        by_threads<suites::WorkQueueProgress, Prim, M, D>(&Params::producers, 1);
  }
  for (const auto& [family, runner] : e.runners) e.families.push_back(family);
  return e;
}

constexpr bool uses_pool(std::string_view name) {
  return name.find("pooled") != std::string_view::npos || name == "async_unfair_mutex";
}

/// Adds the primitive to `out` if it is of kind `Only`: each kind_*.cpp instantiates its own.
template <Kind Only, template <class> class Prim, Kind K, Mode M>
void add(std::map<std::string, Entry>& out, std::string_view name) {
  if constexpr (K == Only) {
    out.emplace(std::string(name), uses_pool(name) ? make_entry<Prim, K, M, kPoolThreads>()
                                                   : make_entry<Prim, K, M, 0>());
  }
}

void add_mutexes(std::map<std::string, Entry>& out);
void add_shared_mutexes(std::map<std::string, Entry>& out);
void add_semaphores(std::map<std::string, Entry>& out);
void add_events(std::map<std::string, Entry>& out);
void add_work_queues(std::map<std::string, Entry>& out);

}  // namespace syncstress::relacy_main
