// The reader's knobs: one serving scenario. Names and units match vLLM's engine arguments where
// vLLM has one; a field left unset (std::nullopt) takes the engine's own default for that version,
// GPU and entry point (scenario/defaults.hpp), and the result reports the value used. Defaults live
// here only; the field table (scenario/scenario_fields.hpp) gives each one's range, stops and help.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"

namespace kv {

enum class DType { bf16, fp8 };
int bytes_per_element(DType dtype);
const char* dtype_name(DType dtype);

// How vLLM was started: `vllm serve` (the OpenAI server) or the offline `LLM(...)` class. The
// engine picks different batch defaults for each.
enum class Entry { serve, offline };
const char* entry_name(Entry entry);

// The starting point's card (also the one a start-up log is read on when it names none).
inline constexpr const char* starting_gpu = "H100";

struct Scenario {
    std::string model = "Qwen3-8B";                   // catalog id, ignored when model_config is set
    std::optional<ModelSpec> model_config;            // a parsed Hugging Face config.json
    std::string gpu = starting_gpu;                   // catalog id, ignored when gpu_config is set
    std::optional<GpuSpec> gpu_config;                // a GPU described by the reader
    std::string vllm_version = default_vllm_version;  // picks the engine's accounting rules
    // VLLM_USE_V1: "auto" (the release's engine: V0 before 0.8.0, V1 from it except on GPUs before
    // Ampere until 0.10.2), "v0" (VLLM_USE_V1=0, before 0.11.0) or "v1" (VLLM_USE_V1=1, from 0.6.4).
    std::string engine = "auto";
    Entry entry = Entry::serve;
    int64_t prompt_tokens = 4096;
    int64_t output_tokens = 256;
    int64_t concurrent_requests = 32;
    std::optional<double> gpu_memory_utilization;  // 0.90, or 0.92 from 0.20.0, when unset
    DType kv_cache_dtype = DType::bf16;            // "auto" reads as the model's 16-bit dtype
    DType weight_dtype = DType::bf16;              // bf16: the checkpoint as published; fp8: --quantization fp8
    bool force_mha = false;
    bool enforce_eager = false;
    bool disable_custom_all_reduce = false;         // --disable-custom-all-reduce: NCCL for every all-reduce
    std::optional<int64_t> max_num_seqs;            // engine default when unset
    std::optional<int64_t> max_num_batched_tokens;  // engine default when unset
    std::optional<int64_t> max_model_len;           // the model's max_position_embeddings when unset
    std::optional<int64_t> block_size;              // 16, or 64 for MLA models, when unset
    std::optional<int64_t> kv_cache_memory_bytes;   // the pool per GPU; unset: sized from gpu_memory_utilization (0.11+)
    int64_t tensor_parallel_size = 1;
    int64_t pipeline_parallel_size = 1;
    int64_t data_parallel_size = 1;       // --data-parallel-size: engines, each with its own TP x PP GPUs and KV pool
    bool enable_expert_parallel = false;  // --enable-expert-parallel: whole routed experts per GPU over TP x DP
    int64_t num_scheduler_steps = 1;      // V0's multi-step scheduling (0.5.5 to 0.7); V1 has none
    bool enable_lora = false;             // --enable-lora: LoRA buffers for max_loras adapters of max_lora_rank
    int64_t max_loras = 1;                // --max-loras: adapters one batch may use at once
    int64_t max_lora_rank = 16;           // --max-lora-rank: the rank every buffer is sized for
    // --speculative-config (memory/speculative.hpp): "none", "ngram", "eagle", "eagle3", "mtp" or
    // "draft_model"; its num_speculative_tokens (unset: MTP's one layer; vLLM requires it otherwise);
    // the draft_model method's catalog model; and the chance that a drafted token is accepted once the
    // ones before it were, an outcome of the model pair and the prompts that this model takes as given.
    std::string speculative_method = "none";
    std::optional<int64_t> num_speculative_tokens;
    std::string draft_model = "Qwen3-0.6B";
    double draft_acceptance_rate = 0.7;
    // --kv-offloading-size with the native backend (memory/offload.hpp): GiB of pinned CPU memory for
    // KV blocks, over all of an engine's TP x PP ranks together; 0: no offloading (the default).
    double kv_offloading_size_gib = 0;
    // --mamba-ssm-cache-dtype: "auto", "float32" or "float16", the recurrent state's number format.
    std::string mamba_ssm_cache_dtype = "auto";
};

}  // namespace kv
