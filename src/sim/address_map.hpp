// A map from addresses to small values, for the engine's per-execution tables (object serials,
// frame indices, a reducing search's object ids). Open addressing with linear probing, and
// clear() keeps the storage: an execution that creates a handful of objects allocates nothing,
// where std::unordered_map allocated a node per object and execution. Lookup only, never
// iterated, so its layout cannot leak into what an execution does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncstress::sim::detail {

template <class V>
class AddressMap {
 public:
  /// The value at `key`, or null.
  V* find(const void* key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.generation != generation_) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const V* find(const void* key) const { return const_cast<AddressMap*>(this)->find(key); }

  /// The value at `key`, inserted as V{} when absent (then `*fresh` is set true, else false).
  V& get(const void* key, bool* fresh = nullptr) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.generation != generation_) break;
      if (s.key == key) {
        if (fresh != nullptr) *fresh = false;
        return s.value;
      }
    }
    Slot& s = slots_[i];
    s.key = key;
    s.generation = generation_;
    s.value = V{};
    ++size_;
    if (fresh != nullptr) *fresh = true;
    return s.value;
  }

  bool empty() const { return size_ == 0; }
  /// Distinct keys inserted since the last clear().
  std::size_t size() const { return size_; }

  /// Forgets every entry in O(1): live slots are those of the current generation.
  void clear() {
    size_ = 0;
    if (++generation_ == 0) {
      for (Slot& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }

 private:
  struct Slot {
    const void* key = nullptr;
    std::uint32_t generation = 0;  // live when equal to generation_
    V value{};
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(const void* key) const {
    // Fibonacci hashing of the address; the low bits are alignment, so the high bits are used.
    const auto a = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key));
    return static_cast<std::size_t>((a * 0x9e3779b97f4a7c15ULL) >> 40) & mask();
  }
  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    const std::uint32_t live = generation_;
    generation_ = 1;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.generation == live) get(s.key) = s.value;
    }
  }

  std::vector<Slot> slots_;  // a power of two in size, at most 3/4 full
  std::uint32_t generation_ = 1;
  std::size_t size_ = 0;
};

}  // namespace syncstress::sim::detail
