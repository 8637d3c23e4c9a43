#include "plan/plan_fields.hpp"

#include "scenario/scenario_fields.hpp"

namespace kv {
namespace {

constexpr double max_gpu_count = 64;

// A latency objective: seconds, from 1 ms, none when null.
constexpr FieldSpec objective(const char* name, const char* label, const char* help) {
    return {.name = name,
            .type = FieldType::number,
            .lo = 0.001,
            .hi = 3600,
            .decimals = 3,
            .nullable = true,
            .unit = "s",
            .label = label,
            .help = help};
}

constexpr FieldSpec rows[] = {
    {.name = "gpu_count",
     .type = FieldType::integer,
     .lo = 1,
     .hi = max_gpu_count,
     .unit = "GPUs",
     .label = "GPUs",
     .help = "GPUs available; a plan may use fewer."},
    {.name = "users",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 4096 * max_gpu_count,  // a replica runs at most 4,096 sequences (concurrent_requests' limit)
     .unit = "users",
     .label = "users",
     .help = "Concurrent users, across all replicas (unused with a rate)."},
    objective("ttft_s", "median TTFT objective",
              "Objective: the median time to first token of the simulated load, as vllm bench serve measures it (null: none)."),
    objective("ttft_p90_s", "p90 TTFT objective", "Objective: the 90th percentile of the simulated time to first token (null: none)."),
    objective("ttft_p99_s", "p99 TTFT objective", "Objective: the 99th percentile of the simulated time to first token (null: none)."),
    objective("itl_s", "median TPOT objective",
              "Objective: the median time per output token of the simulated load, prompts of others included (vllm bench "
              "serve's TPOT; null: none)."),
    objective("tpot_p90_s", "p90 TPOT objective", "Objective: the 90th percentile of the simulated time per output token (null: none)."),
    objective("tpot_p99_s", "p99 TPOT objective", "Objective: the 99th percentile of the simulated time per output token (null: none)."),
    {.name = "rate_per_s",
     .type = FieldType::number,
     .lo = 0.001,
     .hi = 1e5,
     .decimals = 3,
     .nullable = true,
     .unit = "requests/s",
     .label = "request rate",
     .help = "Requests a second to the whole deployment, Poisson (null: users clients, each sending its next request when the last ends)."},
    {.name = "gpu_hour_price",
     .type = FieldType::number,
     .lo = 0.01,
     .hi = 1000,
     .decimals = 2,
     .nullable = true,
     .unit = "per GPU-hour",
     .label = "GPU-hour price",
     .help = "What one GPU costs an hour, in any currency (null: no cost); the plan states cost per million output and input tokens."},

    {.name = "max_candidates",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 20,
     .label = "candidates",
     .help = "How many configurations that meet the target to return, cheapest first."},
};

}  // namespace

const std::vector<Field<PlanTarget>>& plan_target_fields() {
    static const std::vector<Field<PlanTarget>> fields = {
        {&scenario_field("model"), &PlanTarget::model},
        {&scenario_field("model_config"), &PlanTarget::model_config},
        {&scenario_field("gpu"), &PlanTarget::gpu},
        {&scenario_field("gpu_config"), &PlanTarget::gpu_config},
        {&scenario_field("vllm_version"), &PlanTarget::vllm_version},
        {&rows[0], &PlanTarget::gpu_count},
        {&rows[1], &PlanTarget::users},
        {&scenario_field("prompt_tokens"), &PlanTarget::prompt_tokens},
        {&scenario_field("output_tokens"), &PlanTarget::output_tokens},
        {&rows[2], &PlanTarget::ttft_s},
        {&rows[3], &PlanTarget::ttft_p90_s},
        {&rows[4], &PlanTarget::ttft_p99_s},
        {&rows[5], &PlanTarget::itl_s},
        {&rows[6], &PlanTarget::tpot_p90_s},
        {&rows[7], &PlanTarget::tpot_p99_s},
        {&rows[8], &PlanTarget::rate_per_s},
        {&rows[9], &PlanTarget::gpu_hour_price},
        {&rows[10], &PlanTarget::max_candidates},
    };
    return fields;
}

}  // namespace kv
