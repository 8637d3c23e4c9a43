#include "memory/speculative.hpp"

#include <algorithm>
#include <string>

#include "base/format.hpp"
#include "model/catalog.hpp"
#include "scenario/scenario_fields.hpp"

namespace kv {
namespace {

double to_d(int64_t v) { return static_cast<double>(v); }

// EAGLE-3 heads predict over a smaller vocabulary of their own (draft_vocab_size in the published
// heads' config.json, mapped back to the model's by d2t).
constexpr int64_t eagle3_draft_vocab = 32000;

// One decoder layer of the model's shape: an EAGLE head's (a dense Llama layer) or the checkpoint's
// MTP layer (an MoE layer where the model's last layers are).
ModelSpec one_layer_of(const ModelSpec& t, bool mixture_of_experts) {
    ModelSpec d = t;
    d.derived.clear();
    d.suspicious_keys.clear();
    d.num_hidden_layers = 1;
    d.sliding_window = d.num_sliding_layers = 0;
    d.num_linear_layers = 0;
    d.num_mlp_only_layers = 0;  // Nemotron-H's MTP (*E): attention and an MoE, as one layer
    d.num_mtp_layers = 0;
    d.num_dense_layers = 0;
    d.tie_word_embeddings = false;  // its lm_head is read whole each pass, shared or not
    if (!mixture_of_experts) {
        if (d.intermediate_size == 0) d.intermediate_size = d.moe_intermediate_size * d.experts_per_token;
        d.num_experts = d.experts_per_token = d.moe_intermediate_size = d.shared_expert_intermediate_size = 0;
        d.attention_output_gate = false;
        d.gated_mlp = true;                    // a Llama layer's
        d.weight_format = WeightFormat::bf16;  // published heads are 16-bit
    }
    return d;
}

}  // namespace

SpecMethod spec_method(const Scenario& s) {
    if (s.speculative_method == "none") return SpecMethod::none;  // every evaluation asks: no table search
    const auto index = choice_index(scenario_field("speculative_method"), s.speculative_method);
    return static_cast<SpecMethod>(index.value_or(0));
}

double mean_acceptance_length(double rate, int64_t k) {
    double length = 1.0, accepted = 1.0;
    for (int64_t i = 0; i < k; ++i) length += (accepted *= rate);
    return length;
}

Drafter make_drafter(const Scenario& s, const ModelSpec& t) {
    Drafter d;
    d.method = spec_method(s);
    if (d.method == SpecMethod::none) return d;
    d.num_speculative_tokens = s.num_speculative_tokens.value_or(std::max<int64_t>(1, t.num_mtp_layers));
    d.acceptance_length = mean_acceptance_length(s.draft_acceptance_rate, d.num_speculative_tokens);
    const double h = to_d(t.hidden_size);
    switch (d.method) {
        case SpecMethod::none:
        case SpecMethod::ngram:
            break;
        case SpecMethod::eagle:
            d.model = one_layer_of(t, false);
            d.fc_params = 2.0 * h * h;
            d.kv_layers = 1;
            break;
        case SpecMethod::eagle3:
            d.model = one_layer_of(t, false);
            d.model.vocab_size = eagle3_draft_vocab;
            d.own_lm_head = true;
            // Three hidden states in, and a qkv projection over the embedding and the fc's output.
            d.fc_params = 3.0 * h * h + h * to_d(query_width(t) + 2 * kv_width(t)) / to_d(s.tensor_parallel_size);
            d.kv_layers = 1;
            break;
        case SpecMethod::mtp:
            d.model = one_layer_of(t, t.num_experts > 0);
            d.fc_params = 2.0 * h * h;  // eh_proj
            d.kv_layers = std::max<int64_t>(1, t.num_mtp_layers);
            break;
        case SpecMethod::draft_model:
            if (const ModelSpec* found = find_model(s.draft_model)) d.model = *found;
            d.own_embedding = d.own_lm_head = true;
            d.kv_layers = num_kv_cache_layers(d.model);  // in its own widths until memory_plan converts them
            break;
    }
    d.runs_on_gpu = d.method != SpecMethod::ngram;
    return d;
}

std::optional<InputError> check_speculative(const Scenario& s, const ModelSpec& t, bool v1_engine) {
    const SpecMethod method = spec_method(s);
    const auto refuse = [](const char* field, ErrorCode code, std::string message) {
        return std::optional<InputError>(InputError{field, code, std::move(message)});
    };
    if (method == SpecMethod::none) return std::nullopt;
    if (!v1_engine)
        return refuse("speculative_method", ErrorCode::inconsistent_config,
                      "speculative_method is modelled for V1 (0.8.0 and later) only; " + s.vllm_version + " runs V0");
    if (method == SpecMethod::mtp && t.num_mtp_layers == 0)
        return refuse("speculative_method", ErrorCode::inconsistent_config,
                      "speculative_method mtp needs multi-token-prediction layers (num_nextn_predict_layers); this model has none");
    if (method != SpecMethod::mtp && !s.num_speculative_tokens)
        return refuse("num_speculative_tokens", ErrorCode::missing_field,
                      "num_speculative_tokens (1 to 16) is needed for speculative_method " + s.speculative_method);
    const ModelSpec* draft = method == SpecMethod::draft_model ? find_model(s.draft_model) : nullptr;
    if (draft && draft->vocab_size != t.vocab_size)
        return refuse("draft_model", ErrorCode::inconsistent_config,
                      "draft_model " + s.draft_model + " must share the model's tokenizer: its vocabulary is " +
                          format_count(draft->vocab_size) + " tokens, the model's " + format_count(t.vocab_size));
    return std::nullopt;
}

}  // namespace kv
