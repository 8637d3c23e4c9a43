#include "model_spec.hpp"

namespace kv {

ModelSpec with_multi_head_attention(ModelSpec model) {
    model.num_key_value_heads = model.num_attention_heads;
    return model;
}

int64_t query_width(const ModelSpec& m) { return m.num_attention_heads * m.head_dim; }
int64_t kv_width(const ModelSpec& m) { return m.num_key_value_heads * m.head_dim; }

int64_t parameter_count(const ModelSpec& m) {
    const int64_t h = m.hidden_size;
    const int64_t attention = h * query_width(m) + 2 * h * kv_width(m) + query_width(m) * h +
                              (m.attention_bias ? query_width(m) + 2 * kv_width(m) : 0);
    const int64_t mlp = 3 * h * m.intermediate_size;  // gate, up, down
    const int64_t norms = 2 * h + (m.qk_norm ? 2 * m.head_dim : 0);
    const int64_t embeddings = m.vocab_size * h * (m.tie_word_embeddings ? 1 : 2);
    return m.num_hidden_layers * (attention + mlp + norms) + embeddings + h;  // + final norm
}

}  // namespace kv
