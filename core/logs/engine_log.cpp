#include "logs/engine_log.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/format.hpp"
#include "base/units.hpp"

namespace kv {

const char* log_kind_name(LogKind kind) {
    static const char* const names[] = {"info", "warning", "failure", "lesson"};
    return names[static_cast<int>(kind)];
}

namespace {

void add(std::vector<LogLine>& out, LogKind kind, const std::string& text) {
    static const char* const prefix[] = {"INFO ", "WARNING ", "ERROR ", "LESSON "};
    out.push_back({kind, prefix[static_cast<int>(kind)] + text});
}

std::string gib(double bytes, int decimals) { return format_fixed(bytes / GiB, decimals); }

std::string concurrency(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", std::isfinite(value) ? value : 0.0);
    return text;
}

// The line gpu_worker.py prints when the CUDA-graph estimate comes out of the budget (0.20.0+;
// its text names v0.21.0): the utilisation that would leave the same budget without the estimate,
// and the one that would keep the pool as large, each rounded to four places.
void log_equivalent_utilization(const Result& r, std::vector<LogLine>& out) {
    const MemoryPlan& m = r.memory;
    const double util = m.limits.gpu_memory_utilization, share = m.cuda_graph_bytes / m.visible_bytes;
    char text[512];
    std::snprintf(text, sizeof text,
                  "CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=%.4f is "
                  "equivalent to --gpu-memory-utilization=%.4f without CUDA graph memory profiling. To maintain the same effective "
                  "KV cache size as before, increase --gpu-memory-utilization to %.4f. To disable, set "
                  "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.",
                  util, util - share, std::min(util + share, 1.0));
    add(out, LogKind::info, text);
}

// With --kv-cache-memory-bytes the worker prints this instead of "Available KV cache memory"
// (vllm/v1/worker/gpu_worker.py, determine_available_memory, PR #21489), with the free memory of
// its snapshot at start.
void log_reserved_kv_cache(const Result& r, std::vector<LogLine>& out) {
    const MemoryPlan& m = r.memory;
    add(out, LogKind::info,
        "Initial free memory " + gib(m.free_at_start_bytes, 2) + " GiB, reserved " + gib(m.available_kv_bytes, 2) +
            " GiB memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory profiling. This does not "
            "respect the gpu_memory_utilization config. Only use kv_cache_memory_bytes config when you want manual control of "
            "KV cache memory size. If OOM'ed, check the difference of initial free memory between the current run and the "
            "previous run where kv_cache_memory_bytes is suggested and update it correspondingly.");
}

// A hybrid model's configuration lines (vllm/model_executor/models/config.py): the block grown to hold
// a linear-attention state per page, and the state's page padded to the attention page.
void log_state_pages(const KvLayout& k, std::vector<LogLine>& out) {
    if (k.linear_layers == 0) return;
    if (k.ssm_state_updated_bytes > 0)
        add(out, LogKind::info,
            std::string("Updating mamba_ssm_cache_dtype to '") + (k.ssm_state_updated_bytes == 4 ? "float32" : "float16") +
                "' for NemotronH model");
    if (k.block_size_raised)
        add(out, LogKind::info,
            "Setting attention block size to " + std::to_string(k.block_size) +
                " tokens to ensure that attention page size is >= mamba page size.");
    if (k.page_bytes > k.linear_state_bytes)
        add(out, LogKind::info,
            "Padding mamba page size by " + format_fixed(100.0 * (k.page_bytes - k.linear_state_bytes) / k.linear_state_bytes, 2) +
                "% to ensure that mamba page size and attention page size are exactly equal.");
}

// kv_cache_utils warns once for each kind of layer (full, sliding, linear) whose count the group
// size does not divide, over that kind's own layers.
void log_padding_layers(const KvLayout& k, std::vector<LogLine>& out) {
    if (k.padding_layers == 0) return;
    for (const int64_t layers : {k.layers - k.sliding_layers, k.sliding_layers, k.linear_layers}) {
        const int64_t padding = layers > 0 ? (k.group_size - layers % k.group_size) % k.group_size : 0;
        if (padding > 0)
            add(out, LogKind::warning,
                "Add " + std::to_string(padding) + " padding layers, may waste at most " +
                    format_fixed(100.0 * static_cast<double>(padding) / static_cast<double>(layers), 2) + "% KV cache memory");
    }
}

// --kv-offloading-size: the connector the engine creates once the pool is sized (vLLM's
// kv_connector/factory.py; the engine_id is a fresh uuid4 per start, this one stands in for it), and
// what the CPU tier holds, which the engine does not print.
void log_offload(const Result& r, std::vector<LogLine>& out) {
    const CpuOffload& o = r.memory.offload;
    if (!o.on) return;
    add(out, LogKind::info, "Creating v1 connector with name: OffloadingConnector and engine_id: 5f0c2a9e-1d4b-4c8e-9a67-3b2f8d1e7c40");
    add(out, LogKind::lesson,
        "CPU tier: " + format_count(o.cpu_tokens) + " tokens in " + format_gib(o.cpu_bytes, 1) + " of pinned memory, beside " +
            format_count(r.memory.kv_cache_tokens) + " on the GPU; a block's " + format_bytes(o.block_bytes_per_rank) +
            " per GPU come back over " + r.gpu.host_link + " in " + format_duration(o.load_s_per_block) + ".");
}

// The start-up lines the engine prints, in its own formats for the version.
void log_startup(const Result& r, std::vector<LogLine>& out) {
    const MemoryPlan& m = r.memory;
    const EngineRules& rules = r.rules;
    const std::string max_len = std::to_string(*r.scenario.max_model_len);
    if (!rules.v1_engine) {
        if (r.scenario.enable_lora && rules.lora_in_profile) add(out, LogKind::info, "Using PunicaWrapperGPU.");
        add(out, LogKind::info, "Loading model weights took " + gib(m.weight_bytes, 4) + " GB");
        if (r.scenario.enable_lora && !rules.lora_in_profile) add(out, LogKind::info, "Using PunicaWrapperGPU.");
        add(out, LogKind::info,
            "Memory profiling results: total_gpu_memory=" + gib(m.visible_bytes, 2) +
                "GiB peak_torch_memory=" + gib(m.weight_bytes + m.activation_peak_bytes, 2) +
                "GiB non_torch_memory=" + gib(m.non_torch_bytes, 2) + "GiB kv_cache_size=" + gib(m.available_kv_bytes, 2) +
                "GiB gpu_memory_utilization=" + format_fixed(*r.scenario.gpu_memory_utilization, 2));
        if (m.startup_error && m.startup_error->kind != RefusalKind::max_model_len_does_not_fit) return;
        add(out, LogKind::info,
            "# GPU blocks: " + std::to_string(m.num_gpu_blocks) + ", # CPU blocks: " + std::to_string(m.cpu_swap_blocks));
        add(out, LogKind::info, "Maximum concurrency for " + max_len + " tokens per request: " + concurrency(m.max_concurrency));
        return;
    }
    log_state_pages(m.layout, out);
    // LoRA's wrapper is set up inside the load's measurement from 0.8.0, so its line comes first.
    if (r.scenario.enable_lora) add(out, LogKind::info, "Using PunicaWrapperGPU.");
    // A drafter loads inside the same measurement (memory/speculative.hpp); n-gram lookup has none.
    if (m.drafter.runs_on_gpu) add(out, LogKind::info, "Loading drafter model...");
    // The V2 runner's line said "GiB and" for a while (engine_rules.hpp).
    const bool says_memory = rules.loading_log_says_memory && (!m.model_runner_v2 || rules.model_runner_v2_loading_log_says_memory);
    add(out, LogKind::info,
        "Model loading took " + gib(m.weight_bytes, rules.loading_log_says_memory ? 2 : 4) + (says_memory ? " GiB memory" : " GiB"));
    if (m.encoder.items > 0)
        add(out, LogKind::info,
            "Encoder cache will be initialized with a budget of " + std::to_string(m.encoder.budget_tokens) +
                " tokens, and profiled with " + std::to_string(m.encoder.items) + " image items of the maximum feature size.");
    if (m.kv_cache_memory_bytes_set) {
        log_reserved_kv_cache(r, out);
        if (m.startup_error) return;
    }
    if (m.cuda_graph_in_budget) add(out, LogKind::info, "Estimated CUDA graph memory: " + gib(m.cuda_graph_bytes, 2) + " GiB total");
    if (!m.kv_cache_memory_bytes_set) add(out, LogKind::info, "Available KV cache memory: " + gib(m.available_kv_bytes, 2) + " GiB");
    if (m.cuda_graph_in_budget && m.cuda_graph_bytes > 0) log_equivalent_utilization(r, out);
    if (m.startup_error) return;
    log_padding_layers(m.layout, out);
    const std::string size = "GPU KV cache size: " + format_count(m.kv_cache_tokens) + " tokens";
    const std::string most =
        "Maximum concurrency for " + format_count(*r.scenario.max_model_len) + " tokens per request: " + concurrency(m.max_concurrency);
    if (rules.combined_kv_capacity_line) {
        add(out, LogKind::info, size + ", " + most);
    } else {
        add(out, LogKind::info, size);
        add(out, LogKind::info, most);
    }
    log_offload(r, out);
}

// Data and expert parallelism: every engine prints the lines above for its own pool (the model's
// are data-parallel rank 0's, under its "(EngineCore_DP0 pid=...)" tag where the version tags them).
void log_parallelism(const Result& r, std::vector<LogLine>& out) {
    const Deployment& d = r.deployment;
    const ExpertPlacement experts = place_experts(r.model, r.scenario);
    if (d.engines > 1)
        add(out, LogKind::lesson,
            "data parallel: " + std::to_string(d.engines) + " engines (EngineCore_DP0 to EngineCore_DP" + std::to_string(d.engines - 1) +
                ") each profile their own GPUs and print these lines for their own pool; together " + format_count(d.kv_cache_tokens) +
                " tokens, " + format_count(d.max_resident_sequences) + " sequences of this length, on " + format_count(d.gpus) +
                " GPUs. Each engine is given " + format_count(d.requests_per_engine) + " of the " +
                format_count(r.scenario.concurrent_requests) + " requests.");
    if (experts.whole_experts)
        add(out, LogKind::lesson,
            "expert parallel: each GPU holds " + format_count(experts.experts_per_gpu) + " of the " + format_count(r.model.num_experts) +
                " routed experts whole (EP = tensor x data parallel = " + format_count(experts.gpus) +
                "); the attention and shared weights stay split by tensor parallelism alone.");
    else if (experts.gpus > r.scenario.tensor_parallel_size)
        add(out, LogKind::lesson,
            "the routed experts are split over all " + format_count(experts.gpus) + " GPUs of the engines (tensor x data parallel), 1/" +
                format_count(experts.gpus) + " of every expert each; --enable-expert-parallel would deal them out whole instead.");
}

void log_refusal(const Result& r, std::vector<LogLine>& out) {
    const MemoryPlan& m = r.memory;
    // Out-of-memory failures carry their own exception name; the checks raise ValueError.
    const std::string& message = m.startup_error->message;
    add(out, LogKind::failure, message.rfind("torch.", 0) == 0 ? message : "ValueError: " + message);
    const double starts_at = r.admission.min_utilization_that_fits;
    if (m.startup_error->kind == RefusalKind::max_model_len_does_not_fit || m.startup_error->kind == RefusalKind::no_kv_cache_memory) {
        std::string text = "the engine loads the weights (" + format_gib(m.weight_bytes, 1) + ") and profiles (" +
                           format_gib(m.activation_peak_bytes, 1) + " of activations, " + format_gib(m.non_torch_bytes, 2) +
                           " outside torch), then finds ";
        text += m.available_kv_bytes > 0
                    ? format_gib(m.available_kv_bytes, 2) + " for the cache where one " + format_count(*r.scenario.max_model_len) +
                          "-token request needs " + format_gib(m.request_kv_bytes, 2) + "."
                    : "nothing left for the cache.";
        if (m.estimated_max_model_len > 0) text += " max_model_len " + format_count(m.estimated_max_model_len) + " would start;";
        if (starts_at <= 1.0)
            text += " gpu_memory_utilization " + format_fixed(r.admission.min_utilization_setting, 2) + " would start it as is.";
        if (r.tensor_parallel_that_starts > 0)
            text += " tensor_parallel_size " + std::to_string(r.tensor_parallel_that_starts) + " would start it.";
        if (r.fp8_weights_start) text += " FP8 weights (--quantization fp8) would start it.";
        add(out, LogKind::lesson, text);
    }
}

void log_binding_limit(const Result& r, std::vector<LogLine>& out) {
    const Scenario& s = r.scenario;
    const std::string running = format_count(r.admission.running) + " running, " + format_count(r.admission.waiting) + " waiting";
    switch (r.admission.binding_limit) {
        case BindingLimit::concurrent_requests:
            add(out, LogKind::lesson,
                running + ": every request is admitted; the pool could hold " + format_count(r.admission.max_resident_sequences) +
                    (r.admission.max_resident_sequences == 1 ? " sequence" : " sequences") + " of this length.");
            break;
        case BindingLimit::kv_pool:
            add(out, LogKind::lesson,
                running + ": the KV pool is the limit (" + format_count(r.admission.max_resident_sequences) +
                    (r.admission.max_resident_sequences == 1 ? " sequence of " : " sequences of ") +
                    format_bytes(r.admission.bytes_per_sequence) + "). Lowering max_num_seqs would not admit one more.");
            break;
        case BindingLimit::max_num_seqs:
            add(out, LogKind::lesson,
                running + ": max_num_seqs (" + format_count(*s.max_num_seqs) + ") is the limit, below the " +
                    format_count(r.admission.max_resident_sequences) +
                    " sequences the pool holds: batching already paid for is left unused.");
            break;
        case BindingLimit::none:
            break;
    }
}

// The engine's config line (data_parallel_size named only when there are several engines), what
// the config makes it say, and the config.json keys that look like typos.
void log_config(const Result& r, std::vector<LogLine>& out) {
    const Scenario& s = r.scenario;
    const std::string version = (r.rules.v1_engine ? "V1 LLM engine (v" : "LLM engine (v") + s.vllm_version + ")";
    add(out, LogKind::info,
        "Initializing a " + version + " with config: model=" + r.model.name + ", max_seq_len=" + std::to_string(*s.max_model_len) +
            ", tensor_parallel_size=" + std::to_string(s.tensor_parallel_size) +
            ", pipeline_parallel_size=" + std::to_string(s.pipeline_parallel_size) +
            (s.data_parallel_size > 1 ? ", data_parallel_size=" + std::to_string(s.data_parallel_size) : std::string()) +
            ", kv_cache_dtype=" + (s.kv_cache_dtype == DType::fp8 ? "fp8" : "auto") +
            ", enforce_eager=" + (s.enforce_eager ? "True" : "False"));
    // Upstream's ParallelConfig before 0.8.3 (engine_rules.hpp).
    if (s.tensor_parallel_size > 1 && r.rules.custom_allreduce && !custom_allreduce_on(r.rules, r.gpu.vendor) &&
        !s.disable_custom_all_reduce)
        add(out, LogKind::info, "Disabled the custom all-reduce kernel because it is not supported on AMD GPUs.");
    for (const auto& [typed, meant] : r.model.suspicious_keys)
        add(out, LogKind::warning,
            "config.json key \"" + typed + "\" is unknown and one edit from \"" + meant + "\": a typo? It was ignored.");
}

}  // namespace

std::vector<LogLine> engine_log(const Result& r) {
    std::vector<LogLine> out;
    const Scenario& s = r.scenario;
    const MemoryPlan& m = r.memory;
    const int64_t request_tokens = s.prompt_tokens + s.output_tokens;
    log_config(r, out);
    // A refusal before the cache is sized prints none of the memory lines.
    if (!m.startup_error || m.startup_error->stage == RefusalStage::cache) log_startup(r, out);
    if (!m.startup_error) log_parallelism(r, out);
    if (m.startup_error) {
        log_refusal(r, out);
        return out;
    }
    if (!m.cuda_graph_in_budget && !s.enforce_eager && m.cuda_graph_bytes > r.admission.outside_budget_bytes)
        add(out, LogKind::warning,
            "CUDA graphs need about " + format_gib(m.cuda_graph_bytes, 2) + " outside the budget but only " +
                format_gib(r.admission.outside_budget_bytes, 2) +
                " is left there: capture may run out of memory (lower gpu_memory_utilization or use enforce_eager).");
    if (r.status == Status::request_too_long) {
        add(out, LogKind::failure,
            "a " + format_count(request_tokens) + "-token request exceeds max_model_len (" + format_count(*s.max_model_len) +
                "): the server rejects it (HTTP 400).");
        return out;
    }
    add(out, LogKind::info,
        std::string(r.rules.v1_engine ? "Engine 000: " : "") +
            "Avg prompt throughput: " + format_fixed(r.steps.serving.prompt_tokens_per_s, 1) +
            " tokens/s, Avg generation throughput: " + format_fixed(r.steps.serving.generation_tokens_per_s, 1) +
            " tokens/s, Running: " + std::to_string(r.admission.running) + " reqs, Waiting: " + std::to_string(r.admission.waiting) +
            " reqs, GPU KV cache usage: " + format_fixed(r.admission.kv_cache_usage * 100.0, 1) + "%, Prefix cache hit rate: 0.0%");
    log_binding_limit(r, out);
    add(out, LogKind::lesson,
        "concurrency ceiling for " + format_count(request_tokens) + "-token requests: " + format_count(r.admission.max_resident_sequences) +
            " (the boot line divides by max_model_len " + format_count(*s.max_model_len) + " instead).");
    add(out, LogKind::lesson,
        "weight share of the decode step: " + format_percent(r.steps.weight_share, 0) + " of " + format_bytes(r.steps.decode.bytes) +
            " moved per step; each running sequence adds " + format_bytes(r.admission.bytes_per_sequence) + ".");
    add(out, LogKind::lesson,
        std::string("prefill is ") + bound_name(r.steps.prefill.bound) + "-bound (TTFT " + format_duration(r.steps.prefill.total_s) +
            "); decode is " + bound_name(r.steps.decode.bound) + "-bound (step " + format_duration(r.steps.decode.total_s) +
            ", tensor pipe " + format_percent(r.steps.tensor_active, 1) + " active).");
    if (m.layout.kv_heads_replicated)
        add(out, LogKind::warning,
            "tensor_parallel_size " + std::to_string(s.tensor_parallel_size) + " exceeds the " +
                std::to_string(r.model.num_key_value_heads) +
                " KV heads: each rank keeps a replicated head, so the cache stops shrinking per rank.");
    return out;
}

}  // namespace kv
