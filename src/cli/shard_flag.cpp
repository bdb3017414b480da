#include "cli/shard_flag.hpp"

#include <cstdlib>
#include <optional>
#include <string>

#include "cli/numbers.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

constexpr std::uint64_t kMaxShards = 1'000'000;

std::optional<std::string> env(const char* name) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts.
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

/// The environment variable `name` as a whole number, or nullopt when unset.
std::optional<std::uint64_t> env_number(const char* name) {
  const auto v = env(name);
  if (!v) return std::nullopt;
  return parse_whole(concat("--shard auto: ", name), *v, 0, kMaxShards * 1000);
}

}  // namespace

Shard resolve_shard(std::string_view text) {
  const std::string_view kAuto = "auto";
  if (text.substr(0, kAuto.size()) != kAuto) {
    if (auto shard = parse_shard(text)) return *shard;
    throw UsageError(concat("--shard '", text,
                            "': expected K/N with 1 <= K <= N <= 1000000 (e.g. --shard 2/4), or "
                            "auto[/N] to take K from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"));
  }
  std::optional<std::uint64_t> count;
  const auto rest = text.substr(kAuto.size());
  if (!rest.empty()) {
    if (rest.front() != '/') {
      throw UsageError(concat("--shard '", text, "': expected auto or auto/N (e.g. auto/4)"));
    }
    count = parse_whole("--shard auto/N", rest.substr(1), 1, kMaxShards);
  }
  std::optional<std::uint64_t> index = env_number("JOB_COMPLETION_INDEX");
  if (!index) {
    if (const auto task = env_number("SLURM_ARRAY_TASK_ID")) {
      const auto min = env_number("SLURM_ARRAY_TASK_MIN").value_or(0);
      if (*task < min) {
        throw UsageError("--shard auto: SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN");
      }
      index = *task - min;
      if (!count) count = env_number("SLURM_ARRAY_TASK_COUNT");
    }
  }
  if (!index) {
    throw UsageError(
        "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor "
        "SLURM_ARRAY_TASK_ID (Slurm array) is set; give the shard as K/N instead");
  }
  if (!count || *count == 0) {
    throw UsageError(
        "--shard auto: the number of shards is not known; write it as --shard auto/N (N: the "
        "Job's completions or the array's size)");
  }
  if (*index >= *count) {
    throw UsageError(concat("--shard auto: index ", std::to_string(*index),
                            " (0-based) from the "
                            "environment is not below the ",
                            std::to_string(*count), " shards"));
  }
  return Shard{static_cast<std::uint32_t>(*index), static_cast<std::uint32_t>(*count)};
}

}  // namespace syncstress::cli
