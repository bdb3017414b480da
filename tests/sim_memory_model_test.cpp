// The C++ memory model on sim (memory=c11, src/sim/memory.hpp), by litmus tests searched
// exhaustively with the reduction: each test collects every outcome its program can reach and
// compares the set with what the C++ model allows (and, sequentially consistent, what SC
// allows). Then the data races on cells, a spin loop on a relaxed flag, the trace's stale
// reads, and a replay of a schedule recorded under the model.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace sim_memory_model_test {
namespace {

using S = Sim;
constexpr auto relaxed = std::memory_order_relaxed;
constexpr auto acquire = std::memory_order_acquire;
constexpr auto release = std::memory_order_release;
constexpr auto seq_cst = std::memory_order_seq_cst;

/// What an exhaustive search of a program reached.
struct Reached {
  std::set<std::string> outcomes;    // what the program wrote to `out`, per execution
  std::set<std::string> violations;  // property: message
  std::uint64_t executions = 0;
  bool complete = false;
};

/// Searches `program` (which writes its outcome to the string it is given) to the end, under
/// `memory`.
Reached search(MemoryModel memory, const std::function<void(std::string&)>& program) {
  sim::Options options;
  options.record_trace = false;
  sim::Runtime runtime(options);
  DporStrategy dpor;
  MemoryModelStrategy under(dpor, memory);
  Reached r;
  while (const auto execution = under.new_execution()) {
    std::string out;
    const auto result = runtime.run(under, *execution, [&] { program(out); });
    if (result.outcome == sim::Outcome::pruned) continue;
    ++r.executions;
    if (result.outcome == sim::Outcome::completed) {
      r.outcomes.insert(out);
    } else {
      r.violations.insert(result.property + ": " + result.message);
    }
    if (r.executions > 100000) return r;
  }
  r.complete = dpor.complete();
  return r;
}

std::string pair(std::int64_t a, std::int64_t b) {
  return std::to_string(a) + "," + std::to_string(b);
}

// Message passing: data (relaxed), then the flag with `store`; the reader loads the flag with
// `load`, then the data (relaxed). With `fences`, a release fence before the flag's store and an
// acquire fence after its load (`release_fence` false drops the first).
struct Fences {
  bool release_fence = false;
  bool acquire_fence = false;
};
void message_passing(std::string& out, std::memory_order store, std::memory_order load,
                     Fences fences = {}) {
  S::atomic<int> data{0}, flag{0};
  int seen_flag = 0, seen_data = 0;
  {
    S::thread writer([&] {
      data.store(1, relaxed);
      if (fences.release_fence) S::atomic_thread_fence(release);
      flag.store(1, store);
    });
    S::thread reader([&] {
      seen_flag = flag.load(load);
      if (fences.acquire_fence) S::atomic_thread_fence(acquire);
      seen_data = data.load(relaxed);
    });
  }
  out = pair(seen_flag, seen_data);
}

TEST(MemoryModel, MessagePassingWithRelaxedFlagCanReadStaleDataUnderC11Only) {
  const auto relaxed_mp = [](std::string& out) { message_passing(out, relaxed, relaxed); };
  const Reached weak = search(MemoryModel::c11, relaxed_mp);
  ASSERT_TRUE(weak.complete);
  EXPECT_EQ(weak.outcomes, (std::set<std::string>{"0,0", "0,1", "1,0", "1,1"}));
  const Reached sc = search(MemoryModel::sc, relaxed_mp);
  EXPECT_EQ(sc.outcomes, (std::set<std::string>{"0,0", "0,1", "1,1"}));
}

TEST(MemoryModel, MessagePassingWithReleaseAndAcquireNeverReadsStaleData) {
  const Reached r =
      search(MemoryModel::c11, [](std::string& out) { message_passing(out, release, acquire); });
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,0", "0,1", "1,1"}));
}

TEST(MemoryModel, FencesOrderRelaxedMessagePassing) {
  const auto fenced = [](bool release_fence) {
    return [release_fence](std::string& out) {
      message_passing(out, relaxed, relaxed, Fences{release_fence, true});
    };
  };
  EXPECT_EQ(search(MemoryModel::c11, fenced(true)).outcomes,
            (std::set<std::string>{"0,0", "0,1", "1,1"}));
  EXPECT_TRUE(search(MemoryModel::c11, fenced(false)).outcomes.contains("1,0"));
}

// Store buffering: each thread stores its flag with `store`, then loads the other's with `load`
// (with a seq_cst fence in between when `sc_fences`).
void store_buffering(std::string& out, std::memory_order store, std::memory_order load,
                     bool sc_fences) {
  S::atomic<int> x{0}, y{0};
  int r1 = -1, r2 = -1;
  {
    S::thread a([&] {
      x.store(1, store);
      if (sc_fences) S::atomic_thread_fence(seq_cst);
      r1 = y.load(load);
    });
    S::thread b([&] {
      y.store(1, store);
      if (sc_fences) S::atomic_thread_fence(seq_cst);
      r2 = x.load(load);
    });
  }
  out = pair(r1, r2);
}

TEST(MemoryModel, StoreBufferingBothZeroUnderRelaxedOrAcquireReleaseNotSeqCst) {
  const std::set<std::string> all{"0,0", "0,1", "1,0", "1,1"};
  const std::set<std::string> sc{"0,1", "1,0", "1,1"};
  const auto sb = [](std::memory_order store, std::memory_order load, bool sc_fences) {
    return search(MemoryModel::c11,
                  [=](std::string& out) { store_buffering(out, store, load, sc_fences); })
        .outcomes;
  };
  EXPECT_EQ(sb(relaxed, relaxed, false), all);
  EXPECT_EQ(sb(release, acquire, false), all);
  EXPECT_EQ(sb(seq_cst, seq_cst, false), sc);
  EXPECT_EQ(sb(relaxed, relaxed, true), sc);
}

TEST(MemoryModel, TwoReadsOfOneThreadNeverGoBackInModificationOrder) {
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> x{0};
    int a = -1, b = -1;
    {
      S::thread writer([&] {
        x.store(1, relaxed);
        x.store(2, relaxed);
      });
      S::thread reader([&] {
        a = x.load(relaxed);
        b = x.load(relaxed);
      });
    }
    out = pair(a, b);
  });
  ASSERT_TRUE(r.complete);
  // Every non-decreasing pair, and no other.
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,0", "0,1", "0,2", "1,1", "1,2", "2,2"}));
}

TEST(MemoryModel, LoadBufferingNeverReadsAStoreThatComesLaterInProgramOrder) {
  // LB: RC11 forbids r1 = r2 = 1 (po and rf would form a cycle); every other outcome is allowed.
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> x{0}, y{0};
    int r1 = -1, r2 = -1;
    {
      S::thread a([&] {
        r1 = x.load(relaxed);
        y.store(1, relaxed);
      });
      S::thread b([&] {
        r2 = y.load(relaxed);
        x.store(1, relaxed);
      });
    }
    out = pair(r1, r2);
  });
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,0", "0,1", "1,0"}));
}

// IRIW: two writers, two readers reading x then y and y then x. The outcome where the readers
// disagree on the order of the writes (1,0 and 1,0) is allowed with acquire loads and forbidden
// with seq_cst ones (RC11; Lahav et al. 2017, section 2).
std::set<std::string> iriw(std::memory_order store, std::memory_order load) {
  return search(MemoryModel::c11,
                [=](std::string& out) {
                  S::atomic<int> x{0}, y{0};
                  int a = -1, b = -1, c = -1, d = -1;
                  {
                    S::thread wx([&] { x.store(1, store); });
                    S::thread wy([&] { y.store(1, store); });
                    S::thread rxy([&] {
                      a = x.load(load);
                      b = y.load(load);
                    });
                    S::thread ryx([&] {
                      c = y.load(load);
                      d = x.load(load);
                    });
                  }
                  out = pair(a, b) + "," + pair(c, d);
                })
      .outcomes;
}

TEST(MemoryModel, IriwReadersDisagreeUnderAcquireReleaseNotUnderSeqCst) {
  EXPECT_TRUE(iriw(release, acquire).contains("1,0,1,0"));
  const auto sc = iriw(seq_cst, seq_cst);
  EXPECT_FALSE(sc.contains("1,0,1,0"));
  EXPECT_EQ(sc.size(), 15u);  // the 16 combinations but that one
}

TEST(MemoryModel, AThreadReadsItsOwnStoreOrANewerOne) {
  // CoWR: after its own store of 1, the thread reads 1 or the other thread's 2, never 0.
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> x{0};
    int seen = -1;
    {
      S::thread a([&] {
        x.store(1, relaxed);
        seen = x.load(relaxed);
      });
      S::thread b([&] { x.store(2, relaxed); });
    }
    out = std::to_string(seen);
  });
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"1", "2"}));
}

// 2+2W: each thread stores to x and y in opposite orders; the outcome is the final (x, y).
// x = 1 and y = 1 at the end needs each location's modification order against the order of
// the other's stores in program order. RC11 (Lahav et al. 2017) constrains each location's
// modification order by coherence alone unless the stores are seq_cst (psc then orders them):
// it allows that outcome with relaxed and release stores and forbids it with seq_cst ones, as
// GenMC's and herd's 2+2W tests expect.
void two_plus_two_writes(std::string& out, std::memory_order mo) {
  S::atomic<int> x{0}, y{0};
  {
    S::thread a([&] {
      x.store(1, mo);
      y.store(2, mo);
    });
    S::thread b([&] {
      y.store(1, mo);
      x.store(2, mo);
    });
  }
  out = pair(x.load(relaxed), y.load(relaxed));
}
std::set<std::string> two_plus_two_writes(MemoryModel memory, std::memory_order mo) {
  return search(memory, [=](std::string& out) { two_plus_two_writes(out, mo); }).outcomes;
}

TEST(MemoryModel, TwoPlusTwoWritesOrdersEachLocationAloneUnlessSeqCst) {
  const std::set<std::string> interleavings{"1,2", "2,1", "2,2"};
  std::set<std::string> weak = interleavings;
  weak.insert("1,1");
  EXPECT_EQ(two_plus_two_writes(MemoryModel::c11, relaxed), weak);
  EXPECT_EQ(two_plus_two_writes(MemoryModel::c11, release), weak);
  EXPECT_EQ(two_plus_two_writes(MemoryModel::c11, seq_cst), interleavings);
  EXPECT_EQ(two_plus_two_writes(MemoryModel::sc, relaxed), interleavings);
}

// A store placed before one already made: its value is not the atomic's, a later read of its
// own thread may read the newer one.
TEST(MemoryModel, AStorePlacedBeforeANewerOneLeavesTheNewerValue) {
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> x{0};
    int seen = -1;
    {
      S::thread a([&] { x.store(1, relaxed); });
      S::thread b([&] {
        x.store(2, relaxed);
        seen = x.load(relaxed);
      });
    }
    out = pair(seen, x.load(relaxed));
  });
  // b's load reads its own store or a newer one: with 1 after 2, it reads 2 or 1 (CoWR).
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"2,2", "1,1", "2,1"}));
}

TEST(MemoryModel, ARelaxedLoadAndAStoreItNeedNotReadRunOneExecutionPerStoreRead) {
  // Whichever thread the search starts with, the load reads the initial value or the store:
  // two classes, two executions (the load after the store reading the initial value is the
  // same class as the load before it).
  for (const bool reader_first : {false, true}) {
    const Reached r = search(MemoryModel::c11, [&](std::string& out) {
      S::atomic<int> x{0};
      int seen = -1;
      {
        auto reader = [&] { seen = x.load(relaxed); };
        auto writer = [&] { x.store(1, relaxed); };
        S::thread first(reader_first ? std::function<void()>(reader) : writer);
        S::thread second(reader_first ? std::function<void()>(writer) : reader);
      }
      out = std::to_string(seen);
    });
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.outcomes, (std::set<std::string>{"0", "1"})) << reader_first;
    EXPECT_EQ(r.executions, 2u) << reader_first;
  }
}

TEST(MemoryModel, AFailingCompareExchangeRunsOneExecutionPerStoreReadUnlessItCouldHaveSucceeded) {
  // Expecting 5, the compare-exchange fails on the initial 0 or the store of 1, whichever thread
  // the search starts with: two executions, as for a load. Expecting 0, it could succeed on the
  // initial value until the exchange has read it: the search still reaches its success.
  for (const bool reader_first : {false, true}) {
    for (const int expect : {5, 0}) {
      const Reached r = search(MemoryModel::c11, [&](std::string& out) {
        S::atomic<int> x{0};
        int seen = -1;
        bool swapped = false;
        {
          auto reader = [&] {
            int expected = expect;
            swapped = x.compare_exchange_strong(expected, 7, relaxed);
            seen = expected;
          };
          auto writer = [&] {
            if (expect == 5) {
              x.store(1, relaxed);
            } else {
              x.exchange(1, relaxed);
            }
          };
          S::thread first(reader_first ? std::function<void()>(reader) : writer);
          S::thread second(reader_first ? std::function<void()>(writer) : reader);
        }
        out = std::to_string(swapped) + "," + std::to_string(seen);
      });
      EXPECT_TRUE(r.complete);
      if (expect == 5) {
        EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,0", "0,1"})) << reader_first;
        EXPECT_EQ(r.executions, 2u) << reader_first;
      } else {
        // Succeeds on 0 before the exchange, or fails reading its 1 (the 0 the exchange read
        // would make it succeed, which atomicity forbids).
        EXPECT_EQ(r.outcomes, (std::set<std::string>{"1,0", "0,1"})) << reader_first;
      }
    }
  }
}

TEST(MemoryModel, ReadModifyWritesAreAtomic) {
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> n{0};
    int a = -1, b = -1;
    {
      S::thread one([&] { a = n.fetch_add(1, relaxed); });
      S::thread two([&] { b = n.fetch_add(1, relaxed); });
    }
    out = pair(a, b) + "," + std::to_string(n.load(relaxed));
  });
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,1,2", "1,0,2"}));
}

// Message passing with a read-modify-write reading the data: a stale read of x by a fetch_add
// after y's store was read. RC11 allows it (the RMW goes before the store of 1 in x's
// modification order; nothing orders the threads), sequential consistency does not. Outcome:
// what the load of y read, what the fetch_add read, x at the end.
std::set<std::string> rmw_after_flag(MemoryModel memory) {
  return search(memory,
                [](std::string& out) {
                  S::atomic<int> x{0}, y{0};
                  int a = -1, b = -1;
                  {
                    S::thread writer([&] {
                      x.store(1, relaxed);
                      y.store(1, relaxed);
                    });
                    S::thread reader([&] {
                      a = y.load(relaxed);
                      b = x.fetch_add(10, relaxed);
                    });
                  }
                  out = pair(a, b) + "," + std::to_string(x.load(relaxed));
                })
      .outcomes;
}

TEST(MemoryModel, AReadModifyWriteMayReadAnOlderStoreNoOtherHasRead) {
  EXPECT_EQ(rmw_after_flag(MemoryModel::c11),
            (std::set<std::string>{"0,0,1", "0,1,11", "1,1,11", "1,0,1"}));
  EXPECT_EQ(rmw_after_flag(MemoryModel::sc), (std::set<std::string>{"0,0,1", "0,1,11", "1,1,11"}));
}

TEST(MemoryModel, AFailingCompareExchangeMayReadAnOlderStore) {
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> x{0};
    int saw = -1;
    bool won = false;
    {
      S::thread writer([&] { x.store(1, relaxed); });
      S::thread cas([&] {
        if (x.load(relaxed) == 1) {
          int expected = 1;
          won = x.compare_exchange_strong(expected, 2, relaxed, relaxed);
          saw = expected;
        }
      });
    }
    out = std::to_string(won) + "," + std::to_string(saw);
  });
  // Having read 1, the CAS is coherence-bound to see 1 and succeed.
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"0,-1", "1,1"}));
}

// A cell handed from one thread to another through a flag.
void hand_over(std::string& out, std::memory_order store, std::memory_order load) {
  S::cell<int> data{0};
  S::atomic<int> flag{0};
  int seen = -1;
  {
    S::thread writer([&] {
      data.with_mut([](int& v) { v = 42; });
      flag.store(1, store);
    });
    S::thread reader([&] {
      if (flag.load(load) == 1) seen = data.with([](const int& v) { return v; });
    });
  }
  out = std::to_string(seen);
}

TEST(MemoryModel, ACellHandedOverThroughARelaxedFlagIsADataRaceNamingBothLines) {
  const Reached r =
      search(MemoryModel::c11, [](std::string& out) { hand_over(out, relaxed, relaxed); });
  ASSERT_EQ(r.violations.size(), 1u);
  const std::string v = *r.violations.begin();
  // First the operations that should have ordered them (the writer's store, the reader's
  // load), then the two accesses.
  EXPECT_EQ(
      v.find("data_race: the primitive's store (relaxed) at tests/sim_memory_model_test.cpp:"), 0U)
      << v;
  EXPECT_NE(v.find(" and load (relaxed) at tests/sim_memory_model_test.cpp:"), std::string::npos)
      << v;
  EXPECT_NE(v.find(" order nothing between a cell's access at tests/sim_memory_model_test.cpp:"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find(" and its read at tests/sim_memory_model_test.cpp:"), std::string::npos) << v;
  EXPECT_EQ(search(MemoryModel::sc, [](std::string& out) { hand_over(out, relaxed, relaxed); })
                .violations.size(),
            0u);
}

TEST(MemoryModel, ACellHandedOverThroughReleaseAndAcquireOrAMutexIsNoRace) {
  const Reached r =
      search(MemoryModel::c11, [](std::string& out) { hand_over(out, release, acquire); });
  EXPECT_TRUE(r.violations.empty());
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"-1", "42"}));
  const Reached locked = search(MemoryModel::c11, [](std::string& out) {
    S::cell<int> data{0};
    S::mutex m;
    {
      S::thread a([&] {
        m.lock();
        data.with_mut([](int& v) { ++v; });
        m.unlock();
      });
      S::thread b([&] {
        m.lock();
        data.with_mut([](int& v) { ++v; });
        m.unlock();
      });
    }
    out = std::to_string(data.with([](const int& v) { return v; }));
  });
  EXPECT_TRUE(locked.violations.empty());
  EXPECT_EQ(locked.outcomes, (std::set<std::string>{"2"}));
}

TEST(MemoryModel, AReadModifyWriteContinuesTheReleaseSequenceItReads) {
  const auto program = [](std::memory_order head) {
    return [head](std::string& out) {
      S::cell<int> data{0};
      S::atomic<int> x{0};
      int seen = -1;
      {
        S::thread writer([&] {
          data.with_mut([](int& v) { v = 1; });
          x.store(1, head);
        });
        S::thread middle([&] { x.fetch_add(1, relaxed); });
        S::thread reader([&] {
          if (x.load(acquire) == 2) seen = data.with([](const int& v) { return v; });
        });
      }
      out = std::to_string(seen);
    };
  };
  EXPECT_TRUE(search(MemoryModel::c11, program(release)).violations.empty());
  EXPECT_FALSE(search(MemoryModel::c11, program(relaxed)).violations.empty());
}

TEST(MemoryModel, ASpinOnARelaxedFlagEndsWithoutTheStepBound) {
  const Reached r = search(MemoryModel::c11, [](std::string& out) {
    S::atomic<int> flag{0};
    {
      S::thread setter([&] { flag.store(1, relaxed); });
      S::thread spinner([&] {
        while (flag.load(relaxed) == 0) {
        }
      });
    }
    out = "done";
  });
  ASSERT_TRUE(r.complete);
  EXPECT_TRUE(r.violations.empty()) << *r.violations.begin();
  EXPECT_EQ(r.outcomes, (std::set<std::string>{"done"}));
  EXPECT_LT(r.executions, 20u);
}

/// The schedule and trace of the first execution of `program` (searched under the C++ model)
/// whose outcome is `wanted`, checked to replay to the same outcome and the same trace.
struct Recorded {
  Schedule schedule;
  std::string trace;
};
std::optional<Recorded> first_reaching(const std::function<void(std::string&)>& program,
                                       const std::string& wanted) {
  sim::Runtime runtime;  // traces recorded
  DporStrategy dpor;
  MemoryModelStrategy under(dpor, MemoryModel::c11);
  RecordingStrategy recorder(under);
  std::optional<Recorded> found;
  while (const auto execution = recorder.new_execution()) {
    std::string out;
    const auto result = runtime.run(recorder, *execution, [&] { program(out); });
    if (out == wanted) {
      const std::optional<Schedule> schedule = recorder.schedule();
      EXPECT_TRUE(schedule.has_value());
      if (!schedule) return std::nullopt;
      found = Recorded{*schedule, result.format_trace()};
      break;
    }
  }
  if (!found) return found;
  ReplayStrategy replay(found->schedule);
  const auto again = replay.new_execution();
  EXPECT_TRUE(again.has_value());
  if (!again) return found;
  EXPECT_EQ(again->memory, MemoryModel::c11);
  std::string out;
  const auto result = runtime.run(replay, *again, [&] { program(out); });
  EXPECT_EQ(out, wanted);
  EXPECT_EQ(result.format_trace(), found->trace);
  return found;
}

TEST(MemoryModel, AStaleReadIsMarkedInTheTraceAndItsScheduleReplaysByteForByte) {
  const auto stale =
      first_reaching([](std::string& out) { message_passing(out, relaxed, relaxed); }, "1,0");
  ASSERT_TRUE(stale.has_value());
  EXPECT_NE(stale->schedule.strategy.find("memory=c11"), std::string::npos)
      << stale->schedule.strategy;
  EXPECT_NE(stale->trace.find("load atomic#1 [0, stale: the initial value, 1 newer]"),
            std::string::npos)
      << stale->trace;
}

TEST(MemoryModel, AStorePlacedBeforeANewerOneIsMarkedInTheTraceAndReplaysByteForByte) {
  const auto against =
      first_reaching([](std::string& out) { two_plus_two_writes(out, relaxed); }, "1,1");
  ASSERT_TRUE(against.has_value());
  EXPECT_NE(against->trace.find("store atomic#1 [2, before 1 newer]"), std::string::npos)
      << against->trace;
}

}  // namespace
}  // namespace sim_memory_model_test
}  // namespace syncstress
