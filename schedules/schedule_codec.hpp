// The schedule codec: a Schedule as a short printable string, and back.
//
//   ss1.<strategy>.<seed>.<count>.<choices>.<check>
//   e.g. ss1.pct:d~3_k~400.1234567.2000.XQAAgAD...Zk.Qx9a
//
// - ss1: format version 1.
// - strategy: the producer's description (SimStrategySpec::describe()) with '=' written '~'
//   and ',' written '_'.
// - seed, count: decimal; the execution's seed and the number of choices.
// - choices: base64url (no padding) of an adaptive range-coded bit stream (range_coder.hpp):
//   per choice, whether kind and bound repeat the previous choice's (else which), then the
//   value, as "same as this kind's previous value" or its rank among the others. Repetition
//   costs almost nothing, a uniform choice among b about log2(b) bits.
// - check: 24 bits of FNV-1a over everything before it, base64url; catches strings that
//   were altered or cut when copied.
// Only letters, digits and -_.:~ appear, so the string needs no quoting in a shell or a URL.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "schedules/schedule.hpp"

namespace syncstress {

/// A string given to decode() is not a valid schedule; what() says what is wrong with it.
class ScheduleFormatError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The printable form of `schedule`. Throws std::invalid_argument for a schedule no strategy
/// could have produced (value >= bound, bound 0, a description outside [a-z0-9-:=,]): a bug
/// in the caller, not a user error.
std::string encode(const Schedule& schedule);

/// The schedule `text` carries. Throws ScheduleFormatError with a message saying what is
/// wrong and, where it can, how to fix it.
Schedule decode(std::string_view text);

namespace codec_detail {
/// The four check characters the codec appends to `body` (everything before the last '.').
/// Exposed so tests can build strings that pass the check but are wrong deeper inside.
std::string check_characters(std::string_view body);
}  // namespace codec_detail

}  // namespace syncstress
