#include "scenario/defaults.hpp"

#include <algorithm>

#include "base/units.hpp"

namespace kv {

bool large_device(const GpuSpec& gpu) { return gpu.visible_memory_bytes >= 70 * GiB && gpu.name.find("A100") == std::string::npos; }

bool largest_device(const GpuSpec& gpu) { return gpu.visible_memory_bytes >= 160 * GiB; }

double default_gpu_memory_utilization(const EngineRules& rules) { return rules.larger_default_utilization ? 0.92 : 0.90; }

ResolvedLimits resolve_limits(const Scenario& s, const ModelSpec& m, const GpuSpec& gpu, const EngineRules& rules) {
    ResolvedLimits r;
    r.max_model_len = s.max_model_len ? *s.max_model_len : m.max_position_embeddings;
    r.block_size = s.block_size ? *s.block_size : (m.attention == AttentionKind::mla && rules.v1_engine ? 64 : 16);
    r.gpu_memory_utilization = s.gpu_memory_utilization.value_or(default_gpu_memory_utilization(rules));
    const bool offline = s.entry == Entry::offline;
    if (!rules.v1_engine) {
        r.max_num_seqs = 256;
        // V0's OpenAI server turned chunked prefill on for contexts above 32K, 512 tokens a step.
        const bool chunked = !offline && r.max_model_len > 32768;
        r.max_num_batched_tokens = chunked ? 512 : std::max<int64_t>(r.max_model_len, 2048);
    } else if (rules.device_batch_defaults && large_device(gpu)) {
        r.max_num_seqs = 1024;
        r.max_num_batched_tokens = offline || (rules.largest_device_batch_defaults && largest_device(gpu)) ? 16384 : 8192;
    } else {
        r.max_num_seqs = 256;
        r.max_num_batched_tokens = offline ? 8192 : 2048;
    }
    if (s.max_num_seqs) r.max_num_seqs = *s.max_num_seqs;
    if (s.max_num_batched_tokens) r.max_num_batched_tokens = *s.max_num_batched_tokens;
    else if (rules.v1_engine) r.max_num_batched_tokens = std::min(r.max_num_batched_tokens, r.max_num_seqs * r.max_model_len);
    return r;
}

}  // namespace kv
