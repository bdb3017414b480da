#include "schedules/dpor_strategy.hpp"

#include <algorithm>

namespace syncstress {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Adds `more` to `into`, one entry per object (a write wins over a read).
void merge_accesses(std::vector<Access>& into, std::span<const Access> more) {
  // A free read stays apart from another answer's access to the same object (a
  // compare-exchange's success, which writes): a sleeper tells the two apart (wakes()).
  for (const Access& a : more) {
    auto it = std::find_if(into.begin(), into.end(), [&](const Access& b) {
      return b.object == a.object && b.free_read == a.free_read;
    });
    if (it == into.end()) {
      into.push_back(a);
    } else {
      it->write = it->write || a.write;
    }
  }
}

}  // namespace

bool DporStrategy::has(const std::vector<ThreadId>& set, ThreadId t) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

bool DporStrategy::sleeps_in(const std::vector<Sleeper>& sleepers, ThreadId t) {
  return std::any_of(sleepers.begin(), sleepers.end(), [t](const Sleeper& s) {
    return s.thread == t && !s.partial && !s.writes_woken;
  });
}

bool DporStrategy::asleep(const Node& node, ThreadId t) const { return sleeps_in(node.sleep, t); }

void DporStrategy::hash_answer(std::uint64_t answer, std::uint64_t bound) {
  // A free load's answer is the store it read, which the analysis sees as the step's
  // predecessor: not hashed.
  if (!std::exchange(pending_read_, false)) data_hash_ = mix(data_hash_ ^ (answer + (bound << 32)));
}

DporStrategy::Wake DporStrategy::wakes(std::span<const Access> sleeper,
                                       std::span<const Access> taken) const {
  Wake w;
  for (const Access& x : sleeper) {
    for (const Access& y : taken) {
      if (x.object != y.object || !(x.write || y.write)) continue;
      // A free read taken now reads what it could have read after the sleeper's step; a failing
      // compare-exchange's race with the write that closed a store to it (Access::races_store)
      // names a write made already, never the sleeper's.
      if (reads_freely(y) || (y.races_store && !preemption_bound_)) continue;
      // The sleeper's free read could now read this write's store too.
      if (reads_freely(x)) {
        w.partial = true;
        continue;
      }
      // A compare-exchange's success against another read: its failures, free reads of the
      // same object, commute with that read.
      const bool fails_freely = std::any_of(sleeper.begin(), sleeper.end(), [&](const Access& a) {
        return a.object == x.object && reads_freely(a);
      });
      if (x.write && !y.write && !y.follows_write && fails_freely) {
        w.writes = true;
        continue;
      }
      w.full = true;
      return w;
    }
  }
  return w;
}

std::optional<std::uint32_t> DporStrategy::event_of(std::uint64_t store) const {
  const auto it = std::lower_bound(store_events_.begin(), store_events_.end(), store,
                                   [](const std::pair<std::uint64_t, std::uint32_t>& e,
                                      std::uint64_t s) { return e.first < s; });
  if (it == store_events_.end() || it->first != store) return std::nullopt;
  return it->second;
}

void DporStrategy::index_stores(std::span<const Access> accesses, std::uint32_t event) {
  for (const Access& a : accesses) {
    if (a.write && a.store != 0) store_events_.emplace_back(a.store, event);
  }
}

void DporStrategy::reading(std::span<const std::uint64_t> stores,
                           std::span<const std::uint8_t> writes) {
  // With one store to read there is no choice to follow: nothing is left pending for another.
  // A compare-exchange's answer is hashed (it says whether it succeeded).
  const bool choice = stores.size() > 1;
  pending_read_ = choice && writes.empty();
  pending_only_.reset();
  if (preemption_bound_) return;
  // The stores older than a partly woken sleeper's sleep are read in executions it stands for;
  // so are a compare-exchange's failures where it was woken for its successes alone.
  std::optional<std::uint32_t> since;
  bool successes = false;
  bool woken_load = false;
  for (const Sleeper& z : sleep_) {
    if (z.thread != running_) continue;
    if (z.partial) since = std::max(since.value_or(0), z.since);
    // Only a compare-exchange has successes to keep (`writes`); a load in a step woken for its
    // writes reads as if woken in full.
    if (z.writes_woken) (writes.empty() ? woken_load : successes) = true;
  }
  if (woken_load || (!since && !successes)) return;
  std::vector<std::uint64_t> only;
  for (std::uint64_t k = 0; k < stores.size(); ++k) {
    // A store made before any step is older than any sleep; one the search did not see made
    // counts as new.
    const auto e = stores[k] == 0 ? std::nullopt : event_of(stores[k]);
    const bool fresh = since && stores[k] != 0 && (!e || *e >= *since);
    const bool succeeds = successes && k < writes.size() && writes[k] != 0;
    if (fresh || succeeds) only.push_back(k);
  }
  redundant_step_ = only.empty();
  if (choice) pending_only_ = std::move(only);
}

bool DporStrategy::allowed(const Node& node, std::uint64_t answer) const {
  if (!node.is_thread || !preemption_bound_) return true;
  const bool preempts = node.continuing != node.bound && answer != node.continuing;
  return node.preemptions_before + (preempts ? 1u : 0u) <= *preemption_bound_;
}

std::uint32_t DporStrategy::preemptions_through(const Node& node) const {
  const bool preempts =
      node.is_thread && node.continuing != node.bound && node.chosen != node.continuing;
  return node.preemptions_before + (preempts ? 1u : 0u);
}

void DporStrategy::diverged(const std::string& what) const {
  const std::string where = "at choice #" + std::to_string(depth_) + " " + what;
  note_divergence(explored_, where + " than the path holds");
  throw ScheduleDivergence(depth_, "exhaustive: the program is not deterministic: " + where +
                                       " than on the same path before");
}

std::size_t DporStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                      bool current_yielded) {
  const bool in_prefix = prefix_.thread_choice(depth_);
  if (depth_ < path_.size()) {
    const Node& node = path_[depth_];
    if (!node.is_thread ||
        !std::equal(node.runnable.begin(), node.runnable.end(), runnable.begin(), runnable.end())) {
      diverged("it asked a thread choice among other threads, or a different question,");
    }
    choosing_node_ = static_cast<std::int64_t>(depth_);
    ++depth_;
    running_ = node.runnable[node.chosen];
    return static_cast<std::size_t>(node.chosen);
  }
  Node node;
  node.bound = runnable.size();
  node.events_before = static_cast<std::uint32_t>(events_.size());
  node.branch_start = explored_ - 1;
  node.runnable.assign(runnable.begin(), runnable.end());
  node.sleep = sleep_;
  node.continuing = node.bound;
  const auto it = std::lower_bound(runnable.begin(), runnable.end(), current);
  if (!current_yielded && it != runnable.end() && *it == current) {
    node.continuing = static_cast<std::uint64_t>(it - runnable.begin());
  }
  node.preemptions_before = path_.empty() ? 0 : preemptions_through(path_.back());
  node.in_prefix = in_prefix;
  // First the thread that can go on (no preemption), else the lowest one awake and allowed.
  std::optional<std::uint64_t> pick;
  if (node.continuing < node.bound && !asleep(node, runnable[node.continuing])) {
    pick = node.continuing;
  }
  for (std::uint64_t i = 0; !pick && i < node.bound; ++i) {
    if (!asleep(node, runnable[i]) && allowed(node, i)) pick = i;
  }
  // Every thread asleep cannot happen here: step_taken ended such an execution already.
  node.chosen = pick.value_or(node.continuing < node.bound ? node.continuing : 0);
  node.backtrack.push_back(runnable[node.chosen]);
  if (in_prefix) {
    for (const ThreadId t : runnable) {
      if (!has(node.backtrack, t)) node.backtrack.push_back(t);
    }
  }
  path_.push_back(std::move(node));
  choosing_node_ = static_cast<std::int64_t>(path_.size() - 1);
  ++depth_;
  running_ = path_.back().runnable[path_.back().chosen];
  return static_cast<std::size_t>(path_.back().chosen);
}

std::uint64_t DporStrategy::next_u64(std::uint64_t bound) {
  if (depth_ < path_.size()) {
    const Node& node = path_[depth_];
    if (node.is_thread || node.bound != bound) {
      diverged("it asked for a number below " + std::to_string(bound) + ", a different question");
    }
    ++depth_;
    pending_only_.reset();
    hash_answer(node.chosen, bound);
    return node.chosen;
  }
  Node node;
  node.is_thread = false;
  node.bound = bound;
  node.branch_start = explored_ - 1;
  node.preemptions_before = path_.empty() ? 0 : preemptions_through(path_.back());
  if (pending_only_) {
    node.restricted = true;
    node.only = std::move(*pending_only_);
    pending_only_.reset();
    if (!node.only.empty()) node.chosen = node.only.front();
  }
  const std::uint64_t chosen = node.chosen;
  path_.push_back(std::move(node));
  ++depth_;
  hash_answer(chosen, bound);
  return chosen;
}

void DporStrategy::record_step(ThreadId thread, std::span<const Access> accesses,
                               std::span<const ThreadId> runnable) {
  Event ev{thread, static_cast<std::uint32_t>(accesses_.size()), 0, choosing_node_, data_hash_};
  accesses_.insert(accesses_.end(), accesses.begin(), accesses.end());
  ev.end_access = static_cast<std::uint32_t>(accesses_.size());
  index_stores(accesses, static_cast<std::uint32_t>(events_.size()));
  events_.push_back(ev);
  runnable_at_end_.assign(runnable.begin(), runnable.end());
  if (choosing_node_ >= 0) {
    // Union over the data answers taken inside the step: a sleeper stands for all of them.
    merge_accesses(path_[static_cast<std::size_t>(choosing_node_)].chosen_accesses, accesses);
  }
}

void DporStrategy::last_step(ThreadId thread, std::span<const Access> accesses,
                             std::span<const ThreadId> runnable) {
  record_step(thread, accesses, runnable);
  // A step cut short leaves its thread's state unknown: no switch after it is known free.
  if (choosing_node_ >= 0) path_[static_cast<std::size_t>(choosing_node_)].chosen_stops = false;
  choosing_node_ = -1;
  data_hash_ = 0;
  redundant_step_ = false;
  pending_read_ = false;
}

bool DporStrategy::step_taken(ThreadId thread, std::span<const Access> accesses,
                              std::span<const ThreadId> runnable) {
  record_step(thread, accesses, runnable);
  // The sleep set after this step: the sleepers (and, below a choice, the threads explored
  // there before) whose next step is independent of this one keep sleeping.
  std::vector<Sleeper> next;
  // Of `from`, those `which` picks.
  auto keep = [&](const std::vector<Sleeper>& from, auto&& which) {
    for (const Sleeper& s : from) {
      if (!which(s) || s.thread == thread) continue;
      const Wake w = wakes(s.accesses, accesses);
      if (w.full) continue;
      next.push_back(s);
      if (w.partial) next.back().partial = true;
      if (w.writes) next.back().writes_woken = true;
    }
  };
  const auto every = [](const Sleeper&) { return true; };
  if (choosing_node_ >= 0) {
    Node& node = path_[static_cast<std::size_t>(choosing_node_)];
    if (preemption_bound_) {  // only a bounded search reads it (Sleeper::stops)
      node.chosen_stops = node.chosen_stops &&
                          std::find(runnable.begin(), runnable.end(), thread) == runnable.end();
    }
    keep(node.sleep, every);
    if (!preemption_bound_) {
      keep(node.done, every);
    } else {
      // Under a bound only the thread that could have gone on sleeps, and those whose step here
      // left them unable to go on (see the header).
      keep(node.done, [&](const Sleeper& s) {
        return s.stops ||
               (node.continuing < node.bound && s.thread == node.runnable[node.continuing]);
      });
    }
  } else {
    keep(sleep_, every);
  }
  sleep_ = std::move(next);
  prefix_.step(thread, accesses, choosing_node_ >= 0);
  choosing_node_ = -1;
  data_hash_ = 0;
  pending_read_ = false;
  if (runnable.size() == 1) running_ = runnable.front();
  // Where the prefix ends, another shard's execution ends.
  if (!prefix_.may_go_on(runnable.size(), depth_)) return false;
  if (std::exchange(redundant_step_, false)) {
    last_pruned_ = true;  // see Sleeper::partial
    return false;
  }
  const auto sleeps = [&](ThreadId t) { return sleeps_in(sleep_, t); };
  if (!runnable.empty() && std::all_of(runnable.begin(), runnable.end(), sleeps)) {
    last_pruned_ = true;
    return false;
  }
  if (std::any_of(sleep_.begin(), sleep_.end(), [&](const Sleeper& s) {
        return s.accesses.empty() &&
               std::find(runnable.begin(), runnable.end(), s.thread) != runnable.end();
      })) {
    last_pruned_ = true;  // see never_wakes
    return false;
  }
  return true;
}

bool DporStrategy::never_wakes(const Node& node) const {
  if (preemption_bound_ || node.in_prefix) return false;
  const auto free = [&](const Sleeper& s) {
    return s.accesses.empty() && has(node.runnable, s.thread);
  };
  return std::any_of(node.done.begin(), node.done.end(), free) ||
         std::any_of(node.sleep.begin(), node.sleep.end(), free);
}

void DporStrategy::add_backtrack(std::size_t node_index, const std::vector<ThreadId>& initials,
                                 ThreadId want) {
  Node& node = path_[node_index];
  for (ThreadId t : initials) {
    if (has(node.backtrack, t) || asleep(node, t)) return;  // already covered here
  }
  auto index_of = [](const Node& n, ThreadId t) -> std::optional<std::uint64_t> {
    auto it = std::find(n.runnable.begin(), n.runnable.end(), t);
    if (it == n.runnable.end()) return std::nullopt;
    return static_cast<std::uint64_t>(it - n.runnable.begin());
  };
  std::optional<ThreadId> pick;
  if (has(initials, want) && index_of(node, want)) pick = want;
  for (ThreadId t : initials) {
    if (!pick && index_of(node, t)) pick = t;
  }
  if (!pick) {
    // No initial can run here (it waits for something the race's steps do): every runnable
    // thread, as the original DPOR does for a disabled thread.
    for (std::uint64_t i = 0; i < node.bound; ++i) {
      const ThreadId t = node.runnable[i];
      if (!has(node.backtrack, t) && !asleep(node, t) && allowed(node, i)) {
        node.backtrack.push_back(t);
      }
    }
    return;
  }
  if (allowed(node, *index_of(node, *pick))) {
    node.backtrack.push_back(*pick);
    if (preemption_bound_) add_at_block_start(node_index, *pick);
    return;
  }
  // Beyond the preemption bound here: the latest earlier point where it is within the bound.
  for (std::size_t k = node_index; k-- > 0;) {
    Node& earlier = path_[k];
    if (!earlier.is_thread) continue;
    const auto i = index_of(earlier, *pick);
    if (i && allowed(earlier, *i)) {
      if (!has(earlier.backtrack, *pick)) earlier.backtrack.push_back(*pick);
      return;
    }
  }
}

void DporStrategy::add_at_block_start(std::size_t node_index, ThreadId t) {
  for (std::size_t k = node_index + 1; k-- > 0;) {
    Node& node = path_[k];
    const bool switched = node.is_thread && node.chosen != node.continuing;
    if (!switched) continue;
    if (k == node_index) return;  // the block starts at the race's own node
    if (to_try(node, t) && !has(node.backtrack, t)) node.backtrack.push_back(t);
    return;
  }
}

DporStrategy::HbObject* DporStrategy::object_state(std::uint64_t object, bool add) {
  const std::size_t mask = hb_table_.size() - 1;
  for (std::size_t i = mix(object) & mask;; i = (i + 1) & mask) {
    HbSlot& slot = hb_table_[i];
    if (slot.pass == hb_pass_ && slot.object == object) return &hb_objects_[slot.index];
    if (slot.pass == hb_pass_) continue;
    if (!add) return nullptr;
    if (hb_used_ == hb_objects_.size()) hb_objects_.emplace_back();
    HbObject& fresh = hb_objects_[hb_used_];
    fresh.last_write = -1;
    fresh.reads.clear();
    slot = {object, hb_pass_, static_cast<std::uint32_t>(hb_used_++)};
    return &fresh;
  }
}

// Long (126 lines): one pass over the steps, whose clocks, per-object last accesses, races and
// fingerprint are updated together at each step.
const DporStrategy::Analysis& DporStrategy::happens_before() {
  Analysis& out = analysis_;
  const std::size_t n = events_.size();
  std::size_t threads = 0;
  for (const Event& e : events_) threads = std::max<std::size_t>(threads, e.thread + 1);
  out.threads = threads;
  out.clocks.assign(n * threads, 0);
  out.nth.assign(n, 0);
  out.races.clear();
  out.fingerprint = 0;
  std::vector<std::uint32_t>& clocks = out.clocks;
  std::vector<std::uint32_t>& nth = out.nth;
  std::vector<std::int64_t>& last_of = hb_last_of_;
  last_of.assign(threads, -1);
  // A new pass: every slot of the table is free again (cleared when the pass number wraps).
  std::size_t slots = 16;
  while (slots < 2 * accesses_.size()) slots *= 2;
  if (hb_table_.size() < slots) hb_table_.assign(slots, HbSlot{});
  if (++hb_pass_ == 0) {
    std::fill(hb_table_.begin(), hb_table_.end(), HbSlot{});
    hb_pass_ = 1;
  }
  hb_used_ = 0;
  std::vector<std::uint32_t>& before = hb_before_;
  before.assign(threads, 0);
  std::vector<HbPred>& preds = hb_preds_;
  for (std::size_t j = 0; j < n; ++j) {
    const Event& ev = events_[j];
    const ThreadId q = ev.thread;
    std::uint32_t* clock = &clocks[j * threads];
    if (last_of[q] >= 0) {
      const auto prev = static_cast<std::size_t>(last_of[q]);
      std::copy_n(&clocks[prev * threads], threads, clock);
      nth[j] = nth[prev] + 1;
    } else {
      nth[j] = 1;
    }
    std::copy_n(clock, threads, before.begin());
    clock[q] = nth[j];
    const std::span<const Access> mine(accesses_.data() + ev.first_access,
                                       ev.end_access - ev.first_access);
    preds.clear();
    for (const Access& a : mine) {
      if (a.object == kAfterEveryThread) {
        for (std::size_t t = 0; t < threads; ++t) {
          if (t != q && last_of[t] >= 0) {
            preds.push_back({static_cast<std::uint32_t>(last_of[t]), false, true});
          }
        }
        continue;
      }
      if (a.races_store && !preemption_bound_) {
        // A race with the write that made that store alone (see Access::races_store).
        if (const auto e = event_of(a.store); e && *e < j) {
          preds.push_back({*e, true, true, true, true});
          continue;
        }
      }
      if (reads_freely(a)) {
        // Ordered after the store it read alone (none: one made before any step).
        const auto from = a.store == 0 ? std::nullopt : event_of(a.store);
        if (a.store == 0 || (from && *from < j)) {
          if (from) preds.push_back({*from, false, true});
          continue;
        }
      }
      const HbObject* st = object_state(a.object, false);
      if (st == nullptr) continue;
      if (st->last_write >= 0) {
        preds.push_back({static_cast<std::uint32_t>(st->last_write), !a.follows_write, !a.chained});
      }
      if (a.write) {
        for (const HbRead& r : st->reads) preds.push_back({r.step, true, true, !r.free});
      }
    }
    // One entry per earlier step: a race if one of its accesses makes one and none orders the
    // two steps for good (a follows_write access that is not chained, or kAfterEveryThread).
    std::sort(preds.begin(), preds.end(),
              [](const HbPred& x, const HbPred& y) { return x.step < y.step; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < preds.size();) {
      HbPred merged = preds[i];
      bool fixed = !merged.race && merged.orders;
      for (++i; i < preds.size() && preds[i].step == merged.step; ++i) {
        merged.race = merged.race || preds[i].race;
        merged.orders = merged.orders || preds[i].orders;
        merged.counts = merged.counts || preds[i].counts;
        merged.forced = merged.forced || preds[i].forced;
        fixed = fixed || (!preds[i].race && preds[i].orders);
      }
      merged.race = (merged.race && !fixed) || merged.forced;
      preds[kept++] = merged;
    }
    preds.resize(kept);
    std::uint64_t h = mix((std::uint64_t{q} << 32) ^ nth[j]) ^ mix(ev.data + 1);
    for (const HbPred& pred : preds) {
      const std::uint32_t c = pred.step;
      const ThreadId p = events_[c].thread;
      if (pred.counts) h += mix((std::uint64_t{p} << 32 | nth[c]) ^ 0x5bd1e995ULL);
      if (p == q) continue;
      // A race unless c happens before this step through another predecessor that orders it
      // (or the thread's previous step): then the two cannot be swapped alone.
      const bool through_other = std::any_of(preds.begin(), preds.end(), [&](const HbPred& d) {
        return d.orders && d.step != c && clocks[std::size_t{d.step} * threads + p] >= nth[c];
      });
      if (pred.race && before[p] < nth[c] && !through_other) {
        out.races.push_back({c, static_cast<std::uint32_t>(j)});
      }
      const std::uint32_t* other = &clocks[std::size_t{c} * threads];
      for (std::size_t t = 0; t < threads; ++t) clock[t] = std::max(clock[t], other[t]);
    }
    for (const Access& a : mine) {
      if (a.object == kAfterEveryThread || a.races_store) continue;
      HbObject& st = *object_state(a.object, true);
      if (a.write) {
        st.last_write = static_cast<std::int64_t>(j);
        st.reads.clear();
      } else {
        st.reads.push_back({static_cast<std::uint32_t>(j), reads_freely(a)});
      }
    }
    last_of[q] = static_cast<std::int64_t>(j);
    out.fingerprint += mix(h);
  }
  return out;
}

void DporStrategy::reverse_races(const Analysis& a) {
  // Each race (e, e'): at the point before e, make sure a thread runs that can start an
  // execution in which e' comes before e. The candidates (initials) are the threads whose first
  // step in u = (the steps after e that do not happen after it), e' has no step of u before it.
  const std::size_t threads = a.threads;
  std::vector<std::uint32_t> first_in_u(threads);
  std::vector<ThreadId> initials;
  for (const Race& race : a.races) {
    const Event& e = events_[race.first];
    if (e.node < 0) continue;  // e's thread was the only one runnable: nothing else could run
    const ThreadId p = e.thread;
    std::fill(first_in_u.begin(), first_in_u.end(), 0);
    initials.clear();
    for (std::size_t k = race.first + 1; k <= race.second; ++k) {
      const std::uint32_t* clock = &a.clocks[k * threads];
      if (k != race.second && clock[p] >= a.nth[race.first]) continue;  // after e: not in u
      const ThreadId r = events_[k].thread;
      if (first_in_u[r] != 0) continue;
      bool initial = true;
      for (std::size_t s = 0; s < threads && initial; ++s) {
        if (s != r && first_in_u[s] != 0 && clock[s] >= first_in_u[s]) initial = false;
      }
      first_in_u[r] = a.nth[k];
      if (initial) initials.push_back(r);
    }
    add_backtrack(static_cast<std::size_t>(e.node), initials, events_[race.second].thread);
  }
}

void DporStrategy::analyze_execution() {
  if (events_.empty()) return;
  const Analysis& analysis = happens_before();
  if (!last_pruned_) {
    if (traces_.size() < kTraceCap) {
      traces_.insert(analysis.fingerprint);
    } else {
      traces_capped_ = true;
    }
  }
  reverse_races(analysis);
}

void DporStrategy::cover_unseen_steps() {
  // The execution ended with threads that could still run (a violation, the step bound): their
  // next steps were never seen, so their races are unknown. Each is tried at every point after
  // its last step where it could run, as a search without reduction would.
  for (const ThreadId p : runnable_at_end_) {
    std::size_t from = 0;
    for (std::size_t k = events_.size(); k-- > 0;) {
      if (events_[k].thread == p) {
        from = k + 1;
        break;
      }
    }
    for (std::size_t k = from; k < events_.size(); ++k) {
      if (events_[k].node < 0) continue;
      const Node& node = path_[static_cast<std::size_t>(events_[k].node)];
      if (std::find(node.runnable.begin(), node.runnable.end(), p) == node.runnable.end()) continue;
      add_backtrack(static_cast<std::size_t>(events_[k].node), {p}, p);
    }
  }
}

bool DporStrategy::next_alternative(Node& node) {
  if (!node.is_thread) {
    if (node.restricted) {
      const auto next = std::upper_bound(node.only.begin(), node.only.end(), node.chosen);
      if (next == node.only.end()) return false;
      node.chosen = *next;
      return true;
    }
    if (node.chosen + 1 >= node.bound) return false;
    ++node.chosen;
    return true;
  }
  node.done.push_back(
      {node.runnable[node.chosen], std::move(node.chosen_accesses), node.events_before});
  node.done.back().stops = node.chosen_stops;
  node.chosen_accesses.clear();
  node.chosen_stops = true;
  if (never_wakes(node)) return false;
  for (const ThreadId t : node.backtrack) {
    if (const auto i = to_try(node, t)) {
      node.chosen = *i;
      return true;
    }
  }
  return false;
}

std::optional<std::uint64_t> DporStrategy::to_try(const Node& node, ThreadId t) const {
  const bool explored = std::any_of(node.done.begin(), node.done.end(),
                                    [t](const Sleeper& s) { return s.thread == t; });
  if (explored || asleep(node, t)) return std::nullopt;
  const auto it = std::find(node.runnable.begin(), node.runnable.end(), t);
  const auto i = static_cast<std::uint64_t>(it - node.runnable.begin());
  if (it == node.runnable.end() || !allowed(node, i)) return std::nullopt;
  return i;
}

std::uint64_t DporStrategy::rank(const Node& node) {
  if (node.is_thread) return node.done.size();
  if (!node.restricted) return node.chosen;
  return static_cast<std::uint64_t>(
      std::lower_bound(node.only.begin(), node.only.end(), node.chosen) - node.only.begin());
}

std::uint64_t DporStrategy::untried(const Node& node) const {
  if (!node.is_thread && node.restricted) {
    return node.only.empty() ? 0 : node.only.size() - rank(node) - 1;
  }
  if (!node.is_thread) return node.chosen + 1 < node.bound ? node.bound - node.chosen - 1 : 0;
  if (never_wakes(node)) return 0;
  std::uint64_t n = 0;
  for (const ThreadId t : node.backtrack) {
    if (t != node.runnable[node.chosen] && to_try(node, t)) ++n;
  }
  return n;
}

double DporStrategy::estimated_executions() const {
  double total = static_cast<double>(explored_);
  for (std::size_t d = 0; d < path_.size(); ++d) {
    const Node& node = path_[d];
    total += estimate_.remaining(d, rank(node) + 1, untried(node), explored_ - node.branch_start,
                                 node.is_thread);
  }
  return total;
}

std::optional<Execution> DporStrategy::new_execution() {
  if (complete_) return std::nullopt;
  if (explored_ > 0) {
    // Another shard's execution adds nothing: its races could only add threads to the
    // prefix's choices, which explore every thread already.
    if (prefix_.owned()) {
      if (last_pruned_) ++pruned_;
      analyze_execution();
      if (!last_pruned_) cover_unseen_steps();
    }
    path_.resize(std::min(path_.size(), depth_));
    while (!path_.empty()) {
      Node& node = path_.back();
      estimate_.branch_done(path_.size() - 1, rank(node), explored_ - node.branch_start);
      node.branch_start = explored_;
      if (next_alternative(node)) break;
      if (node.is_thread) estimate_.node_done(path_.size() - 1, rank(node));
      path_.pop_back();
    }
    if (path_.empty()) {
      complete_ = true;
      return std::nullopt;
    }
  }
  prefix_.begin_execution(explored_ == 0, path_.empty() ? 0 : path_.size() - 1);
  events_.clear();
  accesses_.clear();
  store_events_.clear();
  sleep_.clear();
  runnable_at_end_.clear();
  choosing_node_ = -1;
  data_hash_ = 0;
  running_ = 0;
  pending_read_ = false;
  pending_only_.reset();
  redundant_step_ = false;
  last_pruned_ = false;
  depth_ = 0;
  ++explored_;
  Execution e;
  e.producer = SimStrategySpec{ExhaustiveParams{preemption_bound_, /*reduce=*/true}};
  e.counts = prefix_.owned();
  e.reduced = true;
  e.steps = this;
  return e;
}

}  // namespace syncstress
