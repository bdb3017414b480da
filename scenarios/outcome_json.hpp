// The one JSON codec of the result types: the report writes cells and violations with it, the
// supervisor carries a child's result through its pipe with it, and the Relacy backend reads
// syncstress-relacy's violations with it. Field names are those of results/SCHEMA.md.
#pragma once

#include <nlohmann/json.hpp>

#include "scenarios/outcome.hpp"

namespace syncstress {

/// {property, message, seed, schedule, replay_command, trace}.
nlohmann::json to_json(const Violation& violation);
/// The inverse of to_json. "property" and "message" are required (nlohmann::json::exception
/// when missing); the other fields default to empty, as syncstress-relacy leaves them.
Violation violation_from_json(const nlohmann::json& in);

/// {primitive, scenario, schedule, verdict, executions, planned_executions, stopped_by, steps,
/// elapsed_seconds, parameters, metrics, violations, error}; metrics that are not an object are
/// written as {}.
nlohmann::json to_json(const CellResult& cell);
/// The inverse of to_json; every field is required (nlohmann::json::exception when missing).
CellResult cell_result_from_json(const nlohmann::json& in);

/// {steps, trace, violation (null when none)}.
nlohmann::json to_json(const ReplayOutcome& outcome);
/// The inverse of to_json.
ReplayOutcome replay_outcome_from_json(const nlohmann::json& in);

}  // namespace syncstress
