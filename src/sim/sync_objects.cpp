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
  if (inject(spurious_wakeups_on_ && offers_spurious(*current_))) {
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
  step(Kind::atomic, obj, op, woke, loc);
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
    touch(&m, true, /*follows_write=*/true);
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
  if (inject(spurious_wakeups_on_ && offers_spurious(*current_))) {
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

void Engine::event_wait(bool& signaled, bool manual, const void* obj, source_location loc) {
  before(obj, loc, true);
  const Kind kind = manual ? Kind::manual_reset_event : Kind::auto_reset_event;
  if (aborting_) {
    abort_point();
    return;
  }
  for (;;) {
    if (signaled) {
      if (!manual) signaled = false;
      if (c11()) memory_.acquire(current_->id, obj);
      step(kind, obj, "wait", "signaled", loc);
      return;
    }
    if (!block(kind, obj, Wait::event, "wait", {}, loc)) return;
    if (current_->handed) {
      // Win32: the setter satisfied this wait at set time.
      current_->handed = false;
      if (c11()) memory_.acquire(current_->id, obj);
      return;
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

}  // namespace syncstress::sim
