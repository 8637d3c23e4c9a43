#include "io/plan_json.hpp"

#include "io/fields_json.hpp"
#include "io/input_text.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "plan/plan_fields.hpp"

namespace kv {

using nlohmann::json;

std::variant<PlanTarget, InputError> plan_target_from_json(const json& in) {
    PlanTarget t;
    if (auto error = read_fields(plan_target_fields(), in, t, "plan", "plan target")) return *error;
    return t;
}

std::variant<PlanTarget, InputError> plan_target_from_text(const std::string& text) {
    auto parsed = parse_input_text(text, "plan");
    if (auto* error = std::get_if<InputError>(&parsed)) return *error;
    return plan_target_from_json(std::get<json>(parsed));
}

namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json headroom(double h) { return h > 0 ? json(h) : json(nullptr); }

json candidate_to_json(const PlanCandidate& c, const PlanTarget& t) {
    return {
        {"tensor_parallel_size", c.scenario.tensor_parallel_size},
        {"replicas", c.replicas},
        {"gpus_used", c.gpus_used},
        {"users_per_replica", c.users_per_replica},
        {"command_line", c.command_line},
        {"startup_lines", c.startup_lines},
        {"startup_error", startup_error_to_json(c.startup_error)},
        {"meets", c.meets},
        {"misses", c.misses},
        {"margins",
         {{"running", c.running},
          {"users_per_replica", c.users_per_replica},
          {"max_resident_sequences", c.max_resident_sequences},
          {"users_headroom", c.users_headroom},
          {"itl_s", c.itl_s},
          {"itl_objective_s", optional_number(t.itl_s)},
          {"itl_headroom", headroom(c.itl_headroom)},
          {"ttft_s", c.ttft_s},
          {"ttft_objective_s", optional_number(t.ttft_s)},
          {"ttft_headroom", headroom(c.ttft_headroom)},
          {"available_kv_cache_bytes", c.available_kv_cache_bytes}}},
        {"decode_tokens_per_s", c.decode_tokens_per_s},
        {"scenario", scenario_to_json(c.scenario)},
    };
}

}  // namespace

json plan_to_json(const PlanResult& r) {
    const PlanTarget& t = r.target;
    json target = {{"model", t.model_config ? json(nullptr) : json(t.model)},
                   {"gpu", t.gpu_config ? t.gpu_config->name : t.gpu},
                   {"vllm_version", t.vllm_version},
                   {"gpu_count", t.gpu_count},
                   {"users", t.users},
                   {"prompt_tokens", t.prompt_tokens},
                   {"output_tokens", t.output_tokens},
                   {"ttft_s", optional_number(t.ttft_s)},
                   {"itl_s", optional_number(t.itl_s)},
                   {"max_candidates", t.max_candidates}};
    json out = {{"met", r.met},
                {"summary", r.summary},
                {"target", target},
                {"evaluations", r.evaluations},
                {"configurations_met", r.configurations_met}};
    if (r.met) {
        json candidates = json::array();
        for (const PlanCandidate& c : r.candidates) candidates.push_back(candidate_to_json(c, t));
        out["candidates"] = candidates;
    } else {
        out["closest"] = r.closest ? candidate_to_json(*r.closest, t) : json(nullptr);
    }
    return out;
}

}  // namespace kv
