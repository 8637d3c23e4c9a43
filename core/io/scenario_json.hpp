// A scenario as JSON, read and written over its field table (scenario/scenario_fields.hpp).
// Missing fields keep the defaults of `base` (Scenario{} unless given): a page can send one knob.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "base/input_error.hpp"
#include "result/evaluate.hpp"
#include "scenario/scenario.hpp"

namespace kv {

std::variant<Scenario, InputError> scenario_from_json(const nlohmann::json& json, const Scenario& base = {});
std::variant<Scenario, InputError> scenario_from_text(const std::string& text, const Scenario& base = {});
nlohmann::json scenario_to_json(const Scenario& scenario);

// Parses a scenario text and evaluates it: the one path every text front end (CLI, embind) takes.
std::variant<Result, InputError> evaluate_text(const std::string& scenario_text);

}  // namespace kv
