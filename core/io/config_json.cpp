// Hugging Face config.json files as published, read the way transformers and vLLM read them:
// multimodal configs through their text_config; head_dim = hidden_size / num_attention_heads and
// num_key_value_heads = num_attention_heads when absent; max_position_embeddings scaled by a rope
// scaling factor as vLLM derives max_model_len; MoE, MLA, sliding-window layers and
// quantization_config. Each derived field is recorded in ModelSpec::derived for the reader.
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/format.hpp"
#include "io/config_reader.hpp"
#include "io/fields_json.hpp"
#include "base/units.hpp"

namespace kv {
namespace {

using namespace config;

// Defaults of transformers' config classes for keys a published config.json may leave out.
struct TypeDefaults {
    const char* model_type;
    bool tie_word_embeddings;
    int64_t vocab_size, max_position_embeddings, sliding_window_pattern;
};
const TypeDefaults type_defaults[] = {
    {"gemma", true, 256000, 8192, 0},    {"gemma2", true, 256000, 8192, 0},  {"gemma3_text", true, 262208, 131072, 6},
    {"gemma3", true, 262208, 131072, 6}, {"jamba", false, 65536, 262144, 0},  // older Jamba v0.1 revisions name the context n_ctx
};
const TypeDefaults* defaults_for(const std::string& model_type) {
    for (const TypeDefaults& d : type_defaults)
        if (model_type == d.model_type) return &d;
    return nullptr;
}

// The config.json keys the reader uses; an unknown key one edit from one of these is flagged.
// n_group (routing groups of DeepSeek-V3 and Nemotron-H) is unread, but one edit from n_groups.
const char* const known_keys[] = {"num_hidden_layers",
                                  "hidden_size",
                                  "intermediate_size",
                                  "num_attention_heads",
                                  "num_key_value_heads",
                                  "head_dim",
                                  "vocab_size",
                                  "max_position_embeddings",
                                  "rope_scaling",
                                  "tie_word_embeddings",
                                  "attention_bias",
                                  "qkv_bias",
                                  "model_type",
                                  "text_config",
                                  "quantization_config",
                                  "use_sliding_window",
                                  "sliding_window",
                                  "layer_types",
                                  "sliding_window_pattern",
                                  "num_experts",
                                  "num_local_experts",
                                  "n_routed_experts",
                                  "num_experts_per_tok",
                                  "experts_per_token",
                                  "moe_intermediate_size",
                                  "n_shared_experts",
                                  "shared_expert_intermediate_size",
                                  "first_k_dense_replace"};
// MLA, Mamba and hybrid layouts, and latent experts.
const char* const known_layout_keys[] = {"kv_lora_rank",
                                         "q_lora_rank",
                                         "qk_rope_head_dim",
                                         "qk_nope_head_dim",
                                         "v_head_dim",
                                         "shared_intermediate_size",
                                         "mamba_n_heads",
                                         "mamba_d_head",
                                         "mamba_d_state",
                                         "mamba_n_groups",
                                         "mamba_d_conv",
                                         "mamba_expand",
                                         "hybrid_override_pattern",
                                         "mamba_num_heads",
                                         "mamba_head_dim",
                                         "ssm_state_size",
                                         "n_groups",
                                         "conv_kernel",
                                         "use_conv_bias",
                                         "mamba_ssm_cache_dtype",
                                         "moe_shared_expert_intermediate_size",
                                         "moe_latent_size",
                                         "attn_layer_period",
                                         "attn_layer_offset",
                                         "expert_layer_period",
                                         "expert_layer_offset",
                                         "mamba_dt_rank",
                                         "mamba_conv_bias",
                                         "mamba_proj_bias",
                                         "n_group"};

// Levenshtein distance of at most one (one insertion, deletion or substitution).
bool one_edit_apart(std::string_view a, std::string_view b) {
    if (a.size() > b.size()) std::swap(a, b);
    if (b.size() - a.size() > 1) return false;
    size_t i = 0;
    while (i < a.size() && a[i] == b[i]) ++i;
    if (a.size() == b.size()) return a.substr(i + (i < a.size())) == b.substr(i + (i < b.size()));
    return a.substr(i) == b.substr(i + 1);
}

void flag_typos(const json& object, ModelSpec& m) {
    for (const auto& [key, value] : object.items()) {
        (void)value;
        const std::span<const char* const> lists[] = {known_keys, known_layout_keys};
        bool known = false;
        for (const auto& list : lists)
            for (const char* k : list) known = known || key == k;
        if (known) continue;
        for (const auto& list : lists)
            for (const char* k : list)
                if (one_edit_apart(key, k)) m.suspicious_keys.push_back({key, k});
    }
}

// Keys the config class supplies when the file leaves them out (written into `text`).
std::vector<std::string> supply_type_defaults(const json& config, json& text, const std::string& type) {
    std::vector<std::string> supplied;
    const TypeDefaults* d = defaults_for(type);
    if (!d) return supplied;
    auto supply = [&](const char* key, const json& value) {
        if ((!text.contains(key) || text[key].is_null()) && !config.contains(key)) {
            text[key] = value;
            supplied.push_back(key);
        }
    };
    supply("tie_word_embeddings", d->tie_word_embeddings);
    supply("vocab_size", d->vocab_size);
    supply("max_position_embeddings", d->max_position_embeddings);
    if (d->sliding_window_pattern > 0 && !text.contains("layer_types")) supply("sliding_window_pattern", d->sliding_window_pattern);
    return supplied;
}

// The widths every decoder has: layers, hidden size, heads (and KV heads, head_dim when absent).
std::optional<InputError> read_widths(ConfigReader& c, ModelSpec& m) {
    struct Required {
        const char* key;
        int64_t ModelSpec::*member;
        int64_t max;
    };
    const Required required[] = {
        {"num_hidden_layers", &ModelSpec::num_hidden_layers, ConfigLimits::max_layers},
        {"hidden_size", &ModelSpec::hidden_size, ConfigLimits::max_hidden},
        {"num_attention_heads", &ModelSpec::num_attention_heads, ConfigLimits::max_heads},
        {"vocab_size", &ModelSpec::vocab_size, ConfigLimits::max_vocab},
    };
    for (const Required& r : required) {
        if (!c.find(r.key)) return fail(c.field(r.key), ErrorCode::missing_field, c.field(r.key) + " is missing from config.json");
        if (auto v = c.integer(r.key, 1, r.max)) m.*r.member = *v;
        if (c.error) return c.error;
    }
    m.intermediate_size = c.integer("intermediate_size", 1, ConfigLimits::max_intermediate).value_or(0);
    if (c.error) return c.error;
    if (auto kv = c.integer("num_key_value_heads", 1, ConfigLimits::max_heads)) {
        m.num_key_value_heads = *kv;
        if (m.num_attention_heads % m.num_key_value_heads != 0)
            return fail(c.field("num_key_value_heads"), ErrorCode::inconsistent_config,
                        c.field("num_key_value_heads") + " is " + std::to_string(m.num_key_value_heads) +
                            "; it must divide num_attention_heads (" + std::to_string(m.num_attention_heads) + ")");
    } else {
        if (c.error) return c.error;
        m.num_key_value_heads = m.num_attention_heads;
        m.derived.push_back({"num_key_value_heads",
                             "absent: equal to num_attention_heads (" + format_count(m.num_attention_heads) + "), multi-head attention"});
    }
    if (auto hd = c.integer("head_dim", 1, ConfigLimits::max_head_dim)) {
        m.head_dim = *hd;
        return std::nullopt;
    }
    if (c.error) return c.error;
    if (m.hidden_size % m.num_attention_heads != 0)
        return fail(c.field("head_dim"), ErrorCode::inconsistent_config,
                    c.field("head_dim") + " is absent and hidden_size (" + std::to_string(m.hidden_size) +
                        ") is not a multiple of num_attention_heads (" + std::to_string(m.num_attention_heads) + ")");
    m.head_dim = m.hidden_size / m.num_attention_heads;
    m.derived.push_back({"head_dim", "absent: hidden_size / num_attention_heads = " + format_count(m.head_dim)});
    return std::nullopt;
}

// What the architecture adds to each layer: biases, norms, q/k norms.
void read_layer_style(ConfigReader& c, ModelSpec& m) {
    m.tie_word_embeddings = c.flag("tie_word_embeddings", false);
    // Qwen2 always has q/k/v biases; its config.json does not say so.
    const bool qwen2 = m.model_type == "qwen2" || m.model_type == "qwen2_moe" || m.model_type.rfind("qwen2_vl", 0) == 0 ||
                       m.model_type.rfind("qwen2_5_vl", 0) == 0;
    m.attention_bias = c.flag("attention_bias", c.flag("qkv_bias", qwen2));
    if (qwen2 && !c.find("attention_bias")) m.derived.push_back({"attention_bias", "qwen2 layers have q/k/v biases"});
    // Gemma 2 and 3 normalise before and after both attention and MLP.
    m.norms_per_layer = m.model_type.rfind("gemma2", 0) == 0 || m.model_type.rfind("gemma3", 0) == 0 ? 4 : 2;
    m.qk_norm = m.model_type == "qwen3" || m.model_type == "qwen3_moe" || m.model_type.rfind("gemma3", 0) == 0;
}

}  // namespace

std::variant<ModelSpec, InputError> model_from_config(const json& config, const std::string& prefix) {
    if (!config.is_object()) return fail(prefix, ErrorCode::wrong_type, prefix + " must be a config.json object");
    const bool nested = config.contains("text_config") && config["text_config"].is_object();
    json text = nested ? config["text_config"] : config;
    const std::string type = text_or(text, "model_type", text_or(config, "model_type", ""));
    const std::vector<std::string> supplied = supply_type_defaults(config, text, type);
    ConfigReader c(text, config, nested ? prefix + ".text_config" : prefix);
    ModelSpec m;
    m.name = prefix;
    m.model_type = c.text("model_type");
    if (m.model_type.empty()) m.model_type = text_or(config, "model_type", "");
    m.multimodal = nested;
    if (nested) m.derived.push_back({"model", "multimodal config: its text_config is read, and its vision_config"});
    for (const std::string& key : supplied)
        m.derived.push_back({key, "absent: the " + type + " config class's default, " + text[key].dump()});
    if (auto error = read_widths(c, m)) return *error;
    m.max_position_embeddings = derived_max_len(c, m);
    read_layer_style(c, m);
    read_mla(c, m);
    read_moe(c, m);
    read_linear_layers(c, m);
    read_sliding_window(c, m);
    read_quantization(c, m);
    // The multi-token-prediction layers the checkpoint carries for --speculative-config's mtp
    // (DeepSeek-V3, GLM-4.5, MiMo); Qwen3-Next's MTP model takes one when the key is absent.
    m.num_mtp_layers = c.integer("num_nextn_predict_layers", 0, 16).value_or(m.model_type == "qwen3_next" ? 1 : 0);
    read_vision(config, prefix, m, c.error);
    if (c.error) return *c.error;
    flag_typos(config, m);
    if (nested) flag_typos(config["text_config"], m);
    if (m.intermediate_size == 0 && m.num_experts == 0)
        return fail(c.field("intermediate_size"), ErrorCode::missing_field, c.field("intermediate_size") + " is missing from config.json");
    if (m.num_dense_layers > 0 && m.intermediate_size == 0)
        return fail(c.field("intermediate_size"), ErrorCode::missing_field,
                    c.field("intermediate_size") + " is needed for the dense layers (first_k_dense_replace)");
    return m;
}

}  // namespace kv
