// A ModelSpec written back as a config.json that reads to the same ModelSpec (a scenario's
// model_config in the result and in links).
#include <utility>

#include "io/fields_json.hpp"

namespace kv {

using nlohmann::json;

namespace {

// A tower is read from a multimodal config's top level, the text model from its text_config.
json with_vision(const VisionEncoder& v, json text) {
    json vision = {{"patch_size", v.patch_size}, {"in_channels", v.in_channels}};
    json top = {{"text_config", std::move(text)}};
    if (v.family == VisionFamily::siglip) {
        vision.update({{"num_hidden_layers", v.num_layers},
                       {"hidden_size", v.hidden_size},
                       {"intermediate_size", v.intermediate_size},
                       {"image_size", v.image_size}});
        top.update({{"model_type", "gemma3"}, {"mm_tokens_per_image", v.tokens_per_image}});
    } else {
        vision.update({{"depth", v.num_layers},
                       {"hidden_size", v.hidden_size},
                       {"intermediate_size", v.intermediate_size},
                       {"out_hidden_size", v.out_hidden_size},
                       {"temporal_patch_size", v.temporal_patch_size},
                       {"spatial_merge_size", v.spatial_merge_size}});
        if (v.family == VisionFamily::qwen2_vl)
            vision.update(
                {{"embed_dim", v.hidden_size}, {"mlp_ratio", v.intermediate_size / v.hidden_size}, {"hidden_size", v.out_hidden_size}});
        top["model_type"] = v.family == VisionFamily::qwen2_vl ? "qwen2_vl" : "qwen2_5_vl";
    }
    top["vision_config"] = vision;
    return top;
}

// Granite 4.0-H's keys: "mamba" and "attention" layers, the mixer's widths, the shared MLP beside
// the experts (intermediate_size is the experts' width there).
json with_mamba(const ModelSpec& m, json c) {
    c["model_type"] = "granitemoehybrid";
    json types = json::array();
    for (int64_t i = 0; i < m.num_hidden_layers; ++i) types.push_back(i < m.num_linear_layers ? "mamba" : "attention");
    c["layer_types"] = types;
    c.update({{"mamba_n_heads", m.mamba_num_heads},
              {"mamba_d_head", m.mamba_head_dim},
              {"mamba_d_state", m.mamba_state_size},
              {"mamba_n_groups", m.mamba_num_groups},
              {"mamba_d_conv", m.linear_conv_kernel},
              {"mamba_expand", mamba_inner_width(m) / m.hidden_size},
              {"mamba_conv_bias", m.mamba_conv_bias},
              {"mamba_proj_bias", m.mamba_proj_bias}});
    if (m.num_experts > 0) {
        c.update({{"num_local_experts", m.num_experts},
                  {"num_experts_per_tok", m.experts_per_token},
                  {"intermediate_size", m.moe_intermediate_size},
                  {"shared_intermediate_size", m.shared_expert_intermediate_size}});
    } else {
        c.update({{"num_local_experts", 0}, {"shared_intermediate_size", m.intermediate_size}});
    }
    return c;
}

// Nemotron-H's keys: one block a layer in hybrid_override_pattern (the reader counts the blocks,
// whose order does not change the pool), the mixer's widths, the experts without a gate.
json with_nemotron_h(const ModelSpec& m, json c) {
    c["model_type"] = "nemotron_h";
    const int64_t dense = m.num_experts > 0 ? m.num_dense_layers : m.num_mlp_only_layers;
    c["hybrid_override_pattern"] =
        std::string(static_cast<size_t>(m.num_linear_layers), 'M') + std::string(static_cast<size_t>(num_kv_cache_layers(m)), '*') +
        std::string(static_cast<size_t>(dense), '-') + std::string(static_cast<size_t>(m.num_mlp_only_layers - dense), 'E');
    c.update({{"mlp_hidden_act", "relu2"},
              {"mamba_num_heads", m.mamba_num_heads},
              {"mamba_head_dim", m.mamba_head_dim},
              {"ssm_state_size", m.mamba_state_size},
              {"n_groups", m.mamba_num_groups},
              {"conv_kernel", m.linear_conv_kernel},
              {"use_conv_bias", m.mamba_conv_bias},
              {"use_bias", m.mamba_proj_bias}});
    if (m.mamba_ssm_config_bytes > 0) c["mamba_ssm_cache_dtype"] = m.mamba_ssm_config_bytes == 4 ? "float32" : "float16";
    if (m.num_experts > 0)
        c.update({{"n_routed_experts", m.num_experts},
                  {"num_experts_per_tok", m.experts_per_token},
                  {"moe_intermediate_size", m.moe_intermediate_size},
                  {"n_shared_experts", 1},
                  {"moe_shared_expert_intermediate_size", m.shared_expert_intermediate_size}});
    if (m.moe_latent_size > 0) c["moe_latent_size"] = m.moe_latent_size;
    return c;
}

// Jamba's keys: the layer pattern and the Mamba1 mixer's widths (experts as wide as intermediate_size).
json with_jamba(const ModelSpec& m, json c) {
    c.update({{"attn_layer_period", m.attn_layer_period},
              {"attn_layer_offset", m.attn_layer_offset},
              {"expert_layer_period", m.expert_layer_period},
              {"expert_layer_offset", m.expert_layer_offset},
              {"mamba_d_state", m.mamba_state_size},
              {"mamba_d_conv", m.linear_conv_kernel},
              {"mamba_expand", m.mamba_intermediate_size / m.hidden_size},
              {"mamba_dt_rank", m.mamba_dt_rank},
              {"mamba_conv_bias", m.mamba_conv_bias},
              {"mamba_proj_bias", m.mamba_proj_bias}});
    if (m.num_experts > 0) c.update({{"num_experts", m.num_experts}, {"num_experts_per_tok", m.experts_per_token}});
    return c;
}

// How a checkpoint in this weight format says so (16-bit weights have no quantization_config).
json quantization_config(const ModelSpec& m) {
    switch (m.weight_format) {
        case WeightFormat::fp8:
            if (m.weight_block_size > 0)
                return {{"quant_method", "fp8"}, {"weight_block_size", {m.weight_block_size, m.weight_block_size}}};
            return {{"quant_method", "fp8"}};
        case WeightFormat::int4_grouped:
            return {{"quant_method", "awq"}, {"bits", 4}, {"group_size", m.quant_group_size}};
        case WeightFormat::mxfp4_experts:
            return {{"quant_method", "mxfp4"}};
        case WeightFormat::bf16:
            break;
    }
    return nullptr;
}

}  // namespace

json model_to_config(const ModelSpec& m) {
    json c = {{"model_type", m.model_type.empty() ? "llama" : m.model_type},
              {"num_hidden_layers", m.num_hidden_layers},
              {"hidden_size", m.hidden_size},
              {"num_attention_heads", m.num_attention_heads},
              {"num_key_value_heads", m.num_key_value_heads},
              {"head_dim", m.head_dim},
              {"vocab_size", m.vocab_size},
              {"tie_word_embeddings", m.tie_word_embeddings},
              {"attention_bias", m.attention_bias}};
    if (m.norms_per_layer != 2) c["model_type"] = "gemma3_text";
    if (m.intermediate_size > 0) c["intermediate_size"] = m.intermediate_size;
    if (m.max_position_embeddings > 0) c["max_position_embeddings"] = m.max_position_embeddings;
    if (m.attention == AttentionKind::mla)
        c.update({{"kv_lora_rank", m.kv_lora_rank},
                  {"q_lora_rank", m.q_lora_rank > 0 ? json(m.q_lora_rank) : json(nullptr)},
                  {"qk_rope_head_dim", m.qk_rope_head_dim},
                  {"qk_nope_head_dim", m.qk_nope_head_dim},
                  {"v_head_dim", m.v_head_dim}});
    const bool nemotron_h = m.num_mlp_only_layers > 0;
    const bool mamba = m.linear_kind == LinearKind::mamba2 && m.num_linear_layers > 0 && !nemotron_h;
    const bool jamba = m.linear_kind == LinearKind::mamba1;    // its pattern keys even with no Mamba layer
    if (m.num_experts > 0 && !mamba && !nemotron_h && !jamba)  // Granite, Nemotron-H and Jamba write their own expert keys
        c.update({{"num_experts", m.num_experts},
                  {"num_experts_per_tok", m.experts_per_token},
                  {"moe_intermediate_size", m.moe_intermediate_size},
                  {"shared_expert_intermediate_size", m.shared_expert_intermediate_size},
                  {"first_k_dense_replace", m.num_dense_layers}});
    if (jamba) {
        c = with_jamba(m, std::move(c));
    } else if (nemotron_h) {
        c = with_nemotron_h(m, std::move(c));
    } else if (mamba) {
        c = with_mamba(m, std::move(c));
    } else if (m.sliding_window > 0 || m.num_linear_layers > 0) {
        json types = json::array();
        for (int64_t i = 0; i < m.num_hidden_layers; ++i)
            types.push_back(i < m.num_sliding_layers                         ? "sliding_attention"
                            : i < m.num_sliding_layers + m.num_linear_layers ? "linear_attention"
                                                                             : "full_attention");
        c["layer_types"] = types;
    }
    if (m.sliding_window > 0) c["sliding_window"] = m.sliding_window;
    if (m.num_mtp_layers > 0) c["num_nextn_predict_layers"] = m.num_mtp_layers;
    if (m.num_linear_layers > 0 && !mamba && !nemotron_h && !jamba)
        c.update({{"linear_num_key_heads", m.linear_num_key_heads},
                  {"linear_num_value_heads", m.linear_num_value_heads},
                  {"linear_key_head_dim", m.linear_key_head_dim},
                  {"linear_value_head_dim", m.linear_value_head_dim},
                  {"linear_conv_kernel_dim", m.linear_conv_kernel}});
    if (m.weight_format != WeightFormat::bf16) c["quantization_config"] = quantization_config(m);
    return m.vision.family == VisionFamily::none ? c : with_vision(m.vision, std::move(c));
}

}  // namespace kv
