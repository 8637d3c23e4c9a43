#include "time/step_time.hpp"

#include "memory/weight_bytes.hpp"
#include "time/step_costs.hpp"

#include <algorithm>
#include <cmath>

namespace kv {

const char* bound_name(Bound bound) {
    static const char* const names[] = {"memory", "compute", "none"};
    return names[static_cast<int>(bound)];
}

namespace {

// Attention FLOPs per (query token, context token) pair on one rank: per query head, QK^T over the
// key width and AV over the value width. MLA computes two ways (vllm/v1/attention/backends/mla/
// common.py): a decode attends over the latent itself, keys kv_lora_rank + qk_rope_head_dim wide and
// values kv_lora_rank; a prefill over keys and values decompressed to qk_nope + qk_rope_head_dim and
// v_head_dim per head, after kv_b_proj has decompressed the earlier chunks' latent again.
struct AttentionFlops {
    double decode_pair = 0;
    double prefill_pair = 0;
    double context_token = 0;  // per earlier-chunk token a prefill chunk reads (MLA's decompression)
};
AttentionFlops attention_flops(const StepEngine& r, int64_t tp) {
    const ModelSpec& m = r.model;
    const int64_t heads_per_rank = m.num_attention_heads / tp;  // the engine requires tp to divide them
    // Linear-attention layers attend over no context: their state update is per token and small.
    const double per_width = 2.0 * static_cast<double>(num_kv_cache_layers(m)) * static_cast<double>(heads_per_rank);
    if (m.attention != AttentionKind::mla) {
        const double pair = per_width * 2.0 * static_cast<double>(m.head_dim);
        return {pair, pair, 0.0};
    }
    if (!r.rules.mla_attention) {  // before 0.7.1: per-head keys and values (engine_rules.hpp), the values padded
        const double pair = per_width * 2.0 * static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim);
        return {pair, pair, 0.0};
    }
    const auto latent = static_cast<double>(m.kv_lora_rank), rope = static_cast<double>(m.qk_rope_head_dim);
    const auto nope = static_cast<double>(m.qk_nope_head_dim), value = static_cast<double>(m.v_head_dim);
    return {per_width * (2.0 * latent + rope), per_width * (nope + rope + value), per_width * latent * (nope + value)};
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The last count within `bound_s` of a step time that grows with the count, between `within` (a
// count taken as within) and `past` (one past it). The time grows nearly in proportion to the count
// over a few tokens, so a line through the two latest times (a guess and its neighbour) lands on the
// boundary in a few step times, where a bisection took about eleven; two guesses in a row that do
// not halve the range are followed by a halving, so it never takes much longer. Its answer is the
// bisection's wherever the time grows with the count.
struct CountTime {
    int64_t count;
    double time_s;
};
template <typename StepTime>
int64_t last_within(CountTime within, CountTime past, double bound_s, StepTime&& step_s) {
    CountTime from = within, to = past;  // the line the next guess is read from
    int slow_guesses = 0;
    const auto time = [&](int64_t count) {
        const CountTime tried{count, step_s(count)};
        from = to;
        to = tried;
        (tried.time_s > bound_s ? past : within) = tried;
    };
    while (past.count - within.count > 1) {
        const int64_t width = past.count - within.count;
        const int64_t middle = within.count + width / 2;  // a halving's guess
        auto guess = static_cast<double>(middle);
        if (slow_guesses < 2 && to.time_s != from.time_s)
            guess = static_cast<double>(from.count) +
                    (bound_s - from.time_s) / (to.time_s - from.time_s) * static_cast<double>(to.count - from.count);
        // max() first, with the bound on the left: a NaN guess (an unbounded step time) takes the bound.
        guess = std::min(std::max(static_cast<double>(within.count + 1), guess), static_cast<double>(past.count - 1));
        time(static_cast<int64_t>(guess));
        // A guess within is most often the last one within: its neighbour says so, and gives the
        // slope there for the next guess if not.
        if (to.time_s <= bound_s && within.count + 1 < past.count) time(within.count + 1);
        slow_guesses = 2 * (past.count - within.count) > width ? slow_guesses + 1 : 0;
    }
    return within.count;
}

// A kernel near the ridge waits on both its loads and its arithmetic: the p-norm of the two times,
// which is the plain roofline's max as p grows and their sum at p = 1.
double blended_roofline_s(double compute_s, double memory_s, double p) {
    const double longer = std::max(compute_s, memory_s), shorter = std::min(compute_s, memory_s);
    if (longer <= 0) return 0.0;
    if (shorter <= 0) return longer;  // what the formula gives, without its two pow() calls
    // The longer time's own term is exactly 1: one pow() call fewer, identical results.
    return longer * std::pow(1.0 + std::pow(shorter / longer, p), 1.0 / p);
}

// What the linear layers multiply in: FP8 for FP8 weights (--quantization fp8, or an FP8
// checkpoint), as vLLM's Fp8LinearMethod does on a GPU with FP8 tensor cores (CUTLASS's scaled_mm
// from capability 8.9, hipBLASLt's on MI300); step_costs.hpp's rates fall back to 16 bits on a GPU
// without them (Marlin dequantises), as every GPU does for AWQ, GPTQ and MXFP4 weights.
DType matmul_dtype(const StepEngine& r) {
    return r.scenario.weight_dtype == DType::fp8 || r.model.weight_format == WeightFormat::fp8 ? DType::fp8 : DType::bf16;
}

// The rate the linear layers' matmuls reach: a block-scaled checkpoint's blockwise FP8 kernels a
// measured share of the 16-bit rate (calibration.hpp), other weights their dtype's rate.
double matmul_flops_per_s(const StepEngine& r, const Calibration& c) {
    const bool blockwise = r.model.weight_block_size > 0 && r.gpu.fp8_flops_per_s > 0;
    return blockwise ? step_flops_per_s(r.gpu, DType::bf16, c) * c.block_fp8_matmul_share : step_flops_per_s(r.gpu, matmul_dtype(r), c);
}

// Before the fused MoE kernel a rank ran every token through each of its whole experts.
bool dense_experts(const StepEngine& r) { return r.model.num_experts > 0 && !r.rules.fused_moe; }

// Fraction of the experts a batch of `tokens` touches when each picks experts_per_token at random
// (all of them, for a rank that runs every token through each).
double experts_touched(const StepEngine& r, double tokens) {
    const ModelSpec& m = r.model;
    if (m.num_experts <= 0 || !r.rules.fused_moe) return 1.0;
    const double miss = 1.0 - static_cast<double>(m.experts_per_token) / static_cast<double>(m.num_experts);
    return 1.0 - std::pow(miss, tokens);
}

}  // namespace

double tokens_per_decode_step(const StepEngine& r) { return r.memory.drafter.acceptance_length; }

double model_kv_share(const KvLayout& k) {
    return k.layers > 0 ? static_cast<double>(k.layers - k.draft_layers) / static_cast<double>(k.layers) : 1.0;
}

StepLoad decode_load(const StepEngine& r, double sequences, int64_t context_tokens) {
    StepLoad load;
    load.decode_tokens = sequences;
    load.decode_context_tokens = sequences * static_cast<double>(context_tokens);
    load.decode_kv_bytes = sequences * request_kv_bytes(r.memory.layout, r.model, context_tokens, 1) * model_kv_share(r.memory.layout);
    return load;
}

void add_prefill(StepLoad& load, double tokens, int64_t prompt, int64_t chunk) {
    const auto chunks = static_cast<double>(ceil_div(prompt, chunk));
    load.prefill_tokens += tokens;
    load.prefill_sequences += tokens / static_cast<double>(prompt) * chunks;
    load.prefill_context_pairs += tokens * static_cast<double>(prompt) / 2.0;
    load.prefill_kv_read_tokens += tokens / static_cast<double>(prompt) * static_cast<double>(chunk) * chunks * (chunks - 1.0) / 2.0;
}

// A layer's fixed costs: kernel floors, and routing where it is a mixture of experts, with the
// fused kernel's alignment and grouped GEMM, which takes the longer of its per-expert floor and the
// time to read what it touches. Before the fused kernel a layer routed too (gate, softmax, top-k,
// renormalise, and a mask and weighted sum per expert: PR #2090's forward, quoted in vLLM issue
// #2459) and ran its experts as plain matmuls. A layer of one block (Nemotron-H: a mixer or an MLP
// alone) launches about half a layer's kernels.
double layer_floors_s(const StepEngine& r, bool graph, double tokens_per_pass, const Calibration& c) {
    const ModelSpec& m = r.model;
    const double layers = static_cast<double>(num_row_parallel_blocks(m)) / 2.0;
    double floors = layers * (graph ? c.layer_floor_graph_s : std::max(c.layer_floor_graph_s, c.layer_floor_eager_s));
    if (m.num_experts <= 0) return floors;
    const double moe_layers = static_cast<double>(num_mlp_layers(m) - m.num_dense_layers);
    floors += moe_layers * c.moe_layer_floor_s;
    // No alignment or grouped GEMM where the experts are plain matmuls.
    if (dense_experts(r)) return floors;
    const double share = experts_touched(r, tokens_per_pass);  // one pow() a step time, not two
    const double touched = share * static_cast<double>(m.num_experts);
    const double read_s = r.memory.expert_weight_bytes * share / moe_layers / step_bytes_per_s(r.gpu, c);
    floors += moe_layers * std::max(0.0, touched * c.moe_expert_floor_s - read_s);
    return floors;
}

namespace {

// V1 runs each attention or mixer layer's op eagerly unless the step replays a full graph (decodes
// alone, from 0.11.0): between two pieces of a PIECEWISE graph, or among a step's eager launches
// (past the largest graph, or --enforce-eager). V0 captures attention inside its decode graphs.
double eager_attention_s(const StepEngine& r, bool graph, bool decode_only, const Calibration& c) {
    if (!r.rules.v1_engine || (graph && decode_only && r.rules.full_decode_graphs)) return 0.0;
    const KvLayout& k = r.memory.layout;
    return static_cast<double>(k.layers - k.draft_layers + k.linear_layers) * c.piecewise_split_s;
}

}  // namespace

// A drafter's k passes after the model's, one token per decoding sequence each, on the drafter's
// share of the rank: the weights a pass reads and its layers' part of the cache. Prompt tokens go
// through the drafter too (its first pass), to give its layers their keys and values.
double draft_passes_s(const StepEngine& r, const StepLoad& load, const Calibration& c) {
    const Drafter& d = r.memory.drafter;
    const KvLayout& k = r.memory.layout;
    if (!d.runs_on_gpu || load.decode_tokens + load.prefill_tokens <= 0 || k.layers <= k.draft_layers) return 0.0;
    const auto passes = load.decode_tokens > 0 ? static_cast<double>(d.num_speculative_tokens) : 1.0;
    MemoryPlan share;
    share.weight_bytes = r.memory.draft_pass_weight_bytes;
    share.expert_weight_bytes = routed_expert_bytes(d.model, r.scenario, d.model.num_hidden_layers);
    StepLoad drafting = load;
    drafting.decode_tokens = load.decode_tokens * passes;
    drafting.decode_context_tokens = load.decode_context_tokens * passes;
    drafting.decode_kv_bytes =
        load.decode_kv_bytes * static_cast<double>(k.draft_layers) / static_cast<double>(k.layers - k.draft_layers) * passes;
    drafting.prefill_kv_read_tokens = 0;
    drafting.passes = passes;
    return time_step({r.scenario, d.model, r.gpu, share, r.rules}, drafting, c).gpu_s;
}

namespace {

// The routed experts' parameters one token runs through on a rank: its experts_per_token experts'
// share, or, before the fused kernel, all of the rank's whole experts.
double expert_params_per_token(const StepEngine& r) {
    const ParameterCount& params = r.parameters;
    return static_cast<double>(dense_experts(r) ? params.experts : params.routed_active) /
           static_cast<double>(r.scenario.tensor_parallel_size);
}

// The pass's matmul FLOPs: every weight's for each token but the vocabulary's matrix (vocab x
// hidden, the lm_head's or the embedding it is tied to), which computes logits only for the rows
// the step samples, one per sequence (each scored token of a decoding one): V1's logits_indices,
// V0's selected_token_indices. The embedding's lookup is a gather, no matmul.
double pass_matmul_flops(const StepEngine& r, const StepLoad& load, double tokens, double scored_per_decode) {
    const ParameterCount& params = r.parameters;
    const auto tp = static_cast<double>(r.scenario.tensor_parallel_size);
    const double sampled_rows = load.decode_tokens * scored_per_decode + load.prefill_sequences;
    const auto other_params = static_cast<double>(params.active() - params.routed_active - params.embedding - params.lm_head);
    return tokens * 2.0 * (other_params / tp + expert_params_per_token(r)) +
           sampled_rows * 2.0 * static_cast<double>(params.embedding) / tp;
}

// The weights one pass reads. A mixture of experts reads only the experts the pass's tokens route
// to (uniform routing) of those on this rank (with data or expert parallelism spread over more GPUs
// than the rest); the step is one engine's alone: other engines' tokens in the MoE layer, EP's
// all-to-all and DP's lockstep dummy steps are left out. The language model's passes never read a
// vision tower (the images' encoding is left out), nor an embedding it only gathers rows from.
double pass_weight_bytes(const StepEngine& r, double tokens_per_pass) {
    return r.memory.weight_bytes - r.memory.vision_weight_bytes - r.memory.gathered_table_bytes -
           r.memory.expert_weight_bytes * (1.0 - experts_touched(r, tokens_per_pass));
}

}  // namespace

PhaseTiming time_step(const StepEngine& r, const StepLoad& load, const Calibration& c) {
    const int64_t tp = r.scenario.tensor_parallel_size;
    // With speculative decoding a decoding sequence's pass scores its k drafted tokens too.
    const double scored_per_decode = 1.0 + static_cast<double>(r.memory.drafter.num_speculative_tokens);
    const double tokens = load.decode_tokens * scored_per_decode + load.prefill_tokens;
    const double passes = std::max(1.0, load.passes);
    const double weight_bytes = pass_weight_bytes(r, tokens / passes);
    PhaseTiming phase;
    const AttentionFlops attention = attention_flops(r, tp);
    // The pass runs its kernels one after another: the matmuls (weights in, activations through)
    // and attention (the cache in) each take the longer of their own FLOPs and bytes, so one kind's
    // reads do not hide under the other's arithmetic.
    const double matmul_flops = pass_matmul_flops(r, load, tokens, scored_per_decode);
    const double attention_flops_total = attention.decode_pair * load.decode_context_tokens * scored_per_decode +
                                         attention.prefill_pair * load.prefill_context_pairs +
                                         attention.context_token * load.prefill_kv_read_tokens;
    const double matmul_bytes = passes * weight_bytes;
    const double prefill_kv_bytes = (load.prefill_tokens + load.prefill_kv_read_tokens) * r.memory.layout.kv_bytes_per_token;
    // A decoding sequence's linear-attention state is read with its pages (decode_kv_bytes) and
    // written back whole: the recurrent update rewrites every element each step.
    const double state_write_bytes =
        load.decode_tokens * static_cast<double>(r.memory.layout.linear_layers) * r.memory.layout.linear_state_bytes;
    phase.flops = matmul_flops + attention_flops_total;
    phase.bytes = matmul_bytes + load.decode_kv_bytes + state_write_bytes + prefill_kv_bytes;
    const double matmul_rate = matmul_flops_per_s(r, c);
    const double attention_rate = step_flops_per_s(r.gpu, DType::bf16, c);  // attention computes in 16 bits
    // The routed experts' grouped GEMM reaches a smaller share of the tensor cores than the dense ones
    // (before the fused kernel, a rank's experts were plain matmuls).
    const double expert_flops = dense_experts(r) ? 0.0 : tokens * 2.0 * expert_params_per_token(r);
    const double matmul_compute_s =
        (matmul_flops - expert_flops) / matmul_rate + expert_flops / (matmul_rate * c.moe_grouped_gemm_efficiency);
    const double attention_compute_s = attention_flops_total / attention_rate;
    const double matmul_memory_s = matmul_bytes / step_bytes_per_s(r.gpu, c);
    const double attention_memory_s = (prefill_kv_bytes + state_write_bytes) / step_bytes_per_s(r.gpu, c) +
                                      load.decode_kv_bytes / attention_read_bytes_per_s(r.gpu, r.scenario.kv_cache_dtype, c);
    phase.compute_s = matmul_compute_s + attention_compute_s;
    phase.memory_s = matmul_memory_s + attention_memory_s;
    phase.matmul_s = blended_roofline_s(matmul_compute_s, matmul_memory_s, c.matmul_roofline_exponent);
    phase.attention_s = std::max(attention_compute_s, attention_memory_s);
    const bool decode_only = load.prefill_tokens == 0;
    const bool graph = runs_in_cuda_graph(r.rules, r.scenario, tokens / passes, decode_only);
    phase.kernel_s = passes * (layer_floors_s(r, graph, tokens / passes, c) + eager_attention_s(r, graph, decode_only, c));
    const double message_bytes = tokens / passes * static_cast<double>(r.model.hidden_size) * c.activation_bytes_per_element;
    const double allreduces = static_cast<double>(num_row_parallel_blocks(r.model)) + 2.0;
    phase.communication_s = passes * allreduces * allreduce_s(message_bytes, tp, r.gpu, r.rules, r.scenario, c);
    phase.draft_s = draft_passes_s(r, load, c);
    phase.gpu_s = phase.matmul_s + phase.attention_s + phase.kernel_s + phase.communication_s + phase.draft_s;
    phase.host_s = passes * host_step_s(r.rules, r.scenario, load.decode_tokens + load.prefill_sequences / passes, c);
    phase.total_s = r.rules.async_scheduling ? std::max(phase.gpu_s, phase.host_s) : phase.gpu_s + phase.host_s;
    phase.bound = phase.compute_s > phase.memory_s ? Bound::compute : Bound::memory;
    phase.arithmetic_intensity = phase.bytes > 0 ? phase.flops / phase.bytes : 0.0;
    return phase;
}

StepTimes time_steps(const StepEngine& r, const Admission& a, bool started, const Calibration& c) {
    StepTimes t;
    const Scenario& s = r.scenario;
    t.achieved_bytes_per_s = step_bytes_per_s(r.gpu, c);
    t.achieved_flops_per_s = matmul_flops_per_s(r, c);
    t.peak_flops_per_s = peak_flops_per_s(r.gpu, matmul_dtype(r));
    t.ridge_flops_per_byte = t.achieved_flops_per_s / t.achieved_bytes_per_s;

    // Prefill one prompt; a prompt longer than max_num_batched_tokens runs in chunks, each of which
    // reads the weights again.
    if (started) {
        const int64_t step_tokens = *s.max_num_batched_tokens;
        StepLoad load;
        add_prefill(load, static_cast<double>(s.prompt_tokens), s.prompt_tokens, step_tokens);
        load.passes = static_cast<double>(ceil_div(s.prompt_tokens, step_tokens));
        t.prefill = time_step(r, load, c);
    }

    if (a.running == 0) return t;
    const auto running = static_cast<double>(a.running);
    t.decode = time_step(r, decode_load(r, running, s.prompt_tokens + s.output_tokens), c);
    t.itl_s = t.decode.total_s / tokens_per_decode_step(r);
    t.decode_tokens_per_s = running * tokens_per_decode_step(r) / t.decode.total_s;
    const double step_weight_bytes = t.decode.bytes - running * a.bytes_per_sequence;
    t.weight_share = step_weight_bytes / t.decode.bytes;
    t.dram_active = t.decode.bytes / (t.decode.total_s * r.gpu.hbm_bytes_per_s);
    t.tensor_active = t.decode.flops / (t.decode.total_s * t.peak_flops_per_s);
    t.gpu_utilization = 1.0;  // some kernel is resident for the whole step

    // Chunked prefill: prefill tokens folded into this step cost FLOPs (and their KV writes) but no
    // extra weight read, so a slice rides on a read the step pays anyway: the largest slice that
    // lengthens the step by at most a tenth.
    t.chunk_budget_tokens = std::max<int64_t>(0, *s.max_num_batched_tokens - a.running);
    t.step_with_full_chunk_s = decode_step_with_chunk_s(r, a.running, t.chunk_budget_tokens, c);
    const double bound_s = free_prefill_step_growth * t.decode.total_s;
    t.free_prefill_tokens = t.step_with_full_chunk_s <= bound_s
                                ? t.chunk_budget_tokens
                                : last_within({0, t.decode.total_s}, {t.chunk_budget_tokens, t.step_with_full_chunk_s}, bound_s,
                                              [&](int64_t tokens) { return decode_step_with_chunk_s(r, a.running, tokens, c); });
    t.serving = serve_steadily(r, a, c);
    return t;
}

double decode_step_with_chunk_s(const StepEngine& r, int64_t running, int64_t chunk_tokens, const Calibration& c) {
    if (running == 0) return 0.0;
    const Scenario& s = r.scenario;
    StepLoad load = decode_load(r, static_cast<double>(running), s.prompt_tokens + s.output_tokens);
    // One prompt's slice: its attention over half the prompt, no reads of earlier chunks.
    add_prefill(load, static_cast<double>(std::max<int64_t>(0, chunk_tokens)), s.prompt_tokens, s.prompt_tokens);
    return time_step(r, load, c).total_s;
}

DecodeIntensities decode_intensities(const StepEngine& r, int64_t batch, int64_t context_tokens, const Calibration& c) {
    // The same step with no context reads only the weights; the rest of the full step is the cache's.
    const PhaseTiming weights_only = time_step(r, decode_load(r, static_cast<double>(batch), 0), c);
    const PhaseTiming full = time_step(r, decode_load(r, static_cast<double>(batch), context_tokens), c);
    DecodeIntensities out;
    out.weight_flops_per_byte = weights_only.arithmetic_intensity;
    const double kv_bytes = full.bytes - weights_only.bytes;
    out.kv_flops_per_byte = kv_bytes > 0 ? (full.flops - weights_only.flops) / kv_bytes : 0.0;
    return out;
}

}  // namespace kv
