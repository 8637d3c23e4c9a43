#include "io/validation_json.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "io/scenario_json.hpp"

namespace kv {

using nlohmann::json;

namespace {

std::optional<double> positive(const json& logged, const char* key) {
    if (!logged.contains(key) || !logged[key].is_number() || logged[key].get<double>() <= 0) return std::nullopt;
    return logged[key].get<double>();
}

// A record that takes part: an object with a scenario and no reason to leave it out.
bool compared(const json& rec) { return rec.is_object() && rec.contains("scenario") && rec.value("exclude_reason", std::string()).empty(); }

// What every validation record has: its id, source, role and scenario (errors under `list.id`).
template <typename Record>
std::optional<InputError> read_head(const json& rec, const std::string& list, Record& r) {
    r.id = rec.value("id", std::string("?"));
    r.source = rec.value("source", std::string());
    r.role = rec.value("role", std::string("holdout"));
    auto scenario = scenario_from_json(rec["scenario"]);
    if (auto* e = std::get_if<InputError>(&scenario))
        return InputError{list + "." + r.id + "." + e->field, e->code, r.id + ": " + e->message};
    r.scenario = std::get<Scenario>(scenario);
    return std::nullopt;
}

}  // namespace

std::variant<std::vector<StartupRecord>, InputError> startup_records_from_json(const json& data) {
    if (!data.is_object() || !data.contains("startups") || !data["startups"].is_array())
        return InputError{"startups", ErrorCode::wrong_type, "the validation file must hold a \"startups\" array"};
    std::vector<StartupRecord> records;
    for (const json& rec : data["startups"]) {
        if (!compared(rec)) continue;
        StartupRecord r;
        if (auto e = read_head(rec, "startups", r)) return *e;
        const json logged = rec.value("logged", json::object());
        r.kv_cache_tokens = positive(logged, "kv_cache_tokens");
        r.num_gpu_blocks = positive(logged, "num_gpu_blocks");
        r.available_kv_cache_gib = positive(logged, "available_kv_cache_gib");
        if (logged.contains("model_weights_gib") && logged["model_weights_gib"].is_number())
            r.model_weights_gib = logged["model_weights_gib"].get<double>();
        r.logged_refusal = rec.value("logged_refusal", false);
        r.restated = rec.contains("figure_restated");
        records.push_back(std::move(r));
    }
    return records;
}

std::variant<ValidationSummary, InputError> validate_startups(const json& data, const Calibration& calibration) {
    auto records = startup_records_from_json(data);
    if (auto* e = std::get_if<InputError>(&records)) return *e;
    return validate_startups(std::get<std::vector<StartupRecord>>(records), calibration);
}

namespace {

// Prefix caching as the run's flags or command set it (--[no-]enable-prefix-caching, or the LLM
// class's enable_prefix_caching=True/False); unset when they leave it at the engine's default.
std::optional<bool> prefix_caching_flag(const json& rec) {
    std::string said = rec.contains("command") && rec["command"].is_string() ? rec["command"].get<std::string>() : std::string();
    if (rec.contains("flags") && rec["flags"].is_array())
        for (const json& flag : rec["flags"])
            if (flag.is_string()) said.append(" ").append(flag.get_ref<const std::string&>());
    if (said.find("--no-enable-prefix-caching") != std::string::npos || said.find("enable_prefix_caching=False") != std::string::npos)
        return false;
    if (said.find("--enable-prefix-caching") != std::string::npos || said.find("enable_prefix_caching=True") != std::string::npos)
        return true;
    return std::nullopt;
}

std::optional<InputError> read_shape(const json& rec, BenchmarkRecord& r) {
    const json shape = rec.value("shape", json::object());
    const std::string benchmark = rec.value("benchmark", std::string());
    if (benchmark == "latency") r.kind = BenchmarkKind::latency;
    else if (benchmark == "throughput") r.kind = BenchmarkKind::throughput;
    else if (benchmark == "serving") r.kind = BenchmarkKind::serving;
    else
        return InputError{"runs." + r.id + ".benchmark", ErrorCode::unknown_value,
                          r.id + ": benchmark must be latency, throughput or serving"};
    auto integer = [&](const char* key) { return shape.contains(key) && shape[key].is_number() ? shape[key].get<int64_t>() : 0; };
    r.batch_size = integer("batch_size");
    r.num_prompts = integer("num_prompts");
    r.input_len = integer("input_len");
    r.output_len = integer("output_len");
    r.max_concurrency = integer("max_concurrency");
    r.request_rate = shape.contains("request_rate") && shape["request_rate"].is_number() ? shape["request_rate"].get<double>() : 0.0;
    const bool sized = r.kind == BenchmarkKind::latency ? r.batch_size > 0 : r.num_prompts > 0;
    if (!sized || r.input_len <= 0 || r.output_len <= 0)
        return InputError{"runs." + r.id + ".shape", ErrorCode::missing_field,
                          r.id + ": the shape needs its batch or prompt count and both lengths"};
    return std::nullopt;
}

}  // namespace

std::variant<std::vector<BenchmarkRecord>, InputError> benchmark_records_from_json(const json& data) {
    if (!data.is_object() || !data.contains("runs") || !data["runs"].is_array())
        return InputError{"runs", ErrorCode::wrong_type, "the benchmark file must hold a \"runs\" array"};
    std::vector<BenchmarkRecord> records;
    for (const json& rec : data["runs"]) {
        if (!compared(rec)) continue;
        BenchmarkRecord r;
        if (auto e = read_head(rec, "runs", r)) return *e;
        if (auto e = read_shape(rec, r)) return *e;
        r.prefix_caching = prefix_caching_flag(rec);
        r.script_version = rec.value("benchmark_script_version", r.scenario.vllm_version);
        const json measured = rec.value("measured", json::object());
        auto printed = [&](const char* key) {
            return measured.contains(key) && measured[key].is_number() ? measured[key].get<int64_t>() : 0;
        };
        r.generated_tokens = printed("total_generated_tokens");
        r.completed = printed("completed");
        const json headline = rec.value("headline", json::object());
        r.figure = headline.value("figure", std::string());
        r.measured = headline.contains("value") && headline["value"].is_number() ? headline["value"].get<double>() : 0.0;
        if (!known_timing_figure(r.figure) || !(r.measured > 0))
            return InputError{"runs." + r.id + ".headline", ErrorCode::unknown_value,
                              r.id + ": the headline figure \"" + r.figure + "\" is not one the validation reads"};
        records.push_back(std::move(r));
    }
    return records;
}

std::variant<TimingSummary, InputError> validate_timing(const json& data, const Calibration& calibration) {
    auto records = benchmark_records_from_json(data);
    if (auto* e = std::get_if<InputError>(&records)) return *e;
    return validate_timing(std::get<std::vector<BenchmarkRecord>>(records), calibration);
}

nlohmann::json accuracy_to_json(const ValidationSummary& memory) {
    // The worst held-out figure the engine printed; a figure its author restated is not held to it.
    double holdout_worst = 0;
    int64_t holdout = 0, restated = 0;
    for (const ValidationRow& r : memory.rows) {
        if (r.role == "fit") continue;
        ++holdout;
        restated += r.restated ? 1 : 0;
        if (!r.restated) holdout_worst = std::max(holdout_worst, std::fabs(r.error));
    }
    return {{"records", static_cast<int64_t>(memory.rows.size())},
            {"holdout_records", holdout},
            {"median", memory.median_abs_error},
            {"fit_median", memory.fit_median_abs_error},
            {"holdout_median", memory.holdout_median_abs_error},
            {"holdout_worst", holdout_worst},
            {"holdout_restated", restated}};
}

nlohmann::json accuracy_to_json(const TimingSummary& time) {
    return {{"records", static_cast<int64_t>(time.rows.size())},
            {"compared", static_cast<int64_t>(time.rows.size()) - time.failures},  // the rest: the engine refuses their printed flags
            {"holdout_records", time.holdout_rows},
            {"median", time.median_abs_error},
            {"fit_median", time.fit_median_abs_error},
            {"holdout_median", time.holdout_median_abs_error},
            {"holdout_worst", time.holdout_max_abs_error}};
}

}  // namespace kv
