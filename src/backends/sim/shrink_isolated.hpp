// Shrinking where a trial may take the process down: a sim cell's "crash" (a use-after-free, an
// abort), or a violation whose shrink in the cell's own process crashed or hung on one of its
// trials (src/backends/sim/shrink.hpp; the violation then says {"in_children": why}). Each trial
// runs in a forked child, its answers logged in memory shared with this process so they outlive a
// crash; for a crash, a trial that dies of a signal breaks the same property. The shrunk
// schedule is confirmed by two isolated replays that must end the same way with the same trace.
#pragma once

#include "backends/sim/shrink.hpp"
#include "scenarios/resolved_cell.hpp"

namespace syncstress::supervise {

/// Whether `v` is to be shrunk here: a crash, or a violation whose shrink in the cell's process
/// ended it.
bool shrinks_in_children(const Violation& v);

/// Shrinks `v` (its schedule a sim schedule string) of `cell` within `limits`, each trial in a
/// child that may run for `trial_seconds`; on success `v` reports the shrunk schedule and keeps
/// the original beside it (scenarios::report_shrunk), else `v.shrink` says why it was not.
void shrink_in_children(Violation& v, const scenarios::Cell& cell,
                        const scenarios::ShrinkLimits& limits, double trial_seconds);

}  // namespace syncstress::supervise
