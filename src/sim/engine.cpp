#include "sim/engine.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <stdexcept>
#include <utility>

#include "sim/recorded_locations.hpp"

namespace syncstress::sim {

namespace detail {

namespace {

constexpr std::string_view kKindNames[] = {
    "atomic", "mutex", "auto_event", "manual_event", "parker", "thread", "pool", "frame", "-"};

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

// Names given outside any execution; they last for the OS thread.
std::map<const void*, std::string>& static_names() {
  static thread_local std::map<const void*, std::string> names;
  return names;
}

std::terminate_handler g_previous_terminate = nullptr;

std::string thread_label(const Thread& t) {
  std::string s = "thread " + std::to_string(t.id);
  if (t.worker) s += " (pool worker)";
  return s;
}

}  // namespace

std::string_view short_file(const char* file);

Engine::Engine(Options options)
    : options_(options),
      tracing_(options.record_trace),
      stacks_(options.stack_size ? options.stack_size : default_stack_size()) {}

Engine::~Engine() = default;

// --- Execution lifecycle --------------------------------------------------------------------

ExecutionResult Engine::run(Strategy& strategy, std::function<void()> main) {
  if (t_engine != nullptr) throw std::logic_error("sim::Runtime::run is not reentrant");
  strategy_ = &strategy;
  epoch_ = next_epoch();
  steps_ = 0;
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
  running_ = true;
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
  for (void* p : quarantine_) ::operator delete(p);
  quarantine_.clear();
  queue_.clear();
  pool_waits_.clear();
  running_ = false;
  t_engine = nullptr;
  strategy_ = nullptr;
  result_.steps = steps_;
  last_trace_size_ = result_.trace.size();
  return std::move(result_);
}

ThreadId Engine::new_thread(std::function<void()> fn, bool worker) {
  const ThreadId id = thread_count_++;
  if (threads_.size() <= id) threads_.push_back(std::make_unique<Thread>());
  Thread& t = *threads_[id];
  t.id = id;
  t.worker = worker;
  t.started = false;
  t.fn = std::move(fn);
  t.parker.permit_ = false;
  t.parker.owner_ = id;
  t.wait = Wait::none;
  t.wait_obj = nullptr;
  t.handed = false;
  t.abort_ops = 0;
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
  std::exception_ptr error;
  if (!aborting_) {
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
    collect_waiters(&self, Wait::join);
    for (Thread* t : scratch_) wake(*t, false);
    ++steps_;
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

void Engine::teardown() {
  tearing_down_ = true;
  g_previous_terminate = std::set_terminate(&Engine::on_terminate);
  // Children before parents: a thread's objects (the scenario's context, the primitive, the
  // coroutine frames it owns) usually live on the stack of the thread that spawned it, and a
  // fiber resumed here runs normal code up to its next unwind point. Unwinding main first
  // would let the others run on freed objects. Threads spawned while unwinding never run;
  // the second pass marks them finished.
  const std::uint32_t spawned = thread_count_;
  for (std::uint32_t n = 0; n < thread_count_; ++n) {
    const std::uint32_t i = n < spawned ? spawned - 1 - n : n;
    Thread& t = *threads_[i];
    if (t.state == State::finished) continue;
    if (!t.started) {
      t.state = State::finished;
      t.fn = nullptr;  // destroyed on the host: its destructors' operations do nothing
      continue;
    }
    t.abort_ops = 0;
    current_ = &t;
    switch_context(host_, t.ctx);
    current_ = nullptr;
  }
  std::set_terminate(g_previous_terminate);
  tearing_down_ = false;
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
  if (std::uncaught_exceptions() == 0) throw Unwind{};
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

// --- Scheduling -----------------------------------------------------------------------------

void Engine::make_runnable(Thread& t) {
  auto it = std::lower_bound(runnable_.begin(), runnable_.end(), t.id);
  if (it == runnable_.end() || *it != t.id) runnable_.insert(it, t.id);
}

void Engine::make_blocked(Thread& t) {
  auto it = std::lower_bound(runnable_.begin(), runnable_.end(), t.id);
  if (it != runnable_.end() && *it == t.id) runnable_.erase(it);
}

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

void Engine::step(Kind kind, const void* obj, std::string_view op, std::string values,
                  const source_location& loc, Point point) {
  if (aborting_) {
    if (point == Point::plain) {
      budget_point();
    } else {
      abort_point();
    }
    return;
  }
  ++steps_;
  if (tracing_) record(kind, obj, op, std::move(values), loc);
  decide(point == Point::yield);
  if (aborting_) budget_point();  // resumed by teardown: the op completed, return normally
}

bool Engine::block(Kind kind, const void* obj, Wait wait, std::string_view op, std::string values,
                   const source_location& loc, std::int64_t holder, bool may_unwind) {
  if (aborting_) {
    if (may_unwind) {
      abort_point();
    } else {
      budget_point();
    }
    return false;
  }
  Thread& t = *current_;
  t.state = State::blocked;
  t.wait = wait;
  t.wait_kind = kind;
  t.wait_obj = obj;
  t.wait_op = op;
  t.wait_loc = loc;
  t.wait_holder = holder;
  t.handed = false;
  make_blocked(t);
  ++steps_;
  if (tracing_) {
    values += values.empty() ? "blocks" : ", blocks";
    record(kind, obj, op, std::move(values), loc);
  }
  decide(false);
  if (aborting_) {
    if (may_unwind) {
      abort_point();
    } else {
      budget_point();
    }
    return false;
  }
  return true;
}

void Engine::decide(bool yielded) {
  Thread& cur = *current_;
  if (steps_ > options_.max_steps) {
    end_execution(Outcome::step_bound, "step-bound",
                  "step bound of " + std::to_string(options_.max_steps) +
                      " exceeded (livelock or starvation)",
                  nullptr);
    return;
  }
  const std::size_t n = runnable_.size();
  if (n == 0) {
    no_runnable();
    return;
  }
  ThreadId next = runnable_[0];
  if (n > 1) {
    std::size_t i = 0;
    std::string refused;
    // A strategy that throws (a replay that no longer fits the program) ends the execution
    // here: its exception must not travel through the primitive's frames, some noexcept.
    try {
      i = strategy_->next_thread(runnable_, cur.id, yielded);
    } catch (const std::exception& e) {
      refused = e.what();
    }
    if (!refused.empty()) {
      end_execution(Outcome::exception, "strategy", refused, nullptr);
      return;
    }
    if (i >= n) {
      end_execution(Outcome::exception, "strategy",
                    "the strategy chose index " + std::to_string(i) + " among " +
                        std::to_string(n) + " runnable threads",
                    nullptr);
      return;
    }
    next = runnable_[i];
  }
  if (next != cur.id) {
    Thread& to = *threads_[next];
    current_ = &to;
    switch_context(cur.ctx, to.ctx);
  }
}

std::uint64_t Engine::choose(std::uint64_t bound) {
  if (bound < 2 || aborting_) return 0;
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
  // Report the first blocked thread's line as the violation's location.
  const source_location* where = nullptr;
  for (std::uint32_t i = 0; i < thread_count_ && where == nullptr; ++i) {
    const Thread& t = *threads_[i];
    if (t.state == State::blocked && t.wait != Wait::pool) where = &t.wait_loc;
  }
  end_execution(Outcome::deadlock, "deadlock", wait_for_picture(), where);
}

std::string Engine::wait_for_picture() {
  std::string s = "deadlock: no thread can run";
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    const Thread& t = *threads_[i];
    if (t.state != State::blocked || t.wait == Wait::pool) continue;
    s += "\n  " + thread_label(t) + " waits in " + std::string(t.wait_op) + " on " +
         name_of(t.wait_kind, t.wait_obj);
    if (t.wait_holder >= 0) s += " (held by thread " + std::to_string(t.wait_holder) + ")";
    s += " at " + std::string(short_file(t.wait_loc.file_name())) + ":" +
         std::to_string(t.wait_loc.line());
  }
  return s;
}

void Engine::collect_waiters(const void* obj, Wait wait) {
  scratch_.clear();
  for (std::uint32_t i = 0; i < thread_count_; ++i) {
    Thread& t = *threads_[i];
    if (t.state == State::blocked && t.wait == wait && t.wait_obj == obj) scratch_.push_back(&t);
  }
}

void Engine::wake(Thread& t, bool handed) {
  t.state = State::runnable;
  t.wait = Wait::none;
  t.handed = handed;
  make_runnable(t);
}

// --- Names ----------------------------------------------------------------------------------

void register_object(Kind kind, const void* obj) {
  Engine* e = t_engine;
  if (e == nullptr || e->aborting()) return;
  e->register_new(kind, obj);
}

void Engine::register_new(Kind kind, const void* obj) {
  serials_[obj] = ++kind_counts_[static_cast<std::size_t>(kind)];
  names_.erase(obj);  // a new object at a dead one's address does not inherit its name
}

std::string Engine::name_of(Kind kind, const void* obj) {
  if (obj == nullptr) return "-";
  if (!names_.empty()) {
    if (auto it = names_.find(obj); it != names_.end()) return it->second;
  }
  if (auto& statics = static_names(); !statics.empty()) {
    if (auto it = statics.find(obj); it != statics.end()) return it->second;
  }
  switch (kind) {
    case Kind::thread:
      return "t" + std::to_string(static_cast<const Thread*>(obj)->id);
    case Kind::parker:
      return "parker:t" + std::to_string(static_cast<const parker*>(obj)->owner_);
    case Kind::pool:
      return "pool";
    case Kind::frame:
      return "frame";
    default:
      break;
  }
  auto [it, fresh] = serials_.try_emplace(obj, 0);
  if (fresh) it->second = ++kind_counts_[static_cast<std::size_t>(kind)];
  char buf[16];
  auto res = std::to_chars(buf, buf + sizeof buf, it->second);
  std::string s(kKindNames[static_cast<std::size_t>(kind)]);
  s += '#';
  s.append(buf, res.ptr);
  return s;
}

// --- Operations -----------------------------------------------------------------------------

void Engine::wait_on_address(const void* obj, bool equal, std::string values,
                             const source_location& loc) {
  if (aborting_) {
    abort_point();
    return;
  }
  if (!equal) {
    if (tracing_) values += ", value differs";
    step(Kind::atomic, obj, "wait_on_address", std::move(values), loc, Point::unwind);
    return;
  }
  if (inject(options_.spurious_wakeups)) {
    if (tracing_) values += ", spurious";
    step(Kind::atomic, obj, "wait_on_address", std::move(values), loc, Point::unwind);
    return;
  }
  block(Kind::atomic, obj, Wait::address, "wait_on_address", std::move(values), loc);
}

void Engine::wake_address(const void* obj, bool all, std::string_view op,
                          const source_location& loc) {
  if (aborting_) {
    abort_point();
    return;
  }
  collect_waiters(obj, Wait::address);
  std::size_t woken = 0;
  if (all) {
    for (Thread* t : scratch_) wake(*t, false);
    woken = scratch_.size();
  } else if (!scratch_.empty()) {
    Thread* t = scratch_[choose(scratch_.size())];
    wake(*t, false);
    woken = 1;
  }
  step(Kind::atomic, obj, op, tracing_ ? "woke " + std::to_string(woken) : std::string(), loc);
}

void Engine::mutex_lock(mutex& m, const source_location& loc) {
  if (aborting_) {
    abort_point();
    return;
  }
  for (;;) {
    if (!m.held_) {
      m.held_ = true;
      m.owner_ = current_id();
      step(Kind::mutex, &m, "lock", {}, loc);
      return;
    }
    std::string values = tracing_ ? "held by t" + std::to_string(m.owner_) : std::string();
    if (!block(Kind::mutex, &m, Wait::mutex, "lock", std::move(values), loc, m.owner_)) return;
  }
}

void Engine::mutex_unlock(mutex& m, const source_location& loc) {
  if (!m.held_ && !aborting_) {
    violation(Outcome::violation, "check",
              "unlock of " + name_of(Kind::mutex, &m) + ", which is not held", &loc);
    return;
  }
  m.held_ = false;
  if (!aborting_) {
    collect_waiters(&m, Wait::mutex);
    for (Thread* t : scratch_) wake(*t, false);
  }
  step(Kind::mutex, &m, "unlock", {}, loc);
}

bool Engine::mutex_try_lock(mutex& m, const source_location& loc) {
  if (!m.held_) {
    m.held_ = true;
    m.owner_ = current_id();
    step(Kind::mutex, &m, "try_lock", tracing_ ? "acquired" : "", loc, Point::unwind);
    return true;
  }
  step(Kind::mutex, &m, "try_lock", tracing_ ? "failed" : "", loc, Point::unwind);
  return false;
}

void Engine::park(parker& p, const source_location& loc) {
  if (aborting_) {
    abort_point();
    return;
  }
  if (p.permit_) {
    p.permit_ = false;
    step(Kind::parker, &p, "park", tracing_ ? "permit" : "", loc);
    return;
  }
  if (inject(options_.spurious_wakeups)) {
    step(Kind::parker, &p, "park", tracing_ ? "spurious" : "", loc);
    return;
  }
  if (!block(Kind::parker, &p, Wait::parker, "park", {}, loc)) return;
  p.permit_ = false;
}

void Engine::unpark(parker& p, const source_location& loc) {
  p.permit_ = true;
  if (!aborting_ && p.owner_ < thread_count_) {
    Thread& owner = *threads_[p.owner_];
    if (&owner.parker == &p && owner.state == State::blocked && owner.wait == Wait::parker) {
      wake(owner, false);
    }
  }
  step(Kind::parker, &p, "unpark", {}, loc);
}

void Engine::event_set(bool& signaled, bool manual, const void* obj, const source_location& loc) {
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  if (aborting_) {
    signaled = true;
    abort_point();
    return;
  }
  collect_waiters(obj, Wait::event);
  if (manual) {
    signaled = true;
    for (Thread* t : scratch_) wake(*t, true);
  } else if (!signaled) {
    std::size_t registrations = 0;
    for (const PoolWait& w : pool_waits_) registrations += w.event == obj ? 1 : 0;
    const std::size_t n = scratch_.size() + registrations;
    if (n == 0) {
      signaled = true;
    } else {
      std::size_t i = choose(n);
      if (i < scratch_.size()) {
        wake(*scratch_[i], true);
      } else {
        i -= scratch_.size();
        for (auto it = pool_waits_.begin(); it != pool_waits_.end(); ++it) {
          if (it->event != obj) continue;
          if (i-- != 0) continue;
          PoolWait w = *it;
          pool_waits_.erase(it);
          if (FrameRecord* f = frame(w.handle.address())) f->pool_wait = false;
          enqueue(w.handle, w.loc);
          break;
        }
      }
    }
  }
  step(kind, obj, "set", {}, loc);
}

void Engine::event_reset(bool& signaled, bool manual, const void* obj, const source_location& loc) {
  signaled = false;
  step(manual ? Kind::manual_reset_event : Kind::auto_reset_event, obj, "reset", {}, loc);
}

void Engine::event_wait(bool& signaled, bool manual, const void* obj, const source_location& loc) {
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  if (aborting_) {
    abort_point();
    return;
  }
  for (;;) {
    if (signaled) {
      if (!manual) signaled = false;
      step(kind, obj, "wait", tracing_ ? "signaled" : "", loc);
      return;
    }
    if (!block(kind, obj, Wait::event, "wait", {}, loc)) return;
    if (current_->handed) {
      // Win32: the setter satisfied this wait at set time.
      current_->handed = false;
      return;
    }
  }
}

bool Engine::event_try_wait(bool& signaled, bool manual, const void* obj,
                            const source_location& loc) {
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  const bool got = signaled;
  if (got && !manual) signaled = false;
  step(kind, obj, "try_wait", tracing_ ? (got ? "signaled" : "not signaled") : "", loc,
       Point::unwind);
  return got;
}

ThreadId Engine::spawn(std::function<void()> fn, const source_location& loc) {
  const ThreadId id = new_thread(std::move(fn), false);
  step(Kind::thread, threads_[id].get(), "spawn", {}, loc);
  return id;
}

void Engine::join(ThreadId id, const source_location& loc, bool from_destructor) {
  if (aborting_) {
    if (!from_destructor) abort_point();
    return;
  }
  Thread* t = threads_[id].get();
  for (;;) {
    if (t->state == State::finished) {
      step(Kind::thread, t, "join", {}, loc);
      return;
    }
    if (!block(Kind::thread, t, Wait::join, "join", {}, loc, -1, !from_destructor)) return;
  }
}

// --- Executor -------------------------------------------------------------------------------

void Engine::enqueue(std::coroutine_handle<> h, const source_location& loc) {
  if (FrameRecord* f = frame(h.address())) f->queued = true;
  queue_.push_back(PoolItem{h, loc});
  if (!workers_started_) {
    workers_started_ = true;
    for (unsigned i = 0; i < std::max(1u, options_.pool_workers); ++i) new_thread(nullptr, true);
  }
  collect_waiters(&queue_, Wait::pool);
  for (Thread* t : scratch_) wake(*t, false);
}

void Engine::worker_loop() {
  for (;;) {
    if (queue_.empty()) {
      if (!block(Kind::pool, &queue_, Wait::pool, "pool_wait", {}, kPoolWaitLocation)) return;
      continue;
    }
    const std::size_t i =
        options_.delay_posted_work && queue_.size() > 1 ? choose(queue_.size()) : 0;
    PoolItem item = queue_[i];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
    if (FrameRecord* f = frame(item.handle.address())) f->queued = false;
    if (before_resume(item.handle, item.loc)) item.handle.resume();
    if (aborting_) abort_point();
  }
}

void Engine::post(std::coroutine_handle<> h, const source_location& loc) {
  if (aborting_) return;  // teardown: coroutines no longer run
  if (FrameRecord* f = frame(h.address())) {
    if (f->destroyed) {
      violation(Outcome::frame_misuse, "resume-after-destroy",
                "post of " + frame_name(*f) + ", which was destroyed", &loc);
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
  bool& signaled = ev.signaled_;
  const void* event = &ev;
  if (aborting_) return;
  if (FrameRecord* f = frame(h.address())) {
    if (f->destroyed || f->queued || f->pool_wait) {
      const bool destroyed = f->destroyed;
      violation(Outcome::frame_misuse, destroyed ? "resume-after-destroy" : "double-resume",
                "resume_on_signal of " + frame_name(*f) +
                    (destroyed ? ", which was destroyed" : ", which is already queued"),
                &loc);
      return;
    }
    f->last_loc = loc;
    f->has_loc = true;
  }
  if (signaled) {
    signaled = false;
    enqueue(h, loc);
  } else {
    pool_waits_.push_back(PoolWait{event, h, loc});
    if (FrameRecord* f = frame(h.address())) f->pool_wait = true;
  }
  ++steps_;
  if (tracing_) record(Kind::auto_reset_event, event, "resume_on_signal", {}, loc);
  decide(false);
}

// --- Frames ---------------------------------------------------------------------------------

FrameRecord* Engine::frame(void* address) {
  if (frame_index_.empty()) return nullptr;
  auto it = frame_index_.find(address);
  return it == frame_index_.end() ? nullptr : &frames_[it->second];
}

std::string Engine::frame_name(const FrameRecord& f) const {
  return "frame#" + std::to_string(f.serial);
}

void Engine::frame_created(void* address) {
  FrameRecord rec;
  rec.address = address;
  rec.serial = static_cast<std::uint32_t>(frames_.size() + 1);
  rec.creator = current_id();
  rec.created_step = steps_;
  frame_index_[address] = static_cast<std::uint32_t>(frames_.size());
  frames_.push_back(rec);
}

void Engine::frame_destroyed(void* address) {
  FrameRecord* f = frame(address);
  if (f == nullptr) return;
  f->destroyed = true;
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

bool Engine::before_resume(std::coroutine_handle<> h, const source_location& loc) {
  if (aborting_) return false;
  FrameRecord* f = frame(h.address());
  ++steps_;
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
  if (aborting_) return false;
  f = frame(h.address());  // the state may have changed while others ran
  if (f == nullptr) return true;
  if (f->destroyed) {
    violation(Outcome::frame_misuse, "resume-after-destroy",
              "resume of " + frame_name(*f) + ", which was destroyed", &loc);
    return false;
  }
  if (f->queued || f->pool_wait) {
    violation(Outcome::frame_misuse, "double-resume",
              "resume of " + frame_name(*f) + ", which is queued for resumption", &loc);
    return false;
  }
  if (h.done()) {
    violation(Outcome::frame_misuse, "double-resume",
              "resume of " + frame_name(*f) + ", which already finished", &loc);
    return false;
  }
  f->last_loc = loc;
  f->has_loc = true;
  return true;
}

void Engine::check_frames_at_end() {
  std::string message;
  const FrameRecord* first = nullptr;
  for (const FrameRecord& f : frames_) {
    if (f.destroyed) continue;
    if (std::coroutine_handle<>::from_address(f.address).done()) continue;
    if (first == nullptr) first = &f;
    if (!message.empty()) message += "\n";
    message += frame_name(f) + " (created by thread " + std::to_string(f.creator) + " at step " +
               std::to_string(f.created_step) + ") is still suspended";
    if (f.has_loc) {
      message += "; last resumed or queued at " + std::string(short_file(f.last_loc.file_name())) +
                 ":" + std::to_string(f.last_loc.line());
    }
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

}  // namespace detail

// --- Sim objects ----------------------------------------------------------------------------

using detail::Engine;
using detail::Kind;
using detail::t_engine;

mutex::mutex() { detail::register_object(Kind::mutex, this); }

void mutex::lock(source_location loc) {
  if (Engine* e = t_engine) return e->mutex_lock(*this, loc);
  if (held_) throw std::logic_error("sim::mutex::lock would block forever");
  held_ = true;
}
void mutex::unlock(source_location loc) {
  if (Engine* e = t_engine) return e->mutex_unlock(*this, loc);
  held_ = false;
}
bool mutex::try_lock(source_location loc) {
  if (Engine* e = t_engine) return e->mutex_try_lock(*this, loc);
  return !std::exchange(held_, true);
}

void parker::park(source_location loc) {
  if (Engine* e = t_engine) return e->park(*this, loc);
  if (!permit_) throw std::logic_error("sim::parker::park would block forever");
  permit_ = false;
}
void parker::unpark(source_location loc) {
  if (Engine* e = t_engine) return e->unpark(*this, loc);
  permit_ = true;
}

auto_reset_event::auto_reset_event(bool initially_set) : signaled_(initially_set) {
  detail::register_object(Kind::auto_reset_event, this);
}
void auto_reset_event::set(source_location loc) {
  if (Engine* e = t_engine) return e->event_set(signaled_, false, this, loc);
  signaled_ = true;
}
void auto_reset_event::reset(source_location loc) {
  if (Engine* e = t_engine) return e->event_reset(signaled_, false, this, loc);
  signaled_ = false;
}
void auto_reset_event::wait(source_location loc) {
  if (Engine* e = t_engine) return e->event_wait(signaled_, false, this, loc);
  if (!signaled_) throw std::logic_error("sim::auto_reset_event::wait would block forever");
  signaled_ = false;
}
bool auto_reset_event::try_wait(source_location loc) {
  if (Engine* e = t_engine) return e->event_try_wait(signaled_, false, this, loc);
  return std::exchange(signaled_, false);
}

manual_reset_event::manual_reset_event(bool initially_set) : signaled_(initially_set) {
  detail::register_object(Kind::manual_reset_event, this);
}
void manual_reset_event::set(source_location loc) {
  if (Engine* e = t_engine) return e->event_set(signaled_, true, this, loc);
  signaled_ = true;
}
void manual_reset_event::reset(source_location loc) {
  if (Engine* e = t_engine) return e->event_reset(signaled_, true, this, loc);
  signaled_ = false;
}
void manual_reset_event::wait(source_location loc) {
  if (Engine* e = t_engine) return e->event_wait(signaled_, true, this, loc);
  if (!signaled_) throw std::logic_error("sim::manual_reset_event::wait would block forever");
}
bool manual_reset_event::try_wait(source_location loc) {
  if (Engine* e = t_engine) return e->event_try_wait(signaled_, true, this, loc);
  return signaled_;
}

// --- Runtime --------------------------------------------------------------------------------

Runtime::Runtime(Options options) : engine_(std::make_unique<Engine>(options)) {}
Runtime::~Runtime() = default;
ExecutionResult Runtime::run(Strategy& strategy, std::function<void()> main) {
  return engine_->run(strategy, std::move(main));
}
void Runtime::recycle(ExecutionResult&& result) { engine_->recycle(std::move(result)); }
const Options& Runtime::options() const { return engine_->options(); }

bool in_execution() { return t_engine != nullptr && t_engine->on_fiber(); }
ThreadId current_thread() { return t_engine ? t_engine->current_id() : 0; }
std::uint64_t current_step() { return t_engine ? t_engine->steps() : 0; }
std::string trace_so_far() { return t_engine ? t_engine->partial_result().format_trace() : ""; }
void set_name(const void* object, std::string name) {
  if (Engine* e = t_engine) {
    e->set_name(object, std::move(name));
  } else {
    detail::static_names()[object] = std::move(name);
  }
}

}  // namespace syncstress::sim
