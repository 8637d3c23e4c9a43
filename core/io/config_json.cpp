// Hugging Face config.json files as published, read the way transformers and vLLM read them:
// multimodal configs through their text_config; head_dim = hidden_size / num_attention_heads and
// num_key_value_heads = num_attention_heads when absent; max_position_embeddings scaled by a rope
// scaling factor as vLLM derives max_model_len; MoE, MLA, sliding-window layers and
// quantization_config. Each derived field is recorded in ModelSpec::derived for the reader.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "base/format.hpp"
#include "io/fields_json.hpp"
#include "base/units.hpp"

namespace kv {
namespace {

using nlohmann::json;

InputError fail(std::string field, ErrorCode code, std::string message) { return InputError{std::move(field), code, std::move(message)}; }

// json::value() throws when the key holds another type; untrusted files get a fallback instead.
std::string text_or(const json& object, const char* key, const std::string& fallback) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return fallback;
    return object[key].get<std::string>();
}
int64_t integer_or(const json& object, const char* key, int64_t fallback) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_number_integer()) return fallback;
    return object[key].get<int64_t>();
}

// Reads config.json fields with a path prefix for messages; keys missing from text_config fall
// back to the top level (some multimodal configs keep vocab_size there).
class ConfigReader {
public:
    ConfigReader(const json& text, const json& top, std::string prefix) : text_(text), top_(top), prefix_(std::move(prefix)) {}

    const json* find(const char* key) const {
        if (text_.contains(key) && !text_[key].is_null()) return &text_[key];
        if (&top_ != &text_ && top_.contains(key) && !top_[key].is_null()) return &top_[key];
        return nullptr;
    }
    std::string field(const char* key) const { return prefix_ + "." + key; }

    // An integer in [lo, hi]; nullopt when absent; the error is kept for the caller.
    std::optional<int64_t> integer(const char* key, int64_t lo, int64_t hi) {
        const json* v = find(key);
        if (!v) return std::nullopt;
        const std::string range = "a whole number from " + format_count(lo) + " to " + format_count(hi);
        if (!v->is_number()) {
            note(fail(field(key), ErrorCode::wrong_type, field(key) + " must be " + range));
            return std::nullopt;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
            note(fail(field(key), ErrorCode::out_of_range, field(key) + " is " + v->dump() + "; it must be " + range));
            return std::nullopt;
        }
        return static_cast<int64_t>(d);
    }
    bool flag(const char* key, bool fallback) {
        const json* v = find(key);
        if (!v) return fallback;
        if (!v->is_boolean()) {
            note(fail(field(key), ErrorCode::wrong_type, field(key) + " must be true or false"));
            return fallback;
        }
        return v->get<bool>();
    }
    std::string text(const char* key) const {
        const json* v = find(key);
        return v && v->is_string() ? v->get<std::string>() : std::string();
    }
    void note(InputError e) {
        if (!error) error = std::move(e);
    }
    std::optional<InputError> error;

private:
    const json& text_;
    const json& top_;
    std::string prefix_;
};

// vLLM's derived max_model_len: max_position_embeddings, times the rope scaling factor for the
// scaling types that extend the context (yarn, dynamic); yarn starts from
// original_max_position_embeddings.
int64_t derived_max_len(ConfigReader& c, ModelSpec& m) {
    int64_t len = c.integer("max_position_embeddings", 1, ConfigLimits::max_positions).value_or(0);
    const json* rope = c.find("rope_scaling");
    if (!rope || !rope->is_object() || len == 0) return len;
    std::string type = text_or(*rope, "rope_type", text_or(*rope, "type", ""));
    const double factor = rope->contains("factor") && (*rope)["factor"].is_number() ? (*rope)["factor"].get<double>() : 1.0;
    // Only the types that stretch the trained context do; linear scaling (Gemma 3) is already in
    // max_position_embeddings.
    if ((type != "yarn" && type != "dynamic") || factor <= 1.0) return len;
    double base = static_cast<double>(len);
    if (type == "yarn" && rope->contains("original_max_position_embeddings") && (*rope)["original_max_position_embeddings"].is_number())
        base = (*rope)["original_max_position_embeddings"].get<double>();
    const auto scaled = static_cast<int64_t>(std::min(base * factor, static_cast<double>(ConfigLimits::max_positions)));
    m.derived.push_back({"max_position_embeddings",
                         "scaled by rope_scaling (" + type + ", factor " + format_fixed(factor, 1) + ") to " + format_count(scaled)});
    return scaled;
}

void read_quantization(ConfigReader& c, ModelSpec& m) {
    const json* q = c.find("quantization_config");
    if (!q || !q->is_object()) return;
    const std::string method = text_or(*q, "quant_method", "");
    const int bits = (*q).contains("bits") && (*q)["bits"].is_number_integer() ? (*q)["bits"].get<int>() : 0;
    const auto group =
        (*q).contains("group_size") && (*q)["group_size"].is_number_integer() ? (*q)["group_size"].get<int64_t>() : int64_t{128};
    // GPTQ and AWQ at 8 bits store one byte a weight, as FP8 does.
    const bool one_byte =
        method == "fp8" || method == "fbgemm_fp8" || method == "modelopt" || ((method == "gptq" || method == "awq") && bits == 8);
    if (one_byte) {
        m.weight_format = WeightFormat::fp8;
    } else if (method == "mxfp4") {
        m.weight_format = WeightFormat::mxfp4_experts;
    } else if ((method == "awq" || method == "gptq" || method == "awq_marlin" || method == "gptq_marlin") && bits == 4) {
        m.weight_format = WeightFormat::int4_grouped;
        m.quant_group_size = group > 0 ? group : 0;
    } else if (method == "compressed-tensors" && q->contains("config_groups") && (*q)["config_groups"].is_object()) {
        for (const auto& [name, g] : (*q)["config_groups"].items()) {
            const json w = g.is_object() && g.contains("weights") ? g["weights"] : json::object();
            const int64_t nbits = integer_or(w, "num_bits", 16);
            if (nbits == 8) m.weight_format = WeightFormat::fp8;
            if (nbits == 4) {
                m.weight_format = WeightFormat::int4_grouped;
                m.quant_group_size = std::max<int64_t>(0, integer_or(w, "group_size", 0));
            }
            (void)name;
            break;
        }
    } else {
        c.note(fail(c.field("quantization_config"), ErrorCode::unknown_value,
                    c.field("quantization_config") + ".quant_method \"" + method +
                        "\" is not modelled; use fp8, mxfp4, awq or gptq (4 or 8 bits), or compressed-tensors"));
        return;
    }
    m.derived.push_back({"weights", std::string("quantization_config: ") + method + " (" + weight_format_name(m.weight_format) +
                                        " linear layers; embedding and lm_head 16-bit)"});
}

// Hybrid models (Qwen3-Next) list linear-attention layers: they keep a fixed-size state per
// request instead of a KV cache, which this model leaves out.
void read_linear_layers(ConfigReader& c, ModelSpec& m) {
    const json* types = c.find("layer_types");
    if (!types || !types->is_array()) return;
    int64_t linear = 0;
    for (const auto& t : *types) linear += t == "linear_attention" ? 1 : 0;
    if (linear == 0) return;
    m.num_linear_layers = std::min(linear, m.num_hidden_layers - 1);
    m.derived.push_back({"linear-attention layers", format_count(m.num_linear_layers) +
                                                        " layers keep a fixed-size state instead of a KV cache; the model "
                                                        "leaves that state out and caches the other " +
                                                        format_count(m.num_hidden_layers - m.num_linear_layers)});
}

void read_sliding_window(ConfigReader& c, ModelSpec& m) {
    if (!c.flag("use_sliding_window", true)) return;  // Qwen2 ships a window it does not use
    const auto window = c.integer("sliding_window", 1, ConfigLimits::max_positions);
    if (!window) return;
    m.sliding_window = *window;
    const int64_t layers = m.num_hidden_layers;
    if (const json* types = c.find("layer_types"); types && types->is_array()) {
        int64_t sliding = 0;
        for (const auto& t : *types) sliding += t == "sliding_attention" ? 1 : 0;
        m.num_sliding_layers = std::min(sliding, layers);
        m.derived.push_back({"sliding layers", "layer_types: " + format_count(m.num_sliding_layers) + " of " + format_count(layers) +
                                                   " layers use a " + format_count(*window) + "-token window"});
        return;
    }
    if (const auto pattern = c.integer("sliding_window_pattern", 1, ConfigLimits::max_layers)) {
        // Gemma 3: every pattern-th layer is global.
        m.num_sliding_layers = layers - layers / *pattern;
    } else if (m.model_type == "gemma2") {
        m.num_sliding_layers = (layers + 1) / 2;  // alternate layers, starting with a sliding one
    } else {
        m.num_sliding_layers = layers;  // one window for every layer (Mistral v0.1)
    }
    m.derived.push_back({"sliding layers", format_count(m.num_sliding_layers) + " of " + format_count(layers) + " layers use a " +
                                               format_count(*window) + "-token window (" + m.model_type + " layout)"});
}

void read_moe(ConfigReader& c, ModelSpec& m) {
    int64_t experts = 0;
    for (const char* key : {"num_experts", "num_local_experts", "n_routed_experts"})
        if (auto v = c.integer(key, 0, ConfigLimits::max_experts)) experts = std::max(experts, *v);
    if (experts <= 1) return;
    m.num_experts = experts;
    m.experts_per_token = c.integer("num_experts_per_tok", 1, experts).value_or(c.integer("experts_per_token", 1, experts).value_or(2));
    m.moe_intermediate_size = c.integer("moe_intermediate_size", 1, ConfigLimits::max_intermediate).value_or(m.intermediate_size);
    const int64_t shared = c.integer("n_shared_experts", 0, ConfigLimits::max_experts).value_or(0);
    m.shared_expert_intermediate_size =
        c.integer("shared_expert_intermediate_size", 0, ConfigLimits::max_intermediate).value_or(shared * m.moe_intermediate_size);
    m.num_dense_layers = c.integer("first_k_dense_replace", 0, m.num_hidden_layers).value_or(0);
    m.derived.push_back({"experts", format_count(experts) + " experts of width " + format_count(m.moe_intermediate_size) + ", " +
                                        format_count(m.experts_per_token) + " per token"});
}

void read_mla(ConfigReader& c, ModelSpec& m) {
    const auto rank = c.integer("kv_lora_rank", 0, ConfigLimits::max_lora_rank);
    if (!rank || *rank == 0) return;
    m.attention = AttentionKind::mla;
    m.kv_lora_rank = *rank;
    m.q_lora_rank = c.integer("q_lora_rank", 0, ConfigLimits::max_lora_rank).value_or(0);
    m.qk_rope_head_dim = c.integer("qk_rope_head_dim", 1, ConfigLimits::max_head_dim).value_or(64);
    m.qk_nope_head_dim = c.integer("qk_nope_head_dim", 1, ConfigLimits::max_head_dim).value_or(128);
    m.v_head_dim = c.integer("v_head_dim", 1, ConfigLimits::max_head_dim).value_or(m.qk_nope_head_dim);
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    m.num_key_value_heads = m.num_attention_heads;  // every head reads the one shared latent
    m.derived.push_back(
        {"attention", "MLA: one latent of kv_lora_rank + qk_rope_head_dim = " + format_count(m.kv_lora_rank + m.qk_rope_head_dim) +
                          " elements per token and layer, not split by tensor parallelism"});
}

// Defaults of transformers' config classes for keys a published config.json may leave out.
struct TypeDefaults {
    const char* model_type;
    bool tie_word_embeddings;
    int64_t vocab_size, max_position_embeddings, sliding_window_pattern;
};
const TypeDefaults type_defaults[] = {
    {"gemma", true, 256000, 8192, 0},
    {"gemma2", true, 256000, 8192, 0},
    {"gemma3_text", true, 262208, 131072, 6},
    {"gemma3", true, 262208, 131072, 6},
};
const TypeDefaults* defaults_for(const std::string& model_type) {
    for (const TypeDefaults& d : type_defaults)
        if (model_type == d.model_type) return &d;
    return nullptr;
}

// The config.json keys the reader uses; an unknown key one edit from one of these is flagged.
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
                                  "first_k_dense_replace",
                                  "kv_lora_rank",
                                  "q_lora_rank",
                                  "qk_rope_head_dim",
                                  "qk_nope_head_dim",
                                  "v_head_dim"};

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
        bool known = false;
        for (const char* k : known_keys) known = known || key == k;
        if (known) continue;
        for (const char* k : known_keys)
            if (one_edit_apart(key, k)) m.suspicious_keys.push_back({key, k});
    }
}

}  // namespace

std::variant<ModelSpec, InputError> model_from_config(const json& config, const std::string& prefix) {
    if (!config.is_object()) return fail(prefix, ErrorCode::wrong_type, prefix + " must be a config.json object");
    const bool nested = config.contains("text_config") && config["text_config"].is_object();
    json text = nested ? config["text_config"] : config;
    // Keys the config class supplies when the file leaves them out.
    std::vector<std::string> supplied;
    std::string type = text_or(text, "model_type", text_or(config, "model_type", ""));
    if (const TypeDefaults* d = defaults_for(type)) {
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
    }
    ConfigReader c(text, config, nested ? prefix + ".text_config" : prefix);
    ModelSpec m;
    m.name = prefix;
    m.model_type = c.text("model_type");
    if (m.model_type.empty()) m.model_type = text_or(config, "model_type", "");
    m.multimodal = nested;
    if (nested) m.derived.push_back({"model", "multimodal config: its text_config is read; the vision encoder is left out"});
    for (const std::string& key : supplied)
        m.derived.push_back({key, "absent: the " + type + " config class's default, " + text[key].dump()});

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
        if (c.error) return *c.error;
    }
    m.intermediate_size = c.integer("intermediate_size", 1, ConfigLimits::max_intermediate).value_or(0);
    if (c.error) return *c.error;

    if (auto kv = c.integer("num_key_value_heads", 1, ConfigLimits::max_heads)) {
        m.num_key_value_heads = *kv;
        if (m.num_attention_heads % m.num_key_value_heads != 0)
            return fail(c.field("num_key_value_heads"), ErrorCode::inconsistent_config,
                        c.field("num_key_value_heads") + " is " + std::to_string(m.num_key_value_heads) +
                            "; it must divide num_attention_heads (" + std::to_string(m.num_attention_heads) + ")");
    } else {
        if (c.error) return *c.error;
        m.num_key_value_heads = m.num_attention_heads;
        m.derived.push_back({"num_key_value_heads",
                             "absent: equal to num_attention_heads (" + format_count(m.num_attention_heads) + "), multi-head attention"});
    }
    if (auto hd = c.integer("head_dim", 1, ConfigLimits::max_head_dim)) {
        m.head_dim = *hd;
    } else {
        if (c.error) return *c.error;
        if (m.hidden_size % m.num_attention_heads != 0)
            return fail(c.field("head_dim"), ErrorCode::inconsistent_config,
                        c.field("head_dim") + " is absent and hidden_size (" + std::to_string(m.hidden_size) +
                            ") is not a multiple of num_attention_heads (" + std::to_string(m.num_attention_heads) + ")");
        m.head_dim = m.hidden_size / m.num_attention_heads;
        m.derived.push_back({"head_dim", "absent: hidden_size / num_attention_heads = " + format_count(m.head_dim)});
    }
    m.max_position_embeddings = derived_max_len(c, m);
    m.tie_word_embeddings = c.flag("tie_word_embeddings", false);
    // Qwen2 always has q/k/v biases; its config.json does not say so.
    const bool qwen2 = m.model_type == "qwen2" || m.model_type == "qwen2_moe";
    m.attention_bias = c.flag("attention_bias", c.flag("qkv_bias", qwen2));
    if (qwen2 && !c.find("attention_bias")) m.derived.push_back({"attention_bias", "qwen2 layers have q/k/v biases"});
    // Gemma 2 and 3 normalise before and after both attention and MLP.
    m.norms_per_layer = m.model_type.rfind("gemma2", 0) == 0 || m.model_type.rfind("gemma3", 0) == 0 ? 4 : 2;
    m.qk_norm = m.model_type == "qwen3" || m.model_type == "qwen3_moe" || m.model_type.rfind("gemma3", 0) == 0;
    read_mla(c, m);
    read_moe(c, m);
    read_linear_layers(c, m);
    read_sliding_window(c, m);
    read_quantization(c, m);
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

// A config.json that reads back to the same ModelSpec.
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
    if (m.num_experts > 0)
        c.update({{"num_experts", m.num_experts},
                  {"num_experts_per_tok", m.experts_per_token},
                  {"moe_intermediate_size", m.moe_intermediate_size},
                  {"shared_expert_intermediate_size", m.shared_expert_intermediate_size},
                  {"first_k_dense_replace", m.num_dense_layers}});
    if (m.sliding_window > 0) {
        json types = json::array();
        for (int64_t i = 0; i < m.num_hidden_layers; ++i)
            types.push_back(i < m.num_sliding_layers ? "sliding_attention" : "full_attention");
        c.update({{"sliding_window", m.sliding_window}, {"layer_types", types}});
    }
    switch (m.weight_format) {
        case WeightFormat::bf16:
            break;
        case WeightFormat::fp8:
            c["quantization_config"] = {{"quant_method", "fp8"}};
            break;
        case WeightFormat::int4_grouped:
            c["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}, {"group_size", m.quant_group_size}};
            break;
        case WeightFormat::mxfp4_experts:
            c["quantization_config"] = {{"quant_method", "mxfp4"}};
            break;
    }
    return c;
}

}  // namespace kv
