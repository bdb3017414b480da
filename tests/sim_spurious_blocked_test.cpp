// Spurious wake-ups while blocked (issue 16, item 6): with spurious wake-ups on, a thread blocked
// in wait_on_address or park may also be woken at any later scheduling point, a recorded choice
// (src/sim/engine.hpp). A waiter that checks its condition once is caught where the return at
// the call alone cannot catch it, a waiter that re-checks passes, a schedule with such a wake
// replays byte for byte, the reduced search reaches what the plain one does, and with spurious
// wake-ups off the searches are as they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/forwarding_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"

namespace syncstress {
namespace sim_spurious_blocked_test {
namespace {

using sim::Outcome;

sim::Options options(bool spurious, std::uint64_t max_steps = 100000) {
  sim::Options o;
  o.spurious_wakeups = spurious;
  o.max_steps = max_steps;
  return o;
}

// A mailbox: the writer rewrites the message in two stores (1 is half-written, 2 complete), then
// raises `ready` and wakes the reader. The reader waits for `ready` and reads the message; with
// `recheck` false it checks `ready` only before its one wait (an `if` instead of a `while`).
//
// A return at the call cannot expose the `if`: the reader then runs on and reads the old message
// (0) unless the writer is preempted between its stores and the reader preempted before its read,
// two preemptions. A wake while blocked needs none: the reader blocks, the writer runs, and the
// wake after the writer's first store hands the reader the half-written message.
void mailbox_on_address(bool recheck) {
  Sim::atomic<int> message{0};
  Sim::atomic<std::int32_t> ready{0};
  sim::set_name(&message, "message");
  sim::set_name(&ready, "ready");
  Sim::thread writer([&] {
    message.store(1);
    message.store(2);
    ready.store(1);
    Sim::wake_by_address_all(ready);
  });
  if (recheck) {
    while (ready.load() == 0) Sim::wait_on_address(ready, 0);
  } else if (ready.load() == 0) {
    Sim::wait_on_address(ready, 0);
  }
  Sim::check(message.load() != 1, "read a half-written message");
}

// The same mailbox with the reader parked (main's parker) and the writer unparking it.
void mailbox_on_parker(bool recheck) {
  Sim::atomic<int> message{0};
  Sim::atomic<int> ready{0};
  sim::set_name(&message, "message");
  sim::set_name(&ready, "ready");
  Sim::parker& reader = Sim::current_parker();
  Sim::thread writer([&] {
    message.store(1);
    message.store(2);
    ready.store(1);
    reader.unpark();
  });
  if (recheck) {
    while (ready.load() == 0) reader.park();
  } else if (ready.load() == 0) {
    reader.park();
  }
  Sim::check(message.load() != 1, "read a half-written message");
}

/// The reader's wait as traced when it blocks and when it returns spuriously.
struct Wait {
  std::string_view blocks;
  std::string_view spurious;
};
constexpr Wait kAddressWait{"wait_on_address ready [on 0, blocks]",
                            "wait_on_address ready [on 0, spurious]"};
constexpr Wait kPark{"park parker:t0 [blocks]", "park parker:t0 [spurious]"};

struct Search {
  std::uint64_t executions = 0;
  std::uint64_t pruned = 0;
  std::uint64_t completed = 0;
  std::uint64_t violations = 0;
  std::uint64_t step_bound = 0;
  std::uint64_t other = 0;
  /// Violations whose trace shows the reader's wait blocking and then returning spuriously.
  std::uint64_t violations_woken_while_blocked = 0;
  /// The fewest spurious returns of the reader's wait in an execution that reached the step
  /// bound.
  std::uint64_t fewest_spurious_at_step_bound = ~std::uint64_t{0};
};

// Whether `trace` has the wait blocking, then the same wait returning spuriously.
bool woken_while_blocked(const std::string& trace, const Wait& wait) {
  const auto blocks = trace.find(wait.blocks);
  return blocks != std::string::npos && trace.find(wait.spurious, blocks) != std::string::npos;
}

std::uint64_t count(const std::string& text, std::string_view what) {
  std::uint64_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Runs every execution `s` gives; `wait` is the reader's wait.
Search search(Strategy& s, const std::function<void()>& program, const sim::Options& o,
              const Wait& wait) {
  sim::Runtime runtime(o);
  Search out;
  while (const auto execution = s.new_execution()) {
    ++out.executions;
    const sim::ExecutionResult r = runtime.run(s, *execution, program);
    const std::string trace = r.format_trace();
    switch (r.outcome) {
      case Outcome::pruned:
        ++out.pruned;
        break;
      case Outcome::completed:
        ++out.completed;
        break;
      case Outcome::violation:
        ++out.violations;
        if (woken_while_blocked(trace, wait)) ++out.violations_woken_while_blocked;
        break;
      case Outcome::step_bound:
        ++out.step_bound;
        out.fewest_spurious_at_step_bound =
            std::min(out.fewest_spurious_at_step_bound, count(trace, wait.spurious));
        break;
      default:
        ADD_FAILURE() << r.message << "\n" << trace;
        ++out.other;
    }
  }
  return out;
}

// Under a preemption bound of 1 the return at the call cannot expose the `if` (it needs two
// preemptions, see mailbox_on_address). Measured before this change, the same search ran 7
// executions and found nothing; now it runs 16 and finds 2 violations, each one a wake while
// blocked.
TEST(SpuriousWakeWhileBlocked, IfWaiterOnAddressIsCaughtOnlyByAWakeWhileBlocked) {
  ExhaustiveStrategy bounded(1);
  const Search s = search(
      bounded, [] { mailbox_on_address(false); }, options(true), kAddressWait);
  EXPECT_TRUE(bounded.complete());
  EXPECT_GT(s.violations, 0u) << s.executions << " executions";
  // Every violation needs the wake while blocked: the executions in which every such wake was
  // declined are exactly those of the search without it, and none of them fails.
  EXPECT_EQ(s.violations_woken_while_blocked, s.violations);
  EXPECT_EQ(s.other, 0u);
}

// As above; before this change: 7 executions, nothing found; now 16 and 2 violations.
TEST(SpuriousWakeWhileBlocked, IfWaiterOnParkIsCaughtOnlyByAWakeWhileBlocked) {
  ExhaustiveStrategy bounded(1);
  const Search s = search(
      bounded, [] { mailbox_on_parker(false); }, options(true), kPark);
  EXPECT_TRUE(bounded.complete());
  EXPECT_GT(s.violations, 0u) << s.executions << " executions";
  EXPECT_EQ(s.violations_woken_while_blocked, s.violations);
  EXPECT_EQ(s.other, 0u);
}

// The re-checking reader under the same search. Spurious wake-ups can repeat forever (the reader
// spinning while the writer waits its turn), so the step bound is small, and some executions
// reach it: only ones with spurious returns (measured: 613 of 770 for either wait, none with fewer
// than 3), since without spurious wake-ups the same search never reaches it. The verdict counts a
// step bound only against a primitive that claims starvation freedom.
TEST(SpuriousWakeWhileBlocked, WaiterThatRechecksInALoopPassesTheExhaustiveSearch) {
  for (const bool park : {false, true}) {
    auto program = [park] { park ? mailbox_on_parker(true) : mailbox_on_address(true); };
    const Wait& wait = park ? kPark : kAddressWait;
    ExhaustiveStrategy bounded(1);
    const Search on = search(bounded, program, options(true, 20), wait);
    EXPECT_TRUE(bounded.complete());
    EXPECT_EQ(on.violations, 0u) << wait.blocks;
    EXPECT_EQ(on.other, 0u);
    EXPECT_GT(on.completed, 0u);
    EXPECT_GT(on.step_bound, 0u);
    EXPECT_GE(on.fewest_spurious_at_step_bound, 1u);
    ExhaustiveStrategy control(1);
    const Search off = search(control, program, options(false, 20), wait);
    EXPECT_EQ(off.step_bound, 0u);
    EXPECT_EQ(off.violations, 0u);
  }
}

TEST(SpuriousWakeWhileBlocked, AScheduleWithAWakeWhileBlockedReplaysToTheSameTraceTwice) {
  sim::Runtime runtime(options(true));
  auto program = [] { mailbox_on_address(false); };
  ExhaustiveStrategy bounded(1);
  RecordingStrategy recording(bounded);
  sim::ExecutionResult found;
  while (const auto execution = recording.new_execution()) {
    found = runtime.run(recording, *execution, program);
    if (found.outcome == Outcome::violation) break;
  }
  ASSERT_EQ(found.outcome, Outcome::violation);
  const std::string trace = found.format_trace();
  ASSERT_TRUE(woken_while_blocked(trace, kAddressWait)) << trace;
  const std::string text = encode(recording.schedule().value());
  for (int i = 0; i < 2; ++i) {
    auto replay = make_replay_strategy(decode(text));
    const auto execution = replay->new_execution();
    ASSERT_TRUE(execution);
    const sim::ExecutionResult again = runtime.run(*replay, *execution, program);
    EXPECT_NO_THROW(replay->finish());
    EXPECT_EQ(again.outcome, Outcome::violation);
    EXPECT_EQ(again.format_trace(), trace) << "replay " << i << " of " << text;
  }
}

// Two readers that check once wait on one word; the writer stores and wakes one of them. Each
// reader records what it saw, so the final states tell the wakes apart.
void two_readers_one_wake() {
  Sim::atomic<std::int32_t> word{0};
  int seen[2] = {-1, -1};
  auto reader = [&](int i) {
    if (word.load() == 0) Sim::wait_on_address(word, 0);
    seen[i] = word.load();
  };
  Sim::thread a([&] { reader(0); });
  Sim::thread b([&] { reader(1); });
  word.store(1);
  Sim::wake_by_address_single(word);
  a.join();
  b.join();
  Sim::check(seen[0] + seen[1] != 0, "both readers returned before the store");
}

// Each execution's end: outcome, property and message (a deadlock's picture included).
std::set<std::string> ends(Strategy& s, const std::function<void()>& program) {
  sim::Options o = options(true);
  o.record_trace = false;
  sim::Runtime runtime(o);
  std::set<std::string> out;
  while (const auto execution = s.new_execution()) {
    const sim::ExecutionResult r = runtime.run(s, *execution, program);
    if (r.outcome == Outcome::pruned) continue;
    out.insert(std::string(sim::to_string(r.outcome)) + " " + r.property + " " + r.message);
  }
  return out;
}

// The reduction is told a wake while blocked writes the wait list it takes the thread off: with
// that, it reaches every violation and deadlock the plain search reaches.
TEST(SpuriousWakeWhileBlocked, ReducedSearchReachesWhatThePlainSearchReaches) {
  const std::function<void()> programs[] = {[] { mailbox_on_address(false); },
                                            [] { mailbox_on_parker(false); }, two_readers_one_wake};
  for (const auto& program : programs) {
    ExhaustiveStrategy plain;
    DporStrategy reduced;
    const std::set<std::string> all = ends(plain, program);
    EXPECT_GT(all.size(), 1u);
    EXPECT_EQ(ends(reduced, program), all);
    EXPECT_LE(reduced.executions_explored(), plain.executions_explored());
  }
}

// Runs another strategy's executions under the reducing search's rules (Execution::reduced):
// a plain search so decorated walks every thread at every choice of the tree the reduced search
// reduces, the ends of waits among them.
class UnderReducedRules final : public ForwardingStrategy {
 public:
  using ForwardingStrategy::ForwardingStrategy;
  Execution begin_execution(Execution started) override {
    started.reduced = true;
    return started;
  }
};

// A writer stores 1, 2 and 3 into `message`, then raises `ready` and wakes the reader; the reader
// reads the message each time it finds `ready` down, then waits. What the reader read, in order,
// into `seen`: a wait that ends spuriously between two of the writer's stores shows as one more
// value read, and one that ends again after a store made since its return (which makes a
// spurious return new again: Engine::offers_spurious) as the same value read twice.
void reader_sees_stores(std::set<std::vector<int>>& seen) {
  Sim::atomic<int> message{0};
  Sim::atomic<std::int32_t> ready{0};
  std::vector<int> read;
  Sim::thread writer([&] {
    message.store(1);
    message.store(2);
    message.store(3);
    ready.store(1);
    Sim::wake_by_address_all(ready);
  });
  while (ready.load() == 0) {
    read.push_back(message.load());
    Sim::wait_on_address(ready, 0);
  }
  writer.join();
  seen.insert(read);
}

// The end of a wait is the waiting thread's own step in the reduced search's executions, which
// reads what the thread read before the wait: the search reaches every sequence of values the
// reader reads that the whole tree reaches, wherever the wait ends and however often.
TEST(SpuriousWakeWhileBlocked, ReducedSearchEndsAWaitWhereverTheWholeTreeDoes) {
  std::set<std::vector<int>> whole;
  std::set<std::vector<int>> reduced_seen;
  ExhaustiveStrategy plain;
  UnderReducedRules every_thread(plain);
  DporStrategy reduced;
  ends(every_thread, [&] { reader_sees_stores(whole); });
  ends(reduced, [&] { reader_sees_stores(reduced_seen); });
  ::testing::Test::RecordProperty("whole_tree_executions",
                                  std::to_string(plain.executions_explored()));
  ::testing::Test::RecordProperty("reduced_executions",
                                  std::to_string(reduced.executions_explored()));
  ::testing::Test::RecordProperty("reader_sequences", std::to_string(whole.size()));
  EXPECT_GT(whole.size(), 4u);
  EXPECT_EQ(reduced_seen, whole);
  EXPECT_LT(reduced.executions_explored(), plain.executions_explored());
}

// Blocking that may not end spuriously (mutex, event, join, atomic::wait): nothing is asked with
// spurious wake-ups on that is not asked with them off.
TEST(SpuriousWakeWhileBlocked, NoQuestionWhileNoThreadWaitsInWaitOnAddressOrPark) {
  auto program = [] {
    Sim::mutex m;
    Sim::manual_reset_event go;
    Sim::atomic<int> word{0};
    Sim::thread a([&] {
      go.wait();
      m.lock();
      word.store(1);
      word.notify_all();
      m.unlock();
    });
    Sim::thread b([&] {
      word.wait(0);
      m.lock();
      m.unlock();
    });
    m.lock();
    go.set();
    m.unlock();
    a.join();
    b.join();
  };
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::uint64_t asked[2] = {0, 0};
    std::string traces[2];
    for (const bool spurious : {false, true}) {
      sim::Runtime runtime(options(spurious));
      sim_test::SeededStrategy s(seed);
      const sim::ExecutionResult r = sim_test::run(runtime, s, program);
      ASSERT_EQ(r.outcome, Outcome::completed) << r.message;
      asked[spurious] = s.number_choices;
      traces[spurious] = r.format_trace();
    }
    EXPECT_EQ(asked[1], asked[0]) << "seed " << seed;
    EXPECT_EQ(traces[1], traces[0]) << "seed " << seed;
  }
}

// A small program whose threads block in wait_on_address and park. With spurious wake-ups off
// the plain search runs 27930 executions and the reduced one 12 (3 of them pruned): a waiting
// thread's end is asked of neither.
void waits_and_parks() {
  Sim::atomic<std::int32_t> word{0};
  Sim::atomic<int> flag{0};
  Sim::parker& main_parker = Sim::current_parker();
  Sim::thread waiter([&] {
    while (word.load() == 0) Sim::wait_on_address(word, 0);
  });
  Sim::thread waker([&] {
    word.store(1);
    Sim::wake_by_address_all(word);
    flag.store(1);
    main_parker.unpark();
  });
  while (flag.load() == 0) main_parker.park();
  waiter.join();
  waker.join();
}

TEST(SpuriousWakeWhileBlocked, SpuriousWakeupsOffLeaveTheExhaustiveSearchUnchanged) {
  ExhaustiveStrategy plain;
  const Search p = search(plain, waits_and_parks, options(false), kAddressWait);
  EXPECT_EQ(p.executions, 27930u);
  EXPECT_EQ(p.completed, 27930u);
  DporStrategy reduced;
  const Search r = search(reduced, waits_and_parks, options(false), kAddressWait);
  EXPECT_EQ(r.executions, 12u);
  EXPECT_EQ(r.pruned, 3u);
  EXPECT_EQ(r.completed, 9u);
}

TEST(SpuriousWakeWhileBlocked, EveryExecutionOfTheReducedSearchReplaysFromItsScheduleString) {
  // The reduced search offers a thread no second spurious return while nothing it read changed
  // (Execution::reduced): a replay of its schedule string follows the same rule, or it would ask
  // a question the search never asked.
  DporStrategy reduced;
  RecordingStrategy recorder(reduced);
  sim::Options o = options(true);
  o.record_trace = true;
  sim::Runtime runtime(o);
  sim::Runtime replayer(o);
  std::uint64_t replayed = 0;
  while (const auto execution = recorder.new_execution()) {
    const sim::ExecutionResult r = runtime.run(recorder, *execution, waits_and_parks);
    if (r.outcome == Outcome::pruned) continue;  // ended by the search, not by the program
    ReplayStrategy replay(decode(encode(recorder.schedule().value())));
    const auto again = replay.new_execution();
    ASSERT_TRUE(again.has_value());
    const sim::ExecutionResult r2 = replayer.run(replay, *again, waits_and_parks);
    ASSERT_EQ(r2.format_trace(), r.format_trace()) << "execution " << replayed + 1;
    ++replayed;
  }
  EXPECT_GT(replayed, 10u);
}

}  // namespace
}  // namespace sim_spurious_blocked_test
}  // namespace syncstress
