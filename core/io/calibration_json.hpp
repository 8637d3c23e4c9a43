// The calibration constants as JSON (`kvcache --calibration FILE`): what scripts/fit_timing varies
// while it fits the step-time constants, and what a reader tries to see how a constant moves a
// figure. Unknown names are refused; every value must be finite and non-negative.
#pragma once
#include <nlohmann/json.hpp>
#include <variant>

#include "base/input_error.hpp"
#include "engine/calibration.hpp"

namespace kv {

std::variant<Calibration, InputError> calibration_from_json(const nlohmann::json& overrides, const Calibration& base = {});
nlohmann::json calibration_to_json(const Calibration& calibration);

}  // namespace kv
