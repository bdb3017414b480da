// The primitives my-syncstress tests (CMakeLists.txt: syncstress_add_tool's PRIMITIVES_HEADER).
//
// Each row of SYNCSTRESS_EXTRA_PRIMITIVES is X(template, kind, mode, source, claims, summary):
// a `template <Platform P>` visible from namespace syncstress, the contract it offers, whether
// threads (sync) or coroutines (async) use it, where it comes from, what it promises (it is
// judged only on these), and one line for `my-syncstress list primitives`.
#pragma once

#include "my/spin_lock.hpp"
#include "my/timed_lock.hpp"

namespace syncstress {

template <Platform P>
using my_spin_lock = my::spin_lock<P, my::Variant::exchange>;
template <Platform P>
using my_spin_lock_check_then_set = my::spin_lock<P, my::Variant::check_then_set>;
template <Platform P>
using my_spin_lock_fences = my::spin_lock<P, my::Variant::fences>;
template <Platform P>
using my_spin_lock_fence_dropped = my::spin_lock<P, my::Variant::fence_dropped>;
template <Platform P>
using my_timed_lock = my::timed_lock<P, my::TimedVariant::exchange>;
template <Platform P>
using my_timed_lock_check_then_set = my::timed_lock<P, my::TimedVariant::check_then_set>;

}  // namespace syncstress

#define SYNCSTRESS_EXTRA_PRIMITIVES(X)                                                           \
  X(my_spin_lock, Kind::mutex, Mode::sync, "examples/my-primitive", kMutualExclusion,            \
    "test-and-set spin lock: exchange to take, release store to leave")                          \
  X(my_spin_lock_check_then_set, Kind::mutex, Mode::sync, "examples/my-primitive, bug planted",  \
    kMutualExclusion, "the same lock taken by a load and a separate store (check-then-set)")     \
  X(my_spin_lock_fences, Kind::mutex, Mode::sync, "examples/my-primitive", kMutualExclusion,     \
    "relaxed exchange and store, ordered by an acquire and a release fence")                     \
  X(my_spin_lock_fence_dropped, Kind::mutex, Mode::sync, "examples/my-primitive, bug planted",   \
    kMutualExclusion, "the fenced lock without its release fence (a data race)")                 \
  X(my_timed_lock, Kind::mutex, Mode::sync, "examples/my-primitive",                             \
    kMutualExclusion | kNoLostWakeups,                                                           \
    "hand-off lock: waiter list in a uintptr_t, a semaphore per waiter, timed path on a cv")     \
  X(my_timed_lock_check_then_set, Kind::mutex, Mode::sync, "examples/my-primitive, bug planted", \
    kMutualExclusion | kNoLostWakeups,                                                           \
    "the same lock whose try_lock_for takes a free lock by a load and a separate store")
