#include "io/result_json.hpp"

#include <algorithm>

#include "io/scenario_json.hpp"
#include "logs/engine_log.hpp"

namespace kv {

using nlohmann::json;

namespace {
json phase_to_json(const PhaseTiming& p) {
    return {{"flops", p.flops},
            {"bytes", p.bytes},
            {"compute_s", p.compute_s},
            {"memory_s", p.memory_s},
            {"kernel_s", p.kernel_s},
            {"communication_s", p.communication_s},
            {"draft_s", p.draft_s},
            {"gpu_s", p.gpu_s},
            {"host_s", p.host_s},
            {"total_s", p.total_s},
            {"bound", bound_name(p.bound)},
            {"arithmetic_intensity", p.arithmetic_intensity}};
}

json serving_to_json(const ServingSteady& v) {
    return {{"decode_tokens_per_step", v.decode_tokens_per_step},
            {"prefill_tokens_per_step", v.prefill_tokens_per_step},
            {"token_budget_binds", v.token_budget_binds},
            {"prefill_step_share", v.prefill_step_share},
            {"prefill_tokens_per_prefill_step", v.prefill_tokens_per_prefill_step},
            {"step_with_prefill", phase_to_json(v.step_with_prefill)},
            {"decode_step", phase_to_json(v.decode_step)},
            {"mean_step_s", v.mean_step_s},
            {"generation_tokens_per_s", v.generation_tokens_per_s},
            {"prompt_tokens_per_s", v.prompt_tokens_per_s},
            {"itl_s", v.itl_s},
            {"queue_s", v.queue_s},
            {"prefill_steps", v.prefill_steps},
            {"ttft_s", v.ttft_s},
            {"decode_only_tokens_per_s", v.decode_only_tokens_per_s},
            {"prefill_only_tokens_per_s", v.prefill_only_tokens_per_s}};
}
}  // namespace

json startup_error_to_json(const std::optional<StartupError>& e) {
    return e ? json{{"kind", refusal_kind_name(e->kind)}, {"message", e->message}} : json(nullptr);
}

json model_json(const ModelSpec& m) {
    json derived = json::array();
    for (const auto& [field, how] : m.derived) derived.push_back({{"field", field}, {"how", how}});
    json suspicious = json::array();
    for (const auto& [typed, meant] : m.suspicious_keys) suspicious.push_back({{"key", typed}, {"did_you_mean", meant}});
    return {{"name", m.name},
            {"model_type", m.model_type},
            {"num_hidden_layers", m.num_hidden_layers},
            {"num_attention_heads", m.num_attention_heads},
            {"num_key_value_heads", m.num_key_value_heads},
            {"head_dim", m.head_dim},
            {"hidden_size", m.hidden_size},
            {"attention", m.attention == AttentionKind::mla ? "mla" : "standard"},
            {"num_experts", m.num_experts},
            {"sliding_window", m.sliding_window},
            {"num_sliding_layers", m.num_sliding_layers},
            {"weight_format", weight_format_name(m.weight_format)},
            {"multimodal", m.multimodal},
            {"max_position_embeddings", m.max_position_embeddings},
            {"derived", derived},
            {"suspicious_keys", suspicious}};
}

namespace {

// The start-up accounting and the KV layout.
json memory_fields(const Result& r) {
    const MemoryPlan& mem = r.memory;
    return {{"kv_bytes_per_token", mem.layout.kv_bytes_per_token},
            {"kv_bytes_per_token_per_layer", mem.layout.bytes_per_token_per_layer},
            {"visible_memory_bytes", mem.visible_bytes},
            {"budget_bytes", mem.requested_bytes},
            {"outside_budget_bytes", r.admission.outside_budget_bytes},
            {"weight_bytes", mem.weight_bytes},
            {"lora_bytes", mem.lora_bytes},
            {"draft_weight_bytes", mem.draft_weight_bytes},
            {"draft_kv_layers", mem.layout.draft_layers},
            {"mean_acceptance_length", mem.drafter.acceptance_length},
            {"cpu_offload_blocks", mem.offload.cpu_blocks},
            {"cpu_offload_tokens", mem.offload.cpu_tokens},
            {"offload_load_s_per_block", mem.offload.load_s_per_block},
            {"offload_prompt_load_s", offload_load_s(mem.offload, r.scenario.prompt_tokens, mem.layout.block_size)},
            {"activation_bytes", mem.activation_peak_bytes},
            {"non_torch_bytes", mem.non_torch_bytes},
            {"cuda_graph_bytes", mem.cuda_graph_bytes},
            {"cuda_graph_in_budget", mem.cuda_graph_in_budget},
            {"available_kv_cache_bytes", mem.available_kv_bytes},
            {"kv_pool_bytes", std::max(0.0, mem.available_kv_bytes)},
            {"kv_pool_used_bytes", r.admission.kv_pool_used_bytes},
            {"num_gpu_blocks", mem.num_gpu_blocks},
            {"block_size", mem.layout.block_size},
            {"kv_cache_groups", mem.layout.num_groups},
            {"kv_cache_tokens", mem.kv_cache_tokens},
            {"max_concurrency", mem.max_concurrency},
            {"request_kv_bytes", mem.request_kv_bytes},
            {"estimated_max_model_len", mem.estimated_max_model_len},
            {"profile_tokens", mem.profile_tokens},
            {"engine", r.rules.v1_engine ? "V1" : "V0"},
            {"bytes_per_sequence", r.admission.bytes_per_sequence},
            {"kv_heads_per_rank", mem.layout.kv_heads_per_rank},
            {"kv_heads_replicated", mem.layout.kv_heads_replicated}};
}

// Admission, and what would start a refused engine.
json admission_fields(const Result& r) {
    return {{"max_resident_sequences", r.admission.max_resident_sequences},
            {"running", r.admission.running},
            {"waiting", r.admission.waiting},
            {"binding_limit", binding_limit_name(r.admission.binding_limit)},
            {"min_utilization_that_fits", r.admission.min_utilization_that_fits},
            {"longest_request_tokens", r.admission.longest_request_tokens},
            {"tensor_parallel_that_starts", r.tensor_parallel_that_starts},
            {"fp8_weights_start", r.fp8_weights_start},
            {"kv_cache_usage", r.admission.kv_cache_usage}};
}

// Step times, rates, the serving steady state and the engine log.
json step_fields(const Result& r) {
    return {{"achieved_bytes_per_s", r.steps.achieved_bytes_per_s},
            {"achieved_flops_per_s", r.steps.achieved_flops_per_s},
            {"peak_flops_per_s", r.steps.peak_flops_per_s},
            {"ridge_flops_per_byte", r.steps.ridge_flops_per_byte},
            {"decode_bytes_per_step", r.steps.decode.bytes},
            {"decode_step_s", r.steps.decode.total_s},
            {"decode_memory_s", r.steps.decode.memory_s},
            {"decode_compute_s", r.steps.decode.compute_s},
            {"decode_communication_s", r.steps.decode.communication_s},
            {"decode_tokens_per_s", r.steps.decode_tokens_per_s},
            {"itl_s", r.steps.itl_s},
            {"weight_share", r.steps.weight_share},
            {"decode_bound", bound_name(r.steps.decode.bound)},
            {"decode", phase_to_json(r.steps.decode)},
            {"ttft_s", r.steps.prefill.total_s},
            {"prefill_bound", bound_name(r.steps.prefill.bound)},
            {"prefill", phase_to_json(r.steps.prefill)},
            {"dram_active", r.steps.dram_active},
            {"tensor_active", r.steps.tensor_active},
            {"gpu_utilization", r.steps.gpu_utilization},
            {"chunk_budget_tokens", r.steps.chunk_budget_tokens},
            {"free_prefill_tokens", r.steps.free_prefill_tokens},
            {"step_with_full_chunk_s", r.steps.step_with_full_chunk_s},
            {"generation_tokens_per_s", r.steps.serving.generation_tokens_per_s},
            {"prompt_tokens_per_s", r.steps.serving.prompt_tokens_per_s},
            {"serving_step_s", r.steps.serving.mean_step_s},
            {"serving_ttft_s", r.steps.serving.ttft_s},
            {"serving", serving_to_json(r.steps.serving)}};
}

// Every data-parallel engine together, and where an MoE's routed experts sit.
json deployment_fields(const Result& r) {
    const Deployment& d = r.deployment;
    const ExpertPlacement experts = place_experts(r.model, r.scenario);
    return {{"engines", d.engines},
            {"gpus", d.gpus},
            {"requests_per_engine", d.requests_per_engine},
            {"kv_cache_tokens", d.kv_cache_tokens},
            {"max_concurrency", d.max_concurrency},
            {"max_resident_sequences", d.max_resident_sequences},
            {"running", d.running},
            {"waiting", d.waiting},
            {"expert_gpus", experts.gpus},
            {"experts_per_gpu", experts.experts_per_gpu},
            {"whole_experts", experts.whole_experts}};
}

}  // namespace

json result_to_json(const Result& r) {
    json log = json::array(), kinds = json::array();
    for (const LogLine& line : engine_log(r)) {
        log.push_back(line.text);
        kinds.push_back(log_kind_name(line.kind));
    }
    json out = {
        {"status", status_name(r.status)},
        {"scenario", scenario_to_json(r.scenario)},
        {"startup_error", startup_error_to_json(r.memory.startup_error)},
        {"model", model_json(r.model)},
        {"gpu",
         {{"id", r.gpu.name},
          {"name", r.gpu.name},
          {"label", r.gpu.label},
          {"memory_bytes", r.gpu.memory_bytes},
          {"visible_memory_bytes", r.gpu.visible_memory_bytes},
          {"hbm_bytes_per_s", r.gpu.hbm_bytes_per_s},
          {"bf16_flops_per_s", r.gpu.bf16_flops_per_s},
          {"fp8_flops_per_s", r.gpu.fp8_flops_per_s},
          {"interconnect", r.gpu.interconnect},
          {"interconnect_bytes_per_s", r.gpu.interconnect_bytes_per_s}}},
        {"params", r.params},
        {"deployment", deployment_fields(r)},
        {"log", log},
        {"log_kinds", kinds},
    };
    out.update(memory_fields(r));
    out.update(admission_fields(r));
    out.update(step_fields(r));
    return out;
}

json error_to_json(const InputError& e) {
    return {{"error", {{"field", e.field}, {"code", error_code_name(e.code)}, {"message", e.message}}}};
}

json batch_sweep_to_json(const BatchSweep& sweep) {
    json points = json::array();
    for (const BatchPoint& p : sweep.points)
        points.push_back({{"batch", p.batch},
                          {"step_s", p.step_s},
                          {"tokens_per_s", p.tokens_per_s},
                          {"weight_share", p.weight_share},
                          {"bound", bound_name(p.bound)}});
    return {{"points", points}, {"pool_limit", sweep.pool_limit}, {"amortised_batch", sweep.amortised_batch}};
}

json tensor_parallel_sweep_to_json(const std::vector<TensorParallelPoint>& points) {
    json out = json::array();
    for (const TensorParallelPoint& p : points) {
        json point = {{"tensor_parallel_size", p.tensor_parallel_size}, {"valid", p.valid}};
        if (p.valid) {
            const Result& r = p.result;
            point.update({{"status", status_name(r.status)},
                          {"kv_pool_bytes", std::max(0.0, r.memory.available_kv_bytes)},
                          {"weight_bytes", r.memory.weight_bytes},
                          {"kv_heads_per_rank", r.memory.layout.kv_heads_per_rank},
                          {"kv_heads_replicated", r.memory.layout.kv_heads_replicated},
                          {"max_resident_sequences", r.admission.max_resident_sequences},
                          {"running", r.admission.running},
                          {"decode_step_s", r.steps.decode.total_s},
                          {"decode_communication_s", r.steps.decode.communication_s},
                          {"decode_tokens_per_s", r.steps.decode_tokens_per_s},
                          {"ttft_s", r.steps.prefill.total_s}});
        }
        out.push_back(point);
    }
    return out;
}

}  // namespace kv
