// The planner's JSON boundary (`kvcache --plan`): a target read over its field table
// (plan/plan_fields.hpp), missing fields keeping PlanTarget's defaults; the plan written out.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "base/input_error.hpp"
#include "plan/plan.hpp"

namespace kv {

std::variant<PlanTarget, InputError> plan_target_from_json(const nlohmann::json& json);
std::variant<PlanTarget, InputError> plan_target_from_text(const std::string& text);
nlohmann::json plan_to_json(const PlanResult& result);

}  // namespace kv
