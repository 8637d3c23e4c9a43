// A multimodal model's vision encoder at start-up (V1). Its tower loads with the weights, split by
// tensor parallelism like the language model's layers, on the first pipeline stage. Before the
// language model's dummy pass, the profile run encodes images of the largest size the processor
// accepts (gpu_model_runner.py profile_run, vllm/multimodal/encoder_budget.py):
//   budget = max(max_num_batched_tokens, tokens of one largest image) (compute_mm_encoder_budget:
//            the encoder's compute budget and the cache's size, both in prompt tokens);
//   items  = max(1, min(budget / image tokens, max_num_seqs x images per prompt)), the prompt limit
//            being --limit-mm-per-prompt (V1's default 999) within max_model_len;
// all in one batch through the tower. The tower's forward pass over their patches is one peak; its
// outputs (image tokens x the text width) then stay in the encoder cache through the language
// model's pass, the other. The HF processor hands over float32 pixels, cast to the model's dtype.
// V0 profiles images inside its dummy sequences instead, which the model leaves out; so are video
// items (the real Qwen logs of 0.9 to 0.18 profile images, up to max_model_len 262,144),
// --limit-mm-per-prompt and --mm-processor-kwargs (a smaller max_pixels shrinks the image tokens).
#pragma once
#include <cstdint>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "model/model_spec.hpp"
#include "scenario/defaults.hpp"

namespace kv {

struct EncoderProfile {
    int64_t budget_tokens = 0;      // the engine's "Encoder cache will be initialized with a budget of"
    int64_t items = 0;              // "... and profiled with N image items of the maximum feature size"
    int64_t item_tokens = 0;        // tokens of one largest image
    double forward_peak_bytes = 0;  // the tower's pass over every item's patches, pixels included
    double held_bytes = 0;          // its outputs and the float32 pixels, held through the language model's pass
};

// The vision tower's weights on one rank (16-bit, split by tensor parallelism); 0 without one.
double vision_weight_bytes(const ModelSpec& model, int64_t tensor_parallel_size);
// The profile run's images; items 0 without a tower or in V0.
EncoderProfile encoder_profile(const ModelSpec& model, const ResolvedLimits& limits, const EngineRules& rules, int64_t tensor_parallel_size,
                               const Calibration& calibration);

}  // namespace kv
