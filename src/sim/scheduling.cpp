// Scheduling: a step is recorded, then the Strategy picks who runs next; a thread blocks and
// is woken; no runnable thread ends the execution (completed, or a deadlock and its picture).
#include <algorithm>
#include <cstddef>
#include <exception>
#include <span>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

namespace {

std::string thread_label(const Thread& t) {
  std::string s = "thread " + std::to_string(t.id);
  if (t.worker) s += " (pool worker)";
  return s;
}

}  // namespace

void Engine::record(Kind kind, const void* obj, std::string_view op, std::string values,
                    const source_location& loc) {
  TraceEntry& e = result_.trace.emplace_back();
  e.step = steps_;
  e.thread = current_id();
  e.op = op;
  e.object = name_of(kind, obj);
  e.values = std::move(values);
  e.file = loc.file_name();
  e.line = loc.line();
}

bool Engine::schedule(bool yielded, After after) {
  Thread& cur = *current_;
  // Nothing can run: a thread waiting for that goes on, before any timeout ("Quiescence").
  if (quiescence_waiters_ != 0 && runnable_.size() == 0 && !aborting_) [[unlikely]]
    wake_quiescent();
  // Before the step is reported: a spurious wake or a timeout is part of it (see engine.hpp),
  // or, in the reducing search's executions, the waits that may end are offered beside the
  // runnable threads. Not when the step bound ends the execution below. With no other thread
  // runnable, only a timeout (a deadlock stays one: a wait that only a spurious wake-up ends is
  // a bug).
  Thread* woken = nullptr;
  const bool wait_ends = wait_ends_are_steps();
  std::uint64_t earliest = kNoDeadline;  // of the waits offered
  if (wait_ends) [[unlikely]] {
    earliest = offer_wait_ends();
  } else if ((spurious_wakeups_on_ || timed_waiters_ != 0) && steps_ <= options_.max_steps) {
    woken = wake_spuriously(cur);
    if (aborting_) return in_teardown(after);  // the strategy refused to answer
  }
  const std::span<const ThreadId> choices = choice_list(wait_ends);
  if (observe_ && !report_step(cur, choices)) return in_teardown(after);
  if (steps_ > options_.max_steps) [[unlikely]] {
    exceed_step_bound();
    return in_teardown(after);
  }
  const std::size_t n = choices.size();
  if (n == 0) [[unlikely]] {
    no_runnable();
    return in_teardown(after);
  }
  ThreadId next = choices[0];
  if (woken != nullptr) {
    next = woken->id;
  } else if (n > 1) {
    std::size_t i = 0;
    if (draws_.rng != nullptr) {
      // The strategy's own answer (Execution::draws), without asking it.
      i = static_cast<std::size_t>(draws_.rng->below(n));
      if (draws_.record != nullptr) draws_.record->push_back(Choice{ChoiceKind::kThread, i, n});
    } else if (!ask_next_thread(cur, choices, yielded || (wait_ends && cur.state == State::blocked),
                                &i)) {
      return in_teardown(after);
    }
    next = choices[i];
  }
  event_open_ = true;  // the chosen thread's next step begins
  if (wait_ends && threads_[next]->state == State::blocked) [[unlikely]] {
    end_wait(*threads_[next], earliest, /*as_step=*/true);  // its step: the wait's end
  }
  if (next != cur.id) {
    Thread& to = *threads_[next];
    current_ = &to;
    switch_context(cur.ctx, to.ctx);
  }
  if (aborting_) [[unlikely]]
    return in_teardown(after);
  return true;
}

bool Engine::in_teardown(After after) {
  switch (after) {
    case After::nothing:
      return false;
    case After::blocked:
      abort_point();
      return false;
    case After::step:
    case After::blocked_quiet:
      budget_point();
      return false;
  }
  return false;
}

void Engine::step_noted(Kind kind, const void* obj, std::string_view op, TraceValues values,
                        source_location loc, Point point, bool writes, bool touches) {
  const ModelNote note = std::exchange(model_note_, {});
  if (aborting_) {
    // A coroutine resumed in teardown stops at its first operation (see engine.hpp).
    if (point == Point::plain && (current_ == nullptr || !current_->resumed_in_teardown)) {
      budget_point();
    } else {
      abort_point();
    }
    return;
  }
  if (spin_reduction_ && !spin_step(kind, obj, loc, writes)) {
    // A read of a spinning loop: part of the spin's step, its object reported once.
    if (observe_ && obj != nullptr && !covered(obj, false)) touch(obj, false);
    return;
  }
  ++steps_;
  // An access the step made already adds nothing (and keeps a join's or a lock's mark).
  if (observe_ && obj != nullptr && touches && !covered(obj, writes)) {
    touch(obj, writes);
    if (note.obj == obj) {
      accesses_.back().store = note.store;
      accesses_.back().free_read = note.free_read && !writes;
      if (note.free_read && note.closers && !writes) {
        const std::uint64_t id = accesses_.back().object;
        for (const std::uint64_t s : memory_.closers()) {
          accesses_.push_back(Access{id, false, false, false, false, s, true});
        }
      }
    }
  }
  if (tracing_) record(kind, obj, op, values.str(), loc);
  // Resumed by teardown: the operation completed, it returns normally.
  schedule(point == Point::yield, After::step);
}

void Engine::note_block(Kind kind, const void* obj, std::string_view op, TraceValues values,
                        source_location loc, bool observed) {
  if (observe_ && observed) {
    touch(obj, false);   // it found obj not ready,
    touch_waiters(obj);  // and is now on obj's wait list
  }
  if (tracing_) {
    std::string text = values.str();
    text += text.empty() ? "blocks" : ", blocks";
    record(kind, obj, op, std::move(text), loc);
  }
}

bool Engine::report_step(const Thread& cur, std::span<const ThreadId> choices) {
  bool go_on = true;
  std::string refused;
  try {
    go_on = observer_->step_taken(cur.id, accesses_, choices);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  accesses_.clear();
  event_open_ = false;
  if (!refused.empty()) {
    end_execution(Outcome::exception, "strategy", refused, nullptr);
    return false;
  }
  if (!go_on) {
    end_execution(Outcome::pruned, "", "", nullptr);
    return false;
  }
  return true;
}

void Engine::exceed_step_bound() {
  end_execution(
      Outcome::step_bound, "step-bound",
      "step bound of " + std::to_string(options_.max_steps) + " exceeded (livelock or starvation)",
      nullptr);
}

bool Engine::ask_next_thread(const Thread& cur, std::span<const ThreadId> choices, bool yielded,
                             std::size_t* index) {
  const std::size_t n = choices.size();
  std::size_t i = 0;
  std::string refused;
  // A strategy that throws (a replay that no longer fits the program) ends the execution
  // here: its exception must not travel through the primitive's frames, some noexcept.
  try {
    i = strategy_->next_thread(choices, cur.id, yielded);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  if (!refused.empty()) {
    end_execution(Outcome::exception, "strategy", refused, nullptr);
    return false;
  }
  if (i >= n) {
    end_execution(Outcome::exception, "strategy",
                  "the strategy chose index " + std::to_string(i) + " among " + std::to_string(n) +
                      " runnable threads",
                  nullptr);
    return false;
  }
  *index = i;
  return true;
}

std::uint64_t Engine::earliest_deadline() const {
  std::uint64_t earliest = kNoDeadline;
  if (timed_waiters_ == 0) return earliest;
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    const Thread& t = *threads_[i];
    if (t.state == State::blocked && offers_spurious(t) && t.deadline < earliest) {
      earliest = t.deadline;
    }
  }
  return earliest;
}

Thread* Engine::wake_spuriously(const Thread& cur) {
  // No thread runnable: time passes, and the earliest deadline's wait times out.
  const bool time_passes = runnable_.empty();
  const std::uint64_t earliest = earliest_deadline();
  spurious_candidates_.clear();
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& t = *threads_[i];
    // A spurious wake: not the thread that has just blocked, whose return at once is the
    // call's own spurious return (Engine::wait_on_address, Engine::park). Its timeout, yes: it
    // may time out before anyone else acts.
    const bool times_out = t.deadline == earliest && earliest != kNoDeadline;
    if (wait_may_end(t, earliest, time_passes) && (times_out || &t != &cur)) {
      spurious_candidates_.push_back(&t);
    }
  }
  if (spurious_candidates_.empty()) return nullptr;
  if (!time_passes && !inject(true)) return nullptr;
  Thread& t = *spurious_candidates_[choose(spurious_candidates_.size())];
  if (aborting_) return nullptr;
  end_wait(t, earliest, /*as_step=*/false);
  return &t;
}

std::uint64_t Engine::offer_wait_ends() {
  const std::uint64_t earliest = earliest_deadline();
  const bool time_passes = runnable_.empty();
  const std::span<const ThreadId> runnable = runnable_;
  choices_.clear();
  std::size_t r = 0;
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    if (r < runnable.size() && runnable[r] == i) {
      choices_.push_back(i);
      ++r;
    } else if (wait_may_end(*threads_[i], earliest, time_passes)) {
      choices_.push_back(i);
    }
  }
  return earliest;
}

void Engine::end_wait(Thread& t, std::uint64_t earliest, bool as_step) {
  // Off the wait list, as a wake by another thread takes it: ordered against the waits, wakes
  // and unparks on the object. The woken thread's return is a step of its own.
  if (observe_) touch_waiters(t.wait_obj);
  // Whether the end is offered depends on what the thread read before the wait (a write to it
  // makes another spurious return new: offers_spurious): ordered against such writes.
  if (observe_ && as_step) {
    for (std::uint8_t k = 0; k < t.wait_reads_size; ++k) {
      if (!covered(t.wait_reads[k], false)) touch(t.wait_reads[k], false);
    }
  }
  // A step's wait that may both time out and wake spuriously (another thread can run) asks which.
  const bool times_out = t.deadline == earliest && earliest != kNoDeadline;
  const bool either = as_step && t.may_wake_spuriously && !runnable_.empty();
  if (times_out && !(either && choose(2) == 1)) {
    t.timed_out = true;
    if (t.deadline > clock_) clock_ = t.deadline;
    if (observe_) touch(&clock_, true);
  } else {
    t.woken_spuriously = true;
  }
  wake(t, false);
}

void Engine::wake_quiescent() {
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& t = *threads_[i];
    if (t.state != State::blocked || t.wait != Wait::quiescence) continue;
    --quiescence_waiters_;
    wake(t, false);
    return;
  }
}

Engine::WaitEnd Engine::block_platform_wait(Kind kind, const void* obj, Wait wait,
                                            std::string_view op, TraceValues values,
                                            const source_location& loc, Point point,
                                            std::uint64_t deadline, bool spurious) {
  Thread& self = *current_;
  // Kept for the trace of a spurious return or a timeout; only when one can happen.
  std::string end_values;
  const bool may_end_early = (spurious && spurious_wakeups_on_) || deadline != kNoDeadline;
  if (tracing_ && may_end_early) {
    end_values = values.str();
    if (!end_values.empty()) end_values += ", ";
  }
  self.may_wake_spuriously = spurious && spurious_wakeups_on_;
  self.deadline = deadline;
  if (deadline != kNoDeadline) ++timed_waiters_;
  const bool blocked = block(kind, obj, wait, op, values, loc);
  if (deadline != kNoDeadline) --timed_waiters_;
  self.deadline = kNoDeadline;
  self.may_wake_spuriously = false;
  if (!blocked) return WaitEnd::teardown;
  if (!self.woken_spuriously && !self.timed_out) {
    // Woken by another thread where the wait could have ended first as a step of its own:
    // its next step reads the wait list the wake wrote, a race the search reverses by ending
    // the wait before the wake (offer_wait_ends).
    if (observe_ && reduced_ && may_end_early) touch_waiters(obj, /*write=*/false);
    return WaitEnd::woken;
  }
  const bool timed_out = self.timed_out;
  self.woken_spuriously = false;
  self.timed_out = false;
  self.spurious_spent = true;
  if (tracing_) end_values += timed_out ? "timed out" : "spurious";
  step(kind, obj, op, end_values, loc, point, /*writes=*/false);
  return timed_out ? WaitEnd::timeout : WaitEnd::spurious;
}

std::uint64_t Engine::choose(std::uint64_t bound) {
  if (bound < 2 || aborting_) return 0;
  if (draws_.rng != nullptr) {
    const std::uint64_t v = draws_.rng->below(bound);
    if (draws_.record != nullptr) draws_.record->push_back(Choice{ChoiceKind::kNumber, v, bound});
    return v;
  }
  std::uint64_t v = 0;
  std::string refused;
  try {
    v = strategy_->next_u64(bound);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  if (!refused.empty()) {
    end_execution(Outcome::exception, "strategy", refused, nullptr);
    return 0;
  }
  return v < bound ? v : bound - 1;
}

void Engine::no_runnable() {
  bool stuck_worker = false;
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    const Thread& t = *threads_[i];
    if (t.worker && t.state == State::blocked && t.wait != Wait::pool) stuck_worker = true;
  }
  if (live_user_threads_ == 0 && !stuck_worker) {
    end_execution(Outcome::completed, "", "", nullptr);
    return;
  }
  // Report the first blocked thread's line as the violation's location; a thread spinning on
  // values nobody can change any more makes it a livelock, at its loop's first read.
  const Thread* spinner = nullptr;
  const source_location* where = nullptr;
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    const Thread& t = *threads_[i];
    if (t.state != State::blocked || t.wait == Wait::pool) continue;
    if (t.wait == Wait::spin && spinner == nullptr) spinner = &t;
    if (t.wait != Wait::spin && where == nullptr) where = &t.wait_loc;
  }
  if (spinner != nullptr) {
    result_.file = spinner->spin.reads[spinner->spin.loop].file;
    result_.line = spinner->spin.reads[spinner->spin.loop].line;
    where = nullptr;
  }
  end_execution(Outcome::deadlock, spinner != nullptr ? "livelock" : "deadlock",
                wait_for_picture(spinner != nullptr), where);
}

std::string Engine::wait_for_picture(bool spinning) {
  // The property (deadlock or livelock) is the violation's own field: not repeated here.
  std::string s = spinning ? "no thread can run, and a loop spins on values no thread can change "
                             "any more"
                           : "no thread can run";
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    const Thread& t = *threads_[i];
    if (t.state != State::blocked || t.wait == Wait::pool) continue;
    if (t.wait == Wait::spin) {
      s += "\n  " + thread_label(t) + " spins reading " + name_of(t.wait_kind, t.wait_obj) +
           " at " + spin_lines(t);
      continue;
    }
    s += "\n  " + thread_label(t) + " waits in " + std::string(t.wait_op) + " on " +
         name_of(t.wait_kind, t.wait_obj);
    if (t.wait_holder >= 0) s += " (held by thread " + std::to_string(t.wait_holder) + ")";
    s += " at " + std::string(short_file(t.wait_loc.file_name())) + ":" +
         std::to_string(t.wait_loc.line());
  }
  // The coroutines the threads were waiting for, each named by the thread that created it and
  // how many it had created before (the same in every equivalent execution, unlike frame#N).
  for (std::size_t i = 0; i < frames_.size(); ++i) {
    const FrameRecord& f = frames_[i];
    if (!live_frame(f) || !f.started) continue;
    const auto ordinal =
        1 + std::count_if(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(i),
                          [&](const FrameRecord& g) { return g.creator == f.creator; });
    s += "\n  coroutine " + std::to_string(ordinal) + " of thread " + std::to_string(f.creator) +
         " is " + frame_state(f);
  }
  return s;
}

void Engine::collect_waiters(const void* obj, Wait wait) {
  if (observe_ && !aborting_) touch_waiters(obj);
  scratch_.clear();
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& t = *threads_[i];
    if (t.state == State::blocked && t.wait == wait && t.wait_obj == obj) scratch_.push_back(&t);
  }
}

}  // namespace syncstress::sim::detail
