// Must not compile: a mutex whose lock() gives a guard that cannot be moved, which the harness
// cannot keep until it releases (scenarios/acquire.hpp, gives()). The CTest
// harness.a_lock_giving_an_unmovable_guard_is_refused expects the static_assert's message.
#include "scenarios/acquire.hpp"

namespace {

struct unmovable_guard_mutex {
  class guard {
   public:
    explicit guard(unmovable_guard_mutex& m) : m_(m) {}
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    ~guard() { m_.unlock(); }

   private:
    unmovable_guard_mutex& m_;
  };
  guard lock() { return guard(*this); }
  void unlock() {}
};

}  // namespace

int main() {
  using syncstress::Kind;
  using syncstress::Mode;
  auto m = syncstress::scenarios::make_primitive<Kind::mutex, Mode::sync, unmovable_guard_mutex>(0);
  return m != nullptr ? 0 : 1;
}
