// Reads a vLLM start-up log of any version (0.2 to 0.31 formats) and keeps the numbers it states:
// the version banner and engine config line, the non-default args, "Model loading took",
// "Memory profiling results" and its later forms, "Available KV cache memory", "GPU KV cache
// size", "# GPU blocks", "Maximum concurrency", the CUDA-graph lines, the refusals and the last
// stats line, a `vllm serve` command line, and the failures people paste (CUDA out of memory by
// the start-up stage it struck in, NCCL errors). Timestamps, worker tags ("(EngineCore pid=75)"),
// container and journal prefixes (log_scan.hpp), ANSI colours and hard-wrapped lines are
// tolerated; lines it does not know are ignored. No regular expressions: plain scans,
// linear in the size of the text, so a 50 MB log is read in one pass.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memory/memory_plan.hpp"

namespace kv {

// Where a start-up had got to, from the last stage marker read.
enum class LogStage { loading_weights, profiling, sized, capturing_graphs, serving };
const char* log_stage_name(LogStage stage);

enum class FailureKind { out_of_memory, nccl_error };
struct LoggedFailure {
    FailureKind kind = FailureKind::out_of_memory;
    LogStage stage = LogStage::loading_weights;  // when it struck
    std::string line;
};

struct ParsedLog {
    std::optional<std::string> version;  // "0.10.1.1"
    std::optional<bool> v1_engine;       // from the config line or the log's shape
    std::optional<std::string> model;    // as launched: repo id or local path
    // Flags, from the non-default args, the engine config line or a pasted command line.
    std::optional<double> gpu_memory_utilization;
    std::optional<double> equivalent_utilization;  // 0.20+: the same budget without the CUDA-graph estimate
    // 0.19's advice: the utilisation that, with the CUDA-graph estimate counted, keeps the same pool
    // ("increase --gpu-memory-utilization from U to U2"): U2 = U + estimate / total.
    std::optional<double> suggested_utilization;
    std::optional<int64_t> max_model_len, tensor_parallel_size, pipeline_parallel_size, data_parallel_size, max_num_seqs,
        max_num_batched_tokens, block_size, kv_cache_memory_bytes, max_loras, max_lora_rank;
    std::optional<std::string> kv_cache_dtype, quantization, dtype, mamba_ssm_cache_dtype;
    std::optional<bool> enforce_eager, disable_custom_all_reduce, enable_expert_parallel, enable_lora;
    // --speculative-config: its method ("mtp" for every model's MTP) and token count; a drafter loaded.
    std::optional<std::string> speculative_method;
    std::optional<int64_t> num_speculative_tokens;
    std::optional<double> kv_offloading_size_gib;  // --kv-offloading-size (args dict or command)
    bool drafter_loaded = false;
    bool flags_listed = false;  // the non-default args or the engine config line: a flag left out is at its default
    // Memory, in GiB as the engine prints it.
    std::optional<double> total_gib, weights_gib, activation_gib, non_torch_gib, cuda_graph_estimate_gib, cuda_graph_captured_gib,
        available_gib;
    // The KV cache.
    std::optional<int64_t> kv_cache_tokens, gpu_blocks, cpu_blocks, concurrency_tokens;
    std::optional<int64_t> encoder_budget_tokens, encoder_items;  // a multimodal model's profiled images
    std::optional<int64_t> state_block_size;                      // a hybrid model's attention block, raised to hold a state page
    // torch.compile in the profile run: the graphs compiled afresh ("Compiling a graph for ...", a cold
    // compile cache, where a warm one loads them), and its total time.
    bool graphs_compiled = false;
    std::optional<double> torch_compile_s;
    std::optional<double> max_concurrency;
    // A refusal: kind as the model names it (startup_checks.hpp), and the engine's line.
    std::optional<RefusalKind> refusal_kind;
    std::optional<std::string> refusal_line;
    std::optional<int64_t> estimated_max_model_len;
    // The last stats line.
    std::optional<int64_t> running, waiting;
    std::optional<double> kv_cache_usage;  // fraction
    // Engines in the paste: the data-parallel ranks its worker tags name (each sizes its own pool).
    std::vector<int64_t> data_parallel_ranks;
    // Each engine's pool as the lines tagged with its rank print it (reprints keep the last).
    struct PoolFigures {
        std::optional<double> available_gib;
        std::optional<int64_t> kv_cache_tokens, gpu_blocks;
        std::optional<double> max_concurrency;
    };
    struct EnginePool : PoolFigures {
        int64_t rank = 0;
    };
    std::vector<EnginePool> engine_pools;  // in the order the ranks first print a pool figure
    LogStage stage = LogStage::loading_weights;
    bool stage_marked = false;                // a stage marker was read
    std::optional<LogStage> traceback_stage;  // named by a traceback's frames
    std::optional<LoggedFailure> failure;     // the first one

    std::vector<std::string> recognised;  // each line that gave a number, cleaned
};

// Never throws; a text with nothing recognisable gives an empty `recognised`.
ParsedLog parse_vllm_log(std::string_view text);

}  // namespace kv
