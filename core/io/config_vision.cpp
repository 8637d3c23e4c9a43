// A multimodal config.json's vision_config: the tower families the model counts (model_spec.hpp),
// keyed by the top-level model_type as transformers names them.
#include "io/config_reader.hpp"

namespace kv::config {

namespace {

// Gemma 3's SiglipVisionConfig, Qwen2-VL's Qwen2VLVisionConfig and Qwen2.5-VL's
// Qwen2_5_VLVisionConfig, each with the keys its class names.
void read_tower(ConfigReader& v, ConfigReader& top, VisionEncoder& e) {
    const auto width = [&](const char* key) { return v.integer(key, 1, ConfigLimits::max_hidden).value_or(0); };
    e.patch_size = width("patch_size");
    e.in_channels = v.integer(v.find("in_channels") ? "in_channels" : "in_chans", 1, 16).value_or(3);
    if (e.family == VisionFamily::siglip) {
        e.num_layers = v.integer("num_hidden_layers", 1, ConfigLimits::max_layers).value_or(0);
        e.hidden_size = width("hidden_size");
        e.intermediate_size = width("intermediate_size");
        e.image_size = width("image_size");
        e.tokens_per_image = top.integer("mm_tokens_per_image", 1, 1 << 20).value_or(256);  // Gemma3Config's default
        return;
    }
    e.num_layers = v.integer("depth", 1, ConfigLimits::max_layers).value_or(0);
    e.temporal_patch_size = v.integer("temporal_patch_size", 1, 16).value_or(2);
    e.spatial_merge_size = v.integer("spatial_merge_size", 1, 16).value_or(2);
    if (e.family == VisionFamily::qwen2_vl) {  // embed_dim wide, mlp_ratio x wider MLP; hidden_size is the output
        e.hidden_size = width("embed_dim");
        e.intermediate_size = e.hidden_size * v.integer("mlp_ratio", 1, 64).value_or(4);
        e.out_hidden_size = width("hidden_size");
    } else {
        e.hidden_size = width("hidden_size");
        e.intermediate_size = width("intermediate_size");
        e.out_hidden_size = width("out_hidden_size");
    }
}

}  // namespace

void read_vision(const json& config, const std::string& prefix, ModelSpec& m, std::optional<InputError>& error) {
    if (!config.contains("vision_config") || !config["vision_config"].is_object()) return;
    const std::string type = text_or(config, "model_type", "");
    VisionEncoder e;
    e.family = type == "gemma3"       ? VisionFamily::siglip
               : type == "qwen2_vl"   ? VisionFamily::qwen2_vl
               : type == "qwen2_5_vl" ? VisionFamily::qwen2_5_vl
                                      : VisionFamily::none;
    if (e.family == VisionFamily::none) {
        m.derived.push_back({"vision_config", "this vision encoder (" + type + ") is left out"});
        return;
    }
    const json& vision = config["vision_config"];
    ConfigReader v(vision, vision, prefix + ".vision_config"), top(config, config, prefix);
    read_tower(v, top, e);
    if (v.error || top.error) {
        if (!error) error = v.error ? v.error : top.error;
        return;
    }
    if (e.num_layers == 0 || e.hidden_size == 0 || e.intermediate_size == 0 || e.patch_size == 0 ||
        (e.family == VisionFamily::siglip ? e.image_size == 0 : e.out_hidden_size == 0)) {
        m.derived.push_back({"vision_config", "the vision encoder is left out: vision_config lacks its widths"});
        return;
    }
    m.vision = e;
}

}  // namespace kv::config
