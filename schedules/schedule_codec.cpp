#include "schedules/schedule_codec.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <vector>

#include "schedules/range_coder.hpp"

namespace syncstress {
namespace {

using codec_detail::BitModel;
using codec_detail::RangeDecoder;
using codec_detail::RangeEncoder;

constexpr std::string_view kMagic = "ss1";
constexpr std::uint64_t kMaxChoices = std::uint64_t{1} << 28;
constexpr std::string_view kBase64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

[[noreturn]] void malformed(const std::string& why) {
  throw ScheduleFormatError("malformed schedule: " + why);
}

// --- The two coders behind one interface, so the model below is written once -----------

// Encoding: codes the given bit and returns it.
struct Writer {
  RangeEncoder rc;
  unsigned bit(BitModel& m, unsigned b) {
    rc.bit(m, b);
    return b;
  }
  std::uint64_t direct(std::uint64_t v, int n) {
    rc.direct(v, n);
    return v;
  }
};

// Decoding: ignores the given bit and returns the decoded one.
struct Reader {
  RangeDecoder rc;
  unsigned bit(BitModel& m, unsigned) { return rc.bit(m); }
  std::uint64_t direct(std::uint64_t, int n) { return rc.direct(n); }
};

// --- The model: what the coder is told about each choice, and in which context -----------

constexpr int kBuckets = 17;     // bounds 1..16 each their own context, 17+ shared
constexpr int kTreeLimit = 256;  // ranks below this use an adaptive bit tree, above direct bits

class Model {
 public:
  Model() : tree_(std::size_t{2} * kBuckets * 2 * kTreeLimit) {}

  // Codes `c` (read when writing, filled in when reading) through `coder`.
  template <class Coder>
  void code(Coder& coder, Choice& c) {
    code_shape(coder, c);
    code_value(coder, c);
  }

 private:
  static int bucket(std::uint64_t bound) {
    return static_cast<int>(std::min<std::uint64_t>(bound, kBuckets) - 1);
  }

  // Elias gamma of n >= 1: the length in adaptive unary, the rest in direct bits.
  template <class Coder>
  std::uint64_t code_gamma(Coder& coder, std::array<BitModel, 64>& m, std::uint64_t n) {
    const int width = static_cast<int>(std::bit_width(n));
    int w = 1;
    while (w < 64 && coder.bit(m[static_cast<std::size_t>(w - 1)], w < width ? 1u : 0u)) ++w;
    const std::uint64_t low_mask = w == 1 ? 0 : (~std::uint64_t{0} >> (65 - w));
    return (std::uint64_t{1} << (w - 1)) | coder.direct(n & low_mask, w - 1);
  }

  // The kind, then the bound as a symbol 1..16 (or an escape for larger ones) whose odds are
  // learnt per previous bound of the same kind: a runnable count moves in patterns (4, 3, 2,
  // 4, ... in a mutex hand-off) that a first-order model captures.
  template <class Coder>
  void code_shape(Coder& coder, Choice& c) {
    const unsigned number =
        coder.bit(kind_[static_cast<int>(prev_kind_)], c.kind == ChoiceKind::kNumber ? 1u : 0u);
    c.kind = number ? ChoiceKind::kNumber : ChoiceKind::kThread;
    const int k = static_cast<int>(c.kind);
    BitModel* tree = bound_tree_[k][bucket(last_bound_[k])].data();
    const unsigned symbol = code_tree(coder, tree, 5, static_cast<std::uint64_t>(bucket(c.bound)));
    if (symbol >= kBuckets) malformed("a choice's bound is out of range");
    c.bound = symbol + 1 < kBuckets
                  ? symbol + 1
                  : kBuckets + code_gamma(coder, gamma_[k], c.bound - kBuckets + 1) - 1;
    last_bound_[k] = c.bound;
    prev_kind_ = c.kind;
  }

  // `width` bits of `symbol`, most significant first, through an adaptive binary tree.
  template <class Coder>
  unsigned code_tree(Coder& coder, BitModel* tree, int width, std::uint64_t symbol) {
    std::size_t node = 1;
    for (int i = width - 1; i >= 0; --i) {
      node = node * 2 + coder.bit(tree[node], static_cast<unsigned>((symbol >> i) & 1));
    }
    return static_cast<unsigned>(node - (std::size_t{1} << width));
  }

  template <class Coder>
  void code_value(Coder& coder, Choice& c) {
    const int k = static_cast<int>(c.kind);
    if (c.bound == 1) {
      c.value = 0;
      return;
    }
    const int b = bucket(c.bound);
    const std::uint64_t previous = prev_value_[k];
    unsigned repeat = 0;
    if (previous < c.bound) {
      repeat = coder.bit(repeat_[k][b][prev_repeat_[k]], c.value == previous ? 1u : 0u);
    }
    if (repeat) {
      c.value = previous;
    } else {
      // The rank of the value among those not equal to the previous one.
      const bool skip = previous < c.bound;
      const std::uint64_t options = skip ? c.bound - 1 : c.bound;
      std::uint64_t rank = skip && c.value > previous ? c.value - 1 : c.value;
      if (options == 1) {
        rank = 0;
      } else {
        const int width = static_cast<int>(std::bit_width(options - 1));
        if (options <= kTreeLimit) {
          BitModel* tree = &tree_[(static_cast<std::size_t>(k) * kBuckets + b) * 2 * kTreeLimit];
          std::size_t node = 1;
          for (int i = width - 1; i >= 0; --i) {
            const unsigned bit = coder.bit(tree[node], static_cast<unsigned>((rank >> i) & 1));
            node = node * 2 + bit;
          }
          rank = node - (std::size_t{1} << width);
        } else {
          rank = coder.direct(rank, width);
        }
        if (rank >= options) malformed("a choice's value does not fit its bound");
      }
      c.value = skip && rank >= previous ? rank + 1 : rank;
    }
    prev_value_[k] = c.value;
    prev_repeat_[k] = repeat;
  }

  ChoiceKind prev_kind_ = ChoiceKind::kThread;
  std::array<std::uint64_t, 2> last_bound_{2, 2};
  std::array<std::uint64_t, 2> prev_value_{0, 0};
  std::array<unsigned, 2> prev_repeat_{0, 0};

  std::array<BitModel, 2> kind_{};
  std::array<std::array<std::array<BitModel, 32>, kBuckets>, 2> bound_tree_{};
  std::array<std::array<BitModel, 64>, 2> gamma_{};
  std::array<std::array<std::array<BitModel, 2>, kBuckets>, 2> repeat_{};
  std::vector<BitModel> tree_;  // [kind][bucket][node 1 .. 2*kTreeLimit-1]
};

// --- Text helpers -------------------------------------------------------------------------

std::string base64url(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::uint8_t byte : bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kBase64[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kBase64[(acc << (6 - bits)) & 63]);
  return out;
}

std::vector<std::uint8_t> from_base64url(std::string_view text) {
  if (text.size() % 4 == 1) malformed("the choices field has an impossible length (cut short?)");
  std::vector<std::uint8_t> out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char ch : text) {
    const auto digit = kBase64.find(ch);
    if (digit == std::string_view::npos) {
      malformed(std::string("the choices field contains '") + ch +
                "', which base64url does not use");
    }
    acc = (acc << 6) | static_cast<std::uint32_t>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

// 24 bits of FNV-1a 64, as four base64url characters.
std::string check_of(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  const auto folded = static_cast<std::uint32_t>((h >> 40) ^ (h >> 16) ^ h) & 0xFFFFFFu;
  std::string out(4, 'A');
  for (int i = 0; i < 4; ++i)
    out[static_cast<std::size_t>(i)] = kBase64[(folded >> (18 - 6 * i)) & 63];
  return out;
}

bool description_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == ':' ||
         ch == '=' || ch == ',';
}

bool schedule_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '-' || ch == '_' || ch == '.' || ch == ':' || ch == '~';
}

std::uint64_t parse_decimal(std::string_view field, const char* what) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size() ||
      (field.size() > 1 && field[0] == '0')) {
    malformed(std::string("the ") + what + " '" + std::string(field) +
              "' is not a decimal number below 2^64");
  }
  return value;
}

/// Refuses a schedule with a character no schedule uses.
void check_alphabet(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!schedule_char(text[i])) {
      malformed("character " + std::to_string(i) + " ('" + std::string(1, text[i]) +
                "') cannot appear in a schedule, which uses only letters, digits and -_.:~ "
                "(was it quoted or wrapped when copied?)");
    }
  }
}

/// The six fields of `text` (separated by '.'), refused unless it starts with kMagic, has six,
/// and its last, the check characters, are those of the rest.
std::vector<std::string_view> fields_of(std::string_view text) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t dot = text.find('.', start);
    fields.push_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (fields[0] != kMagic) {
    if (fields[0].size() > 2 && fields[0].substr(0, 2) == "ss") {
      malformed("format version '" + std::string(fields[0].substr(2)) +
                "' is not one this build reads (it reads 1); replay it with the syncstress "
                "that printed it");
    }
    malformed("it does not start with 'ss1.'; pass the whole string the report printed");
  }
  if (fields.size() != 6) {
    malformed("expected 6 fields separated by '.', found " + std::to_string(fields.size()) +
              " (was it cut short?)");
  }
  const std::size_t body_size = text.size() - fields[5].size() - 1;
  if (check_of(text.substr(0, body_size)) != fields[5]) {
    malformed("its check characters do not match: it was altered or cut when copied");
  }
  return fields;
}

/// The strategy description of the strategy field: '~' and '_' back to '=' and ','.
std::string description_of(std::string_view field) {
  if (field.empty()) malformed("the strategy field is empty");
  std::string description;
  for (char ch : field) {
    const char original = ch == '~' ? '=' : ch == '_' ? ',' : ch;
    if (!description_char(original)) {
      malformed("the strategy field '" + std::string(field) + "' contains '" + ch + "'");
    }
    description.push_back(original);
  }
  return description;
}

/// The `count` choices (at least one) of the choices field, which must hold those and no more.
std::vector<Choice> decode_choices(std::string_view field, std::uint64_t count) {
  const std::vector<std::uint8_t> bytes = from_base64url(field);
  Reader reader{RangeDecoder(bytes)};
  Model model;
  std::vector<Choice> choices;
  // Grown as the choices decode, not sized from the count: a string of forty characters may
  // claim 2^28 choices (6 GiB) and run out of data after the first few.
  choices.reserve(std::min<std::uint64_t>(count, bytes.size()));
  for (std::uint64_t i = 0; i < count; ++i) {
    Choice c;
    model.code(reader, c);
    if (reader.rc.overrun()) malformed("the choices field ends before all choices were read");
    choices.push_back(c);
  }
  if (reader.rc.consumed() != bytes.size()) {
    malformed("the choices field is longer than its " + std::to_string(count) + " choices need");
  }
  return choices;
}

}  // namespace

std::string codec_detail::check_characters(std::string_view body) { return check_of(body); }

std::string encode(const Schedule& schedule) {
  if (schedule.strategy.empty()) throw std::invalid_argument("encode: empty strategy description");
  std::string description;
  for (char ch : schedule.strategy) {
    if (!description_char(ch)) {
      throw std::invalid_argument("encode: strategy description '" + schedule.strategy +
                                  "' uses '" + ch + "', outside [a-z0-9-:=,]");
    }
    description.push_back(ch == '=' ? '~' : ch == ',' ? '_' : ch);
  }
  std::string payload;
  if (!schedule.choices.empty()) {
    Writer writer;
    Model model;
    for (Choice c : schedule.choices) {
      if (c.bound == 0 || c.value >= c.bound) {
        throw std::invalid_argument("encode: impossible choice " + to_string(c));
      }
      model.code(writer, c);
    }
    payload = base64url(writer.rc.finish());
  }
  std::string text = std::string(kMagic) + "." + description + "." + std::to_string(schedule.seed) +
                     "." + std::to_string(schedule.choices.size()) + "." + payload;
  return text + "." + check_of(text);
}

Schedule decode(std::string_view text) {
  check_alphabet(text);
  const std::vector<std::string_view> fields = fields_of(text);
  Schedule schedule;
  schedule.strategy = description_of(fields[1]);
  schedule.seed = parse_decimal(fields[2], "seed");
  const std::uint64_t count = parse_decimal(fields[3], "choice count");
  if (count > kMaxChoices) {
    malformed("it claims " + std::to_string(count) + " choices, more than the " +
              std::to_string(kMaxChoices) + " this build accepts");
  }
  if (count == 0) {
    if (!fields[4].empty()) malformed("it has choice data but a count of 0");
    return schedule;
  }
  schedule.choices = decode_choices(fields[4], count);
  return schedule;
}

}  // namespace syncstress
