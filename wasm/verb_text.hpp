// What both modules' verbs share (bindings.cpp, tools_bindings.cpp): answers are JSON text, and an
// error is {"error": {field, code, message}}.
#pragma once
#include <string>
#include <variant>

#include "io/input_text.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"

namespace kvverbs {

inline std::string error_text(const kv::InputError& error) { return kv::json_text(kv::error_to_json(error)); }

// Evaluates a scenario text and answers what `on_result` makes of the result (or the error).
template <typename OnResult>
std::string with_result(const std::string& scenario_text, OnResult on_result) {
    auto outcome = kv::evaluate_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return error_text(*error);
    return kv::json_text(on_result(std::get<kv::Result>(outcome)));
}

}  // namespace kvverbs
