#include "memory/memory_plan.hpp"
#include "memory/lora.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/format.hpp"
#include "base/units.hpp"
#include "engine/model_runner.hpp"
#include "memory/parallelism.hpp"
#include "memory/weight_bytes.hpp"

namespace kv {

const char* refusal_kind_name(RefusalKind kind) {
    static const char* const names[] = {"max_model_len_too_long",    "tensor_parallel_mismatch",  "pipeline_parallel_mismatch",
                                        "quantization_mismatch",     "free_memory_below_request", "weights_do_not_fit",
                                        "profile_out_of_memory",     "no_kv_cache_memory",        "max_model_len_does_not_fit",
                                        "out_of_memory_after_sizing"};
    return names[static_cast<int>(kind)];
}
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
double to_d(int64_t v) { return static_cast<double>(v); }

bool is_mla(const ModelSpec& m) { return m.attention == AttentionKind::mla; }

// Pipeline stages as vLLM's get_pp_indices splits the layers: evenly, with the remainder going to
// the stages before the last.
std::vector<int64_t> stage_layers(int64_t layers, int64_t pp) {
    std::vector<int64_t> out(static_cast<size_t>(pp), layers / pp);
    const int64_t extra = layers % pp;
    for (int64_t i = 0; i < extra; ++i) out[static_cast<size_t>(pp - 2 - i)] += 1;
    return out;
}

struct Stage {
    int64_t layers = 0;
    bool first = true, last = true;
};

// The first stage's embedding, unless the same matrix is its lm_head: VocabParallelEmbedding's
// forward is F.embedding, a gather of the step's tokens' rows, never a read of the table.
double gathered_table_bytes(const ModelSpec& m, const Scenario& s, const Stage& st) {
    return st.first && !(m.tie_word_embeddings && st.last) ? vocab_table_bytes(m, s) : 0.0;
}

double weights_of_stage(const ModelSpec& m, const Scenario& s, const Stage& st, const KvLayout& layout) {
    const ParameterCount p = count_parameters(m);
    const double tp = to_d(s.tensor_parallel_size);
    const double layer_share = to_d(st.layers) / to_d(m.num_hidden_layers);
    const double linear = linear_bytes_per_param(m, s.weight_dtype, false);

    // Attention: K and V of a replicated head are held whole by every rank that uses it.
    double attention_per_rank = to_d(p.attention) / tp;
    if (!is_mla(m) && m.num_key_value_heads > 0) {
        const double kv_params = to_d(num_kv_cache_layers(m)) * 2.0 * to_d(m.hidden_size * kv_width(m));
        attention_per_rank += kv_params * (to_d(layout.kv_heads_per_rank) / to_d(m.num_key_value_heads) - 1.0 / tp);
    }
    // Everything but the routed experts is split by tensor parallelism alone and whole in every
    // data-parallel engine, except latent experts' projections, which every rank holds whole
    // (ReplicatedLinear: fc2 from PR #30203, fc1 from PR #31807; 0.13's fc1 split by tensor
    // parallelism is not modelled).
    double bytes = layer_share * (attention_per_rank * linear + to_d(p.dense_mlp) / tp * linear + to_d(p.shared_and_router) / tp * linear +
                                  to_d(p.latent_projections) * linear + to_d(p.norms) * 2.0) +
                   routed_expert_bytes(m, s, st.layers);
    const double table = vocab_table_bytes(m, s);
    if (st.first) bytes += table + vision_weight_bytes(m, s.tensor_parallel_size);  // the vision tower, if any
    if (st.last && (!m.tie_word_embeddings || !st.first)) bytes += table;
    return bytes;
}

// Whether a dense model's MLP keeps gate_up bound through down_proj in V0: Qwen2's does (Qwen3 shares
// it) and Gemma's; Llama's rebinds it from PR #10339 (2024-11-14, in 0.6.4, whose gh10517 start-ups
// grow by the rebinding's bytes) and kept it before. Other dense models are read as Llama's.
bool mlp_keeps_gate_up(const ModelSpec& m, const EngineRules& rules) {
    for (const char* type : {"qwen2", "qwen3", "gemma", "gemma2", "gemma3", "gemma3_text"})
        if (m.model_type == type) return true;
    return !rules.llama_mlp_rebinds_gate_up;
}

// V0's eager forward pass of a dense model, in elements per token, from the tensors alive at its
// peak (vLLM's llama.py and qwen2.py, read at 0.7.2 and 0.8.4): inside a middle layer's MLP, the
// previous layer's output (the model's loop still holds it), the residual (the fused add-norm works
// in place), the attention block's output (the MLP's argument), gate_up, the activation and
// down_proj's output. Where the MLP rebinds gate_up its peak is the larger of the activation's
// moment and down_proj's. From PR #10121 (0.6.5) every tensor-parallel all-reduce returns a new
// tensor (pynccl's torch.empty_like for the profile's large ones): one more hidden-width tensor at
// tp > 1. It gives the 110,592 bytes a token by which gh10517's logged peak grows for Llama-3.1-8B.
double v0_dense_forward_width(const ModelSpec& m, const Scenario& s, const EngineRules& rules) {
    const double tp = to_d(s.tensor_parallel_size), hidden = to_d(m.hidden_size);
    const double activation = to_d(m.intermediate_size) / tp, gate_up = (m.gated_mlp ? 2.0 : 1.0) * activation;
    const double reduced_copy = s.tensor_parallel_size > 1 && rules.out_of_place_all_reduce ? hidden : 0.0;
    const bool keeps_gate_up = mlp_keeps_gate_up(m, rules);
    const double at_down_proj = 4.0 * hidden + activation + (keeps_gate_up ? gate_up : 0.0) + reduced_copy;
    return std::max(3.0 * hidden + gate_up + activation, at_down_proj);
}

// One engine's profile run. Data and expert parallelism are left out: the MoE's widths stay those
// of tensor parallelism alone (without expert parallel the TP x DP slices are narrower, but the
// MoE layer gathers every engine's tokens; with it, whole experts see only the tokens routed to them).
double activation_peak(const ModelSpec& m, const Scenario& s, const GpuSpec& gpu, const Stage& st, int64_t tokens, int64_t rows,
                       const EngineRules& rules, const Calibration& c) {
    const double tp = to_d(s.tensor_parallel_size);
    double mlp_width = 0;
    if (m.num_experts > 0) {
        mlp_width = to_d(m.experts_per_token * m.moe_intermediate_size + m.shared_expert_intermediate_size) / tp;
        if (m.num_dense_layers > 0) mlp_width = std::max(mlp_width, to_d(m.intermediate_size) / tp);
    } else {
        mlp_width = to_d(m.intermediate_size) / tp;
    }
    const double qkv_width = is_mla(m) ? to_d(m.num_attention_heads) / tp * to_d(m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim) +
                                             to_d(m.kv_lora_rank + m.qk_rope_head_dim)
                                       : to_d(query_width(m) + 2 * kv_width(m)) / tp;
    const double element = to_d(c.activation_bytes_per_element);
    // An MLP without a gate (Nemotron-H) keeps two of the three intermediate-width tensors.
    const double mlp_share = m.gated_mlp ? 1.0 : 2.0 / 3.0;
    // V0 on a dense model from its code; otherwise buffers counted per width (calibration.hpp).
    const bool v0_dense = !rules.v1_engine && m.num_experts == 0 && !is_mla(m) && m.num_linear_layers == 0;
    const double width = v0_dense ? v0_dense_forward_width(m, s, rules)
                                  : (rules.v1_engine ? c.v1_forward_scale : 1.0) *
                                        (c.forward_hidden_buffers * to_d(m.hidden_size) + c.forward_mlp_buffers * mlp_share * mlp_width +
                                         c.forward_qkv_buffers * qkv_width);
    const double forward = to_d(tokens) * element * width;
    if (!st.last) return forward;
    // The sampler runs with the forward pass's hidden states still alive, sorting for top-k/top-p
    // in V0 and in V1's older profile on large devices (calibration.hpp).
    const double per_logit =
        !rules.v1_engine || (!rules.newer_profile && large_device(gpu)) ? c.sorting_sampler_bytes_per_logit : c.sampler_bytes_per_logit;
    // An MoE's fused-kernel workspace is still allocated then only where the engine keeps it: the
    // modular kernel's persistent buffers, which serve the unquantized MoE from 0.14 (vLLM PR
    // #31052, the workspace manager of v1/worker/workspace.py) and expert parallelism's all-to-all
    // path before that. Older plain fused_experts() calls allocate their caches per layer
    // (fused_moe.py's torch.empty) and free them before the sampler runs. Not modelled: before
    // 0.14 some FP8 MoE backends (DeepGEMM, CUTLASS) ran through the modular kernel without expert
    // parallelism and so kept its buffers too; no start-up of the validation set runs one, so
    // nothing checks it.
    const bool workspace_persists = rules.newer_profile || s.enable_expert_parallel;
    const double moe_workspace =
        m.num_experts > 0 && workspace_persists
            ? to_d(tokens) * to_d(m.experts_per_token) * element * c.moe_workspace_buffers *
                  (3.0 * mlp_share * to_d(m.moe_intermediate_size) / tp + to_d(m.moe_latent_size > 0 ? m.moe_latent_size : m.hidden_size))
            : 0.0;
    const double sampler = to_d(rows) * to_d(m.vocab_size) * per_logit + to_d(tokens) * to_d(m.hidden_size) * element + moe_workspace;
    return std::max(forward, sampler);
}

// The first stage encodes the profile run's images before its text pass (memory/multimodal.hpp):
// the tower's pass, or the text pass beside what the encoding left held, whichever is larger.
double profile_peak(const ModelSpec& m, const Scenario& s, const GpuSpec& gpu, const Stage& st, const MemoryPlan& plan,
                    const EngineRules& rules, const Calibration& c) {
    const double text = activation_peak(m, s, gpu, st, plan.profile_tokens, plan.profile_rows, rules, c);
    if (!st.first || plan.encoder.items == 0) return text;
    return std::max(text + plan.encoder.held_bytes, plan.encoder.forward_peak_bytes);
}

// vLLM's HybridAttentionMambaModelConfig (vllm/model_executor/models/config.py): one page of the pool
// holds one layer's state for one request, so the attention block grows to the smallest multiple of
// 16 tokens (FlashAttention's block multiple) whose page is at least the state; the state's page is
// then padded to the attention page. With prefix caching off, the default for hybrid models, a
// request holds one state page per linear-attention layer (MambaSpec.max_memory_usage_bytes, cache
// mode "none"). A block_size set larger stays.
void raise_block_for_state(KvLayout& k, const ModelSpec& m, const Scenario& s, const Stage& st, const EngineRules& rules) {
    constexpr int64_t alignment = 16;
    k.linear_layers = m.num_linear_layers * st.layers / m.num_hidden_layers;
    constexpr int64_t model_dtype_bytes = 2;
    int64_t ssm_bytes = model_dtype_bytes;
    if (s.mamba_ssm_cache_dtype != "auto") {
        ssm_bytes = s.mamba_ssm_cache_dtype == "float32" ? 4 : 2;
    } else if (m.model_type == "nemotron_h" && rules.nemotron_h_ssm_fallback_bytes > 0) {
        // Only "auto" is replaced, so the engine logs the update only then.
        k.ssm_state_updated_bytes = m.mamba_ssm_config_bytes > 0 ? m.mamba_ssm_config_bytes : rules.nemotron_h_ssm_fallback_bytes;
        ssm_bytes = k.ssm_state_updated_bytes;
    }
    k.linear_state_bytes = linear_state_bytes(m, s.tensor_parallel_size, ssm_bytes);
    const auto tokens = static_cast<int64_t>(std::ceil(k.linear_state_bytes / (to_d(alignment) * k.bytes_per_token_per_layer)));
    const int64_t needed = alignment * tokens;
    if (!s.block_size || *s.block_size < needed) {
        k.block_size = needed;
        k.block_size_raised = true;
    }
}

KvLayout layout_of(const ModelSpec& m, const Scenario& s, const ResolvedLimits& limits, const EngineRules& rules, const Stage& st,
                   int64_t draft_layers) {
    KvLayout k;
    k.block_size = limits.block_size;
    const int64_t tp = s.tensor_parallel_size;
    const int dtype = bytes_per_element(s.kv_cache_dtype);
    if (is_mla(m) && rules.mla_attention) {
        k.bytes_per_token_per_layer = to_d((m.kv_lora_rank + m.qk_rope_head_dim) * dtype);
    } else if (is_mla(m)) {  // before MLA's kernels: each head's key and value, the value padded to the key's width
        k.kv_heads_per_rank = std::max<int64_t>(1, m.num_attention_heads / tp);
        k.bytes_per_token_per_layer = to_d(2 * k.kv_heads_per_rank * (m.qk_nope_head_dim + m.qk_rope_head_dim) * dtype);
    } else {
        k.kv_heads_per_rank = std::max<int64_t>(1, m.num_key_value_heads / tp);
        k.kv_heads_replicated = tp > m.num_key_value_heads;
        k.bytes_per_token_per_layer = to_d(2 * k.kv_heads_per_rank * m.head_dim * dtype);
    }
    // Sliding-window (and linear-attention) layers keep their share on every stage.
    k.layers = num_kv_cache_layers(m) * st.layers / m.num_hidden_layers;
    k.sliding_layers = m.num_sliding_layers * st.layers / m.num_hidden_layers;
    // A drafter runs after the last layer, on the last stage; its layers are full attention.
    if (st.last) k.draft_layers = draft_layers;
    k.layers += k.draft_layers;
    k.kv_bytes_per_token = k.bytes_per_token_per_layer * to_d(k.layers);
    const bool hybrid_allocator = rules.v1_engine && rules.hybrid_kv_allocator;
    if (hybrid_allocator && m.num_linear_layers > 0) raise_block_for_state(k, m, s, st, rules);
    k.page_bytes = k.bytes_per_token_per_layer * to_d(k.block_size);

    const int64_t full = k.layers - k.sliding_layers, other = k.sliding_layers + k.linear_layers;
    if (!hybrid_allocator || full == 0 || other == 0 || (k.sliding_layers > 0 && k.linear_layers > 0)) {
        k.group_size = k.layers;
        k.num_groups = 1;
        k.linear_layers = 0;
        return k;
    }
    // kv_cache_utils: groups of equal layer counts, the smaller type's count as the group size
    // unless the two counts are within 1.5x of each other.
    const int64_t lo = std::min(full, other), hi = std::max(full, other);
    k.group_size = to_d(hi) < to_d(lo) * 1.5 ? hi : lo;
    k.linear_groups = ceil_div(k.linear_layers, k.group_size);
    k.num_groups = ceil_div(full, k.group_size) + ceil_div(k.sliding_layers, k.group_size) + k.linear_groups;
    k.padding_layers = k.num_groups * k.group_size - k.layers - k.linear_layers;
    return k;
}

// A drafter's weights on the last stage's rank (memory/speculative.hpp): what it adds beside the
// model's (a shared embedding or lm_head is not loaded again) and what one of its passes reads
// (its layers, its fc and whichever lm_head it scores with).
struct DrafterWeights {
    double added = 0, per_pass = 0;
};
// A draft model's layers are counted in the model's layer widths: vLLM grows the narrower pages'
// blocks until they match, which costs the same bytes per token.
DrafterWeights drafter_weights(Drafter& d, const ModelSpec& m, const Scenario& s, const ResolvedLimits& lim, const EngineRules& rules) {
    if (!d.runs_on_gpu) return {};
    const Stage body{d.model.num_hidden_layers, false, false};
    const KvLayout own = layout_of(d.model, s, lim, rules, body, 0);
    if (d.method == SpecMethod::draft_model) {
        const double model_width = layout_of(m, s, lim, rules, Stage{m.num_hidden_layers, true, true}, 0).bytes_per_token_per_layer;
        d.kv_layers = static_cast<int64_t>(std::ceil(to_d(own.layers) * own.bytes_per_token_per_layer / model_width));
    }
    const double layers = weights_of_stage(d.model, s, body, own);
    const double fc = d.fc_params * 2.0;  // 16-bit, replicated
    const double table = vocab_table_bytes(d.model, s);
    const bool separate_head = d.own_lm_head && !(d.own_embedding && d.model.tie_word_embeddings);
    return {layers + fc + (d.own_embedding ? table : 0.0) + (separate_head ? table : 0.0), layers + fc + table};
}

// The tokens beyond its window a sliding-window layer holds for one request while sizing the pool
// (engine_rules.hpp, sliding_window_counts_batches_in_flight).
int64_t in_flight_tokens(const EngineRules& rules, const Scenario& s, const ResolvedLimits& lim, bool model_runner_v2) {
    if (!rules.sliding_window_counts_batches_in_flight) return lim.max_num_batched_tokens;
    const int64_t pp = s.pipeline_parallel_size;
    const int64_t batches = !rules.async_scheduling ? pp : model_runner_v2 ? pp + 1 : pp <= 1 ? 2 : pp;
    return batches * lim.max_num_batched_tokens;
}

// The longest max_model_len whose request fits (the engine's binary search; none needed when
// max_model_len itself fits, as it does whenever the engine starts).
int64_t longest_fitting_len(const MemoryPlan& plan, const ModelSpec& m, int64_t in_flight) {
    const int64_t len = plan.limits.max_model_len;
    int64_t lo = plan.request_kv_bytes <= plan.available_kv_bytes ? len : 0, hi = len;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (request_kv_bytes(plan.layout, m, mid, in_flight) <= plan.available_kv_bytes) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// Memory outside torch: the CUDA context's growth, and with tensor parallelism NCCL's buffers. The
// newer profile's larger share is NCCL's NVLink SHARP (NVLS) buffers, which GPUs joined by PCIe
// alone never allocate (calibration.hpp).
double non_torch_bytes(const Scenario& s, const GpuSpec& gpu, const EngineRules& rules, const Calibration& c) {
    if (s.tensor_parallel_size <= 1) return c.non_torch_bytes;
    return c.non_torch_bytes + (rules.newer_profile && gpu.interconnect != "pcie" ? c.non_torch_tensor_parallel_bytes
                                                                                  : c.non_torch_tensor_parallel_bytes_before_newer_profile);
}

}  // namespace

double request_kv_bytes(const KvLayout& k, const ModelSpec& m, int64_t tokens, int64_t tokens_in_flight) {
    const int64_t full_blocks = ceil_div(tokens, k.block_size);
    int64_t sliding_blocks = full_blocks;
    if (m.sliding_window > 0) sliding_blocks = ceil_div(std::min(m.sliding_window - 1 + tokens_in_flight, tokens), k.block_size) + 1;
    const int64_t full_layers = k.layers - k.sliding_layers;
    if (k.num_groups == 1) {
        // One group: every layer needs the same blocks (a window-only model needs only its window).
        const int64_t blocks = k.sliding_layers == k.layers ? sliding_blocks : full_blocks;
        return to_d(blocks) * k.page_bytes * to_d(k.layers);
    }
    const int64_t full_groups = ceil_div(full_layers, k.group_size);
    const int64_t sliding_groups = k.num_groups - full_groups - k.linear_groups;
    return to_d(k.group_size) * k.page_bytes * to_d(full_groups * full_blocks + sliding_groups * sliding_blocks + k.linear_groups);
}

namespace {

// What the sized pool means for requests: its tokens, the engine's concurrency line, one
// max_model_len request's KV, V0's swap blocks, the CPU tier and the longest length that fits.
void size_requests(MemoryPlan& plan, const Scenario& s, const ModelSpec& m, const GpuSpec& gpu, const EngineRules& rules,
                   const Calibration& c) {
    const ResolvedLimits& lim = plan.limits;
    plan.limits.block_size = plan.layout.block_size;  // a hybrid model's block holds a state page
    const KvLayout& k = plan.layout;
    plan.kv_cache_tokens = plan.num_gpu_blocks / k.num_groups * k.block_size;
    const int64_t in_flight = in_flight_tokens(rules, s, lim, plan.model_runner_v2);
    plan.request_kv_bytes = request_kv_bytes(k, m, lim.max_model_len, in_flight);
    const double block_set_bytes = k.page_bytes * to_d(k.group_size);
    const double blocks_per_request = std::ceil(plan.request_kv_bytes / block_set_bytes);
    // Counted in blocks from the release of PR #17885's batch split (0.9.0).
    const bool from_blocks = rules.large_batch_devices == LargeBatchDevices::memory_not_a100;
    plan.max_concurrency =
        from_blocks ? to_d(plan.num_gpu_blocks) / blocks_per_request : to_d(plan.kv_cache_tokens) / to_d(lim.max_model_len);
    // Python's int() of the same double product.
    if (rules.kv_tokens_from_concurrency) plan.kv_cache_tokens = static_cast<int64_t>(plan.max_concurrency * to_d(lim.max_model_len));
    if (!rules.v1_engine) plan.cpu_swap_blocks = static_cast<int64_t>(4.0 * GiB / block_set_bytes);
    plan.offload = plan_offload(s, k, gpu, c);
    plan.estimated_max_model_len = longest_fitting_len(plan, m, in_flight);
}

}  // namespace

MemoryPlan plan_memory(const Scenario& s, const ModelSpec& m, const GpuSpec& gpu, const EngineRules& rules, const Calibration& c) {
    MemoryPlan plan;
    const ResolvedLimits& lim = plan.limits = resolve_limits(s, m, gpu, rules);
    plan.requested_bytes = (plan.visible_bytes = gpu.visible_memory_bytes) * lim.gpu_memory_utilization;
    plan.free_at_start_bytes = plan.visible_bytes - c.startup_context_bytes;
    plan.profile_tokens = lim.max_num_batched_tokens;
    plan.profile_rows = rules.v1_engine ? std::min(lim.max_num_seqs, lim.max_num_batched_tokens) : lim.max_num_seqs;
    plan.non_torch_bytes = non_torch_bytes(s, gpu, rules, c);
    // --kv-cache-memory-bytes: the worker returns the bytes before estimating anything (engine_rules.hpp).
    plan.kv_cache_memory_bytes_set = s.kv_cache_memory_bytes.has_value();
    plan.cuda_graph_in_budget = !plan.kv_cache_memory_bytes_set && cuda_graph_estimate_in_budget(rules, m, s.enforce_eager);
    plan.model_runner_v2 = runs_model_runner_v2(rules, m);
    const DrafterWeights drafter = drafter_weights(plan.drafter = make_drafter(s, m), m, s, lim, rules);
    plan.draft_pass_weight_bytes = drafter.per_pass;
    plan.encoder = encoder_profile(m, lim, rules, s.tensor_parallel_size, c);

    // Every pipeline stage is its own rank; the engine clamps all of them to the fewest blocks.
    const std::vector<int64_t> layers = stage_layers(m.num_hidden_layers, s.pipeline_parallel_size);
    bool have_plan = false;
    for (size_t i = 0; i < layers.size(); ++i) {
        const Stage st{layers[i], i == 0, i + 1 == layers.size()};
        const KvLayout layout = layout_of(m, s, lim, rules, st, plan.drafter.kv_layers);
        const double lora = lora_buffer_bytes(m, s, rules, st.layers, st.first, st.last);
        const double draft = st.last ? drafter.added : 0.0;
        const double weights = weights_of_stage(m, s, st, layout) + (rules.lora_in_profile ? lora : 0.0) + draft;
        const double peak = profile_peak(m, s, gpu, st, plan, rules, c);
        const double graphs = s.enforce_eager ? 0.0 : c.cuda_graph_fixed_bytes + c.cuda_graph_bytes_per_layer * to_d(st.layers);
        const double available = s.kv_cache_memory_bytes ? static_cast<double>(*s.kv_cache_memory_bytes)
                                                         : plan.requested_bytes - weights - peak - plan.non_torch_bytes -
                                                               (plan.cuda_graph_in_budget ? graphs : 0.0);
        const int64_t blocks = available <= 0 || layout.page_bytes <= 0
                                   ? 0
                                   : static_cast<int64_t>(std::floor(available / layout.page_bytes / to_d(layout.group_size)));
        if (!have_plan || blocks < plan.num_gpu_blocks) {
            have_plan = true;
            plan.layout = layout;
            plan.weight_bytes = weights;
            plan.lora_bytes = lora;
            plan.draft_weight_bytes = draft;
            plan.vision_weight_bytes = st.first ? vision_weight_bytes(m, s.tensor_parallel_size) : 0.0;
            plan.gathered_table_bytes = gathered_table_bytes(m, s, st);
            plan.expert_weight_bytes = routed_expert_bytes(m, s, st.layers);
            plan.activation_peak_bytes = peak;
            plan.cuda_graph_bytes = graphs;
            plan.available_kv_bytes = available;
            plan.num_gpu_blocks = blocks;
        }
    }
    size_requests(plan, s, m, gpu, rules, c);
    return plan;
}

}  // namespace kv
