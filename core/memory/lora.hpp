// LoRA buffers: with --enable-lora vLLM wraps its linear layers at load time and allocates, in each,
// stacked A and B matrices for max_loras adapters of max_lora_rank, in the model's 16-bit dtype
// (vllm/lora/layers/*.py, create_lora_weights), whether or not an adapter is ever loaded. Per
// wrapped projection from `in` to `out` features, A is rank x in and B is out x rank, as each rank
// holds them: a column-parallel layer (qkv, gate_up) keeps A whole and B's share of the outputs; a
// row-parallel one (o_proj, down_proj) keeps A's share of the inputs and B whole. Wrapped too: the
// embedding (A over the whole vocabulary, B hidden wide), the lm_head (A hidden wide, B over the
// vocabulary), every linear of an MoE layer (router, shared experts) and, from 0.11.1 (PR #21229,
// FusedMoEWithLoRA), its routed experts. The profile run's dummy adapters are copied into these
// buffers, so the activation peak barely moves (a few float32 intermediates per layer, left out).
#pragma once
#include <cstdint>

#include "engine/engine_rules.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// The LoRA buffers one rank holds for `layers` of the model's decoder layers (the first stage adds
// the embedding's, the last the lm_head's); 0 without enable_lora.
double lora_buffer_bytes(const ModelSpec& model, const Scenario& scenario, const EngineRules& rules, int64_t layers, bool first, bool last);

}  // namespace kv
