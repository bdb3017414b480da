// The exhaustive search with dynamic partial-order reduction: source sets and sleep sets
// (Abdulla, Aronis, Jonsson, Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// the source-DPOR algorithm), over the sim runtime's steps.
//
// Two executions are equivalent when one is the other with adjacent independent steps swapped
// (the same Mazurkiewicz trace); every violation and every final state of the program is
// reached by some execution of each class, so exploring one execution per class is enough.
// Two steps are dependent when they are of different threads and touch the same object with at
// least one write (Access): atomics, mutexes, events, parkers, wait-on-address words and their
// wait lists (a wake touches the list alone), threads (spawn, start, exit, join), the pool's
// queue and coroutine frames, and the data a step declares through Sim::note_access (cells, the
// scenario harness's counters).
//
// After each execution its races are computed from vector clocks: a step e of thread p races
// with a later dependent step e' of thread q when e happens before e' through no other step
// (neither q's previous step nor another of e''s predecessors; a lock's predecessor through the
// unlock it follows does not count, Access::chained), and no access orders the two for good
// (Access::follows_write, kAfterEveryThread).
// For each race, the search makes sure that at the point before e some thread is scheduled
// that starts an execution in which e' comes first (the race's "initials"); the node's sleep
// set keeps threads whose alternatives are already explored from being explored again, and an
// execution in which every runnable thread sleeps is ended at once (Outcome::pruned: it could
// only repeat a class already explored).
//
// Choices that are not thread choices (which waiter a wake releases, a fault injection, which
// queued item a worker takes) are explored in full, as in the plain search.
//
// Under the C++ model (memory=c11) a load chooses the store it reads. A load that may read any
// store coherence allows (Access::free_read: not seq_cst, not a repeated read bound to the
// newest) reads after another thread's store everything it could read before it, and that
// store too: the two orders are one class when the load does not read the store. So such a
// load is ordered after the store it read only (a predecessor, no race: its other answers are
// explored at its own choice); an earlier store it did not read is no race with it; taken while
// a store sleeps, it leaves the store asleep. A load that sleeps and meets a store of what it
// reads wakes in part (Sleeper::partial): run later, it reads only stores made since it began to
// sleep, the older ones being executions already explored with the load first; when it could
// read none, its execution ends pruned. A compare-exchange that fails is such a read too, but
// stays a race with each read-modify-write that read a store holding its expected value
// (Access::races_store): had it come first, it could have succeeded there. That race names a
// write made already, so such a compare-exchange leaves a sleeper asleep. A compare-exchange
// that sleeps stands for its failures (free reads) and its successes (writes): a read of another
// thread that is no free read (a wait-on-address value check) wakes it for its successes alone
// (Sleeper::writes_woken), its failures reading after that read what they could read before it.
// The classes counted are then the same up to the order of such reads and the stores they do
// not read (a load's answer is hashed as the store it read). Not under a preemption bound, where
// the order of two steps also counts preemptions.
//
// Under a preemption bound the search stays within the bound, after Coons, Musuvathi and
// McKinley's bounded partial-order reduction (OOPSLA 2013). Swapping two independent steps can
// change how many preemptions an execution takes, so the bound makes them dependent in part:
// - a thread a race wants at a node where it would exceed the bound is tried at the latest
//   earlier node where it is runnable and within the bound;
// - a thread a race wants within the bound is also tried at the start of the block of steps
//   the race's node is in (the latest node at or above it whose choice was a switch, with no
//   thread that could go on or another than it chosen), where running it may take no
//   preemption at all;
// - of a node's explored threads only the one that could go on sleeps in the node's later
//   branches. Moving that thread's step from where an execution of a later branch takes it
//   back to the node never adds a preemption (the switch away from it at the node is already
//   one, and the switch to it later, then away, costs at least what going straight on does),
//   so the execution it stands for is within the bound too. So does a thread whose step there
//   left it unable to go on (it blocked or exited, in every data branch: Sleeper::stops): moved
//   back to the node, its step is followed by a switch that is no preemption, and the switches
//   to it and away from it where it was taken become one, no dearer. Another thread explored
//   there could need one more preemption after its step at the node, and does not sleep.
// A bounded pass with the reduction is not guaranteed to reach every schedule within the bound
// (a lock, join or semaphore acquire that blocks touches nothing the reduction sees, and a lock
// after an unlock is no race, so the search does not try a thread's lock while another holds
// it: where that block is what lets the holder run on without a preemption, a schedule within
// the bound can be missed); a pass without a bound is complete.
//
// Split into shards, the thread choices of every execution up to its
// kShardPrefixContendedSteps-th contended step explore every thread (as the plain search
// does), so that the search splits by prefix (prefix_walk.hpp); sleep sets still keep the
// extra branches from running an equivalent execution to its end.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "schedules/exhaustive_search.hpp"
#include "schedules/prefix_walk.hpp"
#include "schedules/schedule.hpp"
#include "schedules/search_estimate.hpp"
#include "schedules/step_observer.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// See the file comment.
class DporStrategy final : public ExhaustiveSearch, private StepObserver {
 public:
  /// As shard `shard` of the search (schedules/shard.hpp): only the prefixes it owns.
  explicit DporStrategy(std::optional<std::uint32_t> preemption_bound = std::nullopt,
                        Shard shard = {})
      : preemption_bound_(preemption_bound), prefix_(shard, PrefixWalk::Cut::contended_steps) {}

  /// Analyses the last execution's races and moves to the next path to explore; nothing once
  /// the search is complete. Every execution has its steps watched by the search; a shard's
  /// counts when the shard owns its prefix.
  std::optional<Execution> new_execution() override;
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  std::uint64_t next_u64(std::uint64_t bound) override;

  std::uint64_t executions_explored() const override { return explored_; }
  /// Executions ended early because every runnable thread slept (redundant by construction).
  std::uint64_t executions_pruned() const { return pruned_; }
  /// Distinct Mazurkiewicz traces among the executions that ran to their end (capped at
  /// kTraceCap; see traces_capped()).
  std::uint64_t distinct_traces() const { return traces_before_ + traces_.size(); }
  bool traces_capped() const { return traces_capped_; }
  /// True once new_execution() has returned false.
  bool complete() const { return complete_; }
  std::uint64_t depth() const override { return path_.size(); }
  std::uint32_t preemptions() const override {
    return depth_ == 0 ? 0 : preemptions_through(path_[depth_ - 1]);
  }
  bool bounded() const override { return preemption_bound_.has_value(); }
  std::optional<Reduction> reduction() const override {
    return Reduction{executions_pruned(), distinct_traces(), traces_capped()};
  }
  double estimated_executions() const override;

  static constexpr std::size_t kTraceCap = std::size_t{1} << 22;

  /// The path of the last execution with every node's sets, and that execution's steps, which
  /// the next one analyses first. The classes seen so far are kept as a count.
  nlohmann::json checkpoint() const override;
  void resume(const nlohmann::json& position) override;

 private:
  struct Sleeper {
    ThreadId thread;
    std::vector<Access> accesses;  // its next step's
    // The step it would have taken when it began to sleep (events_.size() then).
    std::uint32_t since = 0;
    // Woken in part: its next step is a free read (Access::free_read) of something a step
    // since wrote. It may run, reading only a store made at or after event `since`: reading an
    // older one is an execution already explored with the read first.
    bool partial = false;
    // Woken for its writing answers: its next step is a compare-exchange that may fail (a free
    // read) or succeed (a write), and a step since read what it writes without being a free
    // read. It may run, its choice restricted to the answers where it succeeds (and, partly
    // woken too, those reading a store made since): failing, it reads what it could have read
    // before that read, an execution already explored.
    bool writes_woken = false;
    // Of a node's explored threads: its step there left it unable to go on (blocked or exited)
    // in every data branch, so that switching away after it is no preemption (see the header).
    bool stops = false;
  };
  struct Node {
    bool is_thread = true;
    std::uint64_t bound = 0;   // answers (data) or runnable threads (thread)
    std::uint64_t chosen = 0;  // the answer, or the index into runnable
    // Thread nodes only.
    std::vector<ThreadId> runnable;
    std::vector<ThreadId> backtrack;      // threads to explore here (the chosen one included)
    std::vector<Sleeper> done;            // explored before the current choice
    std::vector<Sleeper> sleep;           // inherited: explored elsewhere, independent since
    std::vector<Access> chosen_accesses;  // the chosen thread's step here (all data branches)
    bool chosen_stops = true;             // and it left the thread unable to go on in all of them
    std::uint64_t continuing = 0;         // index of the thread that could go on (bound: none)
    std::uint32_t preemptions_before = 0;
    std::uint64_t branch_start = 0;   // explored_ before the first execution of the current choice
    bool in_prefix = false;           // a shard prefix's choice: explores every thread
    std::uint32_t events_before = 0;  // steps taken before the one chosen here
    // Data nodes only: a partly woken read's choice, whose answers are `only` (ascending; none
    // left: the step is redundant, and the execution ends pruned).
    bool restricted = false;
    std::vector<std::uint64_t> only;
  };
  struct Event {
    ThreadId thread;
    std::uint32_t first_access, end_access;  // into accesses_
    std::int64_t node;                       // path index of the thread node that chose it
    std::uint64_t data;                      // hash of the data answers taken in it
  };

  /// Records the step and the sleep set after it; false where another shard's prefix ends or
  /// every runnable thread sleeps (the execution is pruned).
  bool step_taken(ThreadId thread, std::span<const Access> accesses,
                  std::span<const ThreadId> runnable) override;
  void last_step(ThreadId thread, std::span<const Access> accesses,
                 std::span<const ThreadId> runnable) override;
  /// Under no preemption bound: a partly woken sleeper's read may read only the stores made
  /// since it began to sleep (Sleeper::partial), a compare-exchange woken for its successes may
  /// only succeed (Sleeper::writes_woken), which the next data node's answers follow.
  void reading(std::span<const std::uint64_t> stores,
               std::span<const std::uint8_t> writes) override;
  /// How a step taken (`taken`) affects a sleeper whose next step is `sleeper`: not at all, in
  /// full, or in part (Sleeper::partial, Sleeper::writes_woken).
  struct Wake {
    bool full = false;
    bool partial = false;
    bool writes = false;
  };
  Wake wakes(std::span<const Access> sleeper, std::span<const Access> taken) const;
  /// Whether free reads are ordered after the store they read only (Access::free_read): not
  /// under a preemption bound, where the order of two steps also counts its preemptions.
  bool reads_freely(const Access& a) const { return a.free_read && !a.write && !preemption_bound_; }
  /// Adds the stores `event`'s accesses made to store_events_.
  void index_stores(std::span<const Access> accesses, std::uint32_t event);
  /// The event that made store `store` (Access::store) in this execution, if it was seen.
  std::optional<std::uint32_t> event_of(std::uint64_t store) const;

  bool allowed(const Node& node, std::uint64_t answer) const;
  /// Which of `node`'s alternatives its current one is, counted from 0.
  static std::uint64_t rank(const Node& node);
  /// The alternatives `node` has still to try after its current one.
  std::uint64_t untried(const Node& node) const;
  /// Where `t` stands in `node`'s runnable threads if the search may still try it there: not
  /// explored there yet, not asleep, runnable and within the preemption bound.
  std::optional<std::uint64_t> to_try(const Node& node, ThreadId t) const;
  /// Moves `node` to its next alternative; false when it has none left.
  bool next_alternative(Node& node);
  std::uint32_t preemptions_through(const Node& node) const;
  bool asleep(const Node& node, ThreadId t) const;
  /// Whether `t` sleeps in full among `sleepers` (a partly woken one may run).
  static bool sleeps_in(const std::vector<Sleeper>& sleepers, ThreadId t);
  /// Adds a data answer to the step's hash, but a free load's (pending_read_).
  void hash_answer(std::uint64_t answer, std::uint64_t bound);
  /// Whether a thread that sleeps at `node` (explored there, or inherited) takes a step that
  /// touches nothing next, e.g. a join that blocks. Such a step is independent of every other,
  /// so the thread sleeps until the execution ends: every execution of another alternative is
  /// equivalent to one already explored with that step first. Its alternatives are skipped, and
  /// an execution in which such a thread sleeps is pruned at once (not a shard prefix's choice,
  /// which explores every thread, and not under a preemption bound, where such a step's place
  /// counts).
  bool never_wakes(const Node& node) const;
  static bool has(const std::vector<ThreadId>& set, ThreadId t);
  /// Two steps that race: dependent, of different threads, the first not happening before the
  /// second's thread's previous step. Indices into events_.
  struct Race {
    std::uint32_t first, second;
  };
  /// The last execution's happens-before relation as vector clocks, its races, and the
  /// fingerprint of its class (Mazurkiewicz trace).
  struct Analysis {
    std::size_t threads = 0;
    std::vector<std::uint32_t> clocks;  // [j * threads + t]: steps of t happening before step j
    std::vector<std::uint32_t> nth;     // 1-based position of step j in its thread
    std::vector<Race> races;
    std::uint64_t fingerprint = 0;
  };
  /// Computes the last execution's Analysis into analysis_, reusing its buffers and those below
  /// from one execution to the next.
  const Analysis& happens_before();
  // happens_before()'s working state.
  struct HbRead {
    std::uint32_t step;
    bool free;  // a free read (Access::free_read)
  };
  struct HbObject {
    std::int64_t last_write = -1;
    std::vector<HbRead> reads;  // since the last write
  };
  struct HbPred {
    std::uint32_t step;
    bool race;  // false where the later step could not have come first (Access::follows_write)
    // A step that happens before this one happens before the step with no race of its own,
    // but for a chained access (Access::chained).
    bool orders = true;
    // Part of the class's fingerprint: not where a free read is the earlier step (the class is
    // the same whichever of it and a later write it did not read comes first).
    bool counts = true;
    // A race whatever else orders the two (Access::races_store: the later step, coming first,
    // would do something else than read what it read).
    bool forced = false;
  };
  // An object's place in hb_objects_, valid in the pass numbered `pass` alone (open addressing).
  struct HbSlot {
    std::uint64_t object = 0;
    std::uint32_t pass = 0;
    std::uint32_t index = 0;
  };
  /// The state of `object` in this pass; null where the pass has not met it yet (`add`: then a
  /// fresh one).
  HbObject* object_state(std::uint64_t object, bool add);
  /// For each race, a thread at the node before its first step that reverses it.
  void reverse_races(const Analysis& analysis);
  /// Counts the last execution's class and adds the backtrack points its races need.
  void analyze_execution();
  void add_backtrack(std::size_t node_index, const std::vector<ThreadId>& initials, ThreadId want);
  /// Under a preemption bound: `t` also at the start of the block `node_index` is in (see the
  /// file comment).
  void add_at_block_start(std::size_t node_index, ThreadId t);
  void record_step(ThreadId thread, std::span<const Access> accesses,
                   std::span<const ThreadId> runnable);
  void cover_unseen_steps();
  [[noreturn]] void diverged(const std::string& what) const;

  std::optional<std::uint32_t> preemption_bound_;
  std::vector<Node> path_;
  std::size_t depth_ = 0;
  // The prefix partition (as in ExhaustiveStrategy). The thread choices of a prefix explore
  // every thread, whatever the races say, so that what lies below one prefix never depends on
  // the search below another: each shard's part is the same for every number of shards.
  PrefixWalk prefix_;
  std::uint64_t explored_ = 0;
  std::uint64_t pruned_ = 0;
  bool complete_ = false;
  bool last_pruned_ = false;
  // The execution in progress.
  std::vector<Event> events_;
  std::vector<Access> accesses_;
  std::vector<Sleeper> sleep_;             // the sleep set at the next scheduling point
  std::vector<ThreadId> runnable_at_end_;  // runnable after the last step seen
  std::int64_t choosing_node_ = -1;        // the thread node that chose the step under way
  std::uint64_t data_hash_ = 0;            // data answers of the step under way
  ThreadId running_ = 0;                   // the thread whose step is under way
  // (store, event) of the execution's stores (Access::store), ascending.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> store_events_;
  // Set by reading() for the data node that follows: a free read's choice (its answer is in
  // the step's predecessor, the store it read, and is not hashed into the step's data), and a
  // partly woken read's answers.
  bool pending_read_ = false;
  std::optional<std::vector<std::uint64_t>> pending_only_;
  bool redundant_step_ = false;  // the step under way reads an older store than it may
  std::unordered_set<std::uint64_t> traces_;
  std::uint64_t traces_before_ = 0;  // classes counted before a resume
  bool traces_capped_ = false;
  SearchEstimate estimate_;
  // happens_before()'s result and buffers: the objects' states and their hash table (a power of
  // two of slots, at least twice the objects), the step's predecessors, each thread's last step.
  Analysis analysis_;
  std::vector<HbObject> hb_objects_;
  std::size_t hb_used_ = 0;
  std::vector<HbSlot> hb_table_;
  std::uint32_t hb_pass_ = 0;
  std::vector<HbPred> hb_preds_;
  std::vector<std::int64_t> hb_last_of_;
  std::vector<std::uint32_t> hb_before_;
};

}  // namespace syncstress
