// libFuzzer target: the schedule strings `syncstress replay --schedule` takes (a sim schedule,
// ss1...., or a Relacy state, rl1....), decoded by parse_schedule_string.
//
// What must hold for every input: it is refused with a ScheduleFormatError, or it decodes to a
// schedule whose printed form decodes to the same schedule and prints the same again; and an
// accepted Relacy state is one Relacy reads whole into a replayable state (iteration >= 1,
// every node's option below its count), read here the way Relacy reads it. Any other exception,
// a crash, a sanitizer report or a broken property is a finding.
//
// A sim schedule ends in 24 check bits, which a random mutation almost never gets right; so each
// input is also tried with its check characters recomputed, which lets the fuzzer past the
// check into the range decoder.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include "schedules/relacy_strategies.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress {
namespace {

[[noreturn]] void finding(const char* what, std::string_view input) {
  std::fprintf(stderr, "finding: %s\ninput: %.*s\n", what, static_cast<int>(input.size()),
               input.data());
  std::abort();
}

void check_sim(const Schedule& decoded, std::string_view input) {
  // encode refuses (std::invalid_argument) a schedule no strategy could produce: decode must
  // never hand out one.
  const std::string printed = encode(decoded);
  Schedule again;
  try {
    again = decode(printed);
  } catch (const ScheduleFormatError& e) {
    finding(e.what(), input);
  }
  if (!(again == decoded)) finding("decode(encode(s)) differs from s", input);
  if (encode(again) != printed) finding("encode(decode(encode(s))) differs from encode(s)", input);
  // Replay reads the strategy field back as a description: refused or parsed, nothing else.
  try {
    parse_strategy_description(decoded.strategy);
  } catch (const StrategyError&) {
  }
}

/// Reads an accepted Relacy state the way Relacy itself does (context.hpp: `>> iteration`; the
/// tree schedulers' set_state: `>> n`, then n times `>> count >> index >> kind`, into unsigned
/// fields) and checks that Relacy would get a replayable state out of it, all of it read, and
/// the iteration check_relacy_state returned.
void check_as_relacy_reads(const RelacySchedule& decoded, std::string_view input) {
  std::istringstream in(decoded.state);
  std::uint64_t iteration = 0;
  in >> iteration;
  if (!in || iteration == 0) finding("Relacy would read no iteration, or iteration 0", input);
  if (decoded.scheduler != RelacyScheduler::random) {
    std::size_t nodes = 0;
    in >> nodes;
    if (!in) finding("Relacy would read no node count", input);
    for (std::size_t i = 0; i < nodes; ++i) {
      unsigned count = 0;
      unsigned index = 0;
      unsigned kind = 0;
      in >> count >> index >> kind;
      constexpr unsigned kLargestSchedType = 4;  // rl::sched_type_user
      if (!in || count == 0 || index >= count || kind > kLargestSchedType) {
        finding("Relacy would read a node it cannot follow", input);
      }
    }
  }
  in >> std::ws;
  if (!in.eof()) finding("Relacy would leave part of the state unread", input);
  if (check_relacy_state(decoded.scheduler, decoded.state) != iteration) {
    finding("check_relacy_state returns another iteration than Relacy reads", input);
  }
}

void check_relacy(const RelacySchedule& decoded, std::string_view input) {
  check_as_relacy_reads(decoded, input);
  const std::string printed = relacy_schedule_string(decoded.scheduler, decoded.state);
  RecordedSchedule again;
  try {
    again = parse_schedule_string(printed);
  } catch (const ScheduleFormatError& e) {
    finding(e.what(), input);
  }
  const auto* relacy = std::get_if<RelacySchedule>(&again);
  if (relacy == nullptr) finding("a printed Relacy schedule decodes as a sim one", input);
  if (relacy->scheduler != decoded.scheduler || relacy->state != decoded.state) {
    finding("a Relacy schedule does not survive printing and decoding", input);
  }
}

void check(std::string_view text) {
  RecordedSchedule decoded;
  try {
    decoded = parse_schedule_string(text);
  } catch (const ScheduleFormatError&) {
    return;  // refused with a message: what bad input should get
  }
  if (const auto* sim = std::get_if<Schedule>(&decoded)) {
    check_sim(*sim, text);
  } else {
    check_relacy(std::get<RelacySchedule>(decoded), text);
  }
}

}  // namespace
}  // namespace syncstress

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  syncstress::check(text);
  // The same with the check characters a sim schedule's body calls for.
  const auto last_dot = text.rfind('.');
  if (last_dot != std::string::npos) {
    const std::string body = text.substr(0, last_dot);
    syncstress::check(body + "." + syncstress::codec_detail::check_characters(body));
  }
  return 0;
}
