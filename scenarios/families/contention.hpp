// The fairness and starvation families: actors contend repeatedly and the WaitBook records,
// per actor, acquisitions, wait times in steps, and bypasses (acquisitions by actors that
// arrived later, while it waited).
//
// fairness (mutex, semaphore): N actors share a fixed budget of acquisitions. A primitive that
// claims FIFO hand-off fails on the first FIFO violation; otherwise the numbers are reported
// as a measured verdict: Jain's fairness index over acquisitions, wait percentiles, bypasses.
//
// starvation: one side is the victim. shared_mutex: writers wait while readers keep arriving
// with overlapping holds; mutex and semaphore: one actor against a stream of others. A
// primitive that claims starvation freedom fails once a victim is bypassed more than
// max_bypass times in one wait, or when the execution exceeds the step bound.
#pragma once

#include <string>

#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios::contention {

inline std::vector<ParamSpec> fairness_specs() {
  using T = ParamSpec::Type;
  return {
      {"actors", T::integer, 2, 16, 3, "actors contending"},
      {"acquisitions", T::integer, 1, 10000, 12, "acquisitions shared by all actors"},
      {"capacity", T::integer, 1, 16, 1, "semaphore: initial tokens"},
      {"hold_steps", T::integer, 0, 16, 1, "scheduling points inside each critical section"},
  };
}

inline std::vector<ParamSpec> starvation_specs() {
  using T = ParamSpec::Type;
  return {
      {"readers", T::integer, 1, 16, 3, "shared_mutex: readers arriving continuously"},
      {"writers", T::integer, 1, 8, 1, "shared_mutex: writers (the victims)"},
      {"others", T::integer, 1, 16, 2, "mutex, semaphore: actors streaming against the victim"},
      {"victim_rounds", T::integer, 1, 100, 2, "acquisitions each victim needs"},
      {"stream_rounds", T::integer, 1, 1000, 20,
       "most acquisitions of each streaming actor (readers, others)"},
      {"capacity", T::integer, 1, 16, 1, "semaphore: initial tokens"},
      {"hold_steps", T::integer, 0, 16, 2, "scheduling points inside each hold"},
      {"max_bypass", T::integer, 0, 1000, 8,
       "most later arrivals a victim may see acquire ahead of it in one wait"},
  };
}

template <Platform P>
struct Context : ScenarioContext<P> {
  Context(Observations& o, std::uint32_t claims, const Params& p)
      : ScenarioContext<P>(o, claims, p),
        book(o, this->checks.claims(kFifoHandoff) || this->checks.claims(kStarvationFreedom)) {}
  WaitBook<P> book;
  Counter<P> budget_used;
  Counter<P> victims_left;
  bool victims_watched = false;  // the starvation family; fairness has no victims

  /// After any acquisition: fail a claimed FIFO hand-off on a bypass, and a claimed
  /// starvation freedom once a victim is bypassed beyond the bound.
  void check_acquisition(std::uint64_t passed) {
    auto& checks = this->checks;
    if (!victims_watched) {
      checks.require(kFifoHandoff, passed == 0,
                     "acquired ahead of " + std::to_string(passed) +
                         " waiter(s) already queued when it arrived");
      return;
    }
    if (!checks.claims(kStarvationFreedom)) return;
    const auto worst = book.worst_victim();
    const auto bound = static_cast<std::uint64_t>(this->params.integer("max_bypass"));
    checks.require(kStarvationFreedom, worst <= bound,
                   "a waiting victim was bypassed " + std::to_string(worst) +
                       " times by later arrivals (max_bypass " + std::to_string(bound) + ")");
    // On a wall clock (real threads), also the length of the wait itself.
    if (const auto limit = victim_wait_bound<P>(); limit != 0) {
      const auto waited = book.longest_victim_wait();
      checks.require(kStarvationFreedom, waited <= limit,
                     "a waiting victim has waited " + std::to_string(waited / 1000) +
                         " us in one wait (the bound is " + std::to_string(limit / 1000) + " us)");
    }
  }
};

/// What acquiring means for a kind, so one actor loop serves all of them: exclusively (a
/// semaphore's token, a lock) or, for a shared mutex, shared.
template <Kind K, bool kShared>
constexpr Acquisition kAcquisition = kShared ? Acquisition::lock_shared : exclusive_acquisition(K);

/// Starts a wait in the book and acquires; gives what the acquisition gave, for the hold.
template <Kind K, Mode M, bool kShared, Platform P, class Prim>
task<P, HeldBy<M, kAcquisition<K, kShared>, Prim>> take(Context<P>& c, Prim& p, std::size_t me,
                                                        bool victim = false) {
  constexpr Acquisition A = kAcquisition<K, kShared>;
  const auto ticket = c.book.arrive(me, /*settled=*/M == Mode::sync, victim);
  auto held = co_await [&] {
    if constexpr (M == Mode::sync) {
      return acquisition<M, A>(p);
    } else {
      return acquiring<A>([&] {
        return settling{acquisition_call<A>(p), settle_in_book<P>{&c.book, ticket}};
      });
    }
  }();
  if (acquired(c.checks, held)) c.check_acquisition(c.book.acquired(ticket));
  co_return std::move(held);
}

/// One hold of the primitive with the safety check on entry, released as it was acquired
/// (`h`, what take gave). An acquisition that failed (take reported it) has nothing to hold.
template <Platform P, class Prim, class H>
task<P> held(Context<P>& c, Prim& p, H h, std::int64_t capacity) {
  if (!h.acquired()) co_return;
  if constexpr (H::kAcquisition == Acquisition::lock_shared) {
    c.enter_shared();
  } else {
    c.enter_exclusive(capacity);
  }
  c.hold_section();
  if constexpr (H::kAcquisition == Acquisition::lock_shared) {
    c.leave_shared();
  } else {
    c.leave_exclusive();
  }
  h.release(p);
}

template <Platform P, Kind K, Mode M, class Prim>
task<P> fairness_actor(Context<P>& c, Prim& p, std::size_t me, std::int64_t capacity) {
  const auto budget = c.params.integer("acquisitions");
  while (c.budget_used.get() < budget) {
    auto h = co_await take<K, M, false>(c, p, me);
    c.budget_used.add(1);
    co_await held<P>(c, p, std::move(h), capacity);
  }
}

template <Platform P, Kind K, Mode M, class Prim>
task<P> victim_actor(Context<P>& c, Prim& p, std::size_t me, std::int64_t capacity) {
  constexpr bool kShared = false;
  for (std::int64_t r = 0; r < c.params.integer("victim_rounds"); ++r) {
    auto h = co_await take<K, M, kShared>(c, p, me, /*victim=*/true);
    co_await held<P>(c, p, std::move(h), capacity);
  }
  c.victims_left.add(-1);
}

template <Platform P, Kind K, Mode M, class Prim>
task<P> stream_actor(Context<P>& c, Prim& p, std::size_t me, std::int64_t capacity) {
  constexpr bool kShared = K == Kind::shared_mutex;
  for (std::int64_t r = 0; r < c.params.integer("stream_rounds") && c.victims_left.get() > 0; ++r) {
    auto h = co_await take<K, M, kShared>(c, p, me);
    co_await held<P>(c, p, std::move(h), capacity);
  }
}

/// One execution of the fairness family.
template <Platform P, Kind K, Mode M, class Prim>
void run_fairness(Observations& obs, std::uint32_t claims, const Params& p) {
  Context<P> c(obs, claims, p);
  const auto actors = static_cast<std::size_t>(p.integer("actors"));
  const auto capacity = K == Kind::semaphore ? p.integer("capacity") : 1;
  obs.actors.resize(actors);
  const auto storage = make_primitive<K, M, Prim>(capacity);
  Prim& prim = *storage;
  Actors<P> group(obs);
  constexpr Role kTwins{0};
  for (std::size_t i = 0; i < actors; ++i) {
    group.add([&, i] { return fairness_actor<P, K, M>(c, prim, i, capacity); }, kTwins);
  }
  group.run();
}

/// One execution of the starvation family.
template <Platform P, Kind K, Mode M, class Prim>
void run_starvation(Observations& obs, std::uint32_t claims, const Params& p) {
  Context<P> c(obs, claims, p);
  const auto victims = static_cast<std::size_t>(K == Kind::shared_mutex ? p.integer("writers") : 1);
  const auto stream = static_cast<std::size_t>(K == Kind::shared_mutex ? p.integer("readers")
                                                                       : p.integer("others"));
  const auto capacity = K == Kind::semaphore ? p.integer("capacity") : 1;
  obs.actors.resize(victims + stream);
  c.victims_left.set(static_cast<std::int64_t>(victims));
  c.victims_watched = true;
  const auto storage = make_primitive<K, M, Prim>(capacity);
  Prim& prim = *storage;
  Actors<P> group(obs);
  // The stream starts first so the victims arrive at a primitive that is already busy.
  // Interchangeable actors: the stream, and the victims.
  constexpr Role kStream{0};
  constexpr Role kVictims{1};
  for (std::size_t i = 0; i < stream; ++i) {
    group.add([&, i] { return stream_actor<P, K, M>(c, prim, victims + i, capacity); }, kStream);
  }
  for (std::size_t i = 0; i < victims; ++i) {
    group.add([&, i] { return victim_actor<P, K, M>(c, prim, i, capacity); }, kVictims);
  }
  group.run();
}

}  // namespace syncstress::scenarios::contention
