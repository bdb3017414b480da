// The schedule codec: every schedule survives encode/decode, strings stay shell- and
// URL-safe and short, and malformed strings are rejected with a message.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "schedules/rng.hpp"
#include "schedules/schedule_codec.hpp"

namespace syncstress {
namespace schedules_codec_test {
namespace {

bool shell_safe(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '-' || ch == '_' || ch == '.' || ch == ':' || ch == '~';
}

// A schedule shaped like a run of the sim runtime: mostly thread choices among a runnable
// count that drifts between 2 and `max_threads`, with occasional number choices.
Schedule random_schedule(std::uint64_t seed, std::size_t length, std::uint64_t max_threads) {
  Xoshiro256 rng(seed);
  Schedule s{"random", seed, {}};
  std::uint64_t runnable = 2;
  for (std::size_t i = 0; i < length; ++i) {
    if (rng.below(8) == 0) runnable = 2 + rng.below(max_threads - 1);
    if (rng.below(10) == 0) {
      const std::uint64_t bound = 2 + rng.below(3);
      s.choices.push_back({ChoiceKind::kNumber, rng.below(bound), bound});
    } else {
      s.choices.push_back({ChoiceKind::kThread, rng.below(runnable), runnable});
    }
  }
  return s;
}

double entropy_chars(const Schedule& s) {
  double bits = 0;
  for (const Choice& c : s.choices) bits += std::log2(static_cast<double>(c.bound));
  return bits / 6;
}

TEST(ScheduleCodec, EmptyScheduleRoundTrips) {
  const Schedule s{"round-robin", 0, {}};
  const std::string text = encode(s);
  EXPECT_EQ(decode(text), s) << text;
}

TEST(ScheduleCodec, ThousandRandomSchedulesRoundTrip) {
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    const Schedule s = random_schedule(seed, seed % 300, 2 + seed % 6);
    const std::string text = encode(s);
    ASSERT_EQ(decode(text), s) << "seed " << seed << ": " << text;
  }
}

TEST(ScheduleCodec, ArbitraryKindsBoundsAndValuesRoundTrip) {
  // Bounds from 1 to 2^64-1, including both sides of the codec's bit-tree limit (256).
  Xoshiro256 rng(7);
  const std::vector<std::uint64_t> bounds{1,   2,   3,   5,    16,         17,        255,
                                          256, 257, 258, 1000, 1ull << 32, ~0ull - 1, ~0ull};
  for (int round = 0; round < 200; ++round) {
    Schedule s{"exhaustive:preemptions=2", rng.next(), {}};
    const std::size_t length = rng.below(200);
    for (std::size_t i = 0; i < length; ++i) {
      const std::uint64_t bound = bounds[rng.below(bounds.size())];
      const auto kind = rng.below(2) ? ChoiceKind::kThread : ChoiceKind::kNumber;
      const std::uint64_t value = rng.below(4) == 0 ? bound - 1 : rng.below(bound);
      s.choices.push_back({kind, value, bound});
    }
    ASSERT_EQ(decode(encode(s)), s) << "round " << round;
  }
}

TEST(ScheduleCodec, LongRunsOfOneAnswerRoundTripAndCostAlmostNothing) {
  // PCT's typical shape: the same thread index for hundreds of steps at a time.
  Schedule s{"pct:d=3,k=400", 99, {}};
  for (std::uint64_t block = 0; block < 10; ++block) {
    for (int i = 0; i < 1000; ++i) s.choices.push_back({ChoiceKind::kThread, block % 3, 3});
  }
  const std::string text = encode(s);
  EXPECT_EQ(decode(text), s);
  EXPECT_LT(text.size(), 200u) << "10,000 choices in 10 runs took " << text.size() << " chars";
}

TEST(ScheduleCodec, ExtremeSeedAndSingleChoicesRoundTrip) {
  for (const Schedule& s :
       {Schedule{"random", ~0ull, {{ChoiceKind::kNumber, ~0ull - 1, ~0ull}}},
        Schedule{"random", 0, {{ChoiceKind::kThread, 0, 1}}},
        Schedule{"random", 1, {{ChoiceKind::kThread, 1, 2}}},
        Schedule{"random", 1, {{ChoiceKind::kNumber, 0, 2}, {ChoiceKind::kNumber, 0, 2}}}}) {
    EXPECT_EQ(decode(encode(s)), s) << encode(s);
  }
}

TEST(ScheduleCodec, StringUsesOnlyShellAndUrlSafeCharactersAndShowsItsParts) {
  Schedule s = random_schedule(3, 500, 4);
  s.strategy = "pct:d=3,k=400";
  s.seed = 1234567;
  const std::string text = encode(s);
  for (char ch : text) EXPECT_TRUE(shell_safe(ch)) << "'" << ch << "' in " << text;
  EXPECT_EQ(text.rfind("ss1.pct:d~3_k~400.1234567.500.", 0), 0u) << text;
  EXPECT_EQ(decode(text).strategy, "pct:d=3,k=400");
}

TEST(ScheduleCodec, EncodingIsAFunctionOfTheSchedule) {
  const Schedule s = random_schedule(11, 777, 4);
  EXPECT_EQ(encode(s), encode(Schedule(s)));
}

TEST(ScheduleCodec, UniformChoicesAmongTwoToFourThreadsCostWithinTenPercentOfEntropy) {
  for (std::uint64_t threads = 2; threads <= 4; ++threads) {
    Xoshiro256 rng(threads);
    Schedule s{"random", 1234567890123, {}};
    for (int i = 0; i < 2000; ++i)
      s.choices.push_back({ChoiceKind::kThread, rng.below(threads), threads});
    const std::string text = encode(s);
    // About 30 characters of header and check, then the choices near log2(threads) bits each.
    EXPECT_LT(static_cast<double>(text.size()), 40 + 1.10 * entropy_chars(s));
    std::printf("2000 uniform choices among %d threads: %zu chars (entropy %.0f)\n",
                static_cast<int>(threads), text.size(), entropy_chars(s));
  }
}

TEST(ScheduleCodec, DriftingRunnableCountScheduleOfTwoThousandChoicesFitsInTwelveHundredChars) {
  // Runnable count drifting among 2-4 and one number choice in ten: the shape itself carries
  // information (about 1.3 bits a choice here) on top of the values' 1.5 bits.
  double total = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::string text = encode(random_schedule(seed, 2000, 4));
    total += static_cast<double>(text.size());
    EXPECT_LT(text.size(), 1200u);
  }
  std::printf("2000 choices, drifting 2-4 runnable, 10%% numbers: mean %.0f chars\n", total / 20);
}

TEST(ScheduleCodec, EncodeRefusesSchedulesNoStrategyCouldProduce) {
  EXPECT_THROW(encode(Schedule{"random", 0, {{ChoiceKind::kThread, 2, 2}}}), std::invalid_argument);
  EXPECT_THROW(encode(Schedule{"random", 0, {{ChoiceKind::kThread, 0, 0}}}), std::invalid_argument);
  EXPECT_THROW(encode(Schedule{"Random Walk", 0, {}}), std::invalid_argument);
  EXPECT_THROW(encode(Schedule{"", 0, {}}), std::invalid_argument);
}

// Expects decode(text) to fail with a message containing `fragment`.
void expect_rejected(const std::string& text, const std::string& fragment) {
  try {
    decode(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ScheduleFormatError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "message for '" << text << "' was: " << e.what();
  }
}

// A string with a valid check over `body`, to reach the checks behind it.
std::string with_check(const std::string& body) {
  return body + "." + codec_detail::check_characters(body);
}

TEST(ScheduleCodec, RejectsStringsThatAreNotSchedules) {
  expect_rejected("", "does not start with 'ss1.'");
  expect_rejected("hello", "does not start with 'ss1.'");
  expect_rejected("ss2.random.1.0..AAAA", "format version '2'");
  expect_rejected("ss1 random", "character 3 (' ')");
  expect_rejected("'ss1.random.1.0..AAAA'", "was it quoted");
  expect_rejected("ss1.random.1", "expected 6 fields");
}

TEST(ScheduleCodec, RejectsEveryTruncationAndEverySingleCharacterChange) {
  const std::string text = encode(random_schedule(5, 300, 3));
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    EXPECT_THROW(decode(text.substr(0, cut)), ScheduleFormatError) << "cut at " << cut;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] = changed[i] == 'Q' ? 'R' : 'Q';
    EXPECT_THROW(decode(changed), ScheduleFormatError) << "changed at " << i;
  }
}

TEST(ScheduleCodec, RejectsBadFieldsBehindAValidCheck) {
  const std::string good = encode(random_schedule(9, 50, 3));
  const std::string payload = good.substr(0, good.rfind('.'));
  const std::string choices = payload.substr(payload.rfind('.') + 1);
  expect_rejected(with_check("ss1..1.0."), "strategy field is empty");
  expect_rejected(with_check("ss1.random.x1.0."), "seed 'x1'");
  expect_rejected(with_check("ss1.random.18446744073709551616.0."), "seed");
  expect_rejected(with_check("ss1.random.007.0."), "seed '007'");
  expect_rejected(with_check("ss1.random.1.99999999999.AAAA"), "this build accepts");
  expect_rejected(with_check("ss1.random.1.0.AAAA"), "count of 0");
  expect_rejected(with_check("ss1.random.1.50." + choices + "AAAA"), "longer than");
  expect_rejected(with_check("ss1.random.1.5000." + choices), "ends before");
  expect_rejected(with_check("ss1.random.1.50." + choices.substr(0, choices.size() - 4)),
                  "ends before");
  expect_rejected(with_check("ss1.random.1.50.A~"), "base64url");
  expect_rejected(with_check("ss1.random.1.50.A"), "impossible length");
}

TEST(ScheduleCodec, AShortStringClaimingTheMostChoicesIsRejectedWithoutAllocatingThemAll) {
  // 2^28 choices of 24 bytes: decode sized its vector from the count before reading any, 6 GiB
  // for a string of forty characters (bad_alloc, an internal error, or the OOM killer).
  const std::string text = with_check("ss1.random.1.268435456.AAAAAAAA");
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &old), 0);
#ifndef SYNCSTRESS_ASAN  // ASan reserves terabytes of address space up front
  constexpr rlim_t kLimit = rlim_t{4} << 30;
  if (old.rlim_cur == RLIM_INFINITY || old.rlim_cur > kLimit) {
    rlimit capped = old;
    capped.rlim_cur = kLimit;
    ASSERT_EQ(::setrlimit(RLIMIT_AS, &capped), 0);
  }
#endif
  std::string outcome = "accepted";
  try {
    decode(text);
  } catch (const ScheduleFormatError& e) {
    outcome = e.what();
  } catch (const std::bad_alloc&) {
    outcome = "bad_alloc";
  }
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &old), 0);
  EXPECT_NE(outcome.find("ends before all choices were read"), std::string::npos) << outcome;
}

}  // namespace
}  // namespace schedules_codec_test
}  // namespace syncstress
