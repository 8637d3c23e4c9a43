#include "memory/lora.hpp"

#include <algorithm>

#include "memory/parallelism.hpp"

namespace kv {
namespace {

// LoRA elements per adapter and unit of rank, for each kind of layer on one rank.
struct PerRank {
    double attention = 0, linear_attention = 0, dense_mlp = 0, moe = 0;
};

double to_d(int64_t v) { return static_cast<double>(v); }

PerRank per_rank_elements(const ModelSpec& m, const Scenario& s, const EngineRules& rules) {
    const double tp = to_d(s.tensor_parallel_size), h = to_d(m.hidden_size);
    PerRank p;
    if (m.attention == AttentionKind::mla) {
        const double heads = to_d(m.num_attention_heads) / tp, qk = to_d(m.qk_nope_head_dim + m.qk_rope_head_dim);
        const double q = m.q_lora_rank > 0 ? (h + to_d(m.q_lora_rank)) + (to_d(m.q_lora_rank) + heads * qk) : h + heads * qk;
        const double kv_down = h + to_d(m.kv_lora_rank + m.qk_rope_head_dim);  // replicated: B whole
        const double kv_up = to_d(m.kv_lora_rank) + heads * to_d(m.qk_nope_head_dim + m.v_head_dim);
        p.attention = q + kv_down + kv_up + (heads * to_d(m.v_head_dim) + h);
    } else {
        const double q = to_d(query_width(m) * (m.attention_output_gate ? 2 : 1)) / tp;
        const double kv = to_d(std::max<int64_t>(1, m.num_key_value_heads / s.tensor_parallel_size) * m.head_dim);
        p.attention = (3.0 * h + q + 2.0 * kv) + (to_d(query_width(m)) / tp + h);  // qkv (three slices), o_proj
    }
    if (m.num_linear_layers > 0 && m.linear_kind == LinearKind::mamba2) {
        // in_proj, the conv1d (a column-parallel layer over the kernel's taps) and out_proj.
        const double inner = to_d(mamba_inner_width(m)), states = to_d(2 * m.mamba_num_groups * m.mamba_state_size);
        const double conv = (inner + states) / tp;
        p.linear_attention =
            (h + (2.0 * inner + states + to_d(m.mamba_num_heads)) / tp) + (to_d(m.linear_conv_kernel) + conv) + (inner / tp + h);
    } else if (m.num_linear_layers > 0 && m.linear_kind == LinearKind::mamba1) {
        // Jamba's MambaMixer (SupportsLoRA): in_proj and conv1d column-parallel, x_proj row-parallel,
        // dt_proj column-parallel, out_proj row-parallel.
        const double inner = to_d(m.mamba_intermediate_size) / tp, rank = to_d(m.mamba_dt_rank);
        p.linear_attention = (h + 2.0 * inner) + (to_d(m.linear_conv_kernel) + inner) + (inner + rank + 2.0 * to_d(m.mamba_state_size)) +
                             (rank + inner) + (inner + h);
    } else if (m.num_linear_layers > 0) {
        const double key = to_d(m.linear_num_key_heads * m.linear_key_head_dim),
                     value = to_d(m.linear_num_value_heads * m.linear_value_head_dim);
        p.linear_attention = (h + (2.0 * key + 2.0 * value) / tp) + (h + 2.0 * to_d(m.linear_num_value_heads) / tp) + (value / tp + h);
    }
    // An MLP's up projection has two slices (gate and up) where it is gated, one otherwise; then down.
    const double slices = m.gated_mlp ? 2.0 : 1.0;
    auto mlp = [&](double width) { return slices * (h + width) + (width + h); };
    p.dense_mlp = mlp(to_d(m.intermediate_size) / tp);
    if (m.num_experts > 0) {
        const double shared = to_d(m.shared_expert_intermediate_size) / tp;
        p.moe = (h + to_d(m.num_experts)) + (m.shared_expert_intermediate_size > 0 ? mlp(shared) : 0.0);
        if (rules.fused_moe_lora) {
            const ExpertPlacement e = place_experts(m, s);
            p.moe += to_d(e.experts_per_gpu) * mlp(to_d(e.expert_width));  // w13, w2
        }
    }
    return p;
}

}  // namespace

double lora_buffer_bytes(const ModelSpec& m, const Scenario& s, const EngineRules& rules, int64_t layers, bool first, bool last) {
    if (!s.enable_lora || m.num_hidden_layers == 0) return 0.0;
    const PerRank p = per_rank_elements(m, s, rules);
    const double share = to_d(layers) / to_d(m.num_hidden_layers);
    const double attention_layers = to_d(num_kv_cache_layers(m)) * share, linear_layers = to_d(m.num_linear_layers) * share;
    const double moe_layers = m.num_experts > 0 ? to_d(num_mlp_layers(m) - m.num_dense_layers) * share : 0.0;
    const double dense_layers = to_d(num_mlp_layers(m)) * share - moe_layers;
    double elements = attention_layers * p.attention + linear_layers * p.linear_attention + dense_layers * p.dense_mlp + moe_layers * p.moe;
    // The embedding's and lm_head's, over the vocabulary and, until 0.12.0 (PRs #28382, #28545), the
    // 256 rows of lora_extra_vocab_size (and a table of that many rows per adapter).
    const double extra = rules.lora_extra_vocab ? 256.0 : 0.0;
    const double vocab = to_d(m.vocab_size) + extra, h = to_d(m.hidden_size);
    if (first) elements += vocab + h + extra * h / to_d(s.max_lora_rank);
    if (last) elements += h + vocab + extra * h / to_d(s.max_lora_rank);
    constexpr double lora_dtype_bytes = 2.0;  // lora_dtype "auto": the model's 16-bit dtype
    return elements * to_d(s.max_loras) * to_d(s.max_lora_rank) * lora_dtype_bytes;
}

}  // namespace kv
