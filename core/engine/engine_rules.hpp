// Which accounting a vLLM version follows. The rules, with where each comes from
// (shared/reference/vllm-memory.md has the sources):
//   - V1 engine (the default from 0.8.0): chunked prefill always on; the profile run is one forward
//     pass over max_num_batched_tokens tokens plus a sampler pass over min(max_num_seqs, tokens)
//     rows; available KV = total x util - weights - activation peak - non-torch increase.
//   - V0 (before 0.8.0): without chunked prefill the profile batch is max(max_model_len, 2048)
//     tokens unless max_num_batched_tokens is set, so the activation peak grows with the context;
//     the engine turned chunked prefill on for contexts above 32K, served or offline (then 512
//     tokens a step, 2,048 from 0.6.5), except with sliding-window layers, LoRA or a multimodal model.
//   - Batch defaults: from 0.9.0 GPUs with at least 70 GiB that are not A100s get max_num_seqs 1024
//     and 8,192 (serve) or 16,384 (offline) tokens; others 256 and 2,048 or 8,192. From 0.28.0 those
//     with at least 160 GiB serve 16,384 too. Before 0.9.0 the larger tokens went to H100s and
//     H200s by name (0.7.0), then to every GPU of 70 GiB (0.8.5); every GPU had 1,024 sequences
//     until 0.8.4 (LargeBatchDevices below).
//   - CUDA graphs: their memory comes out of the KV budget from 0.20.0 (the estimate became the
//     default); before, it had to fit in the 1 - util headroom. None with enforce_eager. From 0.22
//     to 0.28 the models that vLLM's model runner V2 ran had an estimate of zero (model_runner.hpp).
//   - The profile run's sampler sorted the logits for top-k/top-p until a release between 0.11.2
//     and 0.19.0 (placed at 0.14.0), which more than doubles its peak.
//   - Hybrid KV-cache allocator (0.10.0+): sliding-window layers get their own groups and hold only
//     their window; before, every layer was cached as full attention.
//   - Start-up free-memory check (V1): the engine refuses when free memory at start is below
//     total x util.
//   - Two changes from 0.27.0 leave every number the model computes as it was: non-KV memory
//     measured as consumed + transient headroom (PR #49208) is still weights + non-torch + the
//     profile peak, the terms the model adds (what moved, non-torch memory the graph profiling
//     kept, is no term of the model's); the maximum concurrency summed per KV-cache group (PR
//     #48317) equals the older cdiv over all groups when every group has the same page size and
//     a block-aligned need, as the full-attention and sliding-window groups here do.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace kv {

struct EngineVersion {
    int major = 0, minor = 0, patch = 0;
    bool operator<(const EngineVersion& o) const {
        if (major != o.major) return major < o.major;
        if (minor != o.minor) return minor < o.minor;
        return patch < o.patch;
    }
};

// "0.6.3", "v0.10.1.post1", "0.19.2rc1.dev8+g4b7f5ea1a": the first three numbers count.
std::optional<EngineVersion> parse_engine_version(const std::string& text);

// The models vLLM's model runner V2 (MRv2) runs by default, release by release (vllm/config/vllm.py,
// _is_default_v2_model_runner_model). Until it estimated its CUDA graphs (engine/model_runner.hpp)
// it reported an estimate of zero for them.
enum class ModelRunnerV2Scope {
    none,                  // before 0.22.0
    qwen3_dense,           // PR #39337 (0.22.0): Qwen3ForCausalLM, not MoE, no quantised checkpoint
    qwen3_llama_dense,     // PR #43458 (0.23.0): and Llama, Mistral
    listed,                // PRs #42667, #44446 (0.24.0): and DeepseekV2, Qwen2Moe; quantised checkpoints too
    dense_and_listed_moe,  // PR #44443 (0.25.0): every model that is neither MoE nor hybrid, and the listed MoE ones
    all_models,            // 0.29.0: every model (the release's notes: "the default runner for all models")
};

// Which GPUs get V1's larger batch defaults, release by release. PR #12369 (reviewed 2025-01-24;
// placed at 0.7.0, tagged by 2025-01-27: a 0.7.x traceback of 2025-02-01, issue #12635, shows its
// line) matched the device name; PR #17073 (reviewed 2025-04-23, placed at 0.8.5) any GPU of 70 GiB,
// with max_num_seqs 1024; PR #17885 (0.9.0's notes list it) left the A100 out again.
enum class LargeBatchDevices {
    none,             // before PR #12369
    h100_h200,        // a device name with "h100" or "h200"
    memory,           // at least 70 GiB
    memory_not_a100,  // at least 70 GiB and not an A100
};

struct EngineRules {
    EngineVersion version;
    // Which engine runs: V1 by default from 0.8.0, V0 before it and wherever engine_rules_for()
    // says the run falls back to it.
    bool v1_engine = true;
    // Which GPUs V1 gives its larger batch defaults (EngineArgs._set_default_args_v1): 8,192 batched
    // tokens served and 16,384 offline, where the others get 2,048 and 8,192.
    LargeBatchDevices large_batch_devices = LargeBatchDevices::memory_not_a100;
    // V1 gave every GPU max_num_seqs 1024 (0.8.2 on an RTX 4090 and 0.8.3 on an A100 warm the
    // sampler up with "1024 dummy requests": issues #15617, #16342) until PR #16158 (opened
    // 2025-04-07, after 0.8.3 was cut: placed at 0.8.4) kept it for the H100 and H200 only.
    bool v1_seqs_1024_everywhere = false;
    // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaulted to 1 from PR #38284 (2026-04-21, in
    // 0.20.0, although the line it prints says "default since v0.21.0"): the estimate comes out
    // of the budget.
    bool cuda_graphs_in_budget = true;
    bool hybrid_kv_allocator = true;        // sliding-window layers in their own groups (0.10.0+)
    bool startup_free_memory_check = true;  // V1
    bool loading_log_says_memory = true;    // "Model loading took X GiB memory and Y seconds" (0.11+)
    // --kv-cache-memory-bytes (CacheConfig.kv_cache_memory_bytes, PR #21489, reviewed 2025-07): placed
    // at 0.11.0, the first release certainly after it (an LLM class that still selects V0 or V1 takes
    // it, so 0.10.2 may have it too). The pool is that many bytes per GPU. vllm/v1/worker/gpu_worker.py determine_available_memory still
    // runs the profile run (to compile for max_num_batched_tokens) but returns the bytes before any
    // measurement: no CUDA-graph estimate, no "Available KV cache memory" line, and no check that
    // the weights and activations fit beside it (a pool too large runs out of memory later).
    bool kv_cache_memory_bytes_argument = true;
    // --kv-offloading-size / --kv-offloading-backend (PR #24498, reviewed 2026-01-08; native the
    // default backend from PR #32421, 2026-01-15, asked for 0.14): placed at 0.14.0. The same release
    // loads a preempted request's blocks back from the CPU (PR #29870; the vLLM blog of 2025-12-29).
    // Earlier releases (0.11.0+) reach the same connector only through --kv-transfer-config.
    bool kv_offloading_argument = true;
    // The profile run of newer releases: a sampler pass without the top-k/top-p sort, and NCCL
    // symmetric-memory buffers under tensor parallelism. The logs place the change after 0.11.2
    // and before 0.19.0; the model puts it at 0.14.0 (calibration.hpp says which rows show it).
    bool newer_profile = true;
    // The default gpu_memory_utilization rose from 0.90 to 0.92 in the same PR #38284 (0.20.0):
    // 0.19.0 logs 0.90, 0.22.1 logs 0.92.
    bool larger_default_utilization = true;
    // "GPU KV cache size" is int(max_concurrency x max_model_len) from PR #41069 (0.21.0), no
    // longer blocks / groups x block_size: a sliding-window group needs only its window's blocks
    // per request, so hybrid models print more tokens; so does a max_model_len that is not a
    // multiple of the block.
    bool kv_tokens_from_concurrency = true;
    // PR #42479 (0.22.0): the refusals say the flag also sizes CPU memory on the CPU backend, and
    // "the models's max seq len" became "the model's".
    bool refusals_name_cpu_backend = true;
    // Which models vLLM's model runner V2 runs by default, and whether it estimates its CUDA graphs
    // (engine/model_runner.hpp says which model each scope covers).
    ModelRunnerV2Scope model_runner_v2 = ModelRunnerV2Scope::dense_and_listed_moe;
    bool model_runner_v2_estimates_cuda_graphs = true;
    // The V2 runner's loading line lacked "memory" ("Model loading took 0.93 GiB and 2.17 seconds",
    // a 0.26.0 log) until PR #52374 (2026-08-14); placed at 0.29.0, the first release cut
    // certainly after it (0.28.0's branch point is 2026-08-12 or later; 0.30 logs have the word).
    bool model_runner_v2_loading_log_says_memory = true;
    // A sliding-window layer frees the blocks behind its window only once a step is processed, so
    // from PR #47728 (2026-07-08, 0.26.0) a request's need counts max_num_batched_tokens for every
    // batch in flight (VllmConfig.max_in_flight_tokens: two with async scheduling on model runner
    // V1, the pipeline stages + 1 on V2, the stages without async scheduling), not for one.
    bool sliding_window_counts_batches_in_flight = true;
    // PR #51726 (0.28.0): GPUs with at least 160 GiB (B200, B300, MI300X...) serve 16,384 batched
    // tokens by default, as offline runs already did.
    bool largest_device_batch_defaults = true;
    // PR #50462 (0.28.0): "GPU KV cache size: N tokens, Maximum concurrency for L tokens per
    // request: X.XXx" is one line, printed by the engine core once the block size is resolved.
    bool combined_kv_capacity_line = true;
    // Where the CPU's time per step goes (the step-time model's host term, calibration.hpp):
    //   - V0 before 0.6.0 processed every sequence in Python between steps; 0.6.0's overhaul (object
    //     caches, async output processing, a separate API server: the v0.6.0 performance post)
    //     cut most of it;
    //   - V1 runs the scheduler beside the GPU in its own process, synchronously per step until
    //     async scheduling became the default (PR #27614; the v0.14.0 release notes list it under
    //     breaking changes, "--no-async-scheduling" to turn it off), after which the CPU's work
    //     overlaps the previous step's forward pass.
    bool v0_overhauled = true;
    // V0's chunk when it turned chunked prefill on by itself (contexts above 32K): 512 tokens, 2,048
    // from 0.6.5 (PR #10544).
    bool v0_chunk_2048 = true;
    bool async_scheduling = true;
    // V1's CUDA graphs: until 0.11.0 every captured step was PIECEWISE (torch.compile's graph split
    // at each attention or mixer op, which ran eagerly between the pieces); from 0.11.0 the default
    // is FULL_AND_PIECEWISE (the v0.11.0 release notes; docs/design/cuda_graphs.md calls PIECEWISE
    // the "past default"): a step of decodes alone replays one graph of the whole forward pass, a
    // step with prompt tokens in it still runs piecewise.
    bool full_decode_graphs = true;
    // vLLM's own all-reduce over NVLink and P2P (PR #2192, from 0.3.0); NCCL before, and while PR
    // #2808 (2024-02-07, "temporarily disables the custom all-reduce kernels") held until PR #4040
    // (2024-04-12, "After #2760, custom allreduce should be enabled by default"): placed at 0.3.1
    // (2024-02-16) to 0.4.1 (2024-04-24), the first releases cut after each. On AMD GPUs
    // upstream's ParallelConfig turned it off ("not supported on AMD GPUs") until PR #14125 (in 0.8.3);
    // AMD's fork, whose releases are tagged "v0.6.1_rocm" or "v0.7.3+rocm", had it from ROCm/vllm PR
    // #27 (2024-05).
    bool custom_allreduce = true;
    bool custom_allreduce_on_amd = true;
    // A mixture of experts runs its routed experts through the fused MoE kernel (PR #2542, "Fused
    // MOE for Mixtral", in 0.3.0): every rank holds a 1/tp slice of every expert and computes only
    // the experts its tokens route to. Before it, Mixtral's expert parallelism (PR #2090, 2023-12)
    // gave each rank num_experts/tp whole experts and ran every token through each of them, scaled
    // by its routing weight (zero for a token routed elsewhere: vLLM's later mixtral_quant.py kept
    // that forward), so a step read all of them and multiplied every token by each, with plain
    // matmuls and no routing kernels.
    bool fused_moe = true;
    // A tensor-parallel all-reduce too large for the custom kernel ran in place through NCCL until
    // PR #10121 (2024-11-26, "custom allreduce + torch.compile": 0.6.5), then returned a new tensor.
    bool out_of_place_all_reduce = true;
    // Llama's MLP rebinds gate_up to its activation (PR #10339, 2024-11-14: 0.6.4), so V0's forward
    // pass frees it before down_proj (memory_plan.cpp, mlp_keeps_gate_up).
    bool llama_mlp_rebinds_gate_up = true;
    // Multi-head latent attention for DeepSeek-V2/V3 (PR #12528, "MLA decode optimizations", in
    // 0.7.1 by Neural Magic's post of 2025-02-04): the cache holds the compressed latent. Before it,
    // kv_b_proj decompressed every token and the cache held each head's key (qk_nope + qk_rope wide)
    // and value (padded to the key's width), about ten times the bytes: 54,560 tokens on 8 H200s at
    // 0.7.0 against 512,000 after.
    bool mla_attention = true;
    // LoRA (memory/lora.hpp). Its buffers are created inside the load's memory measurement, so they
    // are part of "Model loading took" and come out of the KV pool, from PR #14469 (2025-03-08, in
    // 0.8.0); before, V0 created them after the profile run, outside the budget (issue #14450: the
    // rank and max_loras "did not affect the number of kv cache blocks").
    bool lora_in_profile = true;
    // An MoE's routed experts get LoRA buffers (FusedMoEWithLoRA, PR #21229, merged about 2025-10-20;
    // placed at 0.11.1, the first release cut after it); before, only the other linear layers.
    bool fused_moe_lora = true;
    // lora_extra_vocab_size (256 rows more in the embedding's and lm_head's buffers, and a table of
    // that many rows per adapter) until PRs #28382 and #28545 (2025-11) removed it: placed at 0.12.0.
    bool lora_extra_vocab = false;
    // Nemotron-H's recurrent state when --mamba-ssm-cache-dtype is "auto": the model's dtype until
    // PR #29978 (opened 2025-12-03; NVIDIA's 0.12.0 cookbook start-up prints no update and its block
    // fits a 16-bit state, a 0.13.0 start-up prints "Updating mamba_ssm_cache_dtype to 'float16'"),
    // then the config's mamba_ssm_cache_dtype, else float16 (2 bytes); else float32 (4) from PR
    // #39032 (opened 2026-04-05, after 0.19.0 was cut: placed at 0.20.0). 0: the config is not read.
    int64_t nemotron_h_ssm_fallback_bytes = 4;
    // --mamba-ssm-cache-dtype: float32 from PR #22928 (opened 2025-08-14, after 0.10.1 was cut; PR
    // #24883 of 2025-09-15 mends its fp32 conv path "recently added": placed at 0.10.2), float16 from
    // PR #29978 (0.13.0, above). An older release refuses the argument or the value.
    bool ssm_float32_argument = true;
    bool ssm_float16_argument = true;
};

EngineRules engine_rules(const EngineVersion& version);
// Whether the release has its custom all-reduce on a GPU of this vendor ("nvidia", "amd").
inline bool custom_allreduce_on(const EngineRules& rules, const std::string& vendor) {
    return rules.custom_allreduce && (vendor != "amd" || rules.custom_allreduce_on_amd);
}
// The rules of a version string as a scenario or log states it: a "rocm" tag names AMD's fork; an
// unreadable string (the readers have checked it) falls back to the default release.
EngineRules engine_rules_of(const std::string& vllm_version);

// Which engine a run asks for (VLLM_USE_V1; Scenario::engine): "auto" takes the release's choice.
// VLLM_USE_V1=1 chose V1 from PR #9289 (2024-10-22, first released in 0.6.4); V1 became the default
// in 0.8.0 and V0 left the code before 0.11.0 (vllm.worker removed by PR #25901, 2025-09-29).
inline constexpr EngineVersion first_v1_engine_version{0, 6, 4};
inline constexpr EngineVersion first_v1_only_version{0, 11, 0};
// From 0.8.0 an "auto" run fell back to V0 for what V1 lacked, and VLLM_USE_V1=1 was refused there
// (EngineArgs._is_v1_supported_oracle, vllm/engine/arg_utils.py, PR #13726, 2025-03-15). Of its
// list the model follows a GPU before Ampere (CUDA compute capability under 8.0: T4, V100), until PR
// #24022 (2025-09-01, placed at 0.10.2) ran V1 in FP16 on them, and --num-scheduler-steps above 1,
// V0's multi-step scheduling, until V0 left. Not modelled: an FP8 KV cache the platform's V1
// attention could not read (0.8 to 0.10, per GPU and backend), the speculative methods V1 lacked.
inline constexpr EngineVersion first_v1_default_version{0, 8, 0};
inline constexpr EngineVersion first_v1_mamba1_version{0, 10, 1};  // Jamba's Mamba1 layers on V1 (PR #21249)
inline constexpr EngineVersion first_v1_before_ampere_version{0, 10, 2};
bool v1_refused_before_ampere(const EngineRules& rules, double compute_capability);
// The rules of a release (engine_rules_of) run by `engine` on a GPU of that compute capability (0:
// not CUDA) with that many scheduler steps; an evaluation reads its release's rules once and passes
// them here. The readers have checked the combination (evaluate.cpp says which ones vLLM refuses).
EngineRules engine_rules_for(const EngineRules& release, const std::string& engine, double compute_capability,
                             int64_t num_scheduler_steps = 1);

// The oldest version whose accounting the model follows, and the release a scenario that names none
// follows (the newest modelled).
inline constexpr EngineVersion oldest_modelled_version{0, 2, 5};
inline constexpr const char* default_vllm_version = "0.31.0";
// The first release with --kv-cache-memory-bytes (EngineRules::kv_cache_memory_bytes_argument).
inline constexpr EngineVersion first_kv_cache_memory_bytes_version{0, 11, 0};

}  // namespace kv
