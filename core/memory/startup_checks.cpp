#include "memory/startup_checks.hpp"

#include "base/format.hpp"
#include "base/units.hpp"
#include "memory/parallelism.hpp"

namespace kv {
namespace {

// vLLM prints GiB with two decimals in its refusals.
std::string gib2(double bytes) { return format_fixed(bytes / GiB, 2); }

// Refusals the engine makes from the configuration alone, before it touches the GPU.
std::optional<StartupError> config_refusal(const Scenario& s, const ModelSpec& m) {
    const int64_t tp = s.tensor_parallel_size, pp = s.pipeline_parallel_size;
    const std::string tps = std::to_string(tp);
    if (m.num_attention_heads % tp != 0)
        return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                            "Total number of attention heads (" + std::to_string(m.num_attention_heads) +
                                ") must be divisible by tensor parallel size (" + tps + ")."};
    const int64_t kv = m.num_key_value_heads;
    if (m.attention == AttentionKind::standard && (kv >= tp ? kv % tp != 0 : tp % kv != 0))
        return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                            "The " + std::to_string(kv) + " KV heads cannot be sharded over tensor parallel size " + tps +
                                ": vLLM's QKV projection needs the KV heads to divide evenly among the ranks, or the "
                                "ranks to divide evenly among the KV heads (then each head is replicated)."};
    // A Mamba2 mixer splits its heads over the ranks, and its groups too unless there is one group,
    // which every rank then holds (MambaMixer2's assertions); a Gated DeltaNet layer splits its key
    // and value heads (vllm.distributed.divide asserts it in gated_delta_net_state_shape).
    if (m.num_linear_layers > 0 && m.linear_kind == LinearKind::mamba2) {
        if (m.mamba_num_heads % tp != 0 || (m.mamba_num_groups % tp != 0 && m.mamba_num_groups != 1))
            return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                                "The Mamba2 layers' " + std::to_string(m.mamba_num_heads) +
                                    " heads must be divisible by tensor parallel size (" + tps + "), and their " +
                                    std::to_string(m.mamba_num_groups) +
                                    " groups too unless there is one: vLLM splits them over the ranks."};
    } else if (m.num_linear_layers > 0 && m.linear_kind == LinearKind::mamba1) {
        if (m.mamba_intermediate_size % tp != 0)  // mamba1_state_shape's divide()
            return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                                "The Mamba layers' inner width " + std::to_string(m.mamba_intermediate_size) +
                                    " must be divisible by tensor parallel size (" + tps + "): vLLM splits it over the ranks."};
    } else if (m.num_linear_layers > 0 && (m.linear_num_key_heads % tp != 0 || m.linear_num_value_heads % tp != 0))
        return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                            "The linear-attention layers' " + std::to_string(m.linear_num_key_heads) + " key heads and " +
                                std::to_string(m.linear_num_value_heads) + " value heads must be divisible by tensor parallel size (" +
                                tps + "): vLLM splits them over the ranks."};
    // Without expert parallel every expert is sliced over the TP x DP GPUs, and FusedMoEConfig
    // asserts its width divides (memory/parallelism.hpp); MXFP4 experts are padded instead.
    const ExpertPlacement experts = place_experts(m, s);
    if (m.num_experts > 0 && !experts.whole_experts && m.weight_format != WeightFormat::mxfp4_experts &&
        m.moe_intermediate_size % experts.gpus != 0)
        return StartupError{RefusalStage::configuration, RefusalKind::tensor_parallel_mismatch,
                            "The experts' intermediate size (" + std::to_string(m.moe_intermediate_size) +
                                ") must be divisible by tensor_parallel_size x data_parallel_size (" + std::to_string(experts.gpus) +
                                "): without --enable-expert-parallel vLLM splits every expert over all those GPUs. "
                                "Choose sizes that divide it, or enable expert parallelism."};
    if (m.num_hidden_layers < pp)
        return StartupError{
            RefusalStage::configuration, RefusalKind::pipeline_parallel_mismatch,
            "pipeline_parallel_size " + std::to_string(pp) + " exceeds the model's " + std::to_string(m.num_hidden_layers) + " layers."};
    if (s.max_model_len && m.max_position_embeddings > 0 && *s.max_model_len > m.max_position_embeddings)
        return StartupError{
            RefusalStage::configuration, RefusalKind::max_model_len_too_long,
            "User-specified max_model_len (" + std::to_string(*s.max_model_len) +
                ") is greater than the derived max_model_len (max_position_embeddings=" + std::to_string(m.max_position_embeddings) +
                " in model's config.json). This may lead to incorrect model outputs or CUDA errors. "
                "To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"};
    if (s.weight_dtype == DType::fp8 && m.weight_format != WeightFormat::bf16)
        return StartupError{RefusalStage::configuration, RefusalKind::quantization_mismatch,
                            std::string("Quantization method specified in the model config (") + weight_format_name(m.weight_format) +
                                ") does not match the quantization method specified in the `quantization` argument (fp8)."};
    return std::nullopt;
}

// A --kv-cache-memory-bytes pool is allocated as given (engine_rules.hpp): when it and what stays
// resident do not fit, torch runs out of memory allocating it, or capturing the CUDA graphs after it.
std::optional<StartupError> manual_pool_refusal(const Scenario& s, const MemoryPlan& plan, double free_at_start) {
    if (!plan.kv_cache_memory_bytes_set) return std::nullopt;
    const double resident = plan.weight_bytes + plan.non_torch_bytes + plan.available_kv_bytes;
    if (resident > free_at_start)
        return StartupError{RefusalStage::cache, RefusalKind::out_of_memory_after_sizing,
                            "torch.OutOfMemoryError: CUDA out of memory allocating the KV cache: kv_cache_memory_bytes (" +
                                gib2(plan.available_kv_bytes) + " GiB) with the weights (" + gib2(plan.weight_bytes) +
                                " GiB) exceeds the " + gib2(free_at_start) + " GiB free."};
    if (!s.enforce_eager && resident + plan.cuda_graph_bytes > free_at_start)
        return StartupError{RefusalStage::cache, RefusalKind::out_of_memory_after_sizing,
                            "torch.OutOfMemoryError: CUDA out of memory capturing CUDA graphs: kv_cache_memory_bytes (" +
                                gib2(plan.available_kv_bytes) + " GiB) leaves too little of the " + gib2(free_at_start) + " GiB free."};
    return std::nullopt;
}

}  // namespace

std::optional<StartupError> check_startup(const Scenario& s, const ModelSpec& m, const MemoryPlan& plan, const EngineRules& rules,
                                          const Calibration& c) {
    if (auto refusal = config_refusal(s, m)) return refusal;
    std::optional<StartupError> error;
    auto refuse = [&](RefusalStage stage, RefusalKind kind, std::string message) {
        if (!error) error = StartupError{stage, kind, std::move(message)};
    };
    const double free_at_start = plan.visible_bytes - c.startup_context_bytes;
    if (rules.startup_free_memory_check && free_at_start < plan.requested_bytes)
        refuse(RefusalStage::configuration, RefusalKind::free_memory_below_request,
               "Free memory on device (" + gib2(free_at_start) + "/" + gib2(plan.visible_bytes) +
                   " GiB) on startup is less than desired GPU memory utilization (" + format_fixed(plan.limits.gpu_memory_utilization, 2) +
                   ", " + gib2(plan.requested_bytes) +
                   " GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.");
    if (plan.weight_bytes > free_at_start)
        refuse(RefusalStage::loading, RefusalKind::weights_do_not_fit,
               "torch.OutOfMemoryError: CUDA out of memory while loading the model: this rank's weights need " + gib2(plan.weight_bytes) +
                   " GiB and the GPU has " + gib2(free_at_start) + " GiB free.");
    else if (plan.weight_bytes + plan.activation_peak_bytes + plan.non_torch_bytes > free_at_start)
        refuse(RefusalStage::loading, RefusalKind::profile_out_of_memory,
               "torch.OutOfMemoryError: CUDA out of memory during the profile run: weights (" + gib2(plan.weight_bytes) +
                   " GiB) and the activation peak of " + format_count(plan.profile_tokens) + " tokens (" +
                   gib2(plan.activation_peak_bytes) + " GiB) exceed the " + gib2(free_at_start) + " GiB free.");
    if (auto manual = manual_pool_refusal(s, plan, free_at_start)) refuse(manual->stage, manual->kind, manual->message);
    // From 0.22.0 both refusals say the flag also sizes CPU memory (engine_rules.hpp). They end with
    // the docs link since PR #28051 (2025-12), which the model prints from 0.22.0 only: the release
    // that first had it is not placed.
    const bool cpu_backend = rules.refusals_name_cpu_backend;
    const char* const docs = cpu_backend ? " See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details." : "";
    if (plan.available_kv_bytes <= 0 || plan.num_gpu_blocks <= 0)
        refuse(RefusalStage::cache, RefusalKind::no_kv_cache_memory,
               std::string("No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
                           "initializing the engine") +
                   (cpu_backend ? " (this flag also controls CPU memory reservation on the CPU backend, despite its name)." : ".") + docs);
    else if (rules.v1_engine ? plan.request_kv_bytes > plan.available_kv_bytes : plan.kv_cache_tokens < plan.limits.max_model_len) {
        if (rules.v1_engine) {
            std::string estimate;
            if (plan.estimated_max_model_len > 0)
                estimate = "Based on the available memory, the estimated maximum model length is " +
                           std::to_string(plan.estimated_max_model_len) + ". ";
            refuse(RefusalStage::cache, RefusalKind::max_model_len_does_not_fit,
                   std::string("To serve at least one request with the ") + (cpu_backend ? "model's" : "models's") + " max seq len (" +
                       std::to_string(plan.limits.max_model_len) + "), (" + gib2(plan.request_kv_bytes) +
                       " GiB KV cache is needed, which is larger than the available KV cache memory (" + gib2(plan.available_kv_bytes) +
                       " GiB). " + estimate + "Try increasing `gpu_memory_utilization`" +
                       (cpu_backend ? " (which also controls CPU memory on the CPU backend)" : "") +
                       " or decreasing `max_model_len` when initializing the engine." + docs);
        } else {
            refuse(RefusalStage::cache, RefusalKind::max_model_len_does_not_fit,
                   "The model's max seq len (" + std::to_string(plan.limits.max_model_len) +
                       ") is larger than the maximum number of tokens that can be stored in KV cache (" +
                       std::to_string(plan.kv_cache_tokens) +
                       "). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.");
        }
    }
    return error;
}

}  // namespace kv
