// The spin-loop reduction (Options::spin_reduction): a loop that only re-reads what nobody has
// written since is run as one step instead of a scheduling point per read.
//
// A thread's reads since its own last write (or block, or other effect) are kept, each (object,
// line) once, and a write by another thread to one of their objects empties the list. When the
// thread reads an (object, line) of the list again, it has gone round a loop none of whose reads
// another thread has changed since: its next iteration would read the same values. It is then
// spinning: it stays runnable, and once chosen it runs the loop's reads (and yields) without a
// scheduling point, as one step, until it is about to do anything else (a write, a read at
// another line, a block). That operation gets a scheduling point before it (Engine::before), so
// another thread may run between the spin and what the thread does after it. A write by another
// thread to an object the loop reads ends the spin: the thread's next read is an ordinary step
// and sees the new value.
//
// So the interleavings kept are: another thread's write before the spin's step (the loop sees
// it at its next read) or after it (the loop ran out, or spins on). Those dropped put the write
// between two iterations that read the same values, which only changes how many times the loop
// went round. The condition this relies on, which docs/model-checking.md states: what a loop does
// once it exits does not depend on how many iterations it took, only on the values it read (a
// bounded spin's counter decides whether it gave up, and the spin's step runs until it gives up).
//
// A loop that does not exit after Options::spin_limit operations alone is taken for one that
// never will: its thread blocks (Wait::spin) until a write to an object the loop reads, and
// when no thread can run any more it is a livelock (scheduling.cpp), with the loop's lines.
// The thread remembers the loop for the rest of the execution: when it spins there again, it
// waits at once instead of running the limit out again.
#include <string>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

bool Engine::note_read(Thread& t, Kind kind, const void* obj, const source_location& loc) {
  SpinState& s = t.spin;
  for (std::uint8_t i = 0; i < s.size; ++i) {
    if (!s.reads[i].is(obj, loc)) continue;
    s.loop = i;
    s.spinning = true;
    s.skipped = 0;
    s.turns = 0;
    for (std::uint8_t k = 0; k < s.endless_count; ++k) {
      if (s.endless[k].is(obj, loc)) {
        spin_wait(t);
        return false;
      }
    }
    return true;
  }
  if (s.size == SpinState::kReads) {
    // The oldest read goes: a loop of more distinct reads than kept is never noticed.
    for (std::uint8_t i = 1; i < s.size; ++i) s.reads[i - 1] = s.reads[i];
    --s.size;
  }
  s.reads[s.size++] = SpinState::Read{obj, loc.file_name(), loc.line(), kind};
  read_filter_ |= filter_bit(obj);
  return true;
}

bool Engine::spin_turn(Thread& t) {
  SpinState& s = t.spin;
  ++s.skipped;
  if (s.skipped > options_.spin_limit) {
    if (s.endless_count < SpinState::kEndless) s.endless[s.endless_count++] = s.reads[s.loop];
    spin_wait(t);
  }
  return false;
}

void Engine::spin_boundary(const void* obj, const source_location& loc, bool writes) {
  Thread& t = *current_;
  const SpinState& s = t.spin;
  if (!writes) {
    if (obj == nullptr) return;
    for (std::uint8_t i = s.loop; i < s.size; ++i) {
      if (s.reads[i].is(obj, loc)) {
        if (i == s.loop) ++t.spin.turns;
        return;  // the loop's next read: no scheduling point before it
      }
    }
  }
  end_spin(t);
}

void Engine::end_spin(Thread& t) {
  SpinState& s = t.spin;
  s.spinning = false;
  if (s.skipped == 0) return;  // chosen, and about to leave the loop at once
  ++steps_;
  if (tracing_) record_spin(t, false);
  s.skipped = 0;
  s.turns = 0;
  schedule(false, After::step);
}

void Engine::spin_wait(Thread& t) {
  SpinState& s = t.spin;
  const SpinState::Read& first = s.reads[s.loop];
  ++steps_;
  if (tracing_) record_spin(t, true);
  t.state = State::blocked;
  t.wait = Wait::spin;
  t.wait_kind = first.kind;
  t.wait_obj = first.obj;
  t.wait_op = "spin";
  t.wait_loc = source_location{};
  t.wait_holder = -1;
  t.handed = false;
  make_blocked(t);
  s.skipped = 0;
  s.turns = 0;
  schedule(false, After::blocked);
}

void Engine::note_wait_reads(Thread& t, const void* obj) {
  t.wait_reads_size = 0;
  t.wait_reads[t.wait_reads_size++] = obj;
  read_filter_ |= filter_bit(obj);
  for (std::uint8_t i = 0; i < t.spin.size; ++i)
    t.wait_reads[t.wait_reads_size++] = t.spin.reads[i].obj;
}

void Engine::release_readers(const void* obj) {
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& other = *threads_[i];
    if (other.spurious_spent && &other != current_) {
      for (std::uint8_t k = 0; k < other.wait_reads_size; ++k) {
        if (other.wait_reads[k] == obj) other.spurious_spent = false;
      }
    }
    if (&other == current_ || other.spin.size == 0 || !other.spin.reads_object(obj)) continue;
    const bool waits = other.state == State::blocked && other.wait == Wait::spin;
    other.spin.forget();
    if (waits) wake(other, false);
  }
}

void Engine::record_spin(const Thread& t, bool waits) {
  const SpinState& s = t.spin;
  const SpinState::Read& first = s.reads[s.loop];
  TraceEntry& e = result_.trace.emplace_back();
  e.step = steps_;
  e.thread = t.id;
  e.op = "spin";
  e.object = name_of(first.kind, first.obj);
  e.values = std::to_string(s.turns) + (s.turns == 1 ? " more time" : " more times") +
             " round a loop of " + std::to_string(s.size - s.loop) +
             (s.size - s.loop == 1 ? " read" : " reads") + " nobody changed";
  if (waits) e.values += "; waits for a write to what it reads";
  e.file = first.file;
  e.line = first.line;
}

std::string Engine::spin_lines(const Thread& t) {
  const SpinState& s = t.spin;
  std::string lines;
  for (std::uint8_t i = s.loop; i < s.size; ++i) {
    if (!lines.empty()) lines += ", ";
    lines += std::string(short_file(s.reads[i].file)) + ":" + std::to_string(s.reads[i].line);
  }
  return lines;
}

}  // namespace syncstress::sim::detail
