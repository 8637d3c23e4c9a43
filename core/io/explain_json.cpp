#include "io/explain_json.hpp"

#include "base/format.hpp"
#include "io/input_text.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"

namespace kv {

std::variant<LogExplanation, InputError> explain_log_json(std::string_view text, const nlohmann::json& given) {
    if (text.size() > max_log_bytes)
        return InputError{"log", ErrorCode::out_of_range,
                          "the log is " + format_count(static_cast<int64_t>(text.size())) + " bytes; at most " +
                              format_count(static_cast<int64_t>(max_log_bytes)) + " are read: paste the start-up part"};
    GivenScenario partial;
    if (!given.is_null()) {
        auto scenario = scenario_from_json(given);
        if (auto* e = std::get_if<InputError>(&scenario)) return *e;
        partial.scenario = std::get<Scenario>(scenario);
        for (const auto& item : given.items()) partial.fields.push_back(item.key());
    }
    return explain_log(text, partial);
}

namespace {

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

nlohmann::json candidates_to_json(const ModelInference& inference) {
    nlohmann::json list = nlohmann::json::array();
    for (const ModelCandidate& c : inference.candidates) {
        nlohmann::json& j = list.emplace_back(nlohmann::json::object());
        j["model"] = c.model;
        j["tensor_parallel_size"] = c.tensor_parallel_size;
        j["kv_cache_dtype"] = dtype_name(c.kv_cache_dtype);
        j["evidence"] = evidence_name(c.evidence);
        j["weights_gib"] = c.weights_gib;
        j["weights_difference"] = c.weights_difference;
        j["kv_bytes_per_token"] = c.kv_bytes_per_token;
        j["kv_bytes_difference"] = optional_number(c.kv_bytes_difference);
        j["gpu"] = c.gpu.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.gpu);
        j["pool_difference"] = optional_number(c.pool_difference);
    }
    nlohmann::json out = nlohmann::json::object();
    out["unique"] = inference.unique;
    out["candidates"] = std::move(list);
    return out;
}

nlohmann::json failure_to_json(const LogExplanation& x) {
    if (!x.log.failure) return nullptr;
    nlohmann::json j = nlohmann::json::object();
    j["kind"] = x.log.failure->kind == FailureKind::nccl_error ? "nccl_error" : "out_of_memory";
    j["stage"] = log_stage_name(x.log.failure->stage);
    j["line"] = x.log.failure->line;
    return j;
}

}  // namespace

nlohmann::json explanation_to_json(const LogExplanation& x) {
    nlohmann::json terms = nlohmann::json::array();
    for (const ExplainedTerm& t : x.terms) {
        nlohmann::json j = {{"term", t.term}, {"unit", t.unit}, {"inferred", t.inferred}, {"meaning", t.meaning}};
        j["model"] = optional_number(t.model);
        j["logged"] = optional_number(t.logged);
        j["difference"] = t.logged && t.model && *t.logged != 0 ? nlohmann::json(*t.model / *t.logged - 1) : nlohmann::json(nullptr);
        terms.push_back(j);
    }
    nlohmann::json refusal = nullptr;
    if (x.log.refusal_kind) refusal = {{"kind", refusal_kind_name(*x.log.refusal_kind)}, {"line", x.log.refusal_line.value_or("")}};
    return {{"scenario", x.evaluated ? scenario_to_json(x.scenario) : nlohmann::json(nullptr)},
            {"assumptions", x.assumptions},
            {"gpu_assumed", x.gpu_assumed},
            {"terms", terms},
            {"model_inference", candidates_to_json(x.inference)},
            {"failure", failure_to_json(x)},
            {"advice", x.advice.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.advice)},
            {"notes", x.notes},
            {"logged_refusal", refusal},
            {"model_refusal", x.evaluated ? startup_error_to_json(x.result.memory.startup_error) : nlohmann::json(nullptr)},
            {"recognised_lines", x.log.recognised}};
}

}  // namespace kv
