// The one explicit list of every primitive under test.
//
// Each line of SYNCSTRESS_PRIMITIVES names a `template <Platform P> class` (or alias template)
// from primitives/, its kind, whether it is used from threads (sync) or coroutines (async),
// the source it follows, what it claims, and one line of description. Consumers expand the
// list with their own X: `syncstress list primitives` turns it into PrimitiveInfo rows, the
// scenario families instantiate each template on the platforms they run on.
//
// The interface each kind must offer is described in primitives/README.md ("Kind interfaces").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace syncstress {

enum class Kind { mutex, shared_mutex, semaphore, event, work_queue };
enum class Mode { sync, async };

/// What a primitive promises (or what a user of its kind would reasonably expect from it).
/// A scenario fails a primitive only for breaking a property it claims; an unclaimed
/// property is measured and reported, not judged.
enum Claim : std::uint32_t {
  // safety: no more holders than the kind allows; for an event, a wait completes only for a
  // set (auto-reset: at most one wait per set; manual-reset: any number, once it is set)
  kMutualExclusion = 1u << 0,
  kFifoHandoff = 1u << 1,              // waiters acquire in arrival order
  kStarvationFreedom = 1u << 2,        // no waiter is bypassed without bound (writers, for rw)
  kCancellationSafety = 1u << 3,       // destroying a waiting coroutine harms nobody else
  kSpuriousWakeupTolerance = 1u << 4,  // spurious returns from platform waits are harmless
  kNoLostWakeups = 1u << 5,            // every release / signal reaches a waiter
};

struct PrimitiveInfo {
  std::string_view name;
  Kind kind;
  Mode mode;
  std::string_view source;  // "000 unfair async mutex", "control", ...
  std::uint32_t claims;     // bitwise or of Claim
  std::string_view summary;
};

std::string_view to_string(Kind kind);
std::string_view to_string(Mode mode);
/// Claim names as they appear in reports: "mutual_exclusion", "fifo_handoff", ...
std::string_view to_string(Claim claim);

/// Every primitive of SYNCSTRESS_PRIMITIVES, in list order, then those a tool registered with
/// register_extra_primitives (defined in primitives/catalog.cpp).
std::span<const PrimitiveInfo> all_primitives();

/// Adds primitives beyond SYNCSTRESS_PRIMITIVES to all_primitives(): a tool built with
/// syncstress_add_tool (cmake/syncstress_add_tool.cmake) does so from a static initializer,
/// before main, so before anyone reads the catalogue. `rows` must outlive the program.
/// Returns true, so that it can initialize a constant.
bool register_extra_primitives(std::span<const PrimitiveInfo> rows);

/// Leaves SYNCSTRESS_PRIMITIVES out of all_primitives(), so that only the registered extra
/// primitives are listed, run and judged: a tool of syncstress_add_tool(... ONLY_THESE_PRIMITIVES)
/// calls it from a static initializer, as register_extra_primitives. Returns true.
bool hide_builtin_primitives();

}  // namespace syncstress

// X(template, kind, mode, source, claims, summary) -- one line per primitive.
// The headers that define the templates are included by primitives/all.hpp.
// Controls (known-good references) come last in each kind. Details: primitives/README.md.
#define SYNCSTRESS_PRIMITIVES(X)                                                                   \
  /* mutex, async */                                                                               \
  X(async_unfair_mutex, Kind::mutex, Mode::async, "000 unfair async mutex (bonus)",                \
    kMutualExclusion | kNoLostWakeups,                                                             \
    "auto-reset event created signaled, co_await resume_on_signal, set to leave; unfair")          \
  X(mutex_part7, Kind::mutex, Mode::async, "003 library part 2 + series part 7",                   \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "the mutex is the auto-reset event; waiters resumed on the releasing thread")                  \
  X(mutex_part7_pooled, Kind::mutex, Mode::async, "003 library part 3 + series part 7",            \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "the mutex is the auto-reset event; waiters resumed on the pool")                              \
  X(mutex_part7_cancel_fixed, Kind::mutex, Mode::async,                                            \
    "003 library part 2 + series part 7, corrected",                                               \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "mutex_part7 with destruct_node unlinking the cancelled waiter (corrected variant)")           \
  X(mutex_part7_pooled_cancel_fixed, Kind::mutex, Mode::async,                                     \
    "003 library part 3 + series part 7, corrected",                                               \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "mutex_part7_pooled with destruct_node unlinking the cancelled waiter (corrected variant)")    \
  X(mutex_part7_cancel_handoff, Kind::mutex, Mode::async,                                          \
    "003 library part 2 + series part 7, cancellation hand-off",                                   \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "mutex_part7 where a waiter destroyed after a release granted it hands the mutex on")          \
  X(mutex_part7_pooled_cancel_handoff, Kind::mutex, Mode::async,                                   \
    "003 library part 3 + series part 7, cancellation hand-off",                                   \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,   \
    "mutex_part7_pooled where a waiter destroyed after being granted hands the mutex on")          \
  /* mutex, sync */                                                                                \
  X(event_mutex, Kind::mutex, Mode::sync, "000 unfair async mutex (comments)",                     \
    kMutualExclusion | kNoLostWakeups,                                                             \
    "auto-reset event created signaled: wait to enter, set to leave")                              \
  X(ticket_mutex, Kind::mutex, Mode::sync, "control",                                              \
    kMutualExclusion | kFifoHandoff | kStarvationFreedom | kNoLostWakeups |                        \
        kSpuriousWakeupTolerance,                                                                  \
    "FIFO ticket lock on atomics and wait-on-address")                                             \
  X(platform_mutex, Kind::mutex, Mode::sync, "control", kMutualExclusion | kNoLostWakeups,         \
    "the platform's own mutex")                                                                    \
  /* shared_mutex, async */                                                                        \
  X(shared_mutex_part8, Kind::shared_mutex, Mode::async, "001 shared mutex part 8, as published",  \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "owners -1/0/n, resume_a_bunch; the author calls it broken; sync resumption")                  \
  X(shared_mutex_part8_pooled, Kind::shared_mutex, Mode::async,                                    \
    "001 shared mutex part 8, as published, part 3 resumption",                                    \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part8 with waiters resumed on the pool")                                         \
  X(shared_mutex_part9, Kind::shared_mutex, Mode::async, "series part 9 (seeds/README.md)",        \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "repaired part 8: claims queue behind waiters, last reader hands off; sync resumption")        \
  X(shared_mutex_part9_pooled, Kind::shared_mutex, Mode::async,                                    \
    "series part 9 (seeds/README.md), part 3 resumption",                                          \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part9 with waiters resumed on the pool")                                         \
  X(shared_mutex_part9_cancel_fixed, Kind::shared_mutex, Mode::async,                              \
    "series part 9 on the 003 library, corrected",                                                 \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part9 with destruct_node unlinking the cancelled waiter (corrected variant)")    \
  X(shared_mutex_part9_pooled_cancel_fixed, Kind::shared_mutex, Mode::async,                       \
    "series part 9 on the 003 library part 3, corrected",                                          \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part9_pooled with the corrected destruct_node (corrected variant)")              \
  X(shared_mutex_part9_cancel_handoff, Kind::shared_mutex, Mode::async,                            \
    "series part 9 on the 003 library, cancellation hand-off",                                     \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part9 where a waiter destroyed after being granted unlocks as it locked")        \
  X(shared_mutex_part9_pooled_cancel_handoff, Kind::shared_mutex, Mode::async,                     \
    "series part 9 on the 003 library part 3, cancellation hand-off",                              \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kCancellationSafety,                  \
    "shared_mutex_part9_pooled where a destroyed granted waiter unlocks as it locked")             \
  /* shared_mutex, sync */                                                                         \
  X(ticket_shared_mutex, Kind::shared_mutex, Mode::sync, "control",                                \
    kMutualExclusion | kStarvationFreedom | kNoLostWakeups | kSpuriousWakeupTolerance,             \
    "FIFO ticket reader/writer lock on atomics and wait-on-address")                               \
  /* semaphore, async */                                                                           \
  X(semaphore_part6, Kind::semaphore, Mode::async, "003 library part 2 + series part 6",           \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "token count, set and set_many; waiters resumed on the releasing thread")                      \
  X(semaphore_part6_pooled, Kind::semaphore, Mode::async, "003 library part 3 + series part 6",    \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "token count, set and set_many; waiters resumed on the pool")                                  \
  X(semaphore_part6_cancel_fixed, Kind::semaphore, Mode::async,                                    \
    "003 library part 2 + series part 6, corrected",                                               \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "semaphore_part6 with the corrected destruct_node (corrected variant)")                        \
  X(semaphore_part6_cancel_handoff, Kind::semaphore, Mode::async,                                  \
    "003 library part 2 + series part 6, cancellation hand-off",                                   \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "semaphore_part6 where a waiter destroyed after being granted gives its token back")           \
  X(semaphore_part6_pooled_cancel_handoff, Kind::semaphore, Mode::async,                           \
    "003 library part 3 + series part 6, cancellation hand-off",                                   \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "semaphore_part6_pooled where a destroyed granted waiter gives its token back")                \
  /* semaphore, sync */                                                                            \
  X(cooperative_semaphore, Kind::semaphore, Mode::sync, "004 ConcRT cooperative semaphore",        \
    kMutualExclusion | kNoLostWakeups,                                                             \
    "atomic count, queue of parkers, release spins with yield until the waiter queued")            \
  X(wait_on_address_semaphore, Kind::semaphore, Mode::sync, "control",                             \
    kMutualExclusion | kNoLostWakeups | kSpuriousWakeupTolerance,                                  \
    "token count on one atomic word, CAS to take, wait-on-address to sleep")                       \
  /* event, async */                                                                               \
  X(manual_reset_event_part4, Kind::event, Mode::async, "003 library part 2 + series part 4",      \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "set resumes every waiter, reset clears")                                                      \
  X(manual_reset_event_part4_cancel_fixed, Kind::event, Mode::async,                               \
    "003 library part 2 + series part 4, corrected",                                               \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "manual_reset_event_part4 with the corrected destruct_node (corrected variant)")               \
  X(manual_reset_event_part4_pooled, Kind::event, Mode::async,                                     \
    "003 library part 3 + series part 4", kMutualExclusion | kNoLostWakeups | kCancellationSafety, \
    "manual_reset_event_part4 with waiters resumed on the pool")                                   \
  X(auto_reset_event_part5, Kind::event, Mode::async, "003 library part 2 + series part 5",        \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "set resumes one waiter or stays set; calc_claim fast/slow")                                   \
  X(auto_reset_event_part5_cancel_fixed, Kind::event, Mode::async,                                 \
    "003 library part 2 + series part 5, corrected",                                               \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "auto_reset_event_part5 with the corrected destruct_node (corrected variant)")                 \
  X(auto_reset_event_part5_pooled, Kind::event, Mode::async, "003 library part 3 + series part 5", \
    kMutualExclusion | kNoLostWakeups | kCancellationSafety,                                       \
    "auto_reset_event_part5 with waiters resumed on the pool")                                     \
  /* event, sync */                                                                                \
  X(platform_auto_reset_event, Kind::event, Mode::sync, "control",                                 \
    kMutualExclusion | kNoLostWakeups, "the platform's auto-reset event")                          \
  X(platform_manual_reset_event, Kind::event, Mode::sync, "control",                               \
    kMutualExclusion | kNoLostWakeups, "the platform's manual-reset event")                        \
  /* work_queue, sync */                                                                           \
  X(work_queue_auto_reset_event, Kind::work_queue, Mode::sync,                                     \
    "002 work queue, auto-reset event form", kNoLostWakeups,                                       \
    "lock-free push/flush list; producers set the event only when the list was empty")             \
  X(work_queue_wait_on_address, Kind::work_queue, Mode::sync,                                      \
    "002 work queue, WaitOnAddress form", kNoLostWakeups | kSpuriousWakeupTolerance,               \
    "lock-free list; counter bumped and woken on empty; wait, capture counter, flush")             \
  X(locked_work_queue, Kind::work_queue, Mode::sync, "control", kNoLostWakeups,                    \
    "mutex-guarded FIFO, auto-reset event set on every push")
