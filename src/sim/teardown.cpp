// Teardown of an execution that ended early: the unfinished fibers are unwound, or abandoned
// when they cannot be (see "Teardown" in sim/engine.hpp).
#include <cxxabi.h>

#include <cstdlib>
#include <exception>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

namespace {

std::terminate_handler g_previous_terminate = nullptr;

}  // namespace

void Engine::teardown() {
  tearing_down_ = true;
  g_previous_terminate = std::set_terminate(&Engine::on_terminate);
  // Pool workers first: they run what is still queued for the pool (its posters have let go
  // of those coroutines, see engine.hpp), and those coroutines use objects that live on the
  // user threads' stacks.
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    if (threads_[i]->worker) tear_down(*threads_[i]);
  }
  // A worker that was busy when the execution ended (releasing waiters, inside a primitive)
  // unwinds at its next unwind point and leaves the queue as it is. What is queued still runs,
  // on a worker started for it: a queued coroutine's node may still be linked into a list on
  // the stack of the thread that released it, and only its await_resume takes it out (its
  // owner's destructor would otherwise unlink it from that dead list).
  if (!queue_.empty()) {
    Thread& drain = *threads_[new_thread(nullptr, /*worker=*/true)];
    drain.state = State::runnable;  // new_thread marks a thread made in teardown finished
    tear_down(drain);
  }
  // Then children before parents: a thread's objects (the scenario's context, the primitive,
  // the coroutine frames it owns) usually live on the stack of the thread that spawned it, and
  // a fiber resumed here runs normal code up to its next unwind point. Unwinding main first
  // would let the others run on freed objects. Threads spawned while unwinding never run;
  // the second pass marks them finished.
  const std::uint32_t spawned = thread_count_;
  for (std::uint32_t n = 0; n < thread_count_; ++n) {
    tear_down(*threads_[n < spawned ? spawned - 1 - n : n]);
  }
  std::set_terminate(g_previous_terminate);
  tearing_down_ = false;
}

void Engine::tear_down(Thread& t) {
  if (t.state == State::finished) return;
  // A worker that never ran is still needed when work is queued.
  if (!t.started && (!t.worker || queue_.empty())) {
    t.state = State::finished;
    t.fn = nullptr;  // destroyed on the host: its destructors' operations do nothing
    return;
  }
  t.abort_ops = 0;
  current_ = &t;
  switch_context(host_, t.ctx);
  current_ = nullptr;
}

void Engine::budget_point() {
  Thread* t = current_;
  if (t == nullptr || !tearing_down_) return;
  if (++t->abort_ops > kAbortOpBudget) abandon(*t);
}

void Engine::abort_point() {
  Thread* t = current_;
  if (t == nullptr || !tearing_down_) return;
  if (++t->abort_ops > kAbortOpBudget) abandon(*t);
  if (std::uncaught_exceptions() == t->unwind_base) throw Unwind{};
}

void Engine::abandon(Thread& t) {
  ++result_.abandoned_fibers;
  if (t.state != State::finished && !t.worker) --live_user_threads_;
  t.state = State::finished;
  t.ctx.exiting = true;
  current_ = nullptr;
  switch_context(t.ctx, host_);
  __builtin_unreachable();
}

void Engine::on_terminate() {
  Engine* e = t_engine;
  if (e != nullptr && e->tearing_down_ && e->current_ != nullptr) {
    // Unwind met a noexcept frame: give the exception back (the runtime called
    // __cxa_begin_catch before terminate) and abandon the fiber.
    if (abi::__cxa_current_exception_type() != nullptr) abi::__cxa_end_catch();
    e->abandon(*e->current_);
  }
  if (g_previous_terminate != nullptr) g_previous_terminate();
  std::abort();
}

}  // namespace syncstress::sim::detail
