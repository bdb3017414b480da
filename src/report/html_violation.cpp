#include "report/html_violation.hpp"

#include <nlohmann/json.hpp>

#include "report/html_swimlane.hpp"
#include "report/html_text.hpp"
#include "scenarios/outcome_json.hpp"
#include "util/concat.hpp"

namespace syncstress::report {
namespace {

/// The name = value list of what the report says of `v`'s execution: its seed, its schedule,
/// and whatever else the codec writes of it (preemptions, what shrinking started from, ...).
std::string execution_list(const Violation& v) {
  std::string out = "<dl class=\"context\">";
  out += concat("<dt>seed</dt><dd class=\"mono\">", std::to_string(v.seed), "</dd>");
  if (!v.schedule.empty()) {
    out += concat("<dt>schedule</dt><dd class=\"mono\">", escape_html(v.schedule), "</dd>");
  }
  nlohmann::json rest = to_json(v);
  for (const char* shown : {"property", "message", "seed", "schedule", "replay_command", "trace"}) {
    rest.erase(shown);
  }
  for (const auto& [key, value] : rest.items()) {
    out += concat("<dt>", escape_html(key), "</dt><dd class=\"mono\">",
                  escape_html(format_value(value)), "</dd>");
  }
  out += "</dl>";
  return out;
}

}  // namespace

std::string violation_html(const Violation& v, std::size_t number, const ViolationTrace* trace) {
  const std::string anchor = concat("violation-", std::to_string(number));
  std::string out = concat("<section class=\"violation\" id=\"", anchor, "\"><h4>Violation ",
                           std::to_string(number), ": ", escape_html(v.property), "</h4>");
  out += concat("<p class=\"message\">", escape_html(v.message), "</p>");
  out += execution_list(v);
  if (!v.replay_command.empty()) {
    // A trial on real threads has no schedule: its command is the sim search to try next.
    out += concat("<div class=\"command\"><span class=\"label\">",
                  v.schedule.empty() ? "try next:" : "replay:", "</span><pre><code id=\"", anchor,
                  "-command\">", escape_html(v.replay_command),
                  "</code></pre><button type=\"button\" class=\"copy\" data-copy=\"", anchor,
                  "-command\" hidden>Copy</button></div>");
  }
  if (trace != nullptr && !trace->note.empty()) {
    out += concat("<p class=\"muted\">", escape_html(trace->note), "</p>");
  }
  if (trace != nullptr && trace->lanes) {
    out += swimlane_html(*trace->lanes, anchor, concat(v.property, ": ", v.message));
  } else if (!v.trace.empty()) {
    out += "<pre class=\"trace\">";
    for (const auto& line : v.trace) {
      out += escape_html(line);
      out += '\n';
    }
    out += "</pre>";
  }
  out += "</section>";
  return out;
}

}  // namespace syncstress::report
