// What an exhaustive search adds to choosing the next step: how deep it is and how many
// preemptions the current execution took (a progress line, a violation's preemptions), a
// checkpoint to resume from, and what its reduction did. The plain search (exhaustive_strategy)
// and the reduced one (dpor_strategy) both offer it; nothing else needs to know which it has.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "schedules/strategy.hpp"

namespace syncstress {

/// A checkpoint that is not one the search could have written: what() names the field
/// ("state.path[3][2]") and what is wrong with it.
class CheckpointError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class ExhaustiveSearch : public Strategy {
 public:
  /// Executions started so far, pruned ones included.
  virtual std::uint64_t executions_explored() const = 0;
  /// Choices on the current path (the search's depth), for a progress line.
  virtual std::uint64_t depth() const = 0;
  /// Preemptions in the current (or last) execution's choices so far.
  virtual std::uint32_t preemptions() const = 0;
  /// Whether it explores only the schedules within a preemption bound.
  virtual bool bounded() const = 0;

  /// The position reached, between two executions (schedules/search_checkpoint.cpp).
  virtual nlohmann::json checkpoint() const = 0;
  /// Continues from a checkpoint of the same search (same program, bound and shard), as if
  /// this search had run up to it. Throws CheckpointError for one this search could not have
  /// written (a field missing or of another type, a number out of range, another search's),
  /// checked before anything of it is taken.
  virtual void resume(const nlohmann::json& position) = 0;

  /// What a reduction did so far: executions it ended as redundant, and the classes of
  /// equivalent schedules among those that ran to their end (counting stops at a cap).
  struct Reduction {
    std::uint64_t executions_pruned = 0;
    std::uint64_t distinct_traces = 0;
    bool traces_capped = false;
  };
  /// Nothing for the plain search, which reduces nothing.
  virtual std::optional<Reduction> reduction() const = 0;

  /// The executions this search will have run when it is complete, estimated from the subtrees
  /// it has completed (schedules/search_estimate.hpp); exact once it is complete. Between two
  /// executions.
  virtual double estimated_executions() const = 0;

  /// After resume(): what the program asked, in the first execution since, that the
  /// checkpoint's path does not hold (at choice #N it asked ...). The path an unedited
  /// checkpoint holds is the one the program took before, so such a checkpoint is not this
  /// program's: edited, another cell's, or written by another build of the primitive. Nothing
  /// otherwise, and nothing for a divergence in a later execution (the program's own).
  const std::optional<std::string>& left_checkpoint_path() const { return left_checkpoint_path_; }

 protected:
  /// For resume(), once it has taken a checkpoint of `explored` executions.
  void resumed_after(std::uint64_t explored) {
    first_since_resume_ = explored + 1;
    left_checkpoint_path_.reset();
  }
  /// For the search's divergence check: `what` the program asked off the path in execution
  /// number `execution` (counted as executions_explored counts them).
  void note_divergence(std::uint64_t execution, const std::string& what) const {
    if (execution == first_since_resume_) left_checkpoint_path_ = what;
  }

 private:
  std::uint64_t first_since_resume_ = 0;  // executions are numbered from 1: 0 is none
  mutable std::optional<std::string> left_checkpoint_path_;
};

}  // namespace syncstress
