#include "io/validation_json.hpp"

#include "io/scenario_json.hpp"

namespace kv {

using nlohmann::json;

namespace {

std::optional<double> positive(const json& logged, const char* key) {
    if (!logged.contains(key) || !logged[key].is_number() || logged[key].get<double>() <= 0) return std::nullopt;
    return logged[key].get<double>();
}

}  // namespace

std::variant<std::vector<StartupRecord>, InputError> startup_records_from_json(const json& data) {
    if (!data.is_object() || !data.contains("startups") || !data["startups"].is_array())
        return InputError{"startups", ErrorCode::wrong_type, "the validation file must hold a \"startups\" array"};
    std::vector<StartupRecord> records;
    for (const json& rec : data["startups"]) {
        if (!rec.is_object() || !rec.contains("scenario") || !rec.value("exclude_reason", std::string()).empty()) continue;
        StartupRecord r;
        r.id = rec.value("id", std::string("?"));
        r.source = rec.value("source", std::string());
        r.role = rec.value("role", std::string("holdout"));
        auto scenario = scenario_from_json(rec["scenario"]);
        if (auto* e = std::get_if<InputError>(&scenario))
            return InputError{"startups." + r.id + "." + e->field, e->code, r.id + ": " + e->message};
        r.scenario = std::get<Scenario>(scenario);
        const json logged = rec.value("logged", json::object());
        r.kv_cache_tokens = positive(logged, "kv_cache_tokens");
        r.num_gpu_blocks = positive(logged, "num_gpu_blocks");
        r.available_kv_cache_gib = positive(logged, "available_kv_cache_gib");
        if (logged.contains("model_weights_gib") && logged["model_weights_gib"].is_number())
            r.model_weights_gib = logged["model_weights_gib"].get<double>();
        r.logged_refusal = rec.value("logged_refusal", false);
        records.push_back(std::move(r));
    }
    return records;
}

std::variant<ValidationSummary, InputError> validate_startups(const json& data, const Calibration& calibration) {
    auto records = startup_records_from_json(data);
    if (auto* e = std::get_if<InputError>(&records)) return *e;
    return validate_startups(std::get<std::vector<StartupRecord>>(records), calibration);
}

}  // namespace kv
