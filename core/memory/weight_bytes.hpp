// What a rank's weights are made of, in bytes as loaded: the quantised linear layers, the 16-bit
// vocabulary tables and the routed experts (the parts a step reads differently from the rest).
#pragma once
#include <cstdint>

#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// Bytes per parameter of the linear layers (attention projections, MLP, `experts`: the routed experts').
double linear_bytes_per_param(const ModelSpec& model, DType weight_dtype, bool experts);

// One rank's embedding or lm_head: 16-bit, vocabulary-parallel (padded to a multiple of 64).
double vocab_table_bytes(const ModelSpec& model, const Scenario& scenario);

// The routed experts' bytes on one rank for `layers` of the model's decoder layers (quantised,
// padded, placed over TP x DP or EP); 0 for a dense model.
double routed_expert_bytes(const ModelSpec& model, const Scenario& scenario, int64_t layers);

}  // namespace kv
