// Loading the lesson's data: every named scenario evaluated (and, with a workload, simulated) by the
// core, and every sourced fact converted into base units.
#include "figures/lesson_data.hpp"

#include "result/evaluate.hpp"
#include "io/json_io.hpp"
#include "io/simulate_json.hpp"
#include "base/units.hpp"

namespace site {
namespace {

using nlohmann::json;

std::variant<double, std::string> fact_multiplier(const std::string& unit) {
    if (unit == "GiB") return kv::GiB;
    if (unit == "MiB") return kv::MiB;
    if (unit == "KiB") return kv::KiB;
    if (unit == "bytes" || unit == "tokens" || unit == "count" || unit == "fraction" || unit == "number") return 1.0;
    return "unit \"" + unit + "\" is not one of GiB, MiB, KiB, bytes, tokens, count, fraction, number";
}

// The core's refusal, with the core's own code for the field (kv::ErrorCode).
Error rejected(const kv::InputError& error) {
    return Error{ErrorCode::scenario_rejected, "the model rejects it: " + error.message + " (" + kv::error_code_name(error.code) + ")"};
}

// A scenario with a workload is also run over time: its figures read `simulation.*`, and the page
// hands the workload's fields to the serving panel along with the scenario's.
std::variant<EvaluatedScenario, Error> simulate_named(EvaluatedScenario& e, const kv::Result& result, const json& entry) {
    auto workload = kv::workload_from_json(entry["workload"]);
    if (auto* error = std::get_if<kv::InputError>(&workload))
        return Error{ErrorCode::workload_rejected, "its workload is rejected: " + error->message + " (" + error->field + ")"};
    const kv::Workload& w = std::get<kv::Workload>(workload);
    auto run = kv::simulate(result, w);
    if (auto* error = std::get_if<kv::InputError>(&run))
        return Error{ErrorCode::simulation_failed, "it cannot be simulated: " + error->message};
    e.result["simulation"] = kv::simulation_to_json(std::get<kv::Simulation>(run));
    if (entry.value("find_preemption_onset", false))
        e.result["simulation"]["preemption_onset_rate_per_s"] = kv::preemption_onset_rate(result, w);
    e.result["workload"] = kv::workload_to_json(w);
    e.scenario.update(kv::workload_to_json(w));
    return e;
}

std::variant<EvaluatedScenario, Error> evaluate_named(const std::string& name, const json& entry, const json& base) {
    if (!entry.is_object() || !entry.contains("set") || !entry["set"].is_object())
        return Error{ErrorCode::bad_scenarios_file, "each scenario is {\"about\": \"...\", \"set\": {fields that differ from base}}"};
    json full = base;
    for (const auto& [key, value] : entry["set"].items()) full[key] = value;
    auto scenario = kv::scenario_from_json(full);
    if (auto* error = std::get_if<kv::InputError>(&scenario)) return rejected(*error);
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return rejected(*error);
    EvaluatedScenario e;
    e.name = name;
    e.about = entry.value("about", "");
    e.scenario = kv::scenario_to_json(std::get<kv::Scenario>(scenario));
    const kv::Result& result = std::get<kv::Result>(outcome);
    e.result = kv::result_to_json(result);
    e.evaluated = result;
    if (entry.contains("workload")) return simulate_named(e, result, entry);
    return e;
}

}  // namespace

std::variant<LessonData, BuildError> LessonData::load(const json& scenarios_file, const json& facts_file) {
    LessonData data;
    auto in_scenarios = [](ErrorCode code, std::string message) { return file_error("scenarios.json", code, std::move(message)); };
    auto in_facts = [](ErrorCode code, std::string message) { return file_error("facts.json", code, std::move(message)); };
    if (!scenarios_file.is_object() || !scenarios_file.contains("base") || !scenarios_file.contains("scenarios"))
        return in_scenarios(ErrorCode::bad_scenarios_file, "wants {\"schema_version\": 1, \"base\": {...}, \"scenarios\": {...}}");
    const json& base = scenarios_file["base"];
    // The base names every field, so a change of the core's defaults cannot move the lesson's figures.
    const json defaults = kv::scenario_to_json(kv::Scenario{});
    for (const auto& [key, value] : defaults.items())
        if (!base.contains(key))
            return in_scenarios(ErrorCode::incomplete_base, "base lacks \"" + key + "\"; it must set every scenario field");
    for (const auto& [name, entry] : scenarios_file["scenarios"].items()) {
        if (is_reserved_name(name))
            return in_scenarios(ErrorCode::reserved_name, "\"" + name + "\" is a reserved word, not a scenario name");
        auto evaluated = evaluate_named(name, entry, base);
        if (auto* error = std::get_if<Error>(&evaluated)) return in_scenarios(error->code, "scenario \"" + name + "\": " + error->message);
        data.scenarios_.emplace(name, std::get<EvaluatedScenario>(std::move(evaluated)));
    }
    if (!facts_file.is_object() || !facts_file.contains("facts") || !facts_file["facts"].is_object())
        return in_facts(ErrorCode::bad_facts_file, "wants {\"schema_version\": 1, \"facts\": {...}}");
    for (const auto& [id, entry] : facts_file["facts"].items()) {
        if (!entry.is_object() || !entry.contains("value") || !entry["value"].is_number() || !entry.contains("source") ||
            !entry["source"].is_string())
            return in_facts(ErrorCode::bad_fact, "fact \"" + id + "\" needs a numeric \"value\", a \"unit\" and a \"source\"");
        auto multiplier = fact_multiplier(entry.value("unit", "number"));
        if (auto* message = std::get_if<std::string>(&multiplier)) return in_facts(ErrorCode::bad_fact, "fact \"" + id + "\": " + *message);
        data.facts_[id] =
            Fact{entry["value"].get<double>() * std::get<double>(multiplier), entry.value("about", ""), entry["source"].get<std::string>()};
    }
    return data;
}

const EvaluatedScenario* LessonData::find_scenario(const std::string& name) const {
    auto it = scenarios_.find(name);
    return it == scenarios_.end() ? nullptr : &it->second;
}

const Fact* LessonData::find_fact(const std::string& id) const {
    auto it = facts_.find(id);
    return it == facts_.end() ? nullptr : &it->second;
}

std::string LessonData::scenario_names() const {
    std::string out;
    for (const auto& [name, s] : scenarios_) out += (out.empty() ? "" : ", ") + name;
    return out;
}

}  // namespace site
