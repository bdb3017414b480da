// The tool's only random number generators: splitmix64 to derive seeds, xoshiro256** to draw.
//
// Written here (from the published algorithms of Steele/Lea/Flood and Blackman/Vigna) so the
// sequence is the same on every standard library; std::mt19937 would do, but the std
// distributions are not specified bit for bit, and bounded draws must be.
#pragma once

#include <array>
#include <cstdint>

namespace syncstress {

/// One step of splitmix64: a bijective mix of a 64-bit state, used to spread seeds.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The splitmix64 generator: a Weyl sequence passed through splitmix64_mix.
class SplitMix64 {
 public:
  /// Starts the sequence at `seed`.
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}

  /// The next 64 bits.
  constexpr std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return splitmix64_mix(state_);
  }

 private:
  std::uint64_t state_;
};

/// The seed of execution `index` of a run started with `run_seed`.
///
/// Execution 0 uses the run seed itself, so any execution can be regenerated alone: run the
/// same strategy with the execution's own seed and take its first execution.
constexpr std::uint64_t derive_execution_seed(std::uint64_t run_seed, std::uint64_t index) {
  if (index == 0) return run_seed;
  return splitmix64_mix(run_seed ^ splitmix64_mix(index * 0x9e3779b97f4a7c15ULL));
}

/// xoshiro256**: fast, 256 bits of state, seeded through splitmix64 as its authors advise.
class Xoshiro256 {
 public:
  /// Seeds the four state words from splitmix64(seed); never all zero.
  explicit constexpr Xoshiro256(std::uint64_t seed) { reseed(seed); }

  /// Restarts the sequence from `seed`.
  constexpr void reseed(std::uint64_t seed) {
    SplitMix64 sm(seed);
    for (auto& word : s_) word = sm.next();
  }

  /// The next 64 bits.
  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// A uniform number in [0, bound), bound >= 1, without modulo bias (Lemire's
  /// multiply-and-reject). Draws nothing when bound == 1, so the answer is free.
  constexpr std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<std::uint64_t, 4> s_{};
};

}  // namespace syncstress
