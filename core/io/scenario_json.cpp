#include "io/scenario_json.hpp"

#include "io/fields_json.hpp"
#include "io/input_text.hpp"
#include "scenario/scenario_fields.hpp"

namespace kv {

std::variant<Scenario, InputError> scenario_from_json(const nlohmann::json& in, const Scenario& base) {
    Scenario s = base;
    if (auto error = read_fields(scenario_fields(), in, s, "scenario", "scenario")) return *error;
    return s;
}

std::variant<Scenario, InputError> scenario_from_text(const std::string& text, const Scenario& base) {
    auto parsed = parse_input_text(text, "scenario");
    if (auto* error = std::get_if<InputError>(&parsed)) return *error;
    return scenario_from_json(std::get<nlohmann::json>(parsed), base);
}

nlohmann::json scenario_to_json(const Scenario& s) { return write_fields(scenario_fields(), s); }

std::variant<Result, InputError> evaluate_text(const std::string& text) {
    auto scenario = scenario_from_text(text);
    if (auto* error = std::get_if<InputError>(&scenario)) return *error;
    return evaluate(std::get<Scenario>(scenario));
}

}  // namespace kv
