// Must not compile: an event whose wait() gives a guard; an event has nothing to release
// (scenarios/acquire.hpp, gives()). The CTest harness.an_event_wait_giving_a_guard_is_refused
// expects the static_assert's message.
#include <utility>

#include "scenarios/acquire.hpp"

namespace {

struct guard_wait_event {
  static constexpr bool kAutoReset = true;
  class guard {
   public:
    guard() = default;
    guard(guard&& other) noexcept : armed_(std::exchange(other.armed_, false)) {}
    guard& operator=(guard&&) = delete;
    ~guard() { armed_ = false; }

   private:
    bool armed_ = true;
  };
  explicit guard_wait_event(bool /*initially_set*/) {}
  void set() {}
  guard wait() { return {}; }
};

}  // namespace

int main() {
  using syncstress::Kind;
  using syncstress::Mode;
  auto e = syncstress::scenarios::make_primitive<Kind::event, Mode::sync, guard_wait_event>(0);
  return e != nullptr ? 0 : 1;
}
