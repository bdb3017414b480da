#include "scenarios/params.hpp"

#include <charconv>
#include <stdexcept>

#include "util/usage_error.hpp"

namespace syncstress::scenarios {
namespace {

const ParamSpec* find_spec(const std::vector<ParamSpec>& specs, std::string_view key) {
  for (const auto& s : specs) {
    if (s.name == key) return &s;
  }
  return nullptr;
}

std::string allowed(const ParamSpec& s) {
  if (s.type == ParamSpec::Type::boolean) return "true or false";
  return "an integer from " + std::to_string(s.min) + " to " + std::to_string(s.max);
}

std::string known_keys(const std::vector<ParamSpec>& specs) {
  std::string out;
  for (const auto& s : specs) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

[[noreturn]] void bad_value(const ParamSpec& s, std::string_view text, std::string_view origin) {
  throw UsageError("parameter '" + s.name + "' = '" + std::string(text) + "' (" +
                   std::string(origin) + "): must be " + allowed(s));
}

std::int64_t parse_text(const ParamSpec& s, std::string_view text, std::string_view origin) {
  if (s.type == ParamSpec::Type::boolean) {
    if (text == "true" || text == "1") return 1;
    if (text == "false" || text == "0") return 0;
    bad_value(s, text, origin);
  }
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < s.min || v > s.max) {
    bad_value(s, text, origin);
  }
  return v;
}

std::int64_t parse_json(const ParamSpec& s, const nlohmann::json& v, std::string_view origin) {
  if (s.type == ParamSpec::Type::boolean && v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (s.type == ParamSpec::Type::integer && v.is_number_integer()) {
    auto x = v.get<std::int64_t>();
    if (x >= s.min && x <= s.max) return x;
  }
  bad_value(s, v.dump(), origin);
}

}  // namespace

Params Params::resolve(const std::vector<ParamSpec>& specs, const nlohmann::json& preset_values,
                       const std::map<std::string, std::string>& overrides,
                       std::string_view origin) {
  Params p;
  for (const auto& s : specs) {
    p.values_[s.name] = s.default_value;
    p.types_[s.name] = s.type;
  }
  if (!preset_values.is_null()) {
    if (!preset_values.is_object()) {
      throw UsageError(std::string(origin) + ": \"parameters\" must be a JSON object");
    }
    for (const auto& [key, value] : preset_values.items()) {
      const ParamSpec* s = find_spec(specs, key);
      if (!s) {
        throw UsageError(std::string(origin) + ": unknown parameter '" + key +
                         "'; this scenario takes: " + known_keys(specs));
      }
      p.values_[key] = parse_json(*s, value, origin);
    }
  }
  for (const auto& [key, text] : overrides) {
    const ParamSpec* s = find_spec(specs, key);
    if (!s) {
      std::string message = "--set " + key;
      message += "=" + text;
      message += ": unknown parameter '" + key;
      message += "'; this scenario takes: " + known_keys(specs);
      throw UsageError(message);
    }
    p.values_[key] = parse_text(*s, text, "--set");
  }
  return p;
}

std::int64_t Params::integer(std::string_view key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("no parameter " + std::string(key));
  return it->second;
}

bool Params::boolean(std::string_view key) const { return integer(key) != 0; }

std::map<std::string, std::string> Params::as_strings() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : values_) {
    out[k] = types_.at(k) == ParamSpec::Type::boolean ? (v ? "true" : "false") : std::to_string(v);
  }
  return out;
}

const std::vector<ParamSpec>& runtime_param_specs() {
  using T = ParamSpec::Type;
  static const std::vector<ParamSpec> specs = {
      {"max_steps", T::integer, 100, 100'000'000, 50'000,
       "step bound of one execution; exceeding it is a livelock or starvation"},
      {"spurious_wakeups", T::boolean, 0, 1, 0,
       "wait_on_address and park may return spuriously (a scheduling choice)"},
      {"spurious_cas_failures", T::boolean, 0, 1, 0,
       "compare_exchange_weak may fail spuriously (a scheduling choice)"},
      {"delay_posted_work", T::boolean, 0, 1, 0,
       "pool workers may take any queued coroutine, not only the oldest"},
      {"pool_workers", T::integer, 1, 8, 2, "simulated thread-pool workers"},
  };
  return specs;
}

}  // namespace syncstress::scenarios
