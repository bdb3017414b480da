#include "schedules/shard.hpp"

#include <charconv>

namespace syncstress {

std::optional<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view s) -> std::optional<std::uint32_t> {
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
  };
  const auto k = number(text.substr(0, slash));
  const auto n = number(text.substr(slash + 1));
  constexpr std::uint32_t kMaxShards = 1'000'000;
  if (!k || !n || *n == 0 || *n > kMaxShards || *k == 0 || *k > *n) return std::nullopt;
  return Shard{*k - 1, *n};
}

}  // namespace syncstress
