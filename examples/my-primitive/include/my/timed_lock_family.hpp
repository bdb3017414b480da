// A scenario family of this tool's own, "timed-lock": some threads take a mutex with lock(),
// others with try_lock_for(d), and the harness checks at every step that at most one holds it.
// syncstress's own families only ever call a mutex's lock(), so without this one the timed path
// of my::timed_lock would never run. Registered in my_families.hpp; its preset is
// presets/timed-lock.json.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string_view>
#include <vector>

#include "scenarios/families/safety.hpp"  // the harness, and safety's lock() actor

namespace my {

namespace ss = syncstress;
namespace sc = syncstress::scenarios;

/// A primitive with a timed acquisition whose result says whether it acquired.
template <class Prim>
concept timed_lockable = requires(Prim& m) {
  static_cast<bool>(m.try_lock_for(std::chrono::nanoseconds(1)));
};

struct timed_lock_family {
  static constexpr std::string_view name = "timed-lock";
  /// Two holders at once break mutual exclusion; a deadlock fails any primitive.
  static constexpr ss::Claim claim = ss::kMutualExclusion;

  /// The sync mutexes that have try_lock_for.
  template <ss::Kind K, ss::Mode M, class Prim>
  static constexpr bool applies = K == ss::Kind::mutex&& M == ss::Mode::sync&& timed_lockable<Prim>;

  static std::vector<sc::ParamSpec> specs() {
    using T = sc::ParamSpec::Type;
    return {
        {"actors", T::integer, 2, 4, 3, "threads taking the lock"},
        {"timed", T::integer, 1, 4, 1, "how many of them take it with try_lock_for"},
        {"rounds", T::integer, 1, 1000, 2, "acquisitions per thread"},
        {"patience_us", T::integer, 0, 1000000, 50, "how long try_lock_for waits (microseconds)"},
        {"hold_steps", T::integer, 0, 16, 1, "scheduling points inside each critical section"},
    };
  }

  /// A thread that takes the lock with try_lock_for, `rounds` times; one that times out enters
  /// nothing that round.
  template <ss::Platform P, class Prim>
  static ss::task<P> timed_actor(sc::ScenarioContext<P>& c, sc::ActorStats& me, Prim& lock,
                                 std::int64_t rounds, std::chrono::nanoseconds patience) {
    for (std::int64_t r = 0; r < rounds; ++r) {
      const auto held = lock.try_lock_for(patience);
      if (!held) continue;
      ++me.acquisitions;
      c.enter_exclusive();
      c.hold_section();
      c.leave_exclusive();
    }  // held is destroyed here: the lock is released
    co_return;
  }

  /// One execution: the first `timed` actors use try_lock_for, the others lock().
  template <ss::Platform P, ss::Kind K, ss::Mode M, class Prim>
  static void run(sc::Observations& obs, std::uint32_t claims, const sc::Params& p) {
    sc::ScenarioContext<P> c(obs, claims, p);
    const auto actors = p.integer("actors");
    const auto timed = std::min(p.integer("timed"), actors);
    const auto rounds = p.integer("rounds");
    const std::chrono::nanoseconds patience = std::chrono::microseconds(p.integer("patience_us"));
    obs.actors.resize(static_cast<std::size_t>(actors));
    // Declared before the actors, which still use it if the execution ends early.
    const auto storage = sc::make_primitive<K, M, Prim>(0);
    Prim& lock = *storage;
    sc::Actors<P> group(obs);
    for (std::int64_t i = 0; i < actors; ++i) {
      sc::ActorStats* me = &obs.actors[static_cast<std::size_t>(i)];
      if (i < timed) {
        group.add([&c, &lock, me, rounds,
                   patience] { return timed_actor<P>(c, *me, lock, rounds, patience); },
                  sc::Role{0});
      } else {
        group.add([&c, &lock, me,
                   rounds] { return sc::safety::exclusive_actor<P, M>(c, *me, lock, rounds); },
                  sc::Role{1});
      }
    }
    group.run();
  }
};

}  // namespace my
