#include "validation/figure_kind.hpp"

#include <array>

namespace kv {

const char* figure_kind_name(FigureKind kind) {
    static const char* const names[] = {"exact", "memory", "time"};
    return names[static_cast<int>(kind)];
}

namespace {

// What a start-up log prints (the pool, its blocks, the concurrency it allows) or follows from it.
constexpr auto memory_fields = std::to_array<std::string_view>(
    {"kv_pool_bytes", "available_kv_cache_bytes", "kv_cache_tokens", "num_gpu_blocks", "max_resident_sequences", "running",
     "max_concurrency", "estimated_max_model_len", "cuda_graph_bytes", "activation_bytes", "non_torch_bytes"});

// What a benchmark prints (latencies, throughputs) or what a step's time decides.
constexpr auto time_fields = std::to_array<std::string_view>(
    {"ttft_s", "itl_s", "decode_step_s", "decode_tokens_per_s", "prompt_tokens_per_s", "generation_tokens_per_s", "serving_step_s",
     "serving_ttft_s", "step_with_full_chunk_s", "decode_communication_s", "prefill.total_s", "decode.total_s", "simulation.ttft_s",
     "simulation.itl_s", "simulation.e2e_s", "simulation.tpot_s", "simulation.generation_tokens_per_s", "simulation.duration_s",
     "simulation.preemption_onset_rate_per_s"});

bool names(std::string_view path, std::string_view field) {
    return path == field || (path.size() > field.size() && path.substr(0, field.size()) == field && path[field.size()] == '.');
}

}  // namespace

FigureKind figure_kind(std::string_view path) {
    for (std::string_view f : memory_fields)
        if (names(path, f)) return FigureKind::memory;
    for (std::string_view f : time_fields)
        if (names(path, f)) return FigureKind::time;
    return FigureKind::exact;
}

}  // namespace kv
