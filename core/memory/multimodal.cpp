#include "memory/multimodal.hpp"

#include <algorithm>

namespace kv {
namespace {

double to_d(int64_t v) { return static_cast<double>(v); }

constexpr int64_t default_images_per_prompt = 999;  // MultiModalConfig.get_limit_per_prompt under V1

}  // namespace

double vision_weight_bytes(const ModelSpec& m, int64_t tp) {
    constexpr double model_dtype_bytes = 2.0;
    return to_d(vision_parameter_count(m)) * model_dtype_bytes / to_d(std::max<int64_t>(1, tp));
}

EncoderProfile encoder_profile(const ModelSpec& m, const ResolvedLimits& lim, const EngineRules& rules, int64_t tp, const Calibration& c) {
    EncoderProfile e;
    e.item_tokens = max_image_tokens(m);
    if (!rules.v1_engine || e.item_tokens <= 0) return e;
    e.budget_tokens = std::max(lim.max_num_batched_tokens, e.item_tokens);
    const int64_t per_prompt = std::max<int64_t>(1, std::min(default_images_per_prompt, lim.max_model_len / e.item_tokens));
    e.items = std::max<int64_t>(1, std::min(e.budget_tokens / e.item_tokens, lim.max_num_seqs * per_prompt));

    // The tower's layers hold what a decoder layer holds per token (calibration.hpp's forward
    // buffers at the tower's widths, q/k/v and the MLP split by tensor parallelism), per patch.
    const VisionEncoder& v = m.vision;
    const double patches = to_d(e.items * e.item_tokens * vision_patches_per_token(m));
    const double element = to_d(c.activation_bytes_per_element);
    const double per_patch = c.forward_hidden_buffers * to_d(v.hidden_size) + c.forward_mlp_buffers * to_d(v.intermediate_size) / to_d(tp) +
                             c.forward_qkv_buffers * 3.0 * to_d(v.hidden_size) / to_d(tp);
    // The dummy inputs stay referenced through the whole profile run; their cast only through the tower.
    const double pixels = patches * to_d(v.in_channels * v.temporal_patch_size * v.patch_size * v.patch_size);
    constexpr double float32_bytes = 4.0;
    e.forward_peak_bytes = patches * element * per_patch + pixels * (float32_bytes + element);
    e.held_bytes = to_d(e.items * e.item_tokens) * to_d(m.hidden_size) * element + pixels * float32_bytes;
    return e;
}

}  // namespace kv
