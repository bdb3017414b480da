#include "scenarios/preset.hpp"

#include <cstdint>
#include <fstream>

#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/safe_name.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {
namespace {

constexpr Kind kKinds[] = {Kind::mutex, Kind::shared_mutex, Kind::semaphore, Kind::event,
                           Kind::work_queue};

[[noreturn]] void bad(const std::filesystem::path& file, const std::string& what) {
  throw UsageError(file.string() + ": " + what);
}

std::string string_field(const nlohmann::json& doc, const char* key,
                         const std::filesystem::path& file) {
  if (!doc.contains(key) || !doc[key].is_string()) {
    bad(file, std::string("\"") + key + "\" must be a string");
  }
  return doc[key].get<std::string>();
}

/// `block[key]` (the block named `where`) as a whole number >= `lo`. JSON read from text holds
/// a positive number as unsigned, and one built in C++ as signed: both are taken.
std::uint64_t whole_field(const nlohmann::json& block, const char* where, const char* key,
                          std::uint64_t lo, const std::filesystem::path& file) {
  const auto whole = [&](const nlohmann::json& v) {
    return v.is_number_integer() && (v.is_number_unsigned() || v.get<std::int64_t>() >= 0) &&
           v.get<std::uint64_t>() >= lo;
  };
  if (!block.contains(key) || !whole(block[key])) {
    bad(file, concat("\"", where, ".", key, "\" must be an integer >= ", std::to_string(lo)));
  }
  return block[key].get<std::uint64_t>();
}

/// `block[key]` (the block named `where`) as a number of seconds > 0.
double seconds_field(const nlohmann::json& block, const char* where, const char* key,
                     const std::filesystem::path& file) {
  if (!block.contains(key) || !block[key].is_number() || block[key].get<double>() <= 0) {
    bad(file, concat("\"", where, ".", key, "\" must be a number of seconds > 0"));
  }
  return block[key].get<double>();
}

}  // namespace

void check_preset_name(const std::string& name, const std::filesystem::path& file) {
  if (is_safe_name(name)) return;
  // The name as a terminal can show it, and short enough to read.
  constexpr std::size_t kShown = 80;
  std::string shown = printable(name.substr(0, kShown));
  if (name.size() > kShown) shown += concat("... (", std::to_string(name.size()), " bytes)");
  bad(file, concat("\"name\" '", shown, "' is not a preset name: it must be ", kSafeNameRule,
                   " (the name becomes part of the report's file name); rename the preset"));
}

Preset load_preset(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) bad(file, "cannot be read (does it exist?)");
  return parse_preset(parse_json_input(in, file.string()), file);
}

namespace {

ModelChecking model_checking_of(const nlohmann::json& doc, const std::filesystem::path& file) {
  const auto& m = doc["model_checking"];
  if (!m.is_object()) bad(file, "\"model_checking\" must be an object");
  for (const auto& [key, value] : m.items()) {
    if (key != "parameters" && key != "executions" && key != "time_budget") {
      bad(file, "\"model_checking\" has no field \"" + printable(key) +
                    "\"; its fields are parameters, executions and time_budget");
    }
  }
  ModelChecking out;
  if (!m.contains("parameters") || !m["parameters"].is_object()) {
    bad(file, "\"model_checking.parameters\" must be an object (the size to search at)");
  }
  out.parameters = m["parameters"];
  out.executions = whole_field(m, "model_checking", "executions", 1, file);
  out.time_budget_seconds = seconds_field(m, "model_checking", "time_budget", file);
  return out;
}

/// The schedule block `doc[key]`; each field it leaves out keeps PresetSchedule's default.
PresetSchedule schedule_of(const nlohmann::json& doc, const char* key,
                           const std::filesystem::path& file) {
  const auto& s = doc[key];
  const std::string where = key;
  if (!s.is_object()) bad(file, concat("\"", where, "\" must be an object"));
  PresetSchedule out;
  if (s.contains("strategy")) out.strategy = string_field(s, "strategy", file);
  if (s.contains("params")) {
    if (!s["params"].is_object()) bad(file, concat("\"", where, ".params\" must be an object"));
    for (const auto& [k, v] : s["params"].items()) {
      out.strategy_params[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
  }
  if (s.contains("seed")) out.seed = whole_field(s, key, "seed", 0, file);
  if (s.contains("executions")) out.executions = whole_field(s, key, "executions", 1, file);
  if (s.contains("time_budget")) {
    out.time_budget_seconds = seconds_field(s, key, "time_budget", file);
  }
  if (s.contains("soak")) {
    if (!s["soak"].is_boolean()) bad(file, concat("\"", where, ".soak\" must be true or false"));
    out.soak = s["soak"].get<bool>();
  }
  return out;
}

}  // namespace

Preset parse_preset(const nlohmann::json& doc, const std::filesystem::path& file) {
  if (!doc.is_object()) bad(file, "a preset must be a JSON object");
  Preset p;
  p.file = file;
  p.name = string_field(doc, "name", file);
  check_preset_name(p.name, file);
  p.description = string_field(doc, "description", file);
  const auto family = string_field(doc, "family", file);
  const auto kind = string_field(doc, "kind", file);
  if (const auto f = family_from_string(family)) {
    p.family = *f;
  } else {
    std::string families;
    for (const Family known : all_families()) {
      families += (families.empty() ? "" : ", ") + std::string(to_string(known));
    }
    bad(file, "unknown family '" + family + "'; families are: " + families);
  }
  bool found = false;
  std::string kinds;
  for (Kind k : kKinds) {
    kinds += (kinds.empty() ? "" : ", ") + std::string(to_string(k));
    if (to_string(k) == kind) p.kind = k, found = true;
  }
  if (!found) bad(file, "unknown kind '" + kind + "'; kinds are: " + kinds);
  if (doc.contains("parameters")) {
    if (!doc["parameters"].is_object()) bad(file, "\"parameters\" must be an object");
    p.parameters = doc["parameters"];
  }
  if (doc.contains("schedule")) p.schedule = schedule_of(doc, "schedule", file);
  if (doc.contains("cross_check")) p.cross_check = schedule_of(doc, "cross_check", file);
  if (doc.contains("memory")) {
    const std::string memory = string_field(doc, "memory", file);
    if (memory != "sc" && memory != "c11") {
      bad(file, "\"memory\" '" + printable(memory) +
                    "' must be sc (every operation sequentially consistent) or c11 (the C++ "
                    "memory model)");
    }
    p.memory = memory == "c11" ? MemoryModel::c11 : MemoryModel::sc;
  }
  if (doc.contains("model_checking")) p.model_checking = model_checking_of(doc, file);
  return p;
}

ModelCheckingRun at_model_checking_size(const Preset& preset,
                                        const std::map<std::string, std::string>& set) {
  ModelCheckingRun out{preset, set};
  if (!preset.model_checking) return out;
  for (const auto& [key, value] : preset.model_checking->parameters.items()) {
    // As --set spells it: a string as it is, a number or a boolean as JSON writes it.
    out.overrides.try_emplace(key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  out.preset.schedule.executions = preset.model_checking->executions;
  out.preset.schedule.time_budget_seconds = preset.model_checking->time_budget_seconds;
  return out;
}

Preset cross_checked(const Preset& preset) {
  Preset out = preset;
  out.schedule = preset.cross_check.value();
  out.cross_check.reset();
  return out;
}

}  // namespace syncstress::scenarios
