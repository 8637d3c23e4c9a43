#include "model/model_spec.hpp"

namespace kv {

const char* weight_format_name(WeightFormat format) {
    static const char* const names[] = {"bf16", "fp8", "int4", "mxfp4"};
    return names[static_cast<int>(format)];
}

ModelSpec with_multi_head_attention(ModelSpec model) {
    if (model.attention == AttentionKind::standard) model.num_key_value_heads = model.num_attention_heads;
    return model;
}

int64_t num_kv_cache_layers(const ModelSpec& m) { return m.num_hidden_layers - m.num_linear_layers - m.num_mlp_only_layers; }
int64_t num_mlp_layers(const ModelSpec& m) { return m.num_mlp_only_layers > 0 ? m.num_mlp_only_layers : m.num_hidden_layers; }
int64_t num_row_parallel_blocks(const ModelSpec& m) { return m.num_hidden_layers - m.num_mlp_only_layers + num_mlp_layers(m); }
int64_t num_full_attention_layers(const ModelSpec& m) { return num_kv_cache_layers(m) - m.num_sliding_layers; }
namespace {

// Mamba2's groups on each rank: a group count the ranks do not divide is raised to the rank count,
// so every rank holds the groups its heads read (extra_groups_for_head_shards).
int64_t mamba_groups_held(const ModelSpec& m, int64_t tp) { return m.mamba_num_groups % tp == 0 ? m.mamba_num_groups : tp; }
int64_t mamba_conv_dim(const ModelSpec& m, int64_t groups) { return mamba_inner_width(m) + 2 * groups * m.mamba_state_size; }

}  // namespace

double linear_state_bytes(const ModelSpec& m, int64_t tp, int64_t ssm_element_bytes) {
    if (m.num_linear_layers == 0 || tp <= 0) return 0.0;
    constexpr int64_t model_dtype_bytes = 2;
    if (m.linear_kind == LinearKind::mamba2) {
        const int64_t conv = (m.linear_conv_kernel - 1) * (mamba_conv_dim(m, mamba_groups_held(m, tp)) / tp);
        const int64_t recurrent = m.mamba_num_heads / tp * m.mamba_head_dim * m.mamba_state_size;
        return static_cast<double>(conv * model_dtype_bytes + recurrent * ssm_element_bytes);
    }
    if (m.linear_kind == LinearKind::mamba1) {
        const int64_t inner = m.mamba_intermediate_size / tp;
        const int64_t conv = (m.linear_conv_kernel - 1) * inner, recurrent = inner * m.mamba_state_size;
        return static_cast<double>(conv * model_dtype_bytes + recurrent * ssm_element_bytes);
    }
    const int64_t conv_dim = 2 * m.linear_num_key_heads * m.linear_key_head_dim + m.linear_num_value_heads * m.linear_value_head_dim;
    const int64_t conv = (m.linear_conv_kernel - 1) * (conv_dim / tp);
    const int64_t recurrent = m.linear_num_value_heads / tp * m.linear_value_head_dim * m.linear_key_head_dim;
    return static_cast<double>(conv * model_dtype_bytes + recurrent * ssm_element_bytes);
}
int64_t vision_parameter_count(const ModelSpec& m) {
    const VisionEncoder& v = m.vision;
    if (v.family == VisionFamily::none) return 0;
    const int64_t h = v.hidden_size, i = v.intermediate_size;
    const bool gated = v.family == VisionFamily::qwen2_5_vl;
    const bool layer_norm = v.family != VisionFamily::qwen2_5_vl;  // LayerNorm: weight and bias
    const int64_t norm = layer_norm ? 2 * h : h;
    const int64_t attention = 4 * h * h + 4 * h;  // qkv and out projections, biased
    const int64_t mlp = gated ? 3 * h * i + 2 * i + h : 2 * h * i + i + h;
    const int64_t layers = v.num_layers * (2 * norm + attention + mlp);
    const int64_t patch = v.in_channels * v.temporal_patch_size * v.patch_size * v.patch_size * h;
    if (v.family == VisionFamily::siglip) {
        const int64_t positions = (v.image_size / v.patch_size) * (v.image_size / v.patch_size);
        // Conv2d with bias, learned positions, the post-layernorm; Gemma 3's projector: an RMS norm
        // and one projection to the text width.
        return patch + h + positions * h + layers + 2 * h + h + h * m.hidden_size;
    }
    // Conv3d without bias; the merger: a norm over each patch, then merge^2 patches through
    // Linear(merged, merged) and Linear(merged, out), both biased.
    const int64_t merged = h * v.spatial_merge_size * v.spatial_merge_size;
    return patch + layers + norm + merged * merged + merged + merged * v.out_hidden_size + v.out_hidden_size;
}

int64_t max_image_tokens(const ModelSpec& m) {
    const VisionEncoder& v = m.vision;
    if (v.family == VisionFamily::none) return 0;
    if (v.family == VisionFamily::siglip) return v.tokens_per_image;
    constexpr int64_t max_pixels = 12845056;  // Qwen2VLImageProcessor's default
    const int64_t unit = v.patch_size * v.spatial_merge_size;
    return max_pixels / (unit * unit);
}

int64_t vision_patches_per_token(const ModelSpec& m) {
    const VisionEncoder& v = m.vision;
    if (v.family == VisionFamily::none || v.patch_size <= 0) return 0;
    if (v.family == VisionFamily::siglip) {
        const int64_t side = v.image_size / v.patch_size;
        return v.tokens_per_image > 0 ? side * side / v.tokens_per_image : 0;
    }
    return v.spatial_merge_size * v.spatial_merge_size;
}

int64_t query_width(const ModelSpec& m) { return m.num_attention_heads * m.head_dim; }
int64_t kv_width(const ModelSpec& m) { return m.num_key_value_heads * m.head_dim; }

namespace {

int64_t attention_per_layer(const ModelSpec& m) {
    const int64_t h = m.hidden_size, heads = m.num_attention_heads;
    if (m.attention == AttentionKind::mla) {
        const int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
        const int64_t q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * heads * qk : h * heads * qk;
        const int64_t kv_down = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank;  // + its norm
        const int64_t kv_up = m.kv_lora_rank * heads * (m.qk_nope_head_dim + m.v_head_dim);
        return q + kv_down + kv_up + heads * m.v_head_dim * h;
    }
    const int64_t q_out = query_width(m) * (m.attention_output_gate ? 2 : 1);
    return h * q_out + 2 * h * kv_width(m) + query_width(m) * h + (m.attention_bias ? query_width(m) + 2 * kv_width(m) : 0) +
           (m.qk_norm ? 2 * m.head_dim : 0);
}

// A Mamba2 mixer (vLLM's MambaMixer2): in_proj to the gate z, x, B, C and one dt per head; the
// depthwise convolution over x, B and C; A, D and dt_bias per head; the gated norm over the inner
// width; out_proj.
int64_t mamba2_per_layer(const ModelSpec& m) {
    const int64_t h = m.hidden_size, inner = mamba_inner_width(m), heads = m.mamba_num_heads;
    const int64_t conv_dim = mamba_conv_dim(m, m.mamba_num_groups);
    const int64_t in_proj = inner + conv_dim + heads;
    return h * in_proj + (m.mamba_proj_bias ? in_proj + h : 0) + conv_dim * m.linear_conv_kernel + (m.mamba_conv_bias ? conv_dim : 0) +
           3 * heads + inner + inner * h;
}

// A Mamba1 mixer (vLLM's MambaMixer, Jamba's settings): in_proj to x and the gate z; the depthwise
// convolution over x; x_proj to dt_rank + 2 x state_size; dt_proj back to the inner width with a
// bias; A (inner x state_size; vLLM keeps it in FP32, 7 MB on Jamba v0.1 that the 16-bit count
// leaves out) and D; out_proj; Jamba's RMS norms over dt, B and C.
int64_t mamba1_per_layer(const ModelSpec& m) {
    const int64_t h = m.hidden_size, inner = m.mamba_intermediate_size, state = m.mamba_state_size, rank = m.mamba_dt_rank;
    return 2 * inner * h + (m.mamba_proj_bias ? 2 * inner + h : 0) + inner * m.linear_conv_kernel + (m.mamba_conv_bias ? inner : 0) +
           inner * (rank + 2 * state) + rank * inner + inner + inner * state + inner + inner * h + rank + 2 * state;
}

// A Gated DeltaNet layer (vLLM's qwen3_next.py): in_proj_qkvz (q, k, v and the output gate z),
// in_proj_ba (two scalars per value head), the depthwise convolution over q, k and v, A_log and
// dt_bias per value head, the gated norm over one value head, and out_proj.
int64_t linear_attention_per_layer(const ModelSpec& m) {
    if (m.linear_kind == LinearKind::mamba2) return mamba2_per_layer(m);
    if (m.linear_kind == LinearKind::mamba1) return mamba1_per_layer(m);
    const int64_t key = m.linear_num_key_heads * m.linear_key_head_dim, value = m.linear_num_value_heads * m.linear_value_head_dim;
    const int64_t conv = 2 * key + value;
    return m.hidden_size * (2 * key + 2 * value) + m.hidden_size * 2 * m.linear_num_value_heads + conv * m.linear_conv_kernel +
           2 * m.linear_num_value_heads + m.linear_value_head_dim + value * m.hidden_size;
}

}  // namespace

ParameterCount count_parameters(const ModelSpec& m) {
    ParameterCount p;
    const int64_t h = m.hidden_size;
    p.embedding = m.vocab_size * h;
    p.lm_head = m.tie_word_embeddings ? 0 : m.vocab_size * h;
    p.attention = num_kv_cache_layers(m) * attention_per_layer(m) + m.num_linear_layers * linear_attention_per_layer(m);
    p.norms = m.num_hidden_layers * m.norms_per_layer * h + h;
    const int64_t matrices = m.gated_mlp ? 3 : 2;  // (gate,) up, down
    const int64_t dense_layers = m.num_experts > 0 ? m.num_dense_layers : num_mlp_layers(m);
    p.dense_mlp = dense_layers * matrices * h * m.intermediate_size;
    if (m.num_experts > 0) {
        const int64_t moe_layers = num_mlp_layers(m) - m.num_dense_layers;
        const int64_t expert_input = m.moe_latent_size > 0 ? m.moe_latent_size : h;
        p.experts = moe_layers * m.num_experts * matrices * expert_input * m.moe_intermediate_size;
        p.latent_projections = moe_layers * 2 * h * m.moe_latent_size;
        p.shared_and_router = moe_layers * (matrices * h * m.shared_expert_intermediate_size + h * m.num_experts);
        p.routed_active = p.experts / m.num_experts * m.experts_per_token;
    }
    return p;
}

int64_t parameter_count(const ModelSpec& m) { return count_parameters(m).total(); }

int64_t active_parameter_count(const ModelSpec& m) { return count_parameters(m).active(); }

}  // namespace kv
