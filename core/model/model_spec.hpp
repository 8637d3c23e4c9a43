// A decoder-only transformer as vLLM's memory accounting sees it: the config.json numbers that set
// the KV cache per token and layer, the weights (parameter count and how each tensor is stored) and
// the profile run's activation peak.
//   Attention: multi-head or grouped-query (K and V per KV head), or MLA (DeepSeek V2/V3: one
//   compressed latent of kv_lora_rank + qk_rope_head_dim elements per token and layer, shared by
//   every head and not split by tensor parallelism).
//   Layers: full attention, or sliding-window layers that keep only the last `sliding_window`
//   tokens (Gemma 2/3, gpt-oss, Mistral v0.1): vLLM puts them in their own KV-cache groups.
//   MLP: dense gated (gate, up, down) or mixture-of-experts (routed experts, optional shared ones,
//   optional first dense layers).
//   Weights: 16-bit, or quantised linear layers (FP8, AWQ/GPTQ 4-bit with group scales, MXFP4
//   experts) with the embedding and lm_head kept in 16 bits, as published checkpoints do.
//   Linear-attention layers (Qwen3-Next's Gated DeltaNet): no KV cache, a fixed-size state per
//   request instead, which vLLM keeps in the KV pool in pages as large as an attention block.
//   Vision encoder (multimodal checkpoints' vision_config): a ViT over image patches and the
//   projector into the language model's width, for the SigLIP tower of Gemma 3 and the towers of
//   Qwen2-VL and Qwen2.5-VL; other towers are named in `derived` and left out.
//   Nemotron-H: layers of one block each, a mixer or an MLP (hybrid_override_pattern).
// Leaves out small tensors (biases of gpt-oss experts, attention sinks).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kv {

// What a linear-attention layer is: Qwen3-Next's Gated DeltaNet, a Mamba2 mixer, or the original
// Mamba (Mamba1) mixer of AI21's Jamba.
enum class LinearKind { gated_delta_net, mamba2, mamba1 };

enum class AttentionKind { standard, mla };
enum class VisionFamily { none, siglip, qwen2_vl, qwen2_5_vl };

// A vision tower as its config reads. SigLIP (Gemma 3): layer norms, biased attention and a two-layer
// MLP over (image_size / patch_size)^2 learned positions, then one projection to the text width,
// pooled to tokens_per_image. Qwen2-VL: the same layer shape over patches of temporal_patch_size
// frames; Qwen2.5-VL: RMS norms and a gated MLP. Both merge spatial_merge_size^2 patches into one
// token through a two-layer MLP to out_hidden_size.
struct VisionEncoder {
    VisionFamily family = VisionFamily::none;
    int64_t num_layers = 0;
    int64_t hidden_size = 0;
    int64_t intermediate_size = 0;
    int64_t patch_size = 0;
    int64_t image_size = 0;  // SigLIP: the square it resizes every image to
    int64_t in_channels = 3;
    int64_t temporal_patch_size = 1;
    int64_t spatial_merge_size = 1;
    int64_t out_hidden_size = 0;   // the merger's output (the text model's hidden_size)
    int64_t tokens_per_image = 0;  // SigLIP: the pooled tokens an image becomes (Gemma 3's mm_tokens_per_image)

    bool operator==(const VisionEncoder&) const = default;
};
enum class WeightFormat { bf16, fp8, int4_grouped, mxfp4_experts };

const char* weight_format_name(WeightFormat format);

struct ModelSpec {
    std::string name;
    std::string hf_repo;     // the Hugging Face repository (catalog models)
    std::string model_type;  // config.json's model_type ("qwen3", "llama", ...)
    int64_t num_hidden_layers = 0;
    int64_t hidden_size = 0;
    int64_t intermediate_size = 0;  // dense MLP width (dense layers of an MoE too)
    int64_t num_attention_heads = 0;
    int64_t num_key_value_heads = 0;
    int64_t head_dim = 0;  // config's head_dim, else hidden_size / num_attention_heads
    int64_t vocab_size = 0;
    int64_t max_position_embeddings = 0;  // after rope scaling, as vLLM derives max_model_len
    bool tie_word_embeddings = false;
    bool attention_bias = false;
    bool qk_norm = false;         // Qwen3 normalises q and k per head
    int64_t norms_per_layer = 2;  // RMSNorms per layer (Gemma 2/3: 4)
    bool gated_mlp = true;        // gate, up and down; false: up and down alone (Nemotron-H's relu^2)
    // Nemotron-H builds each layer from one block of hybrid_override_pattern: a mixer alone (Mamba2
    // or attention) or an MLP alone (dense, or MoE). These are the MLP-alone layers; 0 for models
    // whose every layer has a mixer and an MLP.
    int64_t num_mlp_only_layers = 0;

    // MLA (DeepSeek V2/V3, Kimi K2).
    AttentionKind attention = AttentionKind::standard;
    int64_t kv_lora_rank = 0;
    int64_t q_lora_rank = 0;  // 0: q is projected directly
    int64_t qk_rope_head_dim = 0;
    int64_t qk_nope_head_dim = 0;
    int64_t v_head_dim = 0;

    // Sliding-window layers (0 = none).
    int64_t sliding_window = 0;
    int64_t num_sliding_layers = 0;

    // Linear-attention layers (Qwen3-Next's Gated DeltaNet): no KV cache. Each request keeps, per
    // layer, the last conv_kernel - 1 inputs of a short convolution over q, k and v, and a recurrent
    // matrix of value_head_dim x key_head_dim per value head (vllm/model_executor/layers/mamba/
    // mamba_utils.py, gated_delta_net_state_shape).
    int64_t num_linear_layers = 0;
    int64_t linear_num_key_heads = 0;
    int64_t linear_num_value_heads = 0;
    int64_t linear_key_head_dim = 0;
    int64_t linear_value_head_dim = 0;
    int64_t linear_conv_kernel = 0;
    bool attention_output_gate = false;  // Qwen3-Next's q_proj also projects a gate as wide as the query
    // Mamba2 layers instead (Granite 4.0-H): the conv window covers x, B and C (the inner width plus
    // two projections of state_size per group), and the recurrent state is head_dim x state_size per
    // head (mamba_utils.py, mamba2_state_shape); vLLM's MambaMixer2 holds the weights.
    LinearKind linear_kind = LinearKind::gated_delta_net;
    int64_t mamba_num_heads = 0;
    int64_t mamba_head_dim = 0;
    int64_t mamba_state_size = 0;
    int64_t mamba_num_groups = 0;
    bool mamba_conv_bias = true;
    bool mamba_proj_bias = false;
    // Mamba1 layers instead (Jamba, vLLM's MambaMixer): no heads; the conv window covers the inner
    // width alone and the recurrent state is inner width x state_size (mamba_utils.py,
    // mamba1_state_shape). dt_rank is the width of the step-size projection.
    int64_t mamba_intermediate_size = 0;
    int64_t mamba_dt_rank = 0;
    // Jamba's layer pattern, as its config keys of these names give it (attention where i % period
    // is offset, experts likewise); kept so that the config written back reads the same. 0 elsewhere.
    int64_t attn_layer_period = 0, attn_layer_offset = 0, expert_layer_period = 0, expert_layer_offset = 0;
    // The recurrent state's element bytes the config asks for (mamba_ssm_cache_dtype: 4 for float32);
    // 0 when it says nothing. Which releases read it: EngineRules::mamba_ssm_dtype.
    int64_t mamba_ssm_config_bytes = 0;

    // Mixture of experts (num_experts = 0: dense).
    int64_t num_experts = 0;
    int64_t experts_per_token = 0;
    int64_t moe_intermediate_size = 0;
    int64_t shared_expert_intermediate_size = 0;  // total width of the shared experts
    int64_t num_dense_layers = 0;                 // dense MLP layers (DeepSeek's leading first_k_dense_replace, Nemotron-H's -)
    // Latent experts (Nemotron 3 Super, vLLM PR #30203): each MoE layer projects the hidden state down
    // to this width (fc1_latent_proj), runs its routed experts there and projects back (fc2); the
    // router and the shared expert read the full hidden state. 0: experts at the hidden width.
    int64_t moe_latent_size = 0;

    int64_t num_mtp_layers = 0;  // multi-token-prediction layers beyond num_hidden_layers (num_nextn_predict_layers)

    WeightFormat weight_format = WeightFormat::bf16;
    int64_t quant_group_size = 0;  // int4: weights per scale
    // FP8 with a scale per square block of weights (quantization_config.weight_block_size, 128 in
    // DeepSeek's and Qwen's FP8 checkpoints); 0: one scale per tensor or channel.
    int64_t weight_block_size = 0;
    bool multimodal = false;  // a text_config was read
    VisionEncoder vision;     // family none: no tower, or one the model leaves out

    // How each field was obtained, for the reader: "read", or how it was derived.
    std::vector<std::pair<std::string, std::string>> derived;
    // Unknown config.json keys one edit away from a key the reader uses (a typo such as
    // num_key_value_head would otherwise silently change the model): {typed, meant}.
    std::vector<std::pair<std::string, std::string>> suspicious_keys;

    bool operator==(const ModelSpec&) const = default;
};

// Multi-head attention variant: every query head gets its own K and V head, so k_proj and v_proj
// widen to the query width. MLA models are returned unchanged (they have no KV heads to widen).
ModelSpec with_multi_head_attention(ModelSpec model);

int64_t num_full_attention_layers(const ModelSpec& model);
// One linear-attention layer's state for one request on one of `tp` ranks, in bytes: the conv window
// (conv_kernel - 1 inputs of q, k and v; of Mamba2's x, B and C) in the model's 16-bit dtype, and the
// recurrent matrices in ssm_element_bytes (vllm/model_executor/layers/mamba/mamba_utils.py).
double linear_state_bytes(const ModelSpec& model, int64_t tp, int64_t ssm_element_bytes = 2);
// A Mamba2 mixer's inner width: heads x head_dim (the reader checks it is mamba_expand x hidden_size).
// Mamba1's is its own field, mamba_intermediate_size.
inline int64_t mamba_inner_width(const ModelSpec& m) { return m.mamba_num_heads * m.mamba_head_dim; }
int64_t num_kv_cache_layers(const ModelSpec& model);  // layers with a KV cache
int64_t num_mlp_layers(const ModelSpec& model);       // layers with an MLP or MoE
// Layers whose output a tensor-parallel all-reduce sums: each mixer and each MLP (two a layer for
// most models, one for Nemotron-H's single blocks). A Mamba1 mixer also sums x_proj's narrow output
// (dt_rank + 2 x state wide, mamba_mixer.py), which the step time leaves out.
int64_t num_row_parallel_blocks(const ModelSpec& model);

// Parameters by where they live; the weight bytes of each part depend on how it is stored.
struct ParameterCount {
    int64_t embedding = 0;           // token embedding (vocab x hidden)
    int64_t lm_head = 0;             // 0 when tied
    int64_t attention = 0;           // all layers' projections (and biases)
    int64_t dense_mlp = 0;           // dense MLP layers
    int64_t experts = 0;             // routed experts, all layers
    int64_t shared_and_router = 0;   // shared experts and routers
    int64_t latent_projections = 0;  // latent experts' down and up projections, whole on every rank
    int64_t norms = 0;
    int64_t routed_active = 0;  // the routed experts' parameters one token runs through (experts_per_token of them, all layers)
    int64_t total() const { return embedding + lm_head + attention + dense_mlp + experts + shared_and_router + latent_projections + norms; }
    // Parameters one token passes through: the routed experts count experts_per_token of num_experts.
    int64_t active() const { return total() - experts + routed_active; }
};
ParameterCount count_parameters(const ModelSpec& model);
int64_t parameter_count(const ModelSpec& model);
int64_t active_parameter_count(const ModelSpec& model);
// The vision tower's and projector's parameters; 0 without one. Not part of parameter_count: the
// language model's steps never read them.
int64_t vision_parameter_count(const ModelSpec& model);
// The most tokens one image becomes in the prompt (the encoder's output rows), as vLLM's processing
// info computes it for the largest image its processor accepts: SigLIP tokens_per_image; Qwen the
// image processor's default max_pixels (12,845,056) in patches of (patch_size x merge)^2.
int64_t max_image_tokens(const ModelSpec& model);
// Patches the tower runs per output token (SigLIP: its positions pooled; Qwen: merge^2).
int64_t vision_patches_per_token(const ModelSpec& model);
int64_t query_width(const ModelSpec& model);  // num_attention_heads * head_dim
int64_t kv_width(const ModelSpec& model);     // num_key_value_heads * head_dim

// Validated ranges (inclusive) for config.json integers; shared by the parser and its messages.
struct ConfigLimits {
    static constexpr int64_t max_layers = 1024;
    static constexpr int64_t max_hidden = 1 << 17;
    static constexpr int64_t max_intermediate = 1 << 20;
    static constexpr int64_t max_heads = 1024;
    static constexpr int64_t max_head_dim = 2048;
    static constexpr int64_t max_vocab = 1 << 23;
    static constexpr int64_t max_positions = 1 << 24;
    static constexpr int64_t max_experts = 4096;
    static constexpr int64_t max_lora_rank = 1 << 16;
};

}  // namespace kv
