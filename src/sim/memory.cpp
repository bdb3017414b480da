// The C++ memory model on sim: see memory.hpp.
#include "sim/memory.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

namespace syncstress::sim::detail {

namespace {

bool acquires(std::memory_order mo) {
  return mo == std::memory_order_acquire || mo == std::memory_order_consume ||
         mo == std::memory_order_acq_rel || mo == std::memory_order_seq_cst;
}
bool releases(std::memory_order mo) {
  return mo == std::memory_order_release || mo == std::memory_order_acq_rel ||
         mo == std::memory_order_seq_cst;
}

}  // namespace

std::string ReadFrom::note() const {
  if (newer == 0) return {};
  std::string out = ", stale: ";
  out += step == 0 ? std::string("the initial value") : "the store of step " + std::to_string(step);
  out += ", " + std::to_string(newer) + (newer == 1 ? " newer" : " newer ones");
  return out;
}

std::string Placed::note() const {
  if (newer == 0) return {};
  return ", before " + std::to_string(newer) + (newer == 1 ? " newer" : " newer ones");
}

namespace {
/// Execution numbers unique across every Memory of the process: an atomic used by two
/// runtimes never takes one's slot for the other's.
std::atomic<std::uint64_t> g_executions{1};
}  // namespace

void Memory::reset() {
  execution_ = g_executions.fetch_add(1, std::memory_order_relaxed) + 1;
  for (ThreadState& t : threads_) t.clear();
  locations_.clear();
  sync_.clear();
  cells_.clear();
  sc_fences_.clear();
  chosen_ = nullptr;
}

void Memory::thread_started(ThreadId child, const ThreadId* parent) {
  // Both threads' states first: thread() may grow threads_. Assigning a clock keeps the
  // storage of the one it replaces.
  ThreadState& c = thread(child);
  c.clear();
  if (parent != nullptr) {
    const ThreadState& p = thread(*parent);
    c.now = p.now;
    tick(*parent);
  }
  c.now.set(child, 1);
}

void Memory::joined(ThreadId joiner, ThreadId joined) {
  thread(std::max(joiner, joined));
  threads_[joiner].now.join(threads_[joined].now);
}

void Memory::release(ThreadId t, const void* obj) {
  bool fresh = false;
  Clock& carried = sync_.get(obj, &fresh);
  if (fresh) carried.clear();
  carried.join(thread(t).now);
  tick(t);
}

void Memory::acquire(ThreadId t, const void* obj) {
  if (const Clock* carried = sync_.find(obj)) thread(t).now.join(*carried);
}

void Memory::acquire_release(ThreadId t, const void* obj) {
  bool fresh = false;
  Clock& carried = sync_.get(obj, &fresh);
  ThreadState& self = thread(t);
  if (!fresh) self.now.join(carried);
  carried = self.now;  // the join of both, after the acquire
  tick(t);
}

void Memory::restart(Location& loc, std::uint64_t bits, ThreadId t, std::uint32_t epoch) {
  loc.count = 0;
  for (std::vector<Seen>& s : loc.seen) s.clear();
  loc.last_sc = -1;
  Store& first = loc.append();
  first.bits = bits;
  first.thread = t;
  first.epoch = epoch;
  first.step = 0;
  first.rmw = false;
  first.carries.clear();
}

Memory::Store& Memory::Location::insert(std::uint32_t at) {
  if (at == count) return append();
  append();
  std::rotate(slots.begin() + at, slots.begin() + count - 1, slots.begin() + count);
  for (std::vector<Seen>& s : seen) {
    for (Seen& e : s) e.index += e.index >= at ? 1 : 0;
  }
  if (last_sc >= static_cast<std::int64_t>(at)) ++last_sc;
  return slots[at];
}

Memory::Location& Memory::location(const void* obj, Where& where, std::uint64_t current) {
  if (where.execution == execution_) return locations_.at(where.slot);
  bool fresh = false;
  Location& l = locations_.get(obj, &fresh, &where.slot);
  where.execution = execution_;
  // Made before the execution: its value happens before every thread's first step.
  if (fresh) restart(l, current, 0, 0);
  return l;
}

void Memory::created(ThreadId t, const void* obj, Where& where, std::uint64_t bits) {
  bool fresh = false;
  Location& l = locations_.get(obj, &fresh, &where.slot);
  where.execution = execution_;
  restart(l, bits, t, epoch(t));
  see(l, t, 0);
}

bool Memory::see(Location& loc, ThreadId t, std::uint32_t index) {
  if (loc.seen.size() <= t) loc.seen.resize(t + 1);
  std::vector<Seen>& s = loc.seen[t];
  if (!s.empty() && s.back().index >= index) return false;
  const std::uint32_t e = epoch(t);
  if (!s.empty() && s.back().epoch == e) {
    s.back().index = index;
  } else {
    s.push_back(Seen{e, index});
  }
  return true;
}

std::uint32_t Memory::lower_bound(ThreadId t, const Location& loc, bool sc) const {
  const Clock& now = threads_[t].now;
  std::uint32_t bound = 0;
  for (std::size_t u = 0; u < loc.seen.size(); ++u) {
    const std::uint32_t visible = now.at(static_cast<ThreadId>(u));
    const std::vector<Seen>& s = loc.seen[u];
    // The latest access of u that happens before t's load (epochs ascending).
    for (auto it = s.rbegin(); it != s.rend(); ++it) {
      if (it->epoch <= visible) {
        bound = std::max(bound, it->index);
        break;
      }
    }
  }
  if (sc && loc.last_sc >= 0) bound = std::max(bound, static_cast<std::uint32_t>(loc.last_sc));
  return bound;
}

bool Memory::repeats(ThreadId t, const void* obj, const std::source_location& loc) {
  std::vector<ThreadState::Read>& reads = thread(t).reads;
  for (const ThreadState::Read& r : reads) {
    if (r.obj == obj && r.line == loc.line() && r.file == loc.file_name()) return true;
  }
  reads.push_back({obj, loc.file_name(), loc.line()});
  return false;
}

bool Memory::rmw_repeats(ThreadId t, const void* obj, const std::source_location& loc) {
  ThreadState::Read& last = thread(t).last_rmw;
  const bool again = last.obj == obj && last.line == loc.line() && last.file == loc.file_name();
  last = {obj, loc.file_name(), loc.line()};
  return again;
}

std::uint64_t Memory::choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                              std::memory_order mo, const std::source_location& loc) {
  thread(t);
  Location& l = location(obj, where, current);
  chosen_ = &l;
  candidates_.clear();
  const std::uint32_t newest = l.newest();
  const bool sc = mo == std::memory_order_seq_cst;
  const bool again = repeats(t, obj, loc);
  free_ = !again && !sc;
  closers_.clear();
  const std::uint32_t low = again ? newest : lower_bound(t, l, sc);
  for (std::uint32_t i = newest + 1; i-- > low;) candidates_.push_back(i);
  return candidates_.size();
}

std::uint64_t Memory::cas_choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                                  std::uint64_t expected, std::memory_order mo,
                                  const std::source_location& loc) {
  choices(t, obj, where, current, mo, loc);
  placing_ = obj;
  // A CAS that reads a store holding `expected` succeeds: a read-modify-write, which cannot
  // read a store another one has read, nor an older store than the newest when it repeats.
  // Where such a store is closed to it, what it may do depends on what other threads did
  // before it (had it come first, it could have succeeded there): its failure is no free read.
  // A store closed by the read-modify-write that read it (the next in modification order) is
  // named in closers(): the compare-exchange races with that one alone.
  const Location& l = *chosen_;
  const bool again = rmw_repeats(t, obj, loc);
  const std::uint32_t newest = l.newest();
  closers_.clear();
  std::erase_if(candidates_, [&](std::uint32_t i) {
    if (l.at(i).bits != expected) return false;
    if (again) {
      free_ = free_ && i == newest;
      return i != newest;
    }
    if (l.rmw_may_read(i)) return false;
    closers_.push_back(l.at(i + 1).step);
    return true;
  });
  return candidates_.size();
}

std::uint64_t Memory::rmw_choices(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                                  std::memory_order mo, const std::source_location& loc) {
  thread(t);
  Location& l = location(obj, where, current);
  chosen_ = &l;
  placing_ = obj;
  candidates_.clear();
  const std::uint32_t low =
      rmw_repeats(t, obj, loc) ? l.newest() : lower_bound(t, l, mo == std::memory_order_seq_cst);
  for (std::uint32_t i = l.newest() + 1; i-- > low;) {
    if (l.rmw_may_read(i)) candidates_.push_back(i);
  }
  return candidates_.size();
}

ReadFrom Memory::candidate(std::uint64_t n) const {
  const std::uint32_t i = candidates_[n];
  const Store& s = chosen_->at(i);
  return ReadFrom{s.bits, s.step, chosen_->newest() - i};
}

ReadFrom Memory::read(ThreadId t, std::uint64_t n, std::memory_order mo) {
  ReadFrom out = candidate(n);
  const std::uint32_t i = candidates_[n];
  out.unseen = see(*chosen_, t, i);
  ThreadState& self = thread(t);
  const Clock& carried = chosen_->at(i).carries;
  if (acquires(mo)) {
    self.now.join(carried);
  } else {
    self.pending_acquire.join(carried);
  }
  return out;
}

void Memory::read_newest(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                         std::memory_order mo) {
  thread(t);
  chosen_ = &location(obj, where, current);
  candidates_.assign(1, chosen_->newest());
  read(t, 0, mo);
}

void Memory::fill(Location& loc, std::uint32_t index, ThreadId t, std::uint64_t bits, bool rmw,
                  std::uint64_t step) {
  Store& s = loc.at(index);
  s.bits = bits;
  s.thread = t;
  s.epoch = epoch(t);
  s.step = step;
  s.rmw = rmw;
  s.carries.clear();
}

void Memory::wrote(Location& loc, const void* obj, ThreadId t, std::uint32_t index,
                   std::memory_order mo) {
  if (mo == std::memory_order_seq_cst) loc.last_sc = index;
  see(loc, t, index);
  std::erase_if(thread(t).reads, [obj](const ThreadState::Read& r) { return r.obj == obj; });
  if (releases(mo)) tick(t);
}

std::uint64_t Memory::placements(ThreadId t, const void* obj, Where& where, std::uint64_t current,
                                 std::memory_order mo) {
  thread(t);
  Location& l = location(obj, where, current);
  chosen_ = &l;
  placing_ = obj;
  candidates_.assign(1, l.count);
  if (mo == std::memory_order_seq_cst) return 1;
  // After every store it is bound to see (coherence), and not between a read-modify-write and
  // the store that one read (atomicity).
  const std::uint32_t low = lower_bound(t, l, false);
  for (std::uint32_t at = l.count - 1; at > low; --at) {
    if (!l.at(at).rmw) candidates_.push_back(at);
  }
  return candidates_.size();
}

Placed Memory::store(ThreadId t, std::uint64_t n, std::uint64_t bits, std::memory_order mo,
                     std::uint64_t step) {
  Location& l = *chosen_;
  const std::uint32_t at = candidates_[n];
  l.insert(at);
  fill(l, at, t, bits, false, step);
  ThreadState& self = thread(t);
  l.at(at).carries.join(releases(mo) ? self.now : self.fence_release);
  wrote(l, placing_, t, at, mo);
  return Placed{l.at(l.newest()).bits, l.newest() - at};
}

Placed Memory::read_modify_write(ThreadId t, std::uint64_t n, std::uint64_t bits,
                                 std::memory_order mo, std::uint64_t step) {
  Location& l = *chosen_;
  const std::uint32_t from = candidates_[n];
  const std::uint32_t at = from + 1;
  l.insert(at);  // at the end, or before a plain store (rmw_may_read): up to `from` stay put
  fill(l, at, t, bits, true, step);
  ThreadState& self = thread(t);
  Store& s = l.at(at);
  const Store& read = l.at(from);
  if (acquires(mo)) {
    self.now.join(read.carries);
  } else {
    self.pending_acquire.join(read.carries);
  }
  s.carries = read.carries;  // the release sequence it continues
  s.carries.join(releases(mo) ? self.now : self.fence_release);
  wrote(l, placing_, t, at, mo);
  return Placed{l.at(l.newest()).bits, l.newest() - at};
}

void Memory::fence(ThreadId t, std::memory_order mo) {
  ThreadState& self = thread(t);
  if (acquires(mo)) self.now.join(self.pending_acquire);
  if (mo == std::memory_order_seq_cst) {
    self.now.join(sc_fences_);
    sc_fences_ = self.now;
  }
  if (releases(mo)) {
    self.fence_release = self.now;
    tick(t);
  }
}

Memory::Cell& Memory::cell(const void* obj) {
  bool fresh = false;
  Cell& c = cells_.get(obj, &fresh);
  if (fresh) c.clear();  // made before the execution: nothing has accessed it yet
  return c;
}

void Memory::cell_created(const void* obj) {
  bool fresh = false;
  cells_.get(obj, &fresh).clear();
}

const CellAccess* Memory::cell_access(ThreadId t, const void* obj, bool write,
                                      const std::source_location& loc) {
  Cell& c = cell(obj);
  const CellAccess now{t, epoch(t), loc.file_name(), loc.line(),
                       static_cast<std::uint32_t>(thread(t).ops.size())};
  if (c.written && c.write.thread != t && !happens_before(c.write, t)) return &c.write;
  if (write) {
    for (const CellAccess& r : c.reads) {
      if (r.thread != t && !happens_before(r, t)) return &r;
    }
    c.write = now;
    c.written = true;
    c.reads.clear();
    return nullptr;
  }
  for (CellAccess& r : c.reads) {
    if (r.thread == t) {
      r = now;
      return nullptr;
    }
  }
  c.reads.push_back(now);
  return nullptr;
}

}  // namespace syncstress::sim::detail
