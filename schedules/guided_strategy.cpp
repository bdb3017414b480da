#include "schedules/guided_strategy.hpp"

#include <algorithm>

namespace syncstress {

std::vector<Decision> decisions_of(const Schedule& schedule) {
  std::vector<Decision> out;
  out.reserve(schedule.choices.size());
  for (const Choice& c : schedule.choices) {
    out.push_back(Decision{c.kind, c.value, c.kind == ChoiceKind::kThread, false, false});
  }
  return out;
}

std::size_t GuidedStrategy::named_ahead(std::span<const ThreadId> runnable) const {
  for (std::size_t i = position_; i < decisions_.size(); ++i) {
    const Decision& d = decisions_[i];
    if (d.kind != ChoiceKind::kThread || d.go_on || d.by_index) continue;
    const auto it = std::lower_bound(runnable.begin(), runnable.end(), d.value);
    if (it != runnable.end() && *it == d.value)
      return static_cast<std::size_t>(it - runnable.begin());
  }
  return runnable.size();
}

std::optional<Execution> GuidedStrategy::new_execution() {
  if (started_) return std::nullopt;
  started_ = true;
  Execution e;
  e.faults = faults_;
  e.reduced = reduced_;
  return e;
}

std::size_t GuidedStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                        bool current_yielded) {
  const auto current_at = std::lower_bound(runnable.begin(), runnable.end(), current);
  const bool current_runnable = current_at != runnable.end() && *current_at == current;
  std::size_t pick = runnable.size();
  if (position_ < decisions_.size()) {
    const Decision& d = decisions_[position_++];
    if (d.kind == ChoiceKind::kThread && !d.go_on) {
      if (d.by_index) {
        if (d.value < runnable.size()) pick = static_cast<std::size_t>(d.value);
      } else {
        const auto it = std::lower_bound(runnable.begin(), runnable.end(), d.value);
        if (it != runnable.end() && *it == d.value) {
          pick = static_cast<std::size_t>(it - runnable.begin());
        }
      }
    }
  }
  if (pick == runnable.size()) {
    if (current_runnable && !current_yielded) {
      pick = static_cast<std::size_t>(current_at - runnable.begin());
    } else if (const auto ahead = named_ahead(runnable); ahead != runnable.size()) {
      pick = ahead;
    } else {
      // The next thread after the one that ran, in id order, wrapping around: a spinning
      // thread that yields lets the others go on.
      const auto after = std::upper_bound(runnable.begin(), runnable.end(), current);
      pick = after == runnable.end() ? 0 : static_cast<std::size_t>(after - runnable.begin());
    }
  }
  return pick;
}

std::uint64_t GuidedStrategy::next_u64(std::uint64_t bound) {
  std::uint64_t value = 0;
  if (position_ < decisions_.size()) {
    const Decision& d = decisions_[position_++];
    if (d.kind == ChoiceKind::kNumber && !d.go_on && d.value < bound) value = d.value;
  }
  return value;
}

std::vector<Choice> AnswerLog::choices() const {
  std::vector<Choice> out;
  const std::uint64_t n = count < capacity ? count : capacity;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(entries[i].choice);
  return out;
}

std::vector<Decision> AnswerLog::decisions() const {
  std::vector<Decision> out;
  const std::uint64_t n = count < capacity ? count : capacity;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const LoggedAnswer& a = entries[i];
    if (a.choice.kind == ChoiceKind::kThread) {
      out.push_back(Decision{ChoiceKind::kThread, a.thread, false, false, a.preempts});
    } else {
      out.push_back(Decision{ChoiceKind::kNumber, a.choice.value, false, false, false});
    }
  }
  return out;
}

std::uint32_t AnswerLog::preemptions() const {
  std::uint32_t n = 0;
  const std::uint64_t end = count < capacity ? count : capacity;
  for (std::uint64_t i = 0; i < end; ++i) n += entries[i].preempts ? 1 : 0;
  return n;
}

Execution LoggingStrategy::begin_execution(Execution started) {
  log_.count = 0;
  return ForwardingStrategy::begin_execution(started);
}

void LoggingStrategy::add(const LoggedAnswer& answer) {
  if (log_.count == log_.capacity && log_.growing != nullptr) {
    log_.growing->resize(std::max<std::size_t>(1024, 2 * log_.growing->size()));
    log_.entries = log_.growing->data();
    log_.capacity = log_.growing->size();
  }
  if (log_.count < log_.capacity) log_.entries[log_.count] = answer;
  ++log_.count;
}

std::size_t LoggingStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                         bool current_yielded) {
  const std::size_t i = ForwardingStrategy::next_thread(runnable, current, current_yielded);
  const auto at = std::lower_bound(runnable.begin(), runnable.end(), current);
  const bool current_runnable = at != runnable.end() && *at == current;
  const ThreadId chosen = i < runnable.size() ? runnable[i] : current;
  add(LoggedAnswer{Choice{ChoiceKind::kThread, i, runnable.size()}, chosen,
                   current_runnable && !current_yielded && chosen != current});
  return i;
}

std::uint64_t LoggingStrategy::next_u64(std::uint64_t bound) {
  const std::uint64_t v = ForwardingStrategy::next_u64(bound);
  add(LoggedAnswer{Choice{ChoiceKind::kNumber, v, bound}, 0, false});
  return v;
}

}  // namespace syncstress
