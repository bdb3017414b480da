#include "scenarios/outcome_json.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace syncstress {

using nlohmann::json;

json to_json(const Violation& violation) {
  json out = {{"property", violation.property},
              {"message", violation.message},
              {"seed", violation.seed},
              {"schedule", violation.schedule},
              {"replay_command", violation.replay_command},
              {"trace", violation.trace}};
  if (violation.preemptions) out["preemptions"] = *violation.preemptions;
  if (!violation.first_found_schedule.empty()) {
    out["first_found"] = {{"schedule", violation.first_found_schedule},
                          {"preemptions", violation.first_found_preemptions}};
  }
  if (violation.steps != 0) out["steps"] = violation.steps;
  if (!violation.original_schedule.empty()) {
    out["original_schedule"] = violation.original_schedule;
    out["original_steps"] = violation.original_steps;
    out["original_preemptions"] = violation.original_preemptions;
    out["original_replay_command"] = violation.original_replay_command;
  }
  if (!violation.overrides.empty()) out["overrides"] = violation.overrides;
  if (const auto& s = violation.shrink) {
    json note = json::object();
    if (!s->skipped.empty()) {
      note["skipped"] = s->skipped;
    } else {
      note["executions"] = s->executions;
      note["seconds"] = s->seconds;
      if (!s->stopped_by.empty()) note["stopped_by"] = s->stopped_by;
    }
    if (!s->in_children.empty()) note["in_children"] = s->in_children;
    if (!s->not_reported.empty()) note["not_reported"] = s->not_reported;
    out["shrink"] = note;
  }
  return out;
}

Violation violation_from_json(const json& in) {
  Violation out;
  out.property = in.at("property").get<std::string>();
  out.message = in.at("message").get<std::string>();
  out.seed = in.value("seed", std::uint64_t{0});
  out.schedule = in.value("schedule", std::string());
  out.replay_command = in.value("replay_command", std::string());
  if (in.contains("trace")) out.trace = in["trace"].get<std::vector<std::string>>();
  if (in.contains("preemptions")) out.preemptions = in["preemptions"].get<std::uint32_t>();
  if (in.contains("first_found")) {
    out.first_found_schedule = in["first_found"].at("schedule").get<std::string>();
    out.first_found_preemptions = in["first_found"].at("preemptions").get<std::uint32_t>();
  }
  out.steps = in.value("steps", std::uint64_t{0});
  out.original_schedule = in.value("original_schedule", std::string());
  out.original_steps = in.value("original_steps", std::uint64_t{0});
  out.original_preemptions = in.value("original_preemptions", std::uint32_t{0});
  out.original_replay_command = in.value("original_replay_command", std::string());
  if (in.contains("overrides")) {
    out.overrides = in["overrides"].get<std::map<std::string, std::string>>();
  }
  if (in.contains("shrink") && in["shrink"].is_object()) {
    const json& s = in["shrink"];
    ShrinkNote note;
    note.skipped = s.value("skipped", std::string());
    note.executions = s.value("executions", std::uint64_t{0});
    note.seconds = s.value("seconds", 0.0);
    note.stopped_by = s.value("stopped_by", std::string());
    note.in_children = s.value("in_children", std::string());
    note.not_reported = s.value("not_reported", std::string());
    out.shrink = note;
  }
  return out;
}

json to_json(const CellResult& cell) {
  json violations = json::array();
  for (const auto& v : cell.violations) violations.push_back(to_json(v));
  return {{"primitive", cell.primitive},
          {"scenario", cell.scenario},
          {"schedule", cell.schedule},
          {"verdict", std::string(to_string(cell.verdict))},
          {"executions", cell.executions},
          {"planned_executions", cell.planned_executions},
          {"stopped_by", std::string(to_string(cell.stopped_by))},
          {"steps", cell.steps},
          {"elapsed_seconds", cell.elapsed_seconds},
          {"parameters", cell.parameters},
          {"metrics", cell.metrics.is_object() ? cell.metrics : json::object()},
          {"violations", violations},
          {"error", cell.error},
          {"position", cell.position}};
}

CellResult cell_result_from_json(const json& in) {
  CellResult cell;
  cell.primitive = in.at("primitive").get<std::string>();
  cell.scenario = in.at("scenario").get<std::string>();
  cell.schedule = in.at("schedule").get<std::string>();
  cell.verdict = verdict_from_string(in.at("verdict").get<std::string>()).value_or(Verdict::error);
  cell.executions = in.at("executions").get<std::uint64_t>();
  cell.planned_executions = in.at("planned_executions").get<std::uint64_t>();
  cell.stopped_by =
      stop_reason_from_string(in.at("stopped_by").get<std::string>()).value_or(StopReason::error);
  cell.steps = in.at("steps").get<std::uint64_t>();
  cell.elapsed_seconds = in.at("elapsed_seconds").get<double>();
  cell.parameters = in.at("parameters").get<std::map<std::string, std::string>>();
  cell.metrics = in.at("metrics");
  for (const auto& v : in.at("violations")) cell.violations.push_back(violation_from_json(v));
  cell.error = in.at("error").get<std::string>();
  cell.position = in.value("position", nlohmann::json());
  return cell;
}

json to_json(const ReplayOutcome& outcome) {
  return {{"steps", outcome.steps},
          {"trace", outcome.trace},
          {"violation", outcome.violation ? to_json(*outcome.violation) : json()}};
}

ReplayOutcome replay_outcome_from_json(const json& in) {
  ReplayOutcome outcome;
  outcome.steps = in.at("steps").get<std::uint64_t>();
  outcome.trace = in.at("trace").get<std::vector<std::string>>();
  if (!in.at("violation").is_null()) {
    outcome.violation = violation_from_json(in.at("violation"));
  }
  return outcome;
}

}  // namespace syncstress
