#include "plan/plan_fields.hpp"

#include "scenario/scenario_fields.hpp"

namespace kv {
namespace {

constexpr double max_gpu_count = 64;

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
     .help = "Concurrent users, across all replicas."},
    {.name = "ttft_s",
     .type = FieldType::number,
     .lo = 0.001,
     .hi = 3600,
     .decimals = 3,  // objectives start at 1 ms
     .nullable = true,
     .unit = "s",
     .label = "TTFT objective",
     .help = "Objective: time to first token of one prompt (null: none)."},
    {.name = "itl_s",
     .type = FieldType::number,
     .lo = 0.001,
     .hi = 3600,
     .decimals = 3,
     .nullable = true,
     .unit = "s",
     .label = "ITL objective",
     .help = "Objective: seconds per output token (null: none)."},
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
        {&rows[3], &PlanTarget::itl_s},
        {&rows[4], &PlanTarget::max_candidates},
    };
    return fields;
}

}  // namespace kv
