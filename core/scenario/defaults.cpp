#include "scenario/defaults.hpp"

#include <algorithm>

#include "base/units.hpp"

namespace kv {

// The engine reads the device's total through NVML (vllm/platforms/cuda.py, get_device_total_memory),
// which has no memory figure on GB10's unified memory: the query fails and the small defaults apply
// (a GB10 log prints "Chunked prefill is enabled with max_num_batched_tokens=2048", repo-vllmrouter-*).
// Jetson has no NVML at all; there vLLM's non-NVML platform reads torch's total.
// PR #12369 matched torch's device name ("NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA
// H200", "NVIDIA GH200 480GB"; not H800 or H20), which the catalog's ids follow.
bool large_batch_device(const GpuSpec& gpu, LargeBatchDevices rule) {
    if (rule == LargeBatchDevices::h100_h200)
        return gpu.name.find("H100") != std::string::npos || gpu.name.find("H200") != std::string::npos;
    return rule != LargeBatchDevices::none && gpu.nvml_memory_total && gpu.visible_memory_bytes >= 70 * GiB &&
           (rule == LargeBatchDevices::memory || gpu.name.find("A100") == std::string::npos);
}

bool large_device(const GpuSpec& gpu) { return large_batch_device(gpu, LargeBatchDevices::memory_not_a100); }

bool largest_device(const GpuSpec& gpu) { return gpu.nvml_memory_total && gpu.visible_memory_bytes >= 160 * GiB; }

double default_gpu_memory_utilization(const EngineRules& rules) { return rules.larger_default_utilization ? 0.92 : 0.90; }

ResolvedLimits resolve_limits(const Scenario& s, const ModelSpec& m, const GpuSpec& gpu, const EngineRules& rules) {
    ResolvedLimits r;
    r.max_model_len = s.max_model_len ? *s.max_model_len : m.max_position_embeddings;
    r.block_size = s.block_size ? *s.block_size : (m.attention == AttentionKind::mla && rules.v1_engine ? 64 : 16);
    r.gpu_memory_utilization = s.gpu_memory_utilization.value_or(default_gpu_memory_utilization(rules));
    const bool offline = s.entry == Entry::offline;
    if (!rules.v1_engine) {
        r.max_num_seqs = 256;
        // V0 turned chunked prefill on for contexts above 32K, served or offline (EngineArgs.
        // create_engine_config), unless sliding-window layers, LoRA or a multimodal model ruled it out.
        const bool chunked = r.max_model_len > 32768 && m.sliding_window == 0 && !s.enable_lora && !m.multimodal;
        r.max_num_batched_tokens = !chunked ? std::max<int64_t>(r.max_model_len, 2048) : rules.v0_chunk_2048 ? 2048 : 512;
    } else if (large_batch_device(gpu, rules.large_batch_devices)) {
        r.max_num_seqs = 1024;
        r.max_num_batched_tokens = offline || (rules.largest_device_batch_defaults && largest_device(gpu)) ? 16384 : 8192;
    } else {
        r.max_num_seqs = rules.v1_seqs_1024_everywhere ? 1024 : 256;
        r.max_num_batched_tokens = offline ? 8192 : 2048;
    }
    if (s.max_num_seqs) r.max_num_seqs = *s.max_num_seqs;
    if (s.max_num_batched_tokens) r.max_num_batched_tokens = *s.max_num_batched_tokens;
    else if (rules.v1_engine) r.max_num_batched_tokens = std::min(r.max_num_batched_tokens, r.max_num_seqs * r.max_model_len);
    return r;
}

}  // namespace kv
