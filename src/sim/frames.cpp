// task<Sim> coroutine frames seen through the frame hooks: resuming a destroyed, queued or
// finished frame, destroying a queued one and frames left suspended at the end are violations.
#include <coroutine>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

FrameRecord* Engine::frame(void* address) {
  const std::uint32_t* index = frame_index_.find(address);
  return index == nullptr ? nullptr : &frames_[*index];
}

std::string Engine::frame_name(const FrameRecord& f) const {
  return "frame#" + std::to_string(f.serial);
}

std::string Engine::destroyed_when(const FrameRecord& f) {
  std::string out = "t";
  out.append(std::to_string(f.destroyer));
  out.append(" destroyed after step ");
  out.append(std::to_string(f.destroyed_after));
  return out;
}

void Engine::frame_created(void* address) {
  FrameRecord rec;
  rec.address = address;
  rec.serial = static_cast<std::uint32_t>(frames_.size() + 1);
  rec.creator = current_id();
  rec.created_step = steps_;
  frame_index_.get(address) = static_cast<std::uint32_t>(frames_.size());
  frames_.push_back(rec);
  if (observe_) name_new_object(address);
}

void Engine::frame_awaits(void* address, const source_location& loc) {
  FrameRecord* f = frame(address);
  if (f == nullptr) return;
  f->await_loc = loc;
  f->has_await = true;
}

void Engine::frame_destroyed(void* address) {
  FrameRecord* f = frame(address);
  if (f == nullptr) return;
  if (observe_ && !aborting_) touch(address, true);
  f->destroyed = true;
  f->destroyer = current_id();
  f->destroyed_after = steps_;
  if ((f->queued || f->pool_wait) && !aborting_) {
    const bool queued = f->queued;
    violation(Outcome::frame_misuse, "destroy-while-queued",
              frame_name(*f) + " destroyed while " +
                  (queued ? "posted to the pool" : "registered with resume_on_signal") +
                  " (queued at " + std::string(short_file(f->last_loc.file_name())) + ":" +
                  std::to_string(f->last_loc.line()) + ")",
              &f->last_loc);
  }
}

void Engine::resume(std::coroutine_handle<> h, const source_location& loc) {
  before(nullptr, loc, true);
  if (!aborting_) {
    FrameRecord* f = frame(h.address());
    ++steps_;
    if (observe_) touch(h.address(), true);
    if (tracing_) {
      TraceEntry& e = result_.trace.emplace_back();
      e.step = steps_;
      e.thread = current_id();
      e.op = "resume";
      e.object = f ? frame_name(*f) : "coroutine";
      e.file = loc.file_name();
      e.line = loc.line();
    }
    decide(false);
    if (!aborting_ && !h) {
      violation(Outcome::frame_misuse, "null-resume", "resume of a null coroutine handle", &loc);
      return;
    }
    if (!aborting_) {
      f = frame(h.address());  // the state may have changed while others ran
      if (f != nullptr) {
        if (f->destroyed) {
          violation(Outcome::frame_misuse, "resume-after-destroy",
                    "resume of " + frame_name(*f) + ", which " + destroyed_when(*f), &loc);
          return;
        }
        if (f->queued || f->pool_wait) {
          violation(Outcome::frame_misuse, "double-resume",
                    "resume of " + frame_name(*f) + ", which is queued for resumption", &loc);
          return;
        }
        if (h.done()) {
          violation(Outcome::frame_misuse, "double-resume",
                    "resume of " + frame_name(*f) + ", which already finished", &loc);
          return;
        }
        f->last_loc = loc;
        f->has_loc = true;
        f->started = true;
      }
      run_coroutine(h);
      return;
    }
    // The execution ended at this resumption's step: it was taken, so the resumption
    // completes, in teardown (the releaser has already let go of the waiter).
  }
  // Teardown: a loop of resumptions (round a list a bug made cyclic) must spend the fiber's
  // budget, or it never ends and the finding is never reported.
  budget_point();
  if (runnable_in_teardown(h)) run_coroutine(h);
}

bool Engine::runnable_in_teardown(std::coroutine_handle<> h) {
  if (current_ == nullptr || !h) return false;  // on the host: nothing runs there
  const FrameRecord* f = frame(h.address());
  if (f == nullptr) return true;  // not a task<Sim>: nothing to check it against
  return f->started && !f->destroyed && !f->queued && !f->pool_wait && !h.done();
}

void Engine::run_coroutine(std::coroutine_handle<> h) {
  Thread& self = *current_;
  const int outer_base = self.unwind_base;
  const bool outer_in_teardown = self.resumed_in_teardown;
  self.unwind_base = std::uncaught_exceptions();
  self.resumed_in_teardown = aborting_;
  try {
    h.resume();
  } catch (const Unwind&) {
    // Teardown unwound the coroutine (and any it resumed) to its final suspension point; its
    // resumer runs on to an unwind point of its own.
  }
  self.unwind_base = outer_base;
  self.resumed_in_teardown = outer_in_teardown;
}

std::string Engine::frame_state(const FrameRecord& f) {
  std::string s = f.queued      ? "queued for a pool worker"
                  : f.pool_wait ? "registered to resume on an event's signal"
                                : "suspended";
  if (f.has_await && !f.queued && !f.pool_wait) {
    s += " at the co_await at " + std::string(short_file(f.await_loc.file_name())) + ":" +
         std::to_string(f.await_loc.line());
  }
  if (f.has_loc) {
    s += "; last resumed or queued at " + std::string(short_file(f.last_loc.file_name())) + ":" +
         std::to_string(f.last_loc.line());
  }
  return s;
}

bool Engine::live_frame(const FrameRecord& f) {
  return !f.destroyed && !std::coroutine_handle<>::from_address(f.address).done();
}

void Engine::check_frames_at_end() {
  std::string message;
  const FrameRecord* first = nullptr;
  for (const FrameRecord& f : frames_) {
    if (!live_frame(f)) continue;
    if (first == nullptr) first = &f;
    if (!message.empty()) message += "\n";
    message += frame_name(f) + " (created by thread " + std::to_string(f.creator) + " at step " +
               std::to_string(f.created_step) + ") is still " + frame_state(f);
  }
  if (first == nullptr) return;
  result_.outcome = Outcome::frame_misuse;
  result_.property = "frame-leaked";
  result_.message = std::move(message);
  if (first->has_loc) {
    result_.file = first->last_loc.file_name();
    result_.line = first->last_loc.line();
  }
}

}  // namespace syncstress::sim::detail
