// The executor: simulated pool workers run the coroutines posted to the pool, and those
// registered with resume_on_signal once their event is set.
#include <algorithm>
#include <coroutine>
#include <cstddef>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

void Engine::enqueue(std::coroutine_handle<> h, const source_location& loc) {
  if (FrameRecord* f = frame(h.address())) f->queued = true;
  if (c11()) memory_.release(current_->id, h.address());
  if (observe_) {
    touch(&queue_, true);
    touch(h.address(), true);
  }
  queue_.push_back(PoolItem{h, loc});
  if (!workers_started_) {
    workers_started_ = true;
    for (unsigned i = 0; i < std::max(1u, options_.pool_workers); ++i) new_thread(nullptr, true);
  }
  wake_all_waiters(&queue_, Wait::pool);
}

void Engine::worker_loop() {
  for (;;) {
    if (queue_.empty()) {
      // In teardown the wait below returns at once, so that the worker runs what is left in the
      // queue; once it is empty the worker is done (a post made now runs at its poster).
      if (aborting_) return;
      block(Kind::pool, &queue_, Wait::pool, "pool_wait", {}, std::source_location::current(), -1,
            /*may_unwind=*/false);
      continue;
    }
    const std::size_t i =
        options_.delay_posted_work && queue_.size() > 1 ? choose(queue_.size()) : 0;
    PoolItem item = queue_[i];
    if (observe_ && !aborting_) touch(&queue_, true);
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
    if (FrameRecord* f = frame(item.handle.address())) f->queued = false;
    if (c11()) memory_.acquire(current_->id, item.handle.address());
    // In teardown too: whoever posted the coroutine has let go of it (see engine.hpp).
    resume(item.handle, item.loc);
  }
}

void Engine::post(std::coroutine_handle<> h, const source_location& loc) {
  before(nullptr, loc, true);
  // Teardown: it runs here, as the workers may be gone; a loop of posts spends the budget.
  if (aborting_) {
    budget_point();
    if (runnable_in_teardown(h)) run_coroutine(h);
    return;
  }
  if (FrameRecord* f = frame(h.address())) {
    if (f->destroyed) {
      violation(Outcome::frame_misuse, "resume-after-destroy",
                "post of " + frame_name(*f) + ", which " + destroyed_when(*f), &loc);
      return;
    }
    if (f->queued || f->pool_wait) {
      violation(Outcome::frame_misuse, "double-resume",
                "post of " + frame_name(*f) + ", which is already queued for resumption", &loc);
      return;
    }
    f->last_loc = loc;
    f->has_loc = true;
  }
  enqueue(h, loc);
  ++steps_;
  if (tracing_) record(Kind::pool, &queue_, "post", {}, loc);
  decide(false);
}

void Engine::resume_on_signal(auto_reset_event& ev, std::coroutine_handle<> h,
                              const source_location& loc) {
  before(&ev, loc, true);
  bool& signaled = ev.signaled_;
  const void* event = &ev;
  // Teardown: no set hands a signal to a registration any more, and a frame no primitive holds
  // may stay suspended until its owner destroys it; a loop of these spends the budget.
  if (aborting_) {
    budget_point();
    return;
  }
  if (FrameRecord* f = frame(h.address())) {
    if (f->destroyed || f->queued || f->pool_wait) {
      const bool destroyed = f->destroyed;
      violation(Outcome::frame_misuse, destroyed ? "resume-after-destroy" : "double-resume",
                "resume_on_signal of " + frame_name(*f) +
                    (destroyed ? ", which " + destroyed_when(*f) : ", which is already queued"),
                &loc);
      return;
    }
    f->last_loc = loc;
    f->has_loc = true;
  }
  if (observe_) {
    touch(event, true);
    touch(h.address(), true);
  }
  if (signaled) {
    signaled = false;
    if (c11()) memory_.acquire(current_->id, event);  // the set it consumes, then the post
    enqueue(h, loc);
  } else {
    pool_waits_.push_back(PoolWait{event, h, loc});
    if (FrameRecord* f = frame(h.address())) f->pool_wait = true;
  }
  ++steps_;
  if (tracing_) record(Kind::auto_reset_event, event, "resume_on_signal", {}, loc);
  decide(false);
}

}  // namespace syncstress::sim::detail
