// `syncstress list [primitives|scenarios|schedules] [--json]`
#include <array>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/schedule_names.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/preset_files.hpp"
#include "util/concat.hpp"
#include "util/known_names.hpp"
#include "util/terminal_text.hpp"

namespace syncstress::cli {
namespace {

using nlohmann::json;

json claims_to_json(std::uint32_t claims) {
  json names = json::array();
  for (std::uint32_t bit = 1; bit != 0; bit <<= 1) {
    if (claims & bit) names.push_back(to_string(static_cast<Claim>(bit)));
  }
  return names;
}

json primitives_json() {
  json rows = json::array();
  for (const auto& p : all_primitives()) {
    rows.push_back({{"name", p.name},
                    {"kind", to_string(p.kind)},
                    {"mode", to_string(p.mode)},
                    {"source", p.source},
                    {"claims", claims_to_json(p.claims)},
                    {"summary", p.summary}});
  }
  return rows;
}

json scenarios_json() {
  json rows = json::array();
  for (const auto& s : scenarios::list_presets(scenarios::scenarios_dir())) {
    rows.push_back({{"name", s.name},
                    {"description", s.description},
                    {"family", s.family},
                    {"kind", s.kind},
                    {"file", s.path.string()}});
  }
  return rows;
}

json schedules_json() {
  json rows = json::array();
  for (const auto& s : schedule_names()) {
    json parameters = json::array();
    for (const auto& p : s.parameters) {
      parameters.push_back(
          {{"name", p.name}, {"default", p.default_value}, {"description", p.description}});
    }
    rows.push_back({{"name", s.name}, {"description", s.description}, {"parameters", parameters}});
  }
  return rows;
}

/// Prints rows as aligned columns; the last column is not padded.
void print_columns(std::ostream& out, const json& rows, const std::vector<std::string>& keys) {
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : rows) {
    std::vector<std::string> line;
    for (const auto& key : keys) {
      const auto& value = row.at(key);
      if (value.is_string()) {
        line.push_back(value.get<std::string>());
      } else {  // the claims array
        std::string joined;
        for (const auto& item : value) {  // claims are strings, parameters objects
          if (!joined.empty()) joined += ',';
          joined += item.is_string() ? item.get<std::string>()
                                     : concat(item.at("name").get<std::string>(), "=",
                                              item.at("default").get<std::string>());
        }
        line.push_back(joined.empty() ? "-" : joined);
      }
    }
    // A preset's fields are shown, never obeyed by the terminal.
    for (auto& text : line) text = printable(text);
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(keys.size(), 0);
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  }
  for (const auto& line : cells) {
    out << "  ";
    for (std::size_t c = 0; c < line.size(); ++c) {
      out << line[c];
      if (c + 1 < line.size()) out << std::string(width[c] - line[c].size() + 2, ' ');
    }
    out << '\n';
  }
}

class ListCommand final : public Command {
 public:
  explicit ListCommand(CLI::App& app) {
    sub_ = app.add_subcommand("list", "List the primitives, scenarios and schedules.");
    sub_->add_option("what", what_, "primitives, scenarios or schedules (default: all three)")
        ->type_name("WHAT");
    sub_->add_flag("--json", json_, "Print JSON instead of a table");
    sub_->footer(
        "Examples:\n  syncstress list\n  syncstress list primitives --json\n"
        "  syncstress list scenarios");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    static const std::vector<std::string> kWhat = {"primitives", "scenarios", "schedules"};
    if (!what_.empty()) require_known_name("list", "list", what_, kWhat);
    const auto wanted = [&](const char* what) { return what_.empty() || what_ == what; };
    json doc = json::object();
    if (wanted("primitives")) doc["primitives"] = primitives_json();
    if (wanted("scenarios")) doc["scenarios"] = scenarios_json();
    if (wanted("schedules")) doc["schedules"] = schedules_json();
    if (json_) {
      invocation.out << doc.dump(2) << '\n';
      return kExitOk;
    }
    const std::array<std::pair<const char*, std::vector<std::string>>, 3> kSections{{
        {"primitives", {"name", "kind", "mode", "claims", "summary"}},
        {"scenarios", {"name", "kind", "family", "description"}},
        {"schedules", {"name", "parameters", "description"}},
    }};
    bool first = true;
    for (const auto& [section, keys] : kSections) {
      if (!doc.contains(section)) continue;
      if (!first) invocation.out << '\n';
      first = false;
      invocation.out << section << " (" << doc[section].size() << "):\n";
      if (doc[section].empty()) {
        invocation.out << "  (none yet)\n";
      } else {
        print_columns(invocation.out, doc[section], keys);
      }
    }
    return kExitOk;
  }

 private:
  CLI::App* sub_ = nullptr;
  std::string what_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> add_list_command(CLI::App& app) {
  return std::make_unique<ListCommand>(app);
}

}  // namespace syncstress::cli
