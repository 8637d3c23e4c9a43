// The engine's own defaults: what each field a scenario leaves unset becomes, for the scenario's
// vLLM version, GPU and entry point. One function, called by everyone that needs a default
// (evaluate, the planner's command lines, the panels' "default" marks). Sources:
// shared/reference/vllm-memory.md section 4 (EngineArgs.get_batch_defaults in arg_utils.py,
// CacheConfig's block_size, the utilisation default of each release), and PR #51726 (0.28.0) for
// the GPUs of 160 GiB or more.
#pragma once
#include <cstdint>

#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// The rules of the scenario's release, run by the engine it asks for on its GPU (engine_rules_for).
inline EngineRules engine_rules_of(const Scenario& s, const GpuSpec& gpu, const EngineRules& release) {
    return engine_rules_for(release, s.engine, gpu.compute_capability, s.num_scheduler_steps);
}
inline EngineRules engine_rules_of(const Scenario& s, const GpuSpec& gpu) {
    return engine_rules_of(s, gpu, engine_rules_of(s.vllm_version));
}

// The scenario with every engine default filled in for this version, GPU and entry point.
struct ResolvedLimits {
    int64_t max_num_seqs = 0;
    int64_t max_num_batched_tokens = 0;
    int64_t max_model_len = 0;
    int64_t block_size = 0;
    double gpu_memory_utilization = 0;
};
ResolvedLimits resolve_limits(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const EngineRules& rules);

// 0.90, or 0.92 from the release that moved the CUDA-graph estimate into the budget.
double default_gpu_memory_utilization(const EngineRules& rules);

// Whether V1 gives this GPU its larger batch defaults under a release's rule (engine_rules.hpp).
bool large_batch_device(const GpuSpec& gpu, LargeBatchDevices rule);
// vLLM's "large device" from 0.9.0 (get_batch_defaults): at least 70 GiB and not an A100.
bool large_device(const GpuSpec& gpu);
// At least 160 GiB (B200, B300, MI300X...): from 0.28.0 they serve the offline batch defaults too.
bool largest_device(const GpuSpec& gpu);

}  // namespace kv
