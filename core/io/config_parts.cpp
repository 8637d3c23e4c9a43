// The parts of a config.json beyond the widths: rope-scaled context, quantization_config,
// linear-attention and sliding-window layers, mixture of experts and MLA.
#include <algorithm>
#include <string_view>
#include <vector>

#include "io/config_reader.hpp"

namespace kv::config {

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
        if (const json* block = q->contains("weight_block_size") ? &(*q)["weight_block_size"] : nullptr;
            block && block->is_array() && !block->empty() && (*block)[0].is_number_integer())
            m.weight_block_size = std::max<int64_t>(0, (*block)[0].get<int64_t>());
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

// Hybrid models (Qwen3-Next) list linear-attention layers in layer_types; Qwen3-Next's config class
// derives them from full_attention_interval when layer_types is absent (every interval-th layer is
// full attention). Each keeps a fixed-size state per request, sized by the linear_* widths.
int64_t count_linear_layers(ConfigReader& c, const ModelSpec& m) {
    if (const json* types = c.find("layer_types"); types && types->is_array()) {
        int64_t linear = 0;
        for (const auto& t : *types) linear += t == "linear_attention" ? 1 : 0;
        return linear;
    }
    const auto interval = c.integer("full_attention_interval", 1, ConfigLimits::max_layers);
    return interval ? m.num_hidden_layers - m.num_hidden_layers / *interval : 0;
}

// A width a linear layer's state needs: the key, where it goes, its largest value.
struct StateWidth {
    const char* key;
    int64_t ModelSpec::*member;
    int64_t max;
};

// Reads every width (each required, from 1 to its max); false, with the first missing one noted.
template <size_t N>
bool read_state_widths(ConfigReader& c, ModelSpec& m, const StateWidth (&widths)[N], const char* layers) {
    for (const StateWidth& w : widths) {
        const auto v = c.integer(w.key, 1, w.max);
        if (!v) {
            c.note(fail(c.field(w.key), ErrorCode::missing_field,
                        c.field(w.key) + " is needed for the " + layers + " state (a whole number from 1 to " + format_count(w.max) + ")"));
            return false;
        }
        m.*w.member = *v;
    }
    return true;
}

void note_state_layers(ModelSpec& m, const char* kind) {
    m.derived.push_back({"linear-attention layers", format_count(m.num_linear_layers) + " " + kind +
                                                        " layers keep a fixed-size state per request instead of a KV cache; " +
                                                        format_count(num_kv_cache_layers(m)) + " attention layers cache keys and values"});
}

// Granite 4.0-H's layer_types name its Mamba2 layers "mamba"; the mixer's widths are the mamba_*
// keys, as vLLM's granitemoehybrid.py hands them to MambaMixer2 (inner width mamba_expand x
// hidden_size, which mamba_n_heads x mamba_d_head must equal).
int64_t count_mamba_layers(ConfigReader& c) {
    const json* types = c.find("layer_types");
    if (!types || !types->is_array()) return 0;
    int64_t mamba = 0;
    for (const auto& t : *types) mamba += t == "mamba" ? 1 : 0;
    return mamba;
}

void read_mamba_layers(ConfigReader& c, ModelSpec& m, int64_t mamba) {
    m.linear_kind = LinearKind::mamba2;
    m.num_linear_layers = std::min(mamba, m.num_hidden_layers - 1);
    const StateWidth widths[] = {{"mamba_n_heads", &ModelSpec::mamba_num_heads, ConfigLimits::max_heads},
                                 {"mamba_d_head", &ModelSpec::mamba_head_dim, ConfigLimits::max_head_dim},
                                 {"mamba_d_state", &ModelSpec::mamba_state_size, ConfigLimits::max_head_dim},
                                 {"mamba_n_groups", &ModelSpec::mamba_num_groups, ConfigLimits::max_heads},
                                 {"mamba_d_conv", &ModelSpec::linear_conv_kernel, 64}};
    if (!read_state_widths(c, m, widths, "Mamba2 layers'")) return;
    // The inner width is mamba_expand x hidden_size (the config class's default expand is 2).
    const int64_t inner = c.integer("mamba_expand", 1, 64).value_or(2) * m.hidden_size;
    if (c.error) return;
    if (mamba_inner_width(m) != inner) {
        c.note(fail(c.field("mamba_d_head"), ErrorCode::inconsistent_config,
                    c.field("mamba_n_heads") + " x " + c.field("mamba_d_head") + " must equal mamba_expand x hidden_size (" +
                        format_count(inner) + ")"));
        return;
    }
    m.mamba_conv_bias = c.flag("mamba_conv_bias", true);
    m.mamba_proj_bias = c.flag("mamba_proj_bias", false);
    note_state_layers(m, "Mamba2");
}

// Nemotron-H (vLLM's nemotron_h.py): hybrid_override_pattern gives each layer one block, M a Mamba2
// mixer, * attention, - an MLP and E a mixture of experts, each behind one norm. The MLPs and
// experts are relu^2 without a gate (up and down alone); the mixer's inner width is
// mamba_num_heads x mamba_head_dim, and the recurrent state's dtype may come from the config
// (mamba_ssm_cache_dtype, which releases read it: EngineRules::nemotron_h_ssm_fallback_bytes).
void read_nemotron_h(ConfigReader& c, ModelSpec& m, const std::string& pattern) {
    const char* key = "hybrid_override_pattern";
    int64_t count[4] = {0, 0, 0, 0};  // M, *, -, E
    const std::string blocks = "M*-E";
    for (char b : pattern) {
        const size_t at = blocks.find(b);
        if (at == std::string::npos) {
            c.note(fail(c.field(key), ErrorCode::out_of_range,
                        c.field(key) + " holds '" + std::string(1, b) + "'; each layer must be M, *, - or E"));
            return;
        }
        ++count[at];
    }
    if (static_cast<int64_t>(pattern.size()) != m.num_hidden_layers || count[1] == 0) {
        c.note(fail(c.field(key), ErrorCode::inconsistent_config,
                    c.field(key) + " must name one block for each of the " + format_count(m.num_hidden_layers) +
                        " layers (num_hidden_layers), at least one of them attention (*); it has " + format_count(pattern.size()) +
                        " and " + format_count(count[1])));
        return;
    }
    const int64_t dense = count[2], moe = count[3];
    // Latent experts (nemotron_h.py's NemotronHMoE from PR #30203): routed experts at this width.
    if (moe > 0) m.moe_latent_size = c.integer("moe_latent_size", 1, m.hidden_size).value_or(0);
    if (c.error) return;
    if (m.moe_latent_size > 0)
        m.derived.push_back({"moe_latent_size", "the routed experts run at " + format_count(m.moe_latent_size) +
                                                    " wide, between a projection down from the hidden state and one back"});
    if (moe > 0 && m.num_experts == 0) {
        c.note(fail(c.field("n_routed_experts"), ErrorCode::missing_field,
                    c.field("n_routed_experts") + " is needed for the " + format_count(moe) + " MoE layers (E)"));
        return;
    }
    if (moe == 0) m.num_experts = 0;  // experts the pattern never places are not built
    m.num_dense_layers = moe > 0 ? dense : 0;
    m.num_mlp_only_layers = dense + moe;
    m.gated_mlp = false;
    m.norms_per_layer = 1;
    m.linear_kind = LinearKind::mamba2;
    m.num_linear_layers = count[0];
    const StateWidth widths[] = {{"mamba_num_heads", &ModelSpec::mamba_num_heads, ConfigLimits::max_heads},
                                 {"mamba_head_dim", &ModelSpec::mamba_head_dim, ConfigLimits::max_head_dim},
                                 {"ssm_state_size", &ModelSpec::mamba_state_size, ConfigLimits::max_head_dim},
                                 {"n_groups", &ModelSpec::mamba_num_groups, ConfigLimits::max_heads},
                                 {"conv_kernel", &ModelSpec::linear_conv_kernel, 64}};
    if (count[0] > 0 && !read_state_widths(c, m, widths, "Mamba2 layers'")) return;
    m.mamba_conv_bias = c.flag("use_conv_bias", true);
    m.mamba_proj_bias = c.flag("use_bias", false);
    const std::string ssm = c.text("mamba_ssm_cache_dtype");
    if (ssm == "float32") m.mamba_ssm_config_bytes = 4;
    else if (ssm == "float16") m.mamba_ssm_config_bytes = 2;
    else if (!ssm.empty() && ssm != "auto")  // the values --mamba-ssm-cache-dtype takes
        c.note(fail(c.field("mamba_ssm_cache_dtype"), ErrorCode::out_of_range,
                    c.field("mamba_ssm_cache_dtype") + " is \"" + ssm + "\"; it must be float32, float16 or auto"));
    m.derived.push_back({"layers", key + std::string(": ") + format_count(count[0]) + " Mamba2, " + format_count(count[1]) +
                                       " attention, " + format_count(dense) + " MLP and " + format_count(moe) +
                                       " MoE layers, one block each; MLPs relu^2 without a gate"});
    if (count[0] > 0) note_state_layers(m, "Mamba2");
}

// Jamba (vLLM's jamba.py, transformers' JambaConfig): layer i is attention when i % attn_layer_period
// is attn_layer_offset, else a Mamba1 mixer; its MLP a mixture of experts, each as wide as
// intermediate_size, when i % expert_layer_period is expert_layer_offset, else dense. The mixer's
// inner width is mamba_expand x hidden_size; mamba_dt_rank "auto" is hidden_size / 16, rounded up.
void read_jamba(ConfigReader& c, ModelSpec& m) {
    const auto every = [&](const char* period_key, int64_t period_default, const char* offset_key, int64_t offset_default, int64_t& period,
                           int64_t& offset) {
        period = c.integer(period_key, 1, m.num_hidden_layers).value_or(period_default);
        offset = c.integer(offset_key, 0, period - 1).value_or(offset_default);
        int64_t hits = 0;
        for (int64_t i = 0; i < m.num_hidden_layers; ++i) hits += i % period == offset ? 1 : 0;
        return hits;
    };
    const int64_t attention = every("attn_layer_period", 8, "attn_layer_offset", 4, m.attn_layer_period, m.attn_layer_offset);
    const int64_t moe = every("expert_layer_period", 2, "expert_layer_offset", 1, m.expert_layer_period, m.expert_layer_offset);
    if (c.error) return;  // a period within the layers and an offset within the period place at least one
    if (m.num_experts > 0) m.num_dense_layers = m.num_hidden_layers - moe;
    m.linear_kind = LinearKind::mamba1;
    m.num_linear_layers = m.num_hidden_layers - attention;
    const StateWidth widths[] = {{"mamba_d_state", &ModelSpec::mamba_state_size, ConfigLimits::max_head_dim},
                                 {"mamba_d_conv", &ModelSpec::linear_conv_kernel, 64}};
    if (!read_state_widths(c, m, widths, "Mamba layers'")) return;
    m.mamba_intermediate_size = c.integer("mamba_expand", 1, 64).value_or(2) * m.hidden_size;
    const json* rank = c.find("mamba_dt_rank");
    m.mamba_dt_rank = rank && rank->is_string() && *rank == "auto"
                          ? (m.hidden_size + 15) / 16
                          : c.integer("mamba_dt_rank", 1, m.hidden_size).value_or((m.hidden_size + 15) / 16);
    m.mamba_conv_bias = c.flag("mamba_conv_bias", true);
    m.mamba_proj_bias = c.flag("mamba_proj_bias", false);
    m.derived.push_back({"layers", format_count(attention) + " attention and " + format_count(m.num_linear_layers) +
                                       " Mamba1 layers (attn_layer_period, attn_layer_offset); " + format_count(moe) +
                                       " MLPs are mixtures of experts (expert_layer_period, expert_layer_offset)"});
    note_state_layers(m, "Mamba1");
}

void read_linear_layers(ConfigReader& c, ModelSpec& m) {
    if (m.model_type == "jamba") {
        read_jamba(c, m);
        return;
    }
    if (const json* pattern = c.find("hybrid_override_pattern")) {
        if (pattern->is_string()) read_nemotron_h(c, m, pattern->get<std::string>());
        else
            c.note(fail(c.field("hybrid_override_pattern"), ErrorCode::wrong_type,
                        c.field("hybrid_override_pattern") + " must be a string of M, *, - and E, one for each layer"));
        return;
    }
    if (const int64_t mamba = count_mamba_layers(c); mamba > 0) {
        read_mamba_layers(c, m, mamba);
        return;
    }
    const int64_t linear = count_linear_layers(c, m);
    if (linear == 0) return;
    m.num_linear_layers = std::min(linear, m.num_hidden_layers - 1);
    const StateWidth widths[] = {{"linear_num_key_heads", &ModelSpec::linear_num_key_heads, ConfigLimits::max_heads},
                                 {"linear_num_value_heads", &ModelSpec::linear_num_value_heads, ConfigLimits::max_heads},
                                 {"linear_key_head_dim", &ModelSpec::linear_key_head_dim, ConfigLimits::max_head_dim},
                                 {"linear_value_head_dim", &ModelSpec::linear_value_head_dim, ConfigLimits::max_head_dim},
                                 {"linear_conv_kernel_dim", &ModelSpec::linear_conv_kernel, 64}};
    if (!read_state_widths(c, m, widths, "linear-attention layers'")) return;
    m.attention_output_gate = m.model_type == "qwen3_next" && c.flag("attn_output_gate", true);
    note_state_layers(m, "Gated DeltaNet");
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
    // Granite 4.0-H: each layer's shared MLP is shared_intermediate_size wide, beside the experts
    // of intermediate_size when num_local_experts is not 0 (granitemoehybrid.py).
    const auto granite_shared =
        m.model_type == "granitemoehybrid" ? c.integer("shared_intermediate_size", 0, ConfigLimits::max_intermediate) : std::nullopt;
    if (granite_shared && experts <= 1) {
        m.intermediate_size = *granite_shared;
        m.derived.push_back(
            {"intermediate_size", "shared_intermediate_size: every layer's MLP, " + format_count(*granite_shared) + " wide"});
        return;
    }
    if (experts <= 1) return;
    m.num_experts = experts;
    m.experts_per_token = c.integer("num_experts_per_tok", 1, experts).value_or(c.integer("experts_per_token", 1, experts).value_or(2));
    m.moe_intermediate_size = c.integer("moe_intermediate_size", 1, ConfigLimits::max_intermediate).value_or(m.intermediate_size);
    const int64_t shared = c.integer("n_shared_experts", 0, ConfigLimits::max_experts).value_or(0);
    m.shared_expert_intermediate_size =
        c.integer("shared_expert_intermediate_size", 0, ConfigLimits::max_intermediate).value_or(shared * m.moe_intermediate_size);
    if (granite_shared) m.shared_expert_intermediate_size = *granite_shared;
    // Nemotron-H: n_shared_experts of moe_shared_expert_intermediate_size each (nemotron_h.py).
    if (auto width = c.integer("moe_shared_expert_intermediate_size", 0, ConfigLimits::max_intermediate))
        m.shared_expert_intermediate_size = std::max<int64_t>(shared, 1) * *width;
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

}  // namespace kv::config
