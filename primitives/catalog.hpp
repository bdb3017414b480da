// The one explicit list of every primitive under test.
//
// Each line of SYNCSTRESS_PRIMITIVES names a `template <class P> class` (or alias template)
// from primitives/, its kind, whether it is used from threads (sync) or coroutines (async),
// the source it follows, what it claims, and one line of description. Consumers expand the
// list with their own X: `syncstress list primitives` turns it into PrimitiveInfo rows, the
// scenario families instantiate each template on sim and real.
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
  kMutualExclusion = 1u << 0,          // safety: no more holders than the kind allows
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

/// Every primitive of SYNCSTRESS_PRIMITIVES, in list order (defined in src/catalog.cpp).
std::span<const PrimitiveInfo> all_primitives();

}  // namespace syncstress

// X(template, kind, mode, source, claims, summary) -- one line per primitive.
// The headers that define the templates are included by primitives/all.hpp.
#define SYNCSTRESS_PRIMITIVES(X) /* filled in by the primitives work */
