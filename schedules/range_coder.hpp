// An adaptive binary range coder (the carry-less-by-cache design of LZMA's rc), used by the
// schedule codec so a schedule costs close to its entropy: a long run of the same answer
// costs a few hundredths of a bit per choice, a uniform choice among b about log2(b) bits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace syncstress::codec_detail {

inline constexpr int kProbBits = 15;
inline constexpr std::uint32_t kOne = 1u << kProbBits;
inline constexpr std::uint32_t kTop = 1u << 24;

/// Probability that the next bit is 0, in 1/32768ths. It learns fast at first (the rate is
/// 1/(n+2) after n bits, as a counting estimate would) and then follows drift at 1/32 a bit.
/// 15 bits rather than LZMA's 11 let a near-certain bit cost about 0.001 bits, not 0.02.
struct BitModel {
  std::uint16_t p0 = kOne / 2;
  std::uint8_t seen = 0;

  /// Moves the estimate toward the bit just coded; encoder and decoder both call it.
  void adapt(unsigned bit) {
    const std::uint32_t rate = seen < 30 ? seen + 2u : 32u;
    if (seen < 30) ++seen;
    std::uint32_t p = p0;
    p = bit == 0 ? p + (kOne - p) / rate : p - p / rate;
    // Never certain: a bit of probability 0 could not be coded at all.
    p0 = static_cast<std::uint16_t>(std::clamp<std::uint32_t>(p, 32, kOne - 32));
  }
};

/// Writes bits into a byte vector.
class RangeEncoder {
 public:
  /// Codes `bit` with the adaptive probability `m`, then adapts `m`.
  void bit(BitModel& m, unsigned bit) {
    const std::uint32_t split = (range_ >> kProbBits) * m.p0;
    if (bit == 0) {
      range_ = split;
    } else {
      low_ += split;
      range_ -= split;
    }
    m.adapt(bit);
    normalize();
  }

  /// Codes the low `count` bits of `value`, most significant first, each with probability 1/2.
  void direct(std::uint64_t value, int count) {
    for (int i = count - 1; i >= 0; --i) {
      range_ >>= 1;
      if ((value >> i) & 1) low_ += range_;
      normalize();
    }
  }

  /// Flushes and returns the bytes. The encoder is spent afterwards.
  std::vector<std::uint8_t> finish() {
    for (int i = 0; i < 5; ++i) shift_low();
    // The first byte is always the initial zero cache; the decoder does not need it.
    out_.erase(out_.begin());
    return std::move(out_);
  }

 private:
  void normalize() {
    while (range_ < kTop) {
      range_ <<= 8;
      shift_low();
    }
  }

  void shift_low() {
    if (static_cast<std::uint32_t>(low_) < 0xFF000000u || (low_ >> 32) != 0) {
      const auto carry = static_cast<std::uint8_t>(low_ >> 32);
      std::uint8_t temp = cache_;
      do {
        out_.push_back(static_cast<std::uint8_t>(temp + carry));
        temp = 0xFF;
      } while (--cache_size_ != 0);
      cache_ = static_cast<std::uint8_t>(low_ >> 24);
    }
    ++cache_size_;
    low_ = (low_ & 0x00FFFFFFu) << 8;
  }

  std::uint64_t low_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFu;
  std::uint8_t cache_ = 0;
  std::uint64_t cache_size_ = 1;
  std::vector<std::uint8_t> out_;
};

/// Reads back what RangeEncoder wrote. Reading past the end yields zero bytes and is
/// reported by overrun(); the codec turns that into a "truncated" message.
class RangeDecoder {
 public:
  /// Decodes `bytes`, which must outlive the decoder.
  explicit RangeDecoder(std::span<const std::uint8_t> bytes) : in_(bytes) {
    for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next_byte();
  }

  /// Decodes one bit coded with `m`, adapting `m` as the encoder did.
  unsigned bit(BitModel& m) {
    const std::uint32_t split = (range_ >> kProbBits) * m.p0;
    unsigned result;
    if (code_ < split) {
      range_ = split;
      result = 0;
    } else {
      code_ -= split;
      range_ -= split;
      result = 1;
    }
    m.adapt(result);
    normalize();
    return result;
  }

  /// Decodes `count` equiprobable bits, most significant first.
  std::uint64_t direct(int count) {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
      range_ >>= 1;
      unsigned b = 0;
      if (code_ >= range_) {
        code_ -= range_;
        b = 1;
      }
      value = (value << 1) | b;
      normalize();
    }
    return value;
  }

  /// Bytes consumed so far (may exceed the input's size after an overrun).
  std::size_t consumed() const { return pos_; }
  /// True when the decoder needed more bytes than it was given.
  bool overrun() const { return pos_ > in_.size(); }

 private:
  std::uint8_t next_byte() {
    const std::size_t i = pos_++;
    return i < in_.size() ? in_[i] : 0;
  }

  void normalize() {
    while (range_ < kTop) {
      range_ <<= 8;
      code_ = (code_ << 8) | next_byte();
    }
  }

  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
  std::uint32_t code_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFu;
};

}  // namespace syncstress::codec_detail
