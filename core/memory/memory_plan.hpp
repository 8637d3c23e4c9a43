// vLLM's start-up memory accounting, step by step as the engine does it, per GPU (per tensor- and
// pipeline-parallel rank):
//   1. requested = visible memory (what CUDA reports) x gpu_memory_utilization;
//   2. the weights of this rank's shard (quantised linear layers, 16-bit embedding and lm_head, a
//      multimodal model's vision tower on the first stage);
//   3. the profile run's activation peak: one forward pass over max_num_batched_tokens tokens (V0
//      without chunked prefill: max(max_model_len, 2048)) and a sampler pass over the rows, after a
//      multimodal model's images went through its tower (memory/multimodal.hpp);
//   4. the non-torch increase (CUDA context growth, NCCL and custom all-reduce buffers);
//   5. from 0.20.0 the CUDA-graph estimate (none with enforce_eager, nor for the models model
//      runner V2 ran before it estimated its graphs: engine/model_runner.hpp);
//   6. available KV = 1 - 2 - 3 - 4 - 5, cut into blocks of block_size tokens for every attention
//      layer of the rank (sliding-window layers in their own groups), clamped to the smallest rank;
//   7. what the start-up checks need: one max_model_len request's KV bytes and the longest
//      max_model_len the pool would take (the checks themselves are in startup_checks.hpp).
// Sources: shared/reference/vllm-memory.md (gpu_worker.py, kv_cache_utils.py, arg_utils.py).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"
#include "memory/multimodal.hpp"
#include "memory/offload.hpp"
#include "memory/speculative.hpp"
#include "scenario/defaults.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// When the engine stops: before touching the GPU's memory (the configuration, or too little free
// memory at start), while loading and profiling (out of memory), or when sizing the KV cache.
enum class RefusalStage { configuration, loading, cache };

// Why it stops, as the engine's checks and out-of-memory errors say (startup_checks.hpp).
enum class RefusalKind {
    max_model_len_too_long,
    tensor_parallel_mismatch,
    pipeline_parallel_mismatch,
    quantization_mismatch,
    free_memory_below_request,
    weights_do_not_fit,
    profile_out_of_memory,
    no_kv_cache_memory,
    max_model_len_does_not_fit,
    out_of_memory_after_sizing,  // CUDA out of memory once the pool was sized (graph capture, first requests; a
                                 // --kv-cache-memory-bytes pool larger than the memory the weights and activations leave)
};
const char* refusal_kind_name(RefusalKind kind);

struct StartupError {
    RefusalStage stage = RefusalStage::cache;
    RefusalKind kind = RefusalKind::no_kv_cache_memory;
    std::string message;  // the engine's own words where it has them
};

// How one rank lays out its KV cache.
struct KvLayout {
    int64_t block_size = 16;
    int64_t kv_heads_per_rank = 0;     // 0 for MLA
    bool kv_heads_replicated = false;  // tensor_parallel_size > num_key_value_heads
    double bytes_per_token_per_layer = 0;
    double page_bytes = 0;  // one block of one layer
    int64_t layers = 0;     // attention layers on this rank
    int64_t sliding_layers = 0;
    int64_t group_size = 0;  // layers per KV-cache group
    int64_t num_groups = 1;
    int64_t padding_layers = 0;  // empty slots the grouping adds
    // Linear-attention layers (hybrid models): each keeps one state per request in a page of the
    // pool (cache mode "none": one page per request and layer, so one block per state group), padded
    // to the attention page; the block size grows until an attention page holds one.
    int64_t linear_layers = 0;
    int64_t linear_groups = 0;
    double linear_state_bytes = 0;   // one layer's state for one request, before padding
    bool block_size_raised = false;  // the engine raised block_size for the state (it logs it)
    // The recurrent state's element bytes where a release set them from a Nemotron-H config (it logs
    // "Updating mamba_ssm_cache_dtype"); 0 where the state is in the model's dtype.
    int64_t ssm_state_updated_bytes = 0;
    int64_t draft_layers = 0;       // a drafter's attention layers, among `layers` (memory/speculative.hpp)
    double kv_bytes_per_token = 0;  // every attention layer of the rank, as if full attention
};

struct MemoryPlan {
    ResolvedLimits limits;
    KvLayout layout;
    double visible_bytes = 0;
    double requested_bytes = 0;  // visible x gpu_memory_utilization
    double weight_bytes = 0;
    double lora_bytes = 0;               // LoRA buffers (memory/lora.hpp): part of weight_bytes from 0.8.0, outside the budget before
    Drafter drafter;                     // --speculative-config's (memory/speculative.hpp); method none without one
    double draft_weight_bytes = 0;       // what the drafter adds to weight_bytes (shared tables not again)
    double draft_pass_weight_bytes = 0;  // what one draft pass reads: its layers, fc and the lm_head it uses
    double vision_weight_bytes = 0;      // a multimodal model's vision tower (memory/multimodal.hpp): part of weight_bytes
    double gathered_table_bytes = 0;     // a token embedding no lm_head shares: part of weight_bytes, a step reads only its tokens' rows
    double expert_weight_bytes = 0;      // the routed experts': part of weight_bytes, a step reads those its tokens route to
    EncoderProfile encoder;              // the images the profile run encodes first
    double activation_peak_bytes = 0;
    double non_torch_bytes = 0;
    double cuda_graph_bytes = 0;
    bool cuda_graph_in_budget = false;
    double free_at_start_bytes = 0;          // the worker's memory snapshot at start (calibration.hpp)
    bool kv_cache_memory_bytes_set = false;  // --kv-cache-memory-bytes sized the pool, not the utilisation
    bool model_runner_v2 = false;            // which of the engine's model runners profiled it
    double available_kv_bytes = 0;           // may be negative: then the engine refuses
    int64_t profile_tokens = 0;              // tokens in the profile forward pass
    int64_t profile_rows = 0;                // sampler rows in the profile run
    int64_t num_gpu_blocks = 0;
    int64_t kv_cache_tokens = 0;                // the engine's "GPU KV cache size" (engine_rules.hpp: its formula)
    double max_concurrency = 0;                 // the engine's "Maximum concurrency" for max_model_len
    double request_kv_bytes = 0;                // KV one max_model_len request needs on this rank
    int64_t estimated_max_model_len = 0;        // longest max_model_len the pool would take
    int64_t cpu_swap_blocks = 0;                // V0's "# CPU blocks" (4 GiB of swap space)
    CpuOffload offload;                         // --kv-offloading-size's CPU tier (memory/offload.hpp)
    std::optional<StartupError> startup_error;  // set by check_startup (startup_checks.hpp)
};

MemoryPlan plan_memory(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const EngineRules& rules,
                       const Calibration& calibration);

// KV bytes one request of `tokens` tokens holds on a rank (sliding-window layers keep only their
// window plus the tokens of the steps in flight), as the engine's max_memory_usage_bytes computes it.
double request_kv_bytes(const KvLayout& layout, const ModelSpec& model, int64_t tokens, int64_t tokens_in_flight);

}  // namespace kv
