// Helpers shared by the core tests: evaluate a JSON scenario, read a field of the result JSON.
#pragma once
#include "logs/engine_log.hpp"
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "logs/log_explain.hpp"
#include "result/evaluate.hpp"
#include "io/json_io.hpp"
#include "scenario/scenario_fields.hpp"

namespace kvtest {

// `{}` in a braced call is JSON null: read it as the empty scenario (all defaults).
inline kv::Result evaluate_ok(const nlohmann::json& scenario_json) {
    auto scenario = kv::scenario_from_json(scenario_json.is_null() ? nlohmann::json::object() : scenario_json);
    REQUIRE(std::holds_alternative<kv::Scenario>(scenario));
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    REQUIRE(std::holds_alternative<kv::Result>(outcome));
    return std::get<kv::Result>(outcome);
}

inline kv::InputError evaluate_error(const std::string& text) {
    auto scenario = kv::scenario_from_text(text);
    if (auto* error = std::get_if<kv::InputError>(&scenario)) return *error;
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    REQUIRE(std::holds_alternative<kv::InputError>(outcome));
    return std::get<kv::InputError>(outcome);
}

// A pasted log explained (the paste must hold a start-up line).
inline kv::LogExplanation explained(const std::string& text) {
    auto outcome = kv::explain_log(text);
    REQUIRE(std::holds_alternative<kv::LogExplanation>(outcome));
    return std::get<kv::LogExplanation>(outcome);
}

// Whether the engine log the model prints has this line, exactly (an INFO line unless a level is given).
inline bool logs(const kv::Result& r, const std::string& line, const std::string& level = "INFO") {
    for (const kv::LogLine& l : kv::engine_log(r))
        if (l.text == level + " " + line) return true;
    return false;
}

// The largest value a scenario field's row accepts.
inline int64_t field_max(const char* name) { return static_cast<int64_t>(kv::scenario_field(name).hi); }

}  // namespace kvtest
