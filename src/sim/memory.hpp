// The C++ memory model on sim (Execution::memory == MemoryModel::c11): which store each atomic
// load or read-modify-write may read and where each store goes in modification order, the
// happens-before relation, and the data races on Sim::cell. Internal to the engine
// (memory.cpp), which asks the Strategy to choose among the stores a read may read and the
// places a store may take.
//
// The model is RC11's (Lahav, Vafeiadis, Kang, Hur, Dreyer, PLDI 2017), generated in program
// order as GenMC does: every load reads a store that has already run, so po ∪ rf is acyclic
// (no out-of-thin-air values, no load buffering), as RC11 requires.
// - Each atomic location keeps its stores in modification order. A relaxed, release or
//   acq_rel store may go anywhere after the newest store its thread is bound to see (as a load
//   is bound: one that happens before it, or that a load which happens before it read), but
//   never between a read-modify-write and the store that one read; where is a recorded choice.
//   A seq_cst store goes at the end.
// - A load may read any store of the location from the newest back to the newest one it is
//   bound to see: a store that happens before it, or that a load which happens before it read
//   (write-read and read-read coherence), and for a seq_cst load the last seq_cst store.
// - A read-modify-write may read any store a load may read that no other read-modify-write
//   has read, and goes right after it in modification order (atomicity); a compare-exchange
//   that fails is a load.
// - Happens-before is kept as vector clocks. A release store (or seq_cst, acq_rel) carries its
//   thread's clock, a relaxed one the clock of its thread's last release fence; a
//   read-modify-write also carries what the store it read carried (release sequences, C++20).
//   An acquire load joins what it read into its thread's clock; a relaxed one keeps it until
//   an acquire fence. seq_cst fences and operations are acquire and release; seq_cst fences
//   also join one clock all of them share (stronger than C++ for what they order between
//   non-atomic accesses, never weaker).
// - The platform's synchronizing objects order as their C++ counterparts do: an unlock before
//   the lock that follows it, a set before the wait it ends, an unpark before the park it ends,
//   a wake before the wait on that address it ends, a post before the resumption on the pool,
//   a spawn before the thread's first step and its last before the join.
// - A thread that reads a location again at the same line, with no write of its own to it and
//   no block in between, reads the newest store: a loop re-reading a stale value forever would
//   be a livelock no C++ implementation has (stores become visible in finite time), the spin
//   reduction then sees the loop's reads as sim's sequentially consistent ones, and a loop's
//   later iterations do not multiply the choices of its first. A read-modify-write at the line
//   of the thread's previous one on the location, with no block in between, reads the newest
//   store for the same reason (a loop of exchanges would otherwise read its own stale store
//   forever, each new one placed before the store that would end it).
// - Sim::cell accesses not ordered by happens-before are a data race, naming both lines.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include "schedules/strategy.hpp"
#include "sim/address_map.hpp"

namespace syncstress::sim::detail {

/// A vector clock over the execution's threads. The first kInline threads' entries are kept
/// inline, so that the joins of an execution with few threads (every scenario's default size)
/// neither allocate nor grow: each is one pass over a fixed array the compiler vectorizes.
class Clock {
 public:
  static constexpr std::size_t kInline = 8;
  std::uint32_t at(ThreadId t) const {
    if (t < kInline) return small_[t];
    const std::size_t i = t - kInline;
    return i < big_.size() ? big_[i] : 0;
  }
  void set(ThreadId t, std::uint32_t v) {
    if (t < kInline) {
      small_[t] = v;
    } else {
      set_big(t - kInline, v);
    }
  }
  void join(const Clock& other) {
    for (std::size_t i = 0; i < kInline; ++i) small_[i] = std::max(small_[i], other.small_[i]);
    if (!other.big_.empty()) [[unlikely]]
      join_big(other);
  }
  void clear() {
    small_.fill(0);
    big_.clear();
  }

 private:
  [[gnu::noinline]] void set_big(std::size_t i, std::uint32_t v) {
    if (big_.size() <= i) big_.resize(i + 1, 0);
    big_[i] = v;
  }
  [[gnu::noinline]] void join_big(const Clock& other) {
    if (other.big_.size() > big_.size()) big_.resize(other.big_.size(), 0);
    for (std::size_t i = 0; i < other.big_.size(); ++i) big_[i] = std::max(big_[i], other.big_[i]);
  }

  std::array<std::uint32_t, kInline> small_{};
  std::vector<std::uint32_t> big_;  // threads kInline and up
};

/// Per-object records of one execution: an AddressMap from the object to its slot, and the
/// slots, whose storage later executions reuse. A slot handed out anew holds what an earlier
/// execution left there: its owner resets it.
template <class V>
class Slots {
 public:
  /// The slot of `obj`; `*fresh` says whether it was handed out just now, `*index` (when
  /// given) which it is.
  V& get(const void* obj, bool* fresh, std::uint32_t* index = nullptr) {
    std::uint32_t& i = index_.get(obj, fresh);
    if (*fresh) {
      i = count_++;
      if (slots_.size() <= i) slots_.resize(i + 1);
    }
    if (index != nullptr) *index = i;
    return slots_[i];
  }
  /// Slot `i`, handed out in this execution.
  V& at(std::uint32_t i) { return slots_[i]; }
  /// The slot of `obj`, or null.
  const V* find(const void* obj) const {
    const std::uint32_t* i = index_.find(obj);
    return i != nullptr ? &slots_[*i] : nullptr;
  }
  /// Forgets every object (the next execution).
  void clear() {
    index_.clear();
    count_ = 0;
  }

 private:
  AddressMap<std::uint32_t> index_;
  std::vector<V> slots_;
  std::uint32_t count_ = 0;
};

/// An atomic's location in the model, kept by the atomic (Sim::atomic) so that its next
/// operation in the same execution finds it without a lookup: the execution it was found in
/// (0: none yet) and its slot.
struct Where {
  std::uint64_t execution = 0;
  std::uint32_t slot = 0;
};

/// What a load read: the store's bits, and where that store stands.
struct ReadFrom {
  std::uint64_t bits = 0;
  /// The step that made the store read (0: the location's value before the execution or at its
  /// construction), and how many stores of the location are newer than it (0: the newest).
  std::uint64_t step = 0;
  std::uint64_t newer = 0;
  /// Newer than every store of the location the reading thread had read or written before.
  bool unseen = false;
  /// ", stale: the store of step S, N newer" for a trace, or nothing for the newest.
  std::string note() const;
};

/// Where a plain store went in its location's modification order.
struct Placed {
  /// The bits of the location's newest store after it (the atomic's value).
  std::uint64_t newest = 0;
  /// How many stores made before it follow it in modification order (0: it is the newest).
  std::uint64_t newer = 0;
  /// ", before N newer" for a trace, or nothing for a store that went at the end.
  std::string note() const;
};

/// An atomic operation or fence of a thread, for a data race's message.
struct AtomicOp {
  const char* what = nullptr;  // "load", "store", "fetch_add", "fence", ...
  std::memory_order mo = std::memory_order_seq_cst;
  const char* file = nullptr;
  std::uint32_t line = 0;
};

/// One access to a cell, for the race check.
struct CellAccess {
  ThreadId thread = 0;
  std::uint32_t epoch = 0;
  const char* file = nullptr;
  std::uint32_t line = 0;
  std::uint32_t ops = 0;  // its thread's atomic operations before it
};

/// The model's state for one execution (see the file comment).
class Memory {
 public:
  /// Forgets everything: a new execution.
  void reset();

  // --- Threads and synchronizing objects -------------------------------------------------
  /// Thread `child` starts after its creator's step (`parent`; none for the main thread).
  void thread_started(ThreadId child, const ThreadId* parent);
  /// `joiner` returns from joining `joined`, which has exited.
  void joined(ThreadId joiner, ThreadId joined);
  /// `t` releases `obj` (an unlock, set, unpark, wake, post): a later acquire of it by
  /// another thread happens after everything `t` did so far.
  void release(ThreadId t, const void* obj);
  /// `t` acquires `obj` (a lock, a wait that ended, a resumption on the pool).
  void acquire(ThreadId t, const void* obj);
  /// acquire() then release() of `obj` by `t` (an acq_rel read-modify-write of the harness).
  void acquire_release(ThreadId t, const void* obj);
  /// `t` blocked: its next read of any location is a first read again (see repeat reads).
  void blocked(ThreadId t) {
    thread(t).reads.clear();
    thread(t).last_rmw = {};
  }

  // --- Atomics ------------------------------------------------------------------------------
  /// An atomic constructed now by `t` with `bits`: its history starts again (its address may
  /// have held another atomic earlier in this execution).
  void created(ThreadId t, const void* obj, Where& where, std::uint64_t bits);
  /// The stores a load of `obj` by `t` may read, newest first (at least 1). `current` is the
  /// object's value, for a location not seen before in this execution.
  std::uint64_t choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                        std::memory_order mo, const std::source_location& loc);
  /// Whether the last choices() (or cas_choices()) let the read read any store coherence
  /// allows, whatever other threads did before it: not a seq_cst read, not a repeated one
  /// (bound to the newest; for a compare-exchange that repeats, no older store holding
  /// `expected`). Such a read may read the same stores after any step of another thread that
  /// it does not read from and that is none of its closers() (a compare-exchange: when it
  /// fails).
  bool free() const { return free_; }
  /// After cas_choices(): the read-modify-writes (their steps) that read a store holding
  /// `expected` in the compare-exchange's range, closing it to the compare-exchange, which
  /// had it come before them could have succeeded there.
  const std::vector<std::uint64_t>& closers() const { return closers_; }
  /// The candidate `n` (0: newest) of the last choices() call's range; `except` filters (see
  /// cas_choices).
  ReadFrom candidate(std::uint64_t n) const;
  /// For a compare-exchange: the stores a failing CAS may read (value differs from `expected`)
  /// and those a succeeding one may read (value `expected`, as rmw_choices() allows); newest
  /// first. Same contract as choices().
  std::uint64_t cas_choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                            std::uint64_t expected, std::memory_order mo,
                            const std::source_location& loc);
  /// `t` loads candidate `n` of the last choices() / cas_choices(): its effects (coherence,
  /// acquire).
  ReadFrom read(ThreadId t, std::uint64_t n, std::memory_order mo);
  /// `t` reads the newest store of `obj` (`current`: its value, for a location not seen before).
  void read_newest(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                   std::memory_order mo);
  /// The places in `obj`'s modification order a plain store by `t` may take, the end first
  /// (at least 1). `current`: the object's value, for a location not seen before.
  std::uint64_t placements(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                           std::memory_order mo);
  /// `t` stores `bits` at place `n` (0: the end) of the last placements() call, at step `step`.
  Placed store(ThreadId t, std::uint64_t n, std::uint64_t bits, std::memory_order mo,
               std::uint64_t step);
  /// The stores a read-modify-write of `obj` by `t` may read, newest first (at least 1): as a
  /// load's, but only those no other read-modify-write has read (it goes right after the
  /// store it reads in modification order). `current`: as for choices().
  /// A read-modify-write at the line of `t`'s previous one on `obj`, with no block in between,
  /// reads the newest store, as a repeated load does.
  std::uint64_t rmw_choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                            std::memory_order mo, const std::source_location& loc);
  /// `t` reads candidate `n` of the last rmw_choices() or cas_choices() call and stores `bits`
  /// right after it in modification order, at step `step`.
  Placed read_modify_write(ThreadId t, std::uint64_t n, std::uint64_t bits, std::memory_order mo,
                           std::uint64_t step);
  /// A fence of `t`. seq_cst ones join the clock every seq_cst fence shares.
  void fence(ThreadId t, std::memory_order mo);

  /// `t` performed `op` (kept for the message of a data race).
  void note_op(ThreadId t, const AtomicOp& op) { thread(t).ops.push_back(op); }
  /// `t`'s atomic operations so far, oldest first.
  const std::vector<AtomicOp>& ops(ThreadId t) { return thread(t).ops; }

  // --- Cells --------------------------------------------------------------------------------
  /// A cell constructed now: no access to it yet.
  void cell_created(const void* obj);
  /// `t` accesses the cell `obj` at `loc`; returns the earlier access it races with, if any.
  const CellAccess* cell_access(ThreadId t, const void* obj, bool write,
                                const std::source_location& loc);

 private:
  struct Store {
    std::uint64_t bits = 0;
    ThreadId thread = 0;
    std::uint32_t epoch = 0;  // 0: before every thread's first step
    std::uint64_t step = 0;
    bool rmw = false;  // a read-modify-write: nothing goes between it and the store before
    Clock carries;     // what an acquire reading it joins
  };
  /// A thread's accesses to a location, where the index of the store it saw rose: (its epoch,
  /// the store's index), epochs and indices ascending.
  struct Seen {
    std::uint32_t epoch;
    std::uint32_t index;
  };
  /// Its vectors keep their storage (and their stores' clocks theirs) from one execution to
  /// the next: a store of a later execution reuses a slot instead of allocating.
  struct Location {
    std::vector<Store> slots;  // stores [0, count) in modification order
    std::uint32_t count = 0;
    std::vector<std::vector<Seen>> seen;  // by thread
    std::int64_t last_sc = -1;            // the last seq_cst store's index
    std::uint32_t newest() const { return count - 1; }
    Store& at(std::uint32_t i) { return slots[i]; }
    const Store& at(std::uint32_t i) const { return slots[i]; }
    /// A slot for the next store, its clock kept (reset by the caller); references into slots
    /// taken before it are not valid after it.
    Store& append() {
      if (count == slots.size()) slots.emplace_back();
      return slots[count++];
    }
    /// A slot for a store at index `at` (at most count: the end, as append()), the stores from
    /// there on one later; the indices the threads saw and the last seq_cst store's follow
    /// them. Same contract as append().
    Store& insert(std::uint32_t at);
    /// Whether a read-modify-write may read store `i`: no other one has (atomicity).
    bool rmw_may_read(std::uint32_t i) const { return i + 1 == count || !slots[i + 1].rmw; }
  };
  struct ThreadState {
    Clock now;
    Clock fence_release;    // now, at its last release fence
    Clock pending_acquire;  // what its relaxed loads read carried, for an acquire fence
    /// (object, line) of its loads since its last write to that object, or its last block.
    struct Read {
      const void* obj;
      const char* file;
      std::uint32_t line;
    };
    std::vector<Read> reads;
    Read last_rmw{};  // (object, line) of its last read-modify-write or compare-exchange
    std::vector<AtomicOp> ops;
    /// As at the start of an execution.
    void clear() {
      now.clear();
      fence_release.clear();
      pending_acquire.clear();
      reads.clear();
      last_rmw = {};
      ops.clear();
    }
  };
  struct Cell {
    CellAccess write{};
    bool written = false;
    std::vector<CellAccess> reads;  // since the last write, one per thread
    /// No access yet.
    void clear() {
      written = false;
      reads.clear();
    }
  };

  /// Called at every atomic operation: the check against a kept count, inline; growing, out
  /// of line.
  ThreadState& thread(ThreadId t) {
    if (t >= thread_slots_) [[unlikely]]
      grow_threads(t);
    return threads_[t];
  }
  [[gnu::noinline]] void grow_threads(ThreadId t) {
    threads_.resize(t + 1);
    thread_slots_ = t + 1;
  }
  std::uint32_t epoch(ThreadId t) { return thread(t).now.at(t); }
  /// Starts a new epoch of `t`: what it does from now on is not covered by what it released.
  void tick(ThreadId t) { thread(t).now.set(t, thread(t).now.at(t) + 1); }
  /// The location of `obj` (`where`: its atomic's record of it, checked and updated).
  Location& location(const void* obj, Where& where, std::uint64_t current);
  /// Starts `loc`'s history again with one store: `bits` by `t` at `epoch`, carrying nothing.
  static void restart(Location& loc, std::uint64_t bits, ThreadId t, std::uint32_t epoch);
  /// The cell at `obj`, with no access yet when first seen in this execution.
  Cell& cell(const void* obj);
  /// The oldest index a load of `loc` by `t` may read.
  std::uint32_t lower_bound(ThreadId t, const Location& loc, bool sc) const;
  /// Records that `t` read or wrote store `index` of `loc`; false when it had seen it or a
  /// newer one already.
  bool see(Location& loc, ThreadId t, std::uint32_t index);
  /// Whether this read by `t` repeats one at the same line since its last write or block.
  bool repeats(ThreadId t, const void* obj, const std::source_location& loc);
  /// Whether this read-modify-write (or compare-exchange) by `t` is at the object and line of
  /// its last one, with no block since; it becomes the last one.
  bool rmw_repeats(ThreadId t, const void* obj, const std::source_location& loc);
  bool happens_before(const CellAccess& a, ThreadId t) {
    return thread(t).now.at(a.thread) >= a.epoch;
  }

  // This execution's number, for Where; before the first, one no Where holds.
  std::uint64_t execution_ = ~std::uint64_t{0};
  std::vector<ThreadState> threads_;
  std::size_t thread_slots_ = 0;  // threads_.size(), kept so that thread() does not divide
  Slots<Location> locations_;
  Slots<Clock> sync_;  // what the releases of each synchronizing object carry
  Slots<Cell> cells_;
  Clock sc_fences_;
  /// `t`'s store at `index` of `loc`, made at step `step`: its fields but what it carries.
  void fill(Location& loc, std::uint32_t index, ThreadId t, std::uint64_t bits, bool rmw,
            std::uint64_t step);
  /// After `t` wrote `obj` with order `mo` (its store at `index`): what it has seen, its repeat
  /// reads, its epoch.
  void wrote(Location& loc, const void* obj, ThreadId t, std::uint32_t index, std::memory_order mo);

  // The last choices(), cas_choices(), rmw_choices() or placements() call: its location and
  // candidate indices (newest first; for placements, the index the store would take).
  Location* chosen_ = nullptr;
  const void* placing_ = nullptr;  // the object of the last call that may write it
  std::vector<std::uint32_t> candidates_;
  bool free_ = false;                   // see free()
  std::vector<std::uint64_t> closers_;  // see closers()
};

}  // namespace syncstress::sim::detail
