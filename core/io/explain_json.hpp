// The log explainer's JSON boundary (`kvcache --explain-log`, the page's log box): the caller's
// partial scenario read from JSON, the explanation written out.
#pragma once
#include <nlohmann/json.hpp>
#include <string_view>
#include <variant>

#include "logs/log_explain.hpp"

namespace kv {

// `given`: scenario fields that fill what the log leaves out (an object; null or {} for none).
std::variant<LogExplanation, InputError> explain_log_json(std::string_view text, const nlohmann::json& given);
nlohmann::json explanation_to_json(const LogExplanation& explanation);

}  // namespace kv
