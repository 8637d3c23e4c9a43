// Reads a vLLM start-up log of any version (0.2 to 0.22 formats) and keeps the numbers it states:
// the version banner and engine config line, the non-default args, "Model loading took",
// "Memory profiling results" and its later forms, "Available KV cache memory", "GPU KV cache
// size", "# GPU blocks", "Maximum concurrency", the CUDA-graph lines, the refusals and the last
// stats line. Timestamps, worker prefixes ("(EngineCore pid=75)"), ANSI colours and hard-wrapped
// lines are tolerated; lines it does not know are ignored. No regular expressions: plain scans,
// linear in the size of the text, so a 50 MB log is read in one pass.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memory/memory_plan.hpp"

namespace kv {

struct ParsedLog {
    std::optional<std::string> version;  // "0.10.1.1"
    std::optional<bool> v1_engine;       // from the config line or the log's shape
    std::optional<std::string> model;    // as launched: repo id or local path
    // Flags, from the non-default args or the engine config line.
    std::optional<double> gpu_memory_utilization;
    std::optional<int64_t> max_model_len, tensor_parallel_size, pipeline_parallel_size, max_num_seqs, max_num_batched_tokens, block_size;
    std::optional<std::string> kv_cache_dtype, quantization, dtype;
    std::optional<bool> enforce_eager, disable_custom_all_reduce;
    // Memory, in GiB as the engine prints it.
    std::optional<double> total_gib, weights_gib, activation_gib, non_torch_gib, cuda_graph_estimate_gib, cuda_graph_captured_gib,
        available_gib;
    // The KV cache.
    std::optional<int64_t> kv_cache_tokens, gpu_blocks, cpu_blocks, concurrency_tokens;
    std::optional<double> max_concurrency;
    // A refusal: kind as the model names it (startup_checks.hpp), and the engine's line.
    std::optional<RefusalKind> refusal_kind;
    std::optional<std::string> refusal_line;
    std::optional<int64_t> estimated_max_model_len;
    // The last stats line.
    std::optional<int64_t> running, waiting;
    std::optional<double> kv_cache_usage;  // fraction

    std::vector<std::string> recognised;  // each line that gave a number, cleaned
};

// Never throws; a text with nothing recognisable gives an empty `recognised`.
ParsedLog parse_vllm_log(std::string_view text);

}  // namespace kv
