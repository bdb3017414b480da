// Must not compile: a mutex whose lock() returns a scoped guard, which the harness would drop
// (releasing the lock) before calling unlock() (releasing it again). The CTest
// harness.a_lock_returning_a_guard_is_refused expects the static_assert's message.
#include "scenarios/acquire.hpp"

namespace {

struct guard_mutex {
  struct guard {
    guard_mutex* m;
    ~guard() { m->unlock(); }
  };
  guard lock() { return guard{this}; }
  void unlock() {}
};

}  // namespace

int main() {
  auto m = syncstress::scenarios::make_primitive<syncstress::Kind::mutex, guard_mutex>(0);
  return m != nullptr ? 0 : 1;
}
