// `--shard`: which part of the run this process does, given as K/N or taken from the batch
// engine that started it.
#pragma once

#include <string_view>

#include "schedules/shard.hpp"

namespace syncstress::cli {

/// Resolves `--shard TEXT`:
///   K/N       shard K of N (1-based), e.g. from a CI matrix: --shard ${{ matrix.shard }}/4
///   auto/N    K from the batch engine, N given: JOB_COMPLETION_INDEX (a Kubernetes Indexed
///             Job, 0-based), else SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN
///   auto      the same, N from SLURM_ARRAY_TASK_COUNT
/// Throws UsageError naming what is missing or out of range.
Shard resolve_shard(std::string_view text);

}  // namespace syncstress::cli
