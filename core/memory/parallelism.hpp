// Data and expert parallelism as vLLM lays them out, per GPU. Units: parameters and GPUs.
//   - --data-parallel-size N starts N engine cores (EngineCore_DP0 ... DP{N-1}); each has its own
//     tensor x pipeline parallel GPUs, profiles them and sizes its own KV pool
//     (vllm/v1/engine/core.py, EngineCore._initialize_kv_caches: the available memory comes from
//     the engine's own workers; only elastic-EP scale-up syncs it over the DP group). Attention,
//     dense MLP, shared experts, routers, embedding and lm_head are whole in every engine, split by
//     tensor parallelism alone.
//   - An MoE's routed experts are the one part shared across engines: FusedMoEParallelConfig.make
//     (vllm/model_executor/layers/fused_moe/config.py, flatten_tp_across_dp_and_pcp; in 0.8 to 0.9
//     the same lines sat in FusedMoE.__init__, layer.py, "Adjust TP size for DP attention") treats
//     the TP x DP GPUs as one group. Without --enable-expert-parallel every GPU holds a 1/(TP x DP)
//     slice of every expert's intermediate width (it asserts the width divides); with it
//     (use_ep = TP x DP > 1 and the flag) EP = TP x DP and determine_expert_map (layer.py) deals
//     whole experts: E // EP each, the first E % EP ranks one more. EP rank = DP rank x TP + TP
//     rank, so data-parallel rank 0 holds the extra experts and its pool is the smallest.
// Leaves out: the expert-load balancer's redundant experts (--enable-eplb), decode context
// parallelism, and the all-to-all kernels' buffers (DeepEP and others are opt-in backends).
#pragma once
#include <cstdint>

#include "memory/admission.hpp"
#include "memory/memory_plan.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// How one GPU of data-parallel rank 0 holds the routed experts.
struct ExpertPlacement {
    int64_t gpus = 1;             // GPUs the routed experts are spread over: TP x DP (1 for a dense model)
    bool whole_experts = false;   // expert parallel: whole experts per GPU
    int64_t experts_per_gpu = 0;  // experts on the GPU (all of them, sliced, without expert parallel)
    int64_t expert_width = 0;     // each expert's intermediate width on the GPU
};
ExpertPlacement place_experts(const ModelSpec& model, const Scenario& scenario);

// The whole deployment: data_parallel_size engines of tensor x pipeline parallel GPUs each. The
// memory plan and the admission are one engine's (data-parallel rank 0's, the one holding the extra
// experts when they do not divide evenly, so the totals are a floor then); the API server spreads
// the clients' requests over the engines, each taking ceil(concurrent_requests / engines).
struct Deployment {
    int64_t engines = 1;                 // data-parallel ranks, each its own engine core and KV pool
    int64_t gpus = 1;                    // TP x PP x DP
    int64_t requests_per_engine = 0;     // the requests one engine is given
    int64_t kv_cache_tokens = 0;         // every engine's "GPU KV cache size" together
    double max_concurrency = 0;          // every engine's "Maximum concurrency" together
    int64_t max_resident_sequences = 0;  // sequences of the scenario's length all pools hold at once
    int64_t running = 0;                 // requests running on all engines
    int64_t waiting = 0;
};

// The requests one engine is given.
int64_t requests_per_engine(const Scenario& scenario);

Deployment deploy(const Scenario& scenario, const MemoryPlan& memory, const Admission& admission);

}  // namespace kv
