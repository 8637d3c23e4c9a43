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

json percentiles(const Percentiles& p) { return {{"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"mean", p.mean}, {"count", p.count}}; }

// The target load as simulated on the busiest replica; costs only with a GPU-hour price.
json served_to_json(const std::optional<ServedLoad>& s, const PlanTarget& t) {
    if (!s) return nullptr;
    json out = {{"ttft_s", percentiles(s->ttft_s)},
                {"tpot_s", percentiles(s->tpot_s)},
                {"load", load_name(s->load)},
                {"offered_rate_per_s", s->offered_rate_per_s},
                {"sustained_rate_per_s", s->sustained_rate_per_s},
                {"requests", s->requests},
                {"output_tokens_per_s", s->output_tokens_per_s},
                {"input_tokens_per_s", s->input_tokens_per_s}};
    if (t.gpu_hour_price)
        out["cost"] = {{"per_million_output_tokens", s->cost_per_million_output_tokens},
                       {"per_million_input_tokens", s->cost_per_million_input_tokens}};
    return out;
}

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
        {"caveats", c.caveats},
        {"served", served_to_json(c.served, t)},
        {"margins",
         {{"running", c.running},
          {"users_per_replica", c.users_per_replica},
          {"max_resident_sequences", c.max_resident_sequences},
          {"users_headroom", c.users_headroom},
          {"idle_decode_step_s", c.itl_s},
          {"idle_ttft_s", c.ttft_s},
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
                   {"rate_per_s", optional_number(t.rate_per_s)},
                   {"ttft_s", optional_number(t.ttft_s)},
                   {"ttft_p90_s", optional_number(t.ttft_p90_s)},
                   {"ttft_p99_s", optional_number(t.ttft_p99_s)},
                   {"itl_s", optional_number(t.itl_s)},
                   {"tpot_p90_s", optional_number(t.tpot_p90_s)},
                   {"tpot_p99_s", optional_number(t.tpot_p99_s)},
                   {"gpu_hour_price", optional_number(t.gpu_hour_price)},
                   {"max_candidates", t.max_candidates}};
    json out = {{"met", r.met},
                {"summary", r.summary},
                {"target", target},
                {"evaluations", r.evaluations},
                {"simulations", r.simulations},
                {"configurations_met", r.configurations_met}};
    json pareto = json::array();
    for (const PlanCandidate& c : r.pareto) pareto.push_back(candidate_to_json(c, t));
    out["pareto"] = pareto;
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
