// The start-up checks, in the order the engine meets them, each with the engine's own words:
//   from the configuration: attention heads and KV heads that tensor parallelism cannot shard,
//   more pipeline stages than layers, a max_model_len beyond the model's, a --quantization that
//   contradicts the checkpoint's;
//   from the memory plan: free memory at start below total x util (V1), weights that do not load,
//   a profile run that runs out of memory, no memory for the cache blocks, and one request of
//   max_model_len that the pool cannot hold (with the engine's estimate of the longest that fits).
// A refusal is a result of the model, not bad input.
#pragma once
#include <optional>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "memory/memory_plan.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

std::optional<StartupError> check_startup(const Scenario& scenario, const ModelSpec& model, const MemoryPlan& plan,
                                          const EngineRules& rules, const Calibration& calibration);

}  // namespace kv
