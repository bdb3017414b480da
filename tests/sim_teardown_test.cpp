// Teardown at the step bound: programs that never end, built on the sim runtime, are cut off by
// a small step bound (varied with the seed, so it lands on every kind of step) while their
// threads are blocked in each way a thread can block, and while coroutines are suspended,
// being resumed or queued for the pool. Every execution must end with outcome step_bound,
// abandon no fiber, and run every destructor of what the program built; a crash, or an ASan
// report, fails the whole program.
#include <gtest/gtest.h>

#include <chrono>
#include <coroutine>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "platform/sim.hpp"
#include "platform/task.hpp"
#include "sim/runtime.hpp"
#include "sim_test_support.hpp"
#include "watchdog.hpp"

namespace syncstress {
namespace sim_teardown_test {
namespace {

using sim::Outcome;
using sim_test::SeededStrategy;
using Task = task<Sim>;

// Seeds per test. Each execution is a few hundred steps at most.
constexpr std::uint64_t kSeeds = 1000;

/// Counts itself in `live` while it exists and owns heap memory, so a destructor that teardown
/// skipped shows up in the count (and, under ASan, as a leak).
class Tracked {
 public:
  explicit Tracked(int& live) : live_(&live), heap_(std::make_unique<int>(1)) { ++*live_; }
  Tracked(Tracked&& other) noexcept : live_(other.live_), heap_(std::move(other.heap_)) {
    ++*live_;
  }
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  Tracked& operator=(Tracked&&) = delete;
  ~Tracked() { --*live_; }

 private:
  int* live_;
  std::unique_ptr<int> heap_;
};

/// What the program must leave at zero once the execution is over.
struct Counts {
  int live = 0;      ///< Tracked objects still alive: destructors teardown skipped
  int stranded = 0;  ///< coroutine frames destroyed after a release took them, before resuming
};

/// What the step bound interrupted, summed over the executions of one test.
struct Coverage {
  /// "<op> on <object>" -> threads an execution ended with blocked there (or woken from there
  /// and not yet run), over all executions; objects named without their serial number.
  std::map<std::string, int> blocked;
  /// Executions whose last step was the resumption of a coroutine.
  int ended_in_resume = 0;
  /// Executions that ended with a posted coroutine not yet taken by a pool worker.
  int ended_with_queued_post = 0;
};

// "t3" -> "t", "parker:t2" -> "parker:t": the same object in every execution.
std::string without_serial(const std::string& name) {
  return name.substr(0, name.find_last_not_of("0123456789") + 1);
}

void observe(const sim::ExecutionResult& r, Coverage& c) {
  std::map<ThreadId, const sim::TraceEntry*> last;
  // A pool worker's resumption is traced at the line of the post it runs.
  std::multiset<std::pair<std::string, unsigned>> posted;
  for (const auto& e : r.trace) {
    last[e.thread] = &e;
    if (e.op == "post") posted.emplace(e.file, e.line);
    if (e.op == "resume") {
      if (auto it = posted.find({e.file, e.line}); it != posted.end()) posted.erase(it);
    }
  }
  for (const auto& [thread, e] : last) {
    if (e->values.ends_with("blocks")) {
      ++c.blocked[std::string(e->op) + " on " + without_serial(e->object)];
    }
  }
  if (!r.trace.empty() && r.trace.back().op == "resume") ++c.ended_in_resume;
  if (!posted.empty()) ++c.ended_with_queued_post;
}

/// Runs `program` once per seed, each time under a step bound picked from the seed in
/// [40, 295], and checks that every execution ends at the bound, abandons no fiber and leaves
/// its counts at zero.
Coverage run_to_the_bound(const std::function<void(Counts&)>& program) {
  const testing::Watchdog watchdog("executions cut off by the step bound",
                                   std::chrono::seconds(120));
  // One runtime per step bound, reused across seeds as a cell reuses its runtime.
  std::map<std::uint64_t, std::unique_ptr<sim::Runtime>> runtimes;
  Coverage coverage;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const std::uint64_t max_steps = 40 + (seed * 37) % 256;
    auto& rt = runtimes[max_steps];
    if (!rt) {
      sim::Options options;
      options.max_steps = max_steps;
      rt = std::make_unique<sim::Runtime>(options);
    }
    Counts counts;
    SeededStrategy s(seed);
    const auto r = sim_test::run(*rt, s, [&] { program(counts); });
    SCOPED_TRACE("seed " + std::to_string(seed) + ", max_steps " + std::to_string(max_steps));
    EXPECT_EQ(r.outcome, Outcome::step_bound) << r.property << ": " << r.message;
    EXPECT_EQ(r.abandoned_fibers, 0u);
    EXPECT_EQ(counts.live, 0) << "objects whose destructors teardown did not run";
    EXPECT_EQ(counts.stranded, 0) << "frames destroyed while their releaser was resuming them";
    if (::testing::Test::HasFailure()) break;
    observe(r, coverage);
  }
  return coverage;
}

// --- Threads blocked on the runtime's objects ----------------------------------------------

/// Pairs of threads that keep blocking on each other through every kind of wait, a thread that
/// spawns and joins children in a loop, one that joins a thread that never ends, and main,
/// which blocks joining them all.
void blocks_everywhere(Counts& counts) {
  Tracked own(counts.live);
  Sim::mutex m;
  Sim::auto_reset_event auto_event;
  Sim::manual_reset_event manual_event;
  Sim::atomic<std::int32_t> word{0};
  Sim::atomic<int> value{0};
  sim::set_name(&m, "mutex");
  sim::set_name(&auto_event, "auto_event");
  sim::set_name(&manual_event, "manual_event");
  sim::set_name(&word, "word");
  sim::set_name(&value, "value");
  Sim::parker* parkers[2] = {nullptr, nullptr};
  Sim::thread spinner([] {
    for (;;) Sim::yield();  // keeps the execution from ever deadlocking or completing
  });
  std::vector<Sim::thread> threads;
  threads.reserve(16);
  auto spawn = [&](std::function<void()> body) {
    threads.emplace_back([&counts, body = std::move(body)] {
      Tracked mine(counts.live);
      body();
    });
  };
  for (int i = 0; i < 2; ++i) {
    spawn([&] {
      for (;;) {
        m.lock();
        Sim::yield();
        m.unlock();
      }
    });
  }
  spawn([&] {
    for (;;) auto_event.wait();
  });
  spawn([&] {
    for (;;) {
      auto_event.set();
      Sim::yield();
    }
  });
  spawn([&] {
    for (;;) manual_event.wait();
  });
  spawn([&] {
    for (;;) {
      manual_event.set();
      Sim::yield();
      manual_event.reset();
      Sim::yield();
    }
  });
  for (int me = 0; me < 2; ++me) {
    spawn([&, me] {
      parkers[me] = &Sim::current_parker();
      for (;;) {
        while (parkers[1 - me] == nullptr) Sim::yield();
        parkers[1 - me]->unpark();
        Sim::current_parker().park();
      }
    });
  }
  spawn([&] {
    for (;;) {
      word.store(1);
      Sim::wake_by_address_all(word);
      while (word.load() == 1) Sim::wait_on_address(word, 1);
    }
  });
  spawn([&] {
    for (;;) {
      while (word.load() == 0) Sim::wait_on_address(word, 0);
      word.store(0);
      Sim::wake_by_address_all(word);
    }
  });
  spawn([&] {
    for (;;) {
      value.store(1);
      value.notify_one();
      value.wait(1);
    }
  });
  spawn([&] {
    for (;;) {
      value.wait(0);
      value.store(0);
      value.notify_one();
    }
  });
  spawn([&] {
    for (;;) {
      Sim::thread child([&] {
        Tracked theirs(counts.live);
        Sim::yield();
      });
      child.join();
    }
  });
  spawn([&] { spinner.join(); });
  // Main leaves the scope: the threads' destructors join them, which never ends.
}

TEST(SimTeardown, ThreadsBlockedInEveryKindOfWaitAreUnwoundAtTheStepBound) {
  const Coverage c = run_to_the_bound(blocks_everywhere);
  if (HasFailure()) return;  // the loop stopped at the failure: its coverage says nothing
  for (const char* wait :
       {"lock on mutex", "wait on auto_event", "wait on manual_event", "park on parker:t",
        "wait_on_address on word", "wait on value", "join on t"}) {
    EXPECT_GT(c.blocked.count(wait) ? c.blocked.at(wait) : 0, 0) << "never cut off in " << wait;
  }
}

// --- Coroutines suspended, being resumed, queued for the pool --------------------------------

/// Suspended coroutines kept the way the awaitable library's primitives keep theirs
/// (primitives/awaitable_library.hpp): an intrusive queue of nodes that live in the awaiters,
/// guarded by a mutex; a release moves nodes to a list in its own stack frame and resumes them
/// from there, synchronously or through the pool, in a noexcept function; an awaiter destroyed
/// while its node is queued unlinks it. One destroyed after a release took its node, before
/// the resumption ran, would unlink it from the releaser's list, which may be gone by then:
/// the library leaves that race to its callers, and these awaiters count it instead.
class CoroutineQueue {
  struct Node {
    Node* next = this;
    Node* prev = this;
    std::coroutine_handle<> handle;
    bool granted = false;  // taken off the queue by a release, not resumed yet
  };

  static void unlink(Node& n) {
    n.prev->next = n.next;
    n.next->prev = n.prev;
    n.next = n.prev = &n;
  }
  static void append(Node& list, Node& n) {
    n.prev = list.prev;
    n.next = &list;
    list.prev->next = &n;
    list.prev = &n;
  }
  static void resume_node(std::coroutine_handle<> h, bool pooled) noexcept {
    if (pooled) {
      Sim::post(h);
    } else {
      Sim::resume(h);
    }
  }

 public:
  class Awaiter {
   public:
    explicit Awaiter(CoroutineQueue& q) : q_(q) {}
    Awaiter(const Awaiter&) = delete;
    Awaiter& operator=(const Awaiter&) = delete;
    ~Awaiter() {
      if (!node_.handle) return;
      if (node_.granted) {
        ++*q_.stranded_;
        return;
      }
      q_.m_.lock();
      unlink(node_);
      q_.m_.unlock();
    }
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) {
      q_.m_.lock();
      node_.handle = h;
      append(q_.queue_, node_);
      q_.m_.unlock();
    }
    void await_resume() noexcept {
      node_.handle = nullptr;
      node_.granted = false;
    }

   private:
    CoroutineQueue& q_;
    Node node_;
  };

  explicit CoroutineQueue(int& stranded) : stranded_(&stranded) { sim::set_name(&m_, "mutex"); }
  CoroutineQueue(const CoroutineQueue&) = delete;
  CoroutineQueue& operator=(const CoroutineQueue&) = delete;

  Awaiter wait() { return Awaiter(*this); }

  /// Resumes the oldest waiter, or every waiter, on this thread or on the pool.
  void release(bool all, bool pooled) {
    Node granted;
    m_.lock();
    while (queue_.next != &queue_) {
      Node& n = *queue_.next;
      unlink(n);
      n.granted = true;
      append(granted, n);
      if (!all) break;
    }
    m_.unlock();
    for (Node* n = granted.next; n != &granted;) {
      Node* next = n->next;  // the resumed coroutine may end the node's life at once
      resume_node(n->handle, pooled);
      n = next;
    }
  }

 private:
  Sim::mutex m_;
  Node queue_;
  int* stranded_;
};

Task queue_waiter(CoroutineQueue& q, [[maybe_unused]] Tracked held) {
  for (;;) co_await q.wait();
}

Task awaits_a_queue_waiter(CoroutineQueue& q, [[maybe_unused]] Tracked held, Tracked inner) {
  co_await queue_waiter(q, std::move(inner));
}

struct signal_awaiter {
  Sim::auto_reset_event& event;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { Sim::resume_on_signal(event, h); }
  void await_resume() noexcept {}
};

Task signal_waiter(Sim::auto_reset_event& event, [[maybe_unused]] Tracked held) {
  for (;;) co_await signal_awaiter{event};
}

/// Coroutines that wait in a CoroutineQueue again each time they are resumed, two threads
/// releasing them, one at a time and all at once, and main, which owns the frames and spins.
/// Pooled: the releases post, and another coroutine waits on an event through
/// resume_on_signal.
void coroutines_in_flight(Counts& counts, bool pooled) {
  CoroutineQueue q(counts.stranded);
  Sim::auto_reset_event event;
  std::vector<Task> tasks;
  tasks.reserve(4);
  for (int i = 0; i < 3; ++i) tasks.push_back(queue_waiter(q, Tracked(counts.live)));
  tasks.push_back(awaits_a_queue_waiter(q, Tracked(counts.live), Tracked(counts.live)));
  if (pooled) tasks.push_back(signal_waiter(event, Tracked(counts.live)));
  for (auto& t : tasks) t.start();
  Sim::thread one([&] {
    Tracked mine(counts.live);
    for (;;) {
      q.release(/*all=*/false, pooled);
      if (pooled) event.set();
    }
  });
  Sim::thread all([&] {
    Tracked mine(counts.live);
    for (;;) {
      q.release(/*all=*/true, pooled);
      Sim::yield();
    }
  });
  for (;;) Sim::yield();
}

TEST(SimTeardown, CoroutinesBeingResumedAtTheStepBoundLeaveTheirWaitBeforeTheirFramesDie) {
  Coverage c = run_to_the_bound([](Counts& counts) { coroutines_in_flight(counts, false); });
  if (HasFailure()) return;
  EXPECT_GT(c.ended_in_resume, 0) << "the bound never fell on a resumption";
  EXPECT_GT(c.blocked["lock on mutex"], 0) << "never cut off with a thread blocked on the lock";
}

TEST(SimTeardown, CoroutinesPostedToThePoolAtTheStepBoundLeaveTheirWaitBeforeTheirFramesDie) {
  Coverage c = run_to_the_bound([](Counts& counts) { coroutines_in_flight(counts, true); });
  if (HasFailure()) return;
  EXPECT_GT(c.ended_in_resume, 0) << "the bound never fell on a resumption";
  EXPECT_GT(c.ended_with_queued_post, 0) << "never cut off with a coroutine queued";
  EXPECT_GT(c.blocked["pool_wait on pool"], 0) << "never cut off with an idle pool worker";
  EXPECT_GT(c.blocked["lock on mutex"], 0) << "never cut off with a thread blocked on the lock";
}

}  // namespace
}  // namespace sim_teardown_test
}  // namespace syncstress
