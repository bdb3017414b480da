// One execution: run() from its first thread to the end of teardown, and the simulated
// threads' lives (spawn, start, exit, join) inside it.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

namespace {

std::size_t default_stack_size() {
#ifdef SYNCSTRESS_ASAN
  return std::size_t{1} << 20;
#else
  return std::size_t{256} << 10;
#endif
}

// Every engine gets fresh epochs, so a Sim::thread from an old execution is recognised.
std::uint64_t next_epoch() {
  static thread_local std::uint64_t epoch = 0;
  return ++epoch;
}

}  // namespace

Engine::Engine(Options options)
    : options_(options),
      tracing_(options.record_trace),
      spin_reduction_(options.spin_reduction),
      stacks_(options.stack_size ? options.stack_size : default_stack_size()) {}

Engine::~Engine() = default;

// Long (70 lines): every per-execution field the engine keeps is reset here, in one place,
// before the first fiber runs, and released after teardown; split, a field is easily missed.
ExecutionResult Engine::run(Strategy& strategy, const Execution& execution,
                            std::function<void()> main) {
  if (t_engine != nullptr) throw std::logic_error("sim::Runtime::run is not reentrant");
  strategy_ = &strategy;
  observer_ = execution.steps;
  observe_ = observer_ != nullptr;
  draws_ = execution.draws;
  event_open_ = true;
  accesses_.clear();
  ids_.clear();
  if (observe_) {
    name_fixed_object(&queue_, FixedObject::engine, 0);
    name_fixed_object(&host_parker_, FixedObject::engine, 1);
    name_fixed_object(&sc_fences_, FixedObject::engine, 2);
    name_fixed_object(&clock_, FixedObject::engine, 3);
    name_fixed_object(&quiescence_, FixedObject::engine, 4);
  }
  clock_ = 0;
  timed_waiters_ = 0;
  quiescence_waiters_ = 0;
  reduced_ = execution.reduced;
  c11_ = execution.memory == MemoryModel::c11;
  if (c11_) memory_.reset();
  next_twin_ = -1;  // a twin named in an execution that ended before its spawn is forgotten
  const bool faults = execution.faults;
  spurious_wakeups_on_ = options_.spurious_wakeups || (faults && options_.offer_spurious_wakeups);
  spurious_cas_failures_on_ =
      options_.spurious_cas_failures || (faults && options_.offer_spurious_cas_failures);
  epoch_ = next_epoch();
  steps_ = 0;
  read_filter_ = 0;
  aborting_ = false;
  tearing_down_ = false;
  result_ = ExecutionResult{};
  if (tracing_) {
    result_.trace = std::move(spare_trace_);
    result_.trace.clear();
    result_.trace.reserve(last_trace_size_ + last_trace_size_ / 4 + 16);
  }
  thread_count_ = 0;
  live_user_threads_ = 0;
  runnable_.clear();
  serials_.clear();
  kind_counts_.fill(0);
  names_.clear();
  workers_started_ = false;
  queue_.clear();
  pool_waits_.clear();
  frames_.clear();
  frame_index_.clear();
  t_engine = this;

  new_thread(std::move(main), false);
  Thread& first = *threads_[0];
  current_ = &first;
  switch_context(host_, first.ctx);
  // Back on the host: the execution ended (end_execution switched here).
  current_ = nullptr;
  if (result_.outcome == Outcome::completed) check_frames_at_end();
  teardown();

  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& t = *threads_[i];
    stacks_.release(t.stack);
    t.stack = Stack{};
    t.fn = nullptr;
  }
  release_nodes();
  queue_.clear();
  pool_waits_.clear();
  t_engine = nullptr;
  strategy_ = nullptr;
  observer_ = nullptr;
  draws_ = {};
  result_.steps = steps_;
  last_trace_size_ = result_.trace.size();
  return std::move(result_);
}

ThreadId Engine::new_thread(std::function<void()> fn, bool worker) {
  const ThreadId id = thread_count_++;
  if (threads_.size() <= id) threads_.push_back(std::make_unique<Thread>());
  runnable_.reserve(thread_count_);
  Thread& t = *threads_[id];
  t.id = id;
  t.worker = worker;
  t.started = false;
  t.fn = std::move(fn);
  if (c11_) {
    // Its first step comes after its creator's current one (a spawn, or a post for a worker).
    const ThreadId creator = current_id();
    memory_.thread_started(id, current_ != nullptr ? &creator : nullptr);
  }
  t.parker.permit_ = false;
  t.parker.owner_ = id;
  if (observe_) {
    // Records are reused across executions: named by thread id, not by address.
    name_fixed_object(&t, FixedObject::thread, id);
    name_fixed_object(&t.parker, FixedObject::parker, id);
  }
  t.wait = Wait::none;
  t.wait_obj = nullptr;
  t.handed = false;
  t.may_wake_spuriously = false;
  t.woken_spuriously = false;
  t.deadline = kNoDeadline;
  t.timed_out = false;
  t.spurious_spent = false;
  t.wait_reads_size = 0;
  t.abort_ops = 0;
  t.spin.forget();
  t.spin.endless_count = 0;
  t.created = 0;
  t.twin_before = -1;
  t.met = !reduced_ || worker;
  t.unwind_base = 0;
  t.resumed_in_teardown = false;
  t.stack = stacks_.acquire();
  make_fiber(t.ctx, t.stack, &Engine::fiber_entry);
  if (!worker) ++live_user_threads_;
  if (aborting_) {
    // Spawned during teardown: it never runs.
    t.state = State::finished;
    if (!worker) --live_user_threads_;
  } else {
    t.state = State::runnable;
    make_runnable(t);
  }
  return id;
}

void Engine::fiber_entry(ctx::transfer_t transfer) {
  Engine* e = t_engine;
  Thread& self = *e->current_;
  fiber_started(transfer, self.ctx);
  e->thread_main(self);
}

void Engine::thread_main(Thread& self) {
  self.started = true;
  // Its first step comes after its spawn (or, for a worker, the post that started the pool),
  // which it could never come before: no race.
  if (observe_ && !aborting_) touch(&self, false, /*follows_write=*/true);
  std::exception_ptr error;
  // A worker first started by teardown still runs what is queued (see Engine::teardown).
  if (!aborting_ || self.worker) {
    try {
      if (self.worker) {
        worker_loop();
      } else {
        // Called in place, not moved to this stack: if the fiber is abandoned, the host still
        // destroys the function (and what it captured) at the end of run().
        self.fn();
        self.fn = nullptr;
      }
    } catch (const Unwind&) {
      // Teardown unwound this fiber.
    } catch (...) {
      if (!aborting_) error = std::current_exception();
    }
  }
  if (error) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& ex) {
      what = ex.what();
    } catch (...) {
    }
    error = nullptr;
    end_execution(Outcome::exception, "exception",
                  "thread " + std::to_string(self.id) + " ended with an exception: " + what,
                  nullptr);
  }
  exit_thread(self);
}

void Engine::exit_thread(Thread& self) {
  self.ctx.exiting = true;
  if (self.state != State::finished) {
    if (self.state == State::runnable) make_blocked(self);
    self.state = State::finished;
    if (!self.worker) --live_user_threads_;
  }
  if (!aborting_) {
    wake_all_waiters(&self, Wait::join);
    ++steps_;
    if (observe_) touch(&self, true);
    if (!self.met) {
      // It touched nothing shared: its twin may go on (Engine::meet_twin).
      self.met = true;
      if (observe_) touch_met(self, true);
      wake_all_waiters(&self, Wait::twin);
    }
    if (tracing_) record(Kind::thread, &self, "exit", {}, source_location{});
    decide(false);  // self is not runnable: never comes back
  }
  current_ = nullptr;
  switch_context(self.ctx, host_);
  __builtin_unreachable();
}

void Engine::end_execution(Outcome outcome, std::string_view property, std::string message,
                           const source_location* loc) {
  if (aborting_) return;
  if (observe_ && event_open_ && current_ != nullptr) {
    // The step that ends the execution (a failed check inside it) is part of it too.
    event_open_ = false;
    const bool wait_ends = wait_ends_are_steps();
    if (wait_ends) offer_wait_ends();
    try {
      observer_->last_step(current_->id, accesses_, choice_list(wait_ends));
    } catch (const std::exception&) {
      // The execution ends anyway; a divergence shows on the next one.
    }
    accesses_.clear();
  }
  aborting_ = true;
  result_.outcome = outcome;
  result_.property = std::string(property);
  result_.message = std::move(message);
  if (loc != nullptr) {
    result_.file = loc->file_name();
    result_.line = loc->line();
  }
  Thread* self = current_;
  current_ = nullptr;
  switch_context(self->ctx, host_);
  // Resumed by teardown.
}

void Engine::violation(Outcome outcome, std::string_view property, std::string message,
                       const source_location* loc) {
  if (current_ == nullptr) return;  // on the host during teardown
  end_execution(outcome, property, std::move(message), loc);
}

ThreadId Engine::spawn(std::function<void()> fn, const source_location& loc) {
  before(nullptr, loc, true);
  const ThreadId id = new_thread(std::move(fn), false);
  if (reduced_) threads_[id]->twin_before = next_twin_;
  next_twin_ = -1;
  step(Kind::thread, threads_[id].get(), "spawn", {}, loc);
  return id;
}

void Engine::meet_twin(const source_location& loc) {
  if (aborting_) return;
  Thread& self = *current_;
  if (self.twin_before >= 0) {
    Thread& twin = *threads_[static_cast<std::size_t>(self.twin_before)];
    while (!twin.met) {
      if (!block(Kind::thread, &twin, Wait::twin, "wait for its twin", {}, loc)) return;
    }
    if (observe_) touch_met(twin, false);
  }
  self.met = true;
  if (observe_) touch_met(self, true);
  wake_all_waiters(&self, Wait::twin);
}

void Engine::join(ThreadId id, const source_location& loc, bool from_destructor) {
  before(nullptr, loc, true);
  if (aborting_) {
    if (!from_destructor) abort_point();
    return;
  }
  Thread* t = threads_[id].get();
  for (;;) {
    if (t->state == State::finished) {
      // Possible only after the thread's exit: ordered after it, never reordered before it.
      if (observe_) touch(t, false, /*follows_write=*/true);
      if (c11()) memory_.joined(current_->id, id);
      step(Kind::thread, t, "join", {}, loc, Point::plain, /*writes=*/false);
      return;
    }
    if (!block(Kind::thread, t, Wait::join, "join", {}, loc, -1, !from_destructor)) return;
  }
}

}  // namespace syncstress::sim::detail
