// The synchronization objects' operations (sim/sync_objects.hpp): performed by the engine
// inside an execution (wait-on-address and wake too), directly on the object outside one.
#include "sim/sync_objects.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim {

namespace detail {

void Engine::wait_on_address(const void* obj, bool equal, TraceValues values,
                             const source_location& loc) {
  if (aborting_) {
    abort_point();
    return;
  }
  if (!equal) {
    auto differs = [&] { return values.str() + ", value differs"; };
    step(Kind::atomic, obj, "wait_on_address", differs, loc, Point::unwind, /*writes=*/false);
    return;
  }
  if (reduced_) note_wait_reads(*current_, obj);
  // A spurious return at once (outside the reducing search's executions, where the wait
  // blocks and its end is offered as a step of its own: Engine::offer_wait_ends).
  if (inject(spurious_wakeups_on_ && !reduced_)) {
    current_->spurious_spent = true;
    auto spurious = [&] { return values.str() + ", spurious"; };
    step(Kind::atomic, obj, "wait_on_address", spurious, loc, Point::unwind, /*writes=*/false);
    return;
  }
  if (block_platform_wait(Kind::atomic, obj, Wait::address, "wait_on_address", values, loc,
                          Point::unwind) == WaitEnd::woken &&
      c11()) {
    memory_.acquire(current_->id, obj);
  }
}

void Engine::wake_address(const void* obj, bool all, std::string_view op,
                          const source_location& loc) {
  before(obj, loc, true);
  if (aborting_) {
    abort_point();
    return;
  }
  std::size_t woken = 0;
  if (c11()) memory_.release(current_->id, obj);
  if (all) {
    woken = wake_all_waiters(obj, Wait::address);
  } else {
    collect_waiters(obj, Wait::address);
    if (!scratch_.empty()) {
      wake(*scratch_[choose(scratch_.size())], false);
      woken = 1;
    }
  }
  auto woke = [woken] { return "woke " + std::to_string(woken); };
  // The wake touches the wait list (collect_waiters, wake_all_waiters), not the value: it
  // commutes with every load and store of the word. A wait that found the value it waits for
  // goes on the wait list, and so races with the wake (the lost wake-up).
  step(Kind::atomic, obj, op, woke, loc, Point::plain, /*writes=*/true, /*touches=*/false);
}

// mutex_lock and mutex_unlock end with their step, which tail-calls the switch (Engine::step),
// so after the switch back they return straight into their caller; that needs them free of
// locals whose address escapes, so the wait and the violation live in functions of their own.
void Engine::mutex_lock(mutex& m, source_location loc) {
  before(&m, loc, true);
  if (aborting_) {
    abort_point();
    return;
  }
  if (m.held_ && !wait_until_free(m, loc)) return;
  m.held_ = true;
  m.owner_ = current_id();
  if (c11()) memory_.acquire(current_->id, &m);
  if (observe_) {
    // Possible only after the last unlock: ordered after it, never reordered before it. The
    // race to reverse is with the lock before that unlock, through the acquisitions' chain.
    touch(&m, true, /*follows_write=*/true, /*chained=*/true);
    touch_acquisitions(&m);
  }
  step(Kind::mutex, &m, "lock", {}, loc);
}

bool Engine::wait_until_free(mutex& m, source_location loc) {
  auto held = [&m] { return "held by t" + std::to_string(m.owner_); };
  do {
    if (!block(Kind::mutex, &m, Wait::mutex, "lock", held, loc, m.owner_)) return false;
  } while (m.held_);
  return true;
}

void Engine::mutex_unlock(mutex& m, source_location loc) {
  before(&m, loc, true);
  if (!m.held_ && !aborting_) {
    unlock_not_held(m, loc);
    return;
  }
  m.held_ = false;
  if (c11()) memory_.release(current_->id, &m);
  if (!aborting_) wake_all_waiters(&m, Wait::mutex);  // every waiter retries
  step(Kind::mutex, &m, "unlock", {}, loc);
}

void Engine::unlock_not_held(mutex& m, source_location loc) {
  violation(Outcome::violation, "check",
            "unlock of " + name_of(Kind::mutex, &m) + ", which is not held", &loc);
}

bool Engine::mutex_try_lock(mutex& m, source_location loc) {
  before(&m, loc, !m.held_);
  if (!m.held_) {
    m.held_ = true;
    m.owner_ = current_id();
    if (c11()) memory_.acquire(current_->id, &m);
    // An acquisition like lock's, in the chain a later lock races with (a try_lock that
    // succeeds may also come before the last unlock, where it fails: its plain write says so).
    if (observe_ && !aborting_) touch_acquisitions(&m);
    step(Kind::mutex, &m, "try_lock", "acquired", loc, Point::unwind);
    return true;
  }
  step(Kind::mutex, &m, "try_lock", "failed", loc, Point::unwind,
       /*writes=*/false);
  return false;
}

void Engine::park(parker& p, source_location loc) {
  before(&p, loc, true);
  if (aborting_) {
    abort_point();
    return;
  }
  if (p.permit_) {
    p.permit_ = false;
    if (c11()) memory_.acquire(current_->id, &p);
    step(Kind::parker, &p, "park", "permit", loc);
    return;
  }
  if (reduced_) note_wait_reads(*current_, &p);
  if (inject(spurious_wakeups_on_ && !reduced_)) {
    current_->spurious_spent = true;
    step(Kind::parker, &p, "park", "spurious", loc, Point::plain,
         /*writes=*/false);
    return;
  }
  // A spurious return leaves the permit as it is (none: an unpark would have woken it).
  if (block_platform_wait(Kind::parker, &p, Wait::parker, "park", {}, loc, Point::plain) ==
      WaitEnd::woken) {
    p.permit_ = false;
    if (c11()) memory_.acquire(current_->id, &p);
  }
}

void Engine::unpark(parker& p, source_location loc) {
  before(&p, loc, true);
  p.permit_ = true;
  if (c11()) memory_.release(current_->id, &p);
  if (observe_ && !aborting_) touch_waiters(&p);
  if (!aborting_ && p.owner_ < thread_count_) {
    Thread& owner = *threads_[p.owner_];
    if (&owner.parker == &p && owner.state == State::blocked && owner.wait == Wait::parker) {
      wake(owner, false);
    }
  }
  step(Kind::parker, &p, "unpark", {}, loc);
}

void Engine::event_set(bool& signaled, bool manual, const void* obj, source_location loc) {
  before(obj, loc, true);
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  if (aborting_) {
    signaled = true;
    abort_point();
    return;
  }
  if (c11()) memory_.release(current_->id, obj);
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

void Engine::event_reset(bool& signaled, bool manual, const void* obj, source_location loc) {
  before(obj, loc, true);
  signaled = false;
  step(manual ? Kind::manual_reset_event : Kind::auto_reset_event, obj, "reset", {}, loc);
}

bool Engine::event_wait(bool& signaled, bool manual, const void* obj, std::uint64_t deadline,
                        source_location loc) {
  before(obj, loc, true);
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  if (aborting_) {
    abort_point();
    return false;
  }
  const std::string_view op = deadline == kNoDeadline ? "wait" : "wait_for";
  for (;;) {
    if (signaled) {
      if (!manual) signaled = false;
      if (c11()) memory_.acquire(current_->id, obj);
      step(kind, obj, op, "signaled", loc);
      return true;
    }
    if (deadline == kNoDeadline) {
      if (!block(kind, obj, Wait::event, op, {}, loc)) return false;
    } else {
      if (reduced_) note_wait_reads(*current_, obj);
      const WaitEnd end = block_platform_wait(kind, obj, Wait::event, op, {}, loc, Point::unwind,
                                              deadline, /*spurious=*/false);
      if (end == WaitEnd::timeout || end == WaitEnd::teardown) return false;
    }
    if (current_->handed) {
      // Win32: the setter satisfied this wait at set time.
      current_->handed = false;
      if (c11()) memory_.acquire(current_->id, obj);
      return true;
    }
  }
}

bool Engine::event_try_wait(bool& signaled, bool manual, const void* obj, source_location loc) {
  before(obj, loc, signaled && !manual);
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  const bool got = signaled;
  if (got && !manual) signaled = false;
  if (got && c11()) memory_.acquire(current_->id, obj);
  step(kind, obj, "try_wait", got ? "signaled" : "not signaled", loc, Point::unwind,
       /*writes=*/got && !manual);
  return got;
}

void Engine::semaphore_release(counting_semaphore& s, std::ptrdiff_t n, source_location loc) {
  before(&s, loc, true);
  if (n < 1 && !aborting_) {
    violation(Outcome::violation, "check",
              "release of " + std::to_string(n) + " tokens of " + name_of(Kind::semaphore, &s) +
                  ": a release adds at least one",
              &loc);
    return;
  }
  const std::ptrdiff_t before_release = s.count_;
  s.count_ += n;
  if (c11()) memory_.release(current_->id, &s);
  if (!aborting_) wake_all_waiters(&s, Wait::semaphore);  // every waiter retries
  auto counts = [&] {
    return "count " + std::to_string(before_release) + " -> " + std::to_string(s.count_);
  };
  step(Kind::semaphore, &s, "release", counts, loc);
}

bool Engine::semaphore_acquire(counting_semaphore& s, std::uint64_t deadline, source_location loc) {
  before(&s, loc, true);
  if (aborting_) {
    abort_point();
    return false;
  }
  const std::string_view op = deadline == kNoDeadline ? "acquire" : "try_acquire_for";
  auto empty = [] { return std::string("count 0"); };
  while (s.count_ == 0) {
    if (deadline == kNoDeadline) {
      if (!block(Kind::semaphore, &s, Wait::semaphore, op, empty, loc)) return false;
      continue;
    }
    if (reduced_) note_wait_reads(*current_, &s);
    const WaitEnd end = block_platform_wait(Kind::semaphore, &s, Wait::semaphore, op, empty, loc,
                                            Point::unwind, deadline, /*spurious=*/false);
    if (end == WaitEnd::timeout || end == WaitEnd::teardown) return false;
  }
  observe_acquisition(&s, s.count_ == 1);
  --s.count_;
  if (c11()) memory_.acquire(current_->id, &s);
  auto counts = [&] {
    return "count " + std::to_string(s.count_ + 1) + " -> " + std::to_string(s.count_);
  };
  step(Kind::semaphore, &s, op, counts, loc);
  return true;
}

bool Engine::semaphore_try_acquire(counting_semaphore& s, source_location loc) {
  before(&s, loc, s.count_ > 0);
  if (s.count_ > 0) {
    observe_acquisition(&s, false);
    --s.count_;
    if (c11()) memory_.acquire(current_->id, &s);
    auto counts = [&] {
      return "count " + std::to_string(s.count_ + 1) + " -> " + std::to_string(s.count_);
    };
    step(Kind::semaphore, &s, "try_acquire", counts, loc, Point::unwind);
    return true;
  }
  step(Kind::semaphore, &s, "try_acquire", "count 0, failed", loc, Point::unwind,
       /*writes=*/false);
  return false;
}

bool Engine::condvar_wait(condition_variable& cv, mutex& m, std::uint64_t deadline,
                          source_location loc) {
  before(&cv, loc, true);
  if (aborting_) {
    abort_point();
    return true;
  }
  if (!m.held_ || m.owner_ != current_id()) {
    violation(Outcome::violation, "check",
              "wait on " + name_of(Kind::condvar, &cv) + " by a thread that does not hold " +
                  name_of(Kind::mutex, &m),
              &loc);
    return true;
  }
  const std::string_view op = deadline == kNoDeadline ? "wait" : "wait_for";
  // The unlock is part of the wait's step: nobody can notify in between.
  m.held_ = false;
  if (c11()) memory_.release(current_->id, &m);
  wake_all_waiters(&m, Wait::mutex);
  if (observe_) touch(&m, true);
  auto unlocks = [&] { return "unlocks " + name_of(Kind::mutex, &m); };
  if (reduced_) note_wait_reads(*current_, &cv);
  WaitEnd end = WaitEnd::woken;
  if (inject(spurious_wakeups_on_ && !reduced_)) {
    // Not a write for the spin reduction: the unlock and the lock after it leave the mutex as
    // it was, and a spurious return that changed nothing must not be offered again.
    auto spurious = [&] { return unlocks() + ", spurious"; };
    step(Kind::condvar, &cv, op, spurious, loc, Point::unwind, /*writes=*/false);
    end = WaitEnd::spurious;
  } else {
    end = block_platform_wait(Kind::condvar, &cv, Wait::condvar, op, unlocks, loc, Point::plain,
                              deadline);
    if (end == WaitEnd::teardown) return true;
  }
  mutex_lock(m, loc);
  if (aborting_) return end != WaitEnd::timeout;
  if (end == WaitEnd::woken) {
    if (c11()) memory_.acquire(current_->id, &cv);
  } else {
    // The lock wrote the mutex; the wait's return itself changed nothing.
    current_->spurious_spent = true;
  }
  return end != WaitEnd::timeout;
}

void Engine::condvar_notify(condition_variable& cv, bool all, source_location loc) {
  before(&cv, loc, true);
  if (aborting_) {
    abort_point();
    return;
  }
  if (c11()) memory_.release(current_->id, &cv);
  std::size_t woken = 0;
  if (all) {
    woken = wake_all_waiters(&cv, Wait::condvar);
  } else {
    collect_waiters(&cv, Wait::condvar);
    if (!scratch_.empty()) {
      wake(*scratch_[choose(scratch_.size())], false);
      woken = 1;
    }
  }
  auto woke = [woken] { return "woke " + std::to_string(woken); };
  step(Kind::condvar, &cv, all ? "notify_all" : "notify_one", woke, loc);
}

std::uint64_t Engine::clock_now(source_location loc) {
  before(&clock_, loc, true);
  if (!aborting_) clock_ += kClockTickNs;
  const std::uint64_t now = clock_;
  auto shown = [now] { return std::to_string(now) + " ns"; };
  step(Kind::clock, &clock_, "now", shown, loc, Point::unwind);
  return now;
}

void Engine::await_quiescence(source_location loc) {
  before(&quiescence_, loc, true);
  ++quiescence_waiters_;
  block(Kind::quiescence, &quiescence_, Wait::quiescence, "wait until the others block", {}, loc);
  // Woken when every other thread had blocked or exited: what this step goes on to do comes
  // after each one's last step. That a wait began before some of those steps changes nothing
  // it can see: it would have returned at once after them, in the same state.
  if (observe_) accesses_.push_back(Access{kAfterEveryThread, false, true});
}

}  // namespace detail

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
  if (Engine* e = t_engine) {
    e->event_wait(signaled_, false, this, detail::kNoDeadline, loc);
    return;
  }
  if (!signaled_) throw std::logic_error("sim::auto_reset_event::wait would block forever");
  signaled_ = false;
}
bool auto_reset_event::wait_for(std::chrono::nanoseconds timeout, source_location loc) {
  if (Engine* e = t_engine) {
    return e->event_wait(signaled_, false, this, e->deadline_after(timeout.count()), loc);
  }
  return std::exchange(signaled_, false);
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
  if (Engine* e = t_engine) {
    e->event_wait(signaled_, true, this, detail::kNoDeadline, loc);
    return;
  }
  if (!signaled_) throw std::logic_error("sim::manual_reset_event::wait would block forever");
}
bool manual_reset_event::wait_for(std::chrono::nanoseconds timeout, source_location loc) {
  if (Engine* e = t_engine) {
    return e->event_wait(signaled_, true, this, e->deadline_after(timeout.count()), loc);
  }
  return signaled_;
}
bool manual_reset_event::try_wait(source_location loc) {
  if (Engine* e = t_engine) return e->event_try_wait(signaled_, true, this, loc);
  return signaled_;
}

counting_semaphore::counting_semaphore(std::ptrdiff_t initial) : count_(initial) {
  if (initial < 0) throw std::invalid_argument("sim::counting_semaphore: a negative count");
  detail::register_object(Kind::semaphore, this);
}
void counting_semaphore::release(std::ptrdiff_t n, source_location loc) {
  if (Engine* e = t_engine) return e->semaphore_release(*this, n, loc);
  count_ += n;
}
void counting_semaphore::acquire(source_location loc) {
  if (Engine* e = t_engine) {
    e->semaphore_acquire(*this, detail::kNoDeadline, loc);
    return;
  }
  if (count_ == 0) throw std::logic_error("sim::counting_semaphore::acquire would block forever");
  --count_;
}
bool counting_semaphore::try_acquire(source_location loc) {
  if (Engine* e = t_engine) return e->semaphore_try_acquire(*this, loc);
  if (count_ == 0) return false;
  --count_;
  return true;
}
bool counting_semaphore::try_acquire_for(std::chrono::nanoseconds timeout, source_location loc) {
  if (Engine* e = t_engine) {
    return e->semaphore_acquire(*this, e->deadline_after(timeout.count()), loc);
  }
  return try_acquire(loc);
}

condition_variable::condition_variable() { detail::register_object(Kind::condvar, this); }
void condition_variable::wait(mutex& m, source_location loc) {
  if (Engine* e = t_engine) {
    e->condvar_wait(*this, m, detail::kNoDeadline, loc);
    return;
  }
  throw std::logic_error("sim::condition_variable::wait would block forever");
}
std::cv_status condition_variable::wait_for(mutex& m, std::chrono::nanoseconds timeout,
                                            source_location loc) {
  if (Engine* e = t_engine) {
    return e->condvar_wait(*this, m, e->deadline_after(timeout.count()), loc)
               ? std::cv_status::no_timeout
               : std::cv_status::timeout;
  }
  return std::cv_status::timeout;  // nobody can notify: the time passes
}
void condition_variable::notify_one(source_location loc) {
  if (Engine* e = t_engine) e->condvar_notify(*this, false, loc);
}
void condition_variable::notify_all(source_location loc) {
  if (Engine* e = t_engine) e->condvar_notify(*this, true, loc);
}

}  // namespace syncstress::sim
