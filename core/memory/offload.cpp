#include "memory/offload.hpp"

#include <cmath>

#include "base/units.hpp"
#include "memory/memory_plan.hpp"

namespace kv {

CpuOffload plan_offload(const Scenario& s, const KvLayout& k, const GpuSpec& gpu, const Calibration& c) {
    CpuOffload o;
    if (s.kv_offloading_size_gib <= 0 || k.page_bytes <= 0) return o;
    o.on = true;
    o.cpu_bytes = s.kv_offloading_size_gib * GiB;
    o.block_bytes_per_rank = k.page_bytes * static_cast<double>(k.layers);
    const auto ranks = static_cast<double>(s.tensor_parallel_size * s.pipeline_parallel_size);
    o.cpu_blocks = static_cast<int64_t>(std::floor(o.cpu_bytes / (o.block_bytes_per_rank * ranks)));
    o.cpu_tokens = o.cpu_blocks * k.block_size;
    o.link_bytes_per_s = gpu.host_link_bytes_per_s * c.host_link_copy_fraction;
    o.load_s_per_block = o.block_bytes_per_rank / o.link_bytes_per_s;
    return o;
}

double offload_load_s(const CpuOffload& o, int64_t tokens, int64_t block_size) {
    if (!o.on || block_size <= 0) return 0.0;
    const int64_t full_blocks = tokens / block_size;  // a partial block is not stored
    return static_cast<double>(full_blocks) * o.load_s_per_block;
}

std::optional<InputError> check_offload(const Scenario& s, const KvLayout& k, const EngineRules& rules) {
    if (s.kv_offloading_size_gib <= 0) return std::nullopt;
    if (!rules.kv_offloading_argument)
        return InputError{"kv_offloading_size_gib", ErrorCode::unknown_field,
                          "kv_offloading_size_gib (--kv-offloading-size) came with vLLM 0.14.0, not " + s.vllm_version};
    if (k.num_groups > 1 || k.linear_layers > 0 || k.sliding_layers > 0)
        return InputError{"kv_offloading_size_gib", ErrorCode::out_of_range,
                          "kv_offloading_size_gib: vLLM's offloading connector needs one KV cache group, and this model's "
                          "sliding-window or linear layers make several; set it to 0"};
    return std::nullopt;
}

}  // namespace kv
