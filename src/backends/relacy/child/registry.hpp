// The registry of syncstress-relacy: for each primitive, its kind and the scenario families'
// bodies bound on its Relacy instantiation (scenarios/bind_body.hpp, the same family templates
// the sim cells bind on Sim), and the search that runs one of them.
//
// A body runs as the test's one static thread; the actors it starts are Relacy dynamic threads
// (Relacy::thread), as are the pool's workers. So Relacy's machinery is instantiated for two
// tests only, one per dynamic-thread budget (backends/relacy/child/search.cpp), and the bodies of
// each kind compile in a translation unit of their own (bodies.cpp, once per kind), side by side.
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
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/relacy/child/history_text.hpp"
#include "primitives/all.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/family.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/params.hpp"
#include "schedules/relacy_strategies.hpp"
#include "util/usage_error.hpp"
// Last: it includes platform/relacy.hpp (see there).
#include "backends/relacy/child/on_relacy.hpp"
// After it: it names Relacy's types.
#include "backends/relacy/child/tree_guard.hpp"

namespace syncstress::relacy_main {

using json = nlohmann::json;
using scenarios::Body;
using scenarios::Family;
using scenarios::Params;

/// One search, as the command line asks for it.
struct Search {
  RelacyScheduler scheduler = RelacyScheduler::random;
  rl::scheduler_type_e type = rl::sched_random;  ///< Relacy's name for `scheduler`
  unsigned context_bound = 1;
  std::uint64_t iterations = 1000;
  std::uint64_t start = 0;
  std::string state;                   ///< replay: the state to re-run (check_relacy_state'd)
  std::uint64_t replay_iteration = 0;  ///< replay: the iteration `state` names (from 1)
  /// No iteration begins after it (--time-budget, counted from the program's start).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
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

/// Whether `line` is an atomic operation or a fence of the primitive under test: not of the
/// harness (scenarios/, in the source tree or an installed include/syncstress/) nor of Relacy.
inline bool primitive_operation(const HistoryLine& line) {
  const bool atomic =
      line.what.find("order=") != std::string::npos || line.what.find("fence") != std::string::npos;
  const bool harness = line.where.rfind("scenarios/", 0) == 0 ||
                       line.where.find("/syncstress/scenarios/") != std::string::npos;
  const bool relacy = line.where.find("/relacy/") != std::string::npos;
  return atomic && !harness && !relacy && !line.where.empty();
}

/// "atomic store (relaxed) at include/my/spin_lock.hpp(61)": a history line's operation, its
/// order, and where it ran.
inline std::string operation_at(const HistoryLine& line) {
  // The operation's words, without the values Relacy prints among them ("orig=0").
  std::string op;
  std::istringstream words(line.what.substr(0, line.what.find(',')));
  for (std::string word; words >> word;) {
    if (word.find('=') == std::string::npos) op += (op.empty() ? "" : " ") + word;
  }
  const auto order = line.what.find("order=");
  if (order != std::string::npos) {
    const auto from = order + 6;
    op += " (" + line.what.substr(from, line.what.find(',', from) - from) + ")";
  }
  return op + " at " + line.where;
}

/// "the primitive's atomic store (relaxed) at include/my/spin_lock.hpp(61) on thread 3 and acquire
/// fence at include/my/spin_lock.hpp(38) on thread 4 order nothing between the store at
/// scenarios/scenario_context.hpp(61) on thread 3 and a store at
/// scenarios/scenario_context.hpp(61) on thread 4": the primitive's operations that were meant
/// to order the two accesses first (the earlier thread's first after its access, the later
/// thread's last before its own), then the latest access to the variable by another thread and
/// the access that tripped the detector (the line before the report). Without such operations:
/// "a store at ... on thread 4 is not ordered after the store at ... on thread 3".
inline std::string describe_race(const std::vector<std::string>& history) {
  if (history.size() < 2) return "two unordered accesses, one a write";
  const std::size_t now_at = history.size() - 2;
  const HistoryLine now = parse_history_line(history[now_at]);
  const std::string now_access =
      now.what.substr(0, now.what.find(',')) + " at " + now.where + " on thread " + now.thread;
  if (now.address.empty()) return "a " + now_access;
  for (std::size_t i = now_at; i-- > 0;) {
    const HistoryLine before = parse_history_line(history[i]);
    if (before.address != now.address || before.thread == now.thread) continue;
    const std::string before_access = before.what.substr(0, before.what.find(',')) + " at " +
                                      before.where + " on thread " + before.thread;
    std::vector<std::string> between;
    for (std::size_t k = i + 1; k < now_at; ++k) {
      const HistoryLine line = parse_history_line(history[k]);
      if (line.thread == before.thread && primitive_operation(line)) {
        between.push_back(operation_at(line) + " on thread " + before.thread);
        break;
      }
    }
    for (std::size_t k = now_at; k-- > i + 1;) {
      const HistoryLine line = parse_history_line(history[k]);
      if (line.thread == now.thread && primitive_operation(line)) {
        between.push_back(operation_at(line) + " on thread " + now.thread);
        break;
      }
    }
    std::string text;
    if (between.empty()) {
      text = "a ";
      text += now_access;
      text += " is not ordered after the ";
      text += before_access;
      return text;
    }
    text = "the primitive's ";
    text += between[0];
    if (between.size() == 2) {
      text += " and ";
      text += between[1];
      text += " order";
    } else {
      text += " orders";
    }
    text += " nothing between the ";
    text += before_access;
    text += " and a ";
    text += now_access;
    return text;
  }
  return "a " + now_access;
}

/// Relacy's parameters for search `s`, its history and progress written to `log`.
inline rl::test_params test_params_for(const Search& s, std::ostream& log) {
  rl::test_params p;
  p.output_stream = &log;
  p.progress_stream = &log;
  p.progress_output_period = 1u << 30;
  p.search_type = s.type;
  p.context_bound = s.context_bound;
  p.execution_depth_limit = 20000;
  if (!s.state.empty()) {
    // Replay: start at the reported iteration and stop after it (the random scheduler stops
    // on reaching iteration_count), history on. Relacy divides by iteration_count to report
    // progress: check_relacy_state refused iteration 0, which no search reports.
    p.initial_state = s.state;
    p.iteration_count = s.replay_iteration;
    p.collect_history = true;
  } else {
    // Relacy numbers iterations from 1 and runs the random search's up to iteration_count
    // inclusive. (main.cpp keeps the last below 2^64.)
    const std::uint64_t first = s.start == 0 ? 1 : s.start;
    p.iteration_count = first + (s.iterations - 1);
    if (s.start != 0) p.initial_state = std::to_string(s.start);
  }
  return p;
}

/// What Relacy printed for a failing iteration: its first line is the result ("data race
/// detected", "user assert failed (text)", ...), then the execution history, one line per step.
struct PrintedFailure {
  std::string result;
  std::vector<std::string> history;  ///< without template arguments, addresses numbered
};

inline PrintedFailure read_printed_failure(const std::string& printed,
                                           const std::string& test_name) {
  PrintedFailure out;
  AddressNames names;
  std::istringstream in(printed);
  bool in_history = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("execution history", 0) == 0) {
      in_history = true;
      continue;
    }
    if (in_history) {
      if (line.empty()) break;
      out.history.push_back(names.rewrite(
          shorten_history_line(without_template_arguments(line), SYNCSTRESS_SOURCE_DIR "/")));
    } else if (out.result.empty() && !line.empty() && line.find("iteration") != 0 &&
               line != test_name) {
      out.result = line;
    }
  }
  return out;
}

/// The property a failed search broke and its message: a family's typed finding, or what
/// Relacy itself saw (a race, a deadlock, a livelock, the platform's own checks by their text:
/// "user assert failed (relacy_limit: ...)").
inline std::pair<std::string, std::string> broken_property(
    rl::test_result_e result, const PrintedFailure& printed,
    const scenarios::RelacyFindingRecord& finding) {
  std::string message = printed.result.empty() ? rl::test_result_str(result) : printed.result;
  switch (result) {
    case rl::test_result_data_race:
      return {"data_race", describe_race(printed.history)};
    case rl::test_result_deadlock:
      return {"no_lost_wakeups", message};
    case rl::test_result_livelock:
      return {"livelock", message};
    case rl::test_result_user_assert_failed: {
      if (finding.present) return {finding.property, finding.message};
      const auto open = message.find('(');
      if (open != std::string::npos && message.back() == ')') {
        message = message.substr(open + 1, message.size() - open - 2);
      }
      const auto colon = message.find(':');
      if (colon != std::string::npos) return {message.substr(0, colon), message};
      return {"memory_model", message};
    }
    default:
      return {"memory_model", message};
  }
}

/// Why a search that broke nothing ended: a limit it met, or its own end (a bound or full
/// search that covered its space, a random one that ran its iterations).
inline StopReason stop_reason_of(const Search& s, Relacy::SearchStop stop) {
  switch (stop) {
    case Relacy::SearchStop::deadline:
      return StopReason::time_budget;
    case Relacy::SearchStop::interrupt:
      return StopReason::interrupted;
    case Relacy::SearchStop::cap:
    case Relacy::SearchStop::none:
      break;
  }
  return s.type != rl::sched_random && stop == Relacy::SearchStop::none ? StopReason::exhausted
                                                                        : StopReason::executions;
}

/// Runs one search of test T: the cell as the typed codec carries it to the CLI (verdict, stop
/// reason, iterations run, Relacy's metrics, the violation with its schedule and history).
/// Long (73 lines) because Relacy's rl::simulate drives the iterations and calls back: the
/// settings, the run and the reading of its outcome share that one call's locals.
template <class T>
inline CellResult search(const Search& s) {
  HistoryBuffer history;
  std::ostream log(&history);
  rl::test_params p = test_params_for(s, log);
  // A replay runs one iteration; a bound or full search at most --iterations (Relacy stops the
  // random one itself).
  Relacy::SearchLimits limits;
  limits.replay = !s.state.empty();
  limits.cap = limits.replay ? 1 : s.type != rl::sched_random ? s.iterations : limits.cap;
  limits.deadline = s.deadline;
  Relacy::start_search(limits);
  auto& finding = scenarios::RelacyFindingRecord::current();
  finding = {};
  tree_divergence() = {};
  const auto started = std::chrono::steady_clock::now();
  rl::simulate<T>(p);
  CellResult out;
  out.schedule = std::string(to_string(s.scheduler));
  out.planned_executions = s.iterations;
  if (tree_divergence().diverged) {
    if (!s.state.empty()) {
      throw UsageError(
          "--state: the schedule does not fit this cell: " + tree_divergence().describe() +
          " (same scenario, primitive and --set values as the recorded run?)");
    }
    // A search that leaves the path it built itself: the test is not deterministic.
    out.verdict = Verdict::error;
    out.stopped_by = StopReason::error;
    out.error = "Relacy's search diverged from its own tree (" + tree_divergence().describe() +
                "): the test is not deterministic, a bug in syncstress";
    return out;
  }
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto stop = Relacy::search_stop();
  const bool stopped = p.test_result == rl::test_result_until_condition_hit;
  const bool failed = p.test_result != rl::test_result_success && !stopped;
  // The iteration a limit stopped never ran.
  out.executions = Relacy::iterations_begun() - (stop != Relacy::SearchStop::none ? 1 : 0);
  out.metrics = {{"relacy_scheduler", rl::format(s.type)},
                 {"execution_depth_limit", p.execution_depth_limit},
                 {"search_complete", false}};
  if (!failed) {
    out.verdict = Verdict::pass;
    out.stopped_by = stop_reason_of(s, stop);
    // A bound or full search that ended on its own covered every schedule in its bounds.
    out.metrics["search_complete"] = out.stopped_by == StopReason::exhausted;
    return out;
  }
  const PrintedFailure printed = read_printed_failure(history.str(), p.test_name.c_str());
  auto [property, message] = broken_property(p.test_result, printed, finding);
  if (property == "relacy_limit") {
    out.verdict = Verdict::error;
    out.stopped_by = StopReason::error;
    out.error = std::move(message);
    return out;
  }
  out.verdict = Verdict::fail;
  out.stopped_by = StopReason::violation;
  std::string state = s.state.empty() ? std::string(p.final_state.c_str()) : s.state;
  while (!state.empty() && state.back() == ' ') state.pop_back();
  Violation v;
  v.property = std::move(property);
  v.message = std::move(message);
  v.seed = s.start;
  v.schedule = relacy_schedule_string(s.scheduler, state);
  v.trace = printed.history;
  v.shrink = ShrinkNote{.skipped =
                            "a Relacy schedule is reported as Relacy found it (only sim "
                            "counterexamples are shrunk)"};
  out.violations.push_back(std::move(v));
  return out;
}

/// What the current search runs: set before rl::simulate, read by the test's thread.
struct CurrentCell {
  Body body;
  Params params;
};
inline CurrentCell& current_cell() {
  static CurrentCell cell;
  return cell;
}

/// The one test: thread 0 runs the cell's family body, which starts the actors as dynamic
/// threads. D is the iteration's budget of dynamic threads: actors, posts, thread-pool waits.
template <std::size_t D>
struct FamilyTest : rl::test_suite<FamilyTest<D>, 1> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Relacy::IterationScope scope{1, D};
  std::vector<std::shared_ptr<void>> retired;

  FamilyTest() { scenarios::HarnessHooks<Relacy>::retired() = &retired; }
  ~FamilyTest() { scenarios::HarnessHooks<Relacy>::retired() = nullptr; }

  void thread(unsigned) {
    scenarios::Observations obs;
    current_cell().body(obs, current_cell().params);
  }
};

/// Dynamic threads of a test: up to four actors (three waiters and an event's setter), and for
/// the pooled variants twelve more, as their posts and thread-pool waits start one each.
constexpr std::size_t kActorThreads = 4;
constexpr std::size_t kPoolThreads = 12;

/// Runs a search of `body` with kActorThreads dynamic threads, or with the pool's as well.
CellResult search_actors(const Search& s);
CellResult search_pooled(const Search& s);

/// The threads of the two tests, static and dynamic: what Relacy's schedulers are built for.
constexpr rl::thread_id_t kActorTestThreads = FamilyTest<kActorThreads>::params::thread_count;
constexpr rl::thread_id_t kPooledTestThreads =
    FamilyTest<kActorThreads + kPoolThreads>::params::thread_count;

/// Relacy's two tree searches, for a test of N threads.
template <rl::thread_id_t N>
using FullSearchTree = rl::tree_search_scheduler<rl::full_search_scheduler<N>,
                                                 rl::tree_search_scheduler_thread_info<N>, N>;
template <rl::thread_id_t N>
using BoundSearchTree = rl::tree_search_scheduler<rl::context_bound_scheduler<N>,
                                                  rl::context_bound_scheduler_thread_info<N>, N>;

/// One primitive as syncstress-relacy runs it.
struct Entry {
  Kind kind;
  Mode mode;
  std::uint32_t claims;
  bool pooled;
  /// The families it runs under on relacy, by name, with their bodies.
  std::map<std::string, Body> bodies;
  /// One of the tests' own primitives (`list --planted` shows them).
  bool planted = false;
};

/// The families run on relacy: safety for every kind but work queues, progress for those.
/// (The bodies of the others compile for Relacy too; their checks are sim's job today.) A tool's
/// own families run there too, on its primitives (extra/register_relacy.cpp).
template <Kind K>
constexpr Family kRelacyFamily = K == Kind::work_queue ? Family::progress : Family::safety;

constexpr bool uses_pool(std::string_view name) {
  return name.find("pooled") != std::string_view::npos || name == "async_unfair_mutex";
}

/// Adds the primitive to `out` if it is of kind `Only`: each kind binds its own.
template <Kind Only, template <class> class Prim, Kind K, Mode M>
void add(std::map<std::string, Entry>& out, std::string_view name, std::uint32_t claims) {
  if constexpr (K == Only) {
    Entry e{K, M, claims, uses_pool(name), {}, false};
    // Safety applies to every kind but work queues, progress to every kind: always bound.
    if (auto body = scenarios::bind_body<Relacy, Prim, K, M>(kRelacyFamily<K>, claims)) {
      e.bodies.emplace(std::string(to_string(kRelacyFamily<K>)), std::move(*body));
    }
    out.emplace(std::string(name), std::move(e));
  }
}

/// Adds every catalogued primitive of kind K (backends/relacy/child/bodies.cpp, compiled once per
/// kind).
template <Kind K>
void add_primitives(std::map<std::string, Entry>& out);
/// Adds the tests' own primitives (backends/relacy/child/planted.cpp).
void add_planted(std::map<std::string, Entry>& out);

/// Adds the extra primitives of a tool built with syncstress_add_tool
/// (backends/relacy/child/extra/register_relacy.cpp); main.cpp runs every one registered.
using ExtraAdder = void (*)(std::map<std::string, Entry>& out);
/// Registers `adder`, from a static initializer, before main. Returns true.
bool register_extra_adder(ExtraAdder adder);
/// Runs every registered adder (backends/relacy/child/main.cpp).
void add_extras(std::map<std::string, Entry>& out);

}  // namespace syncstress::relacy_main

// The members of Relacy's tree searches that tree_guard.hpp replaces, for the schedulers of the
// two tests (search.cpp defines them; they must be declared before rl::simulate is instantiated).
template <>
unsigned
syncstress::relacy_main::FullSearchTree<syncstress::relacy_main::kActorTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind);
template <>
unsigned
syncstress::relacy_main::FullSearchTree<syncstress::relacy_main::kPooledTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind);
template <>
unsigned
syncstress::relacy_main::BoundSearchTree<syncstress::relacy_main::kActorTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind);
template <>
unsigned
syncstress::relacy_main::BoundSearchTree<syncstress::relacy_main::kPooledTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind);
template <>
bool syncstress::relacy_main::FullSearchTree<
    syncstress::relacy_main::kActorTestThreads>::iteration_end_impl();
template <>
bool syncstress::relacy_main::FullSearchTree<
    syncstress::relacy_main::kPooledTestThreads>::iteration_end_impl();
template <>
bool syncstress::relacy_main::BoundSearchTree<
    syncstress::relacy_main::kActorTestThreads>::iteration_end_impl();
template <>
bool syncstress::relacy_main::BoundSearchTree<
    syncstress::relacy_main::kPooledTestThreads>::iteration_end_impl();
