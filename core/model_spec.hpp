// A decoder-only transformer as the KV cache sees it: the config.json numbers that set the cache
// size and the parameter count. Parameter count follows the Llama/Qwen layout: token embedding,
// per layer q/k/v/o projections (optionally with bias), gated MLP (gate, up, down), two RMSNorms
// (plus per-head q/k norms for Qwen3), a final norm and an lm_head unless tied. Leaves out MoE,
// sliding windows, MLA and vision towers.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "input_error.hpp"

namespace kv {

struct ModelSpec {
    std::string name;
    int64_t num_hidden_layers = 0;
    int64_t hidden_size = 0;
    int64_t intermediate_size = 0;
    int64_t num_attention_heads = 0;
    int64_t num_key_value_heads = 0;
    int64_t head_dim = 0;            // config's head_dim, else hidden_size / num_attention_heads
    int64_t vocab_size = 0;
    int64_t max_position_embeddings = 0;
    bool tie_word_embeddings = false;
    bool attention_bias = false;
    bool qk_norm = false;            // Qwen3 normalises q and k per head
};

// Multi-head attention variant: every query head gets its own K and V head, so k_proj and v_proj
// widen to the query width.
ModelSpec with_multi_head_attention(ModelSpec model);

int64_t parameter_count(const ModelSpec& model);
int64_t query_width(const ModelSpec& model);   // num_attention_heads * head_dim
int64_t kv_width(const ModelSpec& model);      // num_key_value_heads * head_dim

// Validated ranges (inclusive) for config.json integers; shared by the parser and its messages.
struct ConfigLimits {
    static constexpr int64_t max_layers = 1024;
    static constexpr int64_t max_hidden = 1 << 17;
    static constexpr int64_t max_intermediate = 1 << 20;
    static constexpr int64_t max_heads = 1024;
    static constexpr int64_t max_head_dim = 2048;
    static constexpr int64_t max_vocab = 1 << 23;
    static constexpr int64_t max_positions = 1 << 24;
};

}  // namespace kv
