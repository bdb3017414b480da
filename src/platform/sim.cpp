// The Sim platform's out-of-line members: each hands its operation to the engine running the
// execution, or acts directly on its object outside one (see src/platform/sim.hpp).
#include "platform/sim.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress {

using sim::detail::Engine;
using sim::detail::t_engine;

Sim::parker& Sim::current_parker() {
  if (Engine* e = t_engine) return e->current_parker();
  static thread_local sim::parker outside;
  return outside;
}

void Sim::post(std::coroutine_handle<> h, source_location loc) {
  if (Engine* e = t_engine) return e->post(h, loc);
  h.resume();  // outside an execution there is no pool: run it here
}

void Sim::resume_on_signal(auto_reset_event& ev, std::coroutine_handle<> h, source_location loc) {
  if (Engine* e = t_engine) return e->resume_on_signal(ev, h, loc);
  // Outside an execution try_wait consumes the signal directly, without a scheduling point.
  if (!ev.try_wait(loc)) {
    throw std::logic_error("Sim::resume_on_signal outside an execution needs a signaled event");
  }
  h.resume();
}

void* Sim::node_allocate(std::size_t n) {
  if (Engine* e = t_engine) return e->node_allocate(n);
  return ::operator new(n);
}

void Sim::node_deallocate(void* p, std::size_t n) {
  if (Engine* e = t_engine) return e->node_deallocate(p, n);
  ::operator delete(p, n);
}

void Sim::resume(std::coroutine_handle<> h, source_location loc) {
  if (Engine* e = t_engine) return e->resume(h, loc);
  h.resume();
}

ThreadId Sim::thread::start(std::function<void()> fn, const source_location& loc) {
  Engine* e = t_engine;
  if (e == nullptr) throw std::logic_error("Sim::thread outside an execution");
  epoch_ = e->epoch();
  return e->spawn(std::move(fn), loc);
}

// NOLINTNEXTLINE(bugprone-exception-escape): join(..., from_destructor) never unwinds.
Sim::thread::~thread() {
  if (joinable_) {
    Engine* e = t_engine;
    if (e != nullptr && e->epoch() == epoch_) {
      e->join(id_, source_location::current(), true);
    }
  }
}

void Sim::thread::join(source_location loc) {
  joinable_ = false;
  Engine* e = t_engine;
  if (e != nullptr && e->epoch() == epoch_) e->join(id_, loc);
}

void Sim::check_failed(std::string_view what, const source_location& loc) {
  Engine* e = t_engine;
  if (e == nullptr) throw std::logic_error("Sim::check failed: " + std::string(what));
  e->violation(sim::Outcome::violation, "check", std::string(what), &loc);
  e->abort_point_public();
}

}  // namespace syncstress
