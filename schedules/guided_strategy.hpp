// The guided strategy: runs one execution along a list of wanted decisions, and completes it
// deterministically where the list does not fit. Shrinking (src/backends/sim/shrink.hpp) edits the
// list (drops decisions, turns context switches into "go on") and re-runs it; unlike a replay, a
// decision that no longer fits is not an error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "schedules/forwarding_strategy.hpp"
#include "schedules/schedule.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// One wanted answer. For a thread choice, `value` names the thread to run (by its id, so the
/// decision keeps its meaning when earlier ones change), or, with `by_index`, an index into the
/// runnable list as a recorded Choice has it; `go_on` asks for the default instead. For a number
/// choice, `value` is the number.
struct Decision {
  ChoiceKind kind = ChoiceKind::kThread;
  std::uint64_t value = 0;
  bool by_index = false;
  bool go_on = false;
  /// In GuidedStrategy::taken() only: this answer preempted the thread that had just run.
  bool preempts = false;

  friend bool operator==(const Decision&, const Decision&) = default;
};

/// The decisions a recorded schedule's choices stand for (thread choices by index).
std::vector<Decision> decisions_of(const Schedule& schedule);

/// Answers the i-th question with the i-th decision when it fits (same kind, the thread
/// runnable, the number below the bound), else, as after the last decision, with the default:
/// the thread that just ran while it is runnable and did not yield (no preemption), else the
/// first runnable thread a later decision names (so that dropping a decision hands over to the
/// thread the schedule runs next), else the next runnable thread after it in id order; for a
/// number, 0 (no fault injected, the first waiter). A decision that does not fit is used up all
/// the same.
class GuidedStrategy final : public Strategy {
 public:
  /// Guides one execution along `decisions`; it explores faults when `faults`, and follows
  /// Execution::reduced when `reduced` (as the schedule the decisions came from did), so that
  /// it asks the same questions.
  GuidedStrategy(std::vector<Decision> decisions, bool faults, bool reduced = false)
      : decisions_(std::move(decisions)), faults_(faults), reduced_(reduced) {}

  /// One execution, then nothing.
  std::optional<Execution> new_execution() override;
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  std::uint64_t next_u64(std::uint64_t bound) override;

 private:
  /// The index in `runnable` of the first thread a decision not yet used names; size() if none.
  std::size_t named_ahead(std::span<const ThreadId> runnable) const;

  std::vector<Decision> decisions_;
  bool faults_;
  bool reduced_;
  std::size_t position_ = 0;
  bool started_ = false;
};

/// One answer as AnswerLog keeps it.
struct LoggedAnswer {
  Choice choice;
  ThreadId thread = 0;    ///< for a thread choice, the thread chosen
  bool preempts = false;  ///< it preempted the thread that had just run
};

/// An array of answers. With `growing` set (a log of this process), the array is that vector's
/// and grows as answers come. Without it the array is fixed and may live in memory shared with a
/// parent process, so that the answers of an execution that crashed its process survive it;
/// `count` then keeps counting past `capacity` (the answers beyond it are lost: `complete()`
/// says whether any were).
struct AnswerLog {
  LoggedAnswer* entries = nullptr;
  std::uint64_t capacity = 0;
  std::uint64_t count = 0;
  std::vector<LoggedAnswer>* growing = nullptr;

  bool complete() const { return count <= capacity; }
  /// The answers as a schedule's choices.
  std::vector<Choice> choices() const;
  /// The answers as decisions that guide an execution the same way (threads by id).
  std::vector<Decision> decisions() const;
  /// How many answers preempted (as the exhaustive searches count preemptions: a thread other
  /// than the one that just ran chosen while that one was runnable and had not yielded).
  std::uint32_t preemptions() const;
};

/// Forwards to `inner` and logs each answer into `log`, thread choices with the thread's id
/// and whether they preempt. A reducing search under it sees its steps as without it.
class LoggingStrategy final : public ForwardingStrategy {
 public:
  LoggingStrategy(Strategy& inner, AnswerLog& log) : ForwardingStrategy(inner), log_(log) {}

  /// The log starts over; every answer comes through next_thread and next_u64 to be logged.
  Execution begin_execution(Execution started) override;
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  std::uint64_t next_u64(std::uint64_t bound) override;

 private:
  void add(const LoggedAnswer& answer);

  AnswerLog& log_;
};

}  // namespace syncstress
