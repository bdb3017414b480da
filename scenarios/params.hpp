// Scenario parameters: what each family accepts, its type, range and default.
//
// A preset gives values for some parameters, `--set key=value` overrides any of them, and the
// family's spec list decides what is allowed: an unknown key or a value out of range is a
// UsageError naming the key and the allowed range (exit code 2).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace syncstress::scenarios {

/// One parameter a family understands.
struct ParamSpec {
  std::string name;
  enum class Type { integer, boolean } type = Type::integer;
  std::int64_t min = 0;            ///< inclusive; integers only
  std::int64_t max = 0;            ///< inclusive; integers only
  std::int64_t default_value = 0;  ///< booleans: 0 or 1
  std::string doc;
};

/// Validated parameter values of one cell, every spec'd key present.
class Params {
 public:
  /// Starts from the specs' defaults, applies `preset_values` (a JSON object from a preset
  /// file), then `overrides` (strings from --set). Throws UsageError naming the key, the
  /// allowed range and `origin` (the preset file) on an unknown key or a bad value.
  static Params resolve(const std::vector<ParamSpec>& specs, const nlohmann::json& preset_values,
                        const std::map<std::string, std::string>& overrides,
                        std::string_view origin);

  std::int64_t integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  /// Every value as text, for the report's "parameters" object.
  std::map<std::string, std::string> as_strings() const;

 private:
  std::map<std::string, std::int64_t, std::less<>> values_;
  std::map<std::string, ParamSpec::Type, std::less<>> types_;
};

/// Parameters every family has: the runtime's options.
const std::vector<ParamSpec>& runtime_param_specs();

}  // namespace syncstress::scenarios
