#include "time/step_costs.hpp"

#include <algorithm>
#include <string_view>

namespace kv {

namespace {

// As a view: its size is compared first and the three bytes inline, where a C string needs strlen and memcmp.
bool amd(const GpuSpec& gpu) { return std::string_view(gpu.vendor) == std::string_view("amd"); }

}  // namespace

double step_bytes_per_s(const GpuSpec& gpu, const Calibration& c) {
    const double measured = gpu.achieved_hbm_bytes_per_s > 0
                                ? gpu.achieved_hbm_bytes_per_s
                                : gpu.hbm_bytes_per_s * (amd(gpu) ? c.amd_hbm_fraction : c.nvidia_hbm_fraction);
    return measured * c.step_bandwidth_efficiency;
}

double attention_read_bytes_per_s(const GpuSpec& gpu, DType kv_cache_dtype, const Calibration& c) {
    const double gather_per_s =
        step_bytes_per_s(gpu, c) * (amd(gpu) ? c.amd_attention_read_efficiency : c.nvidia_attention_read_efficiency);
    return kv_cache_dtype == DType::fp8 ? gather_per_s * c.fp8_kv_read_share : gather_per_s;
}

double peak_flops_per_s(const GpuSpec& gpu, DType weight_dtype) {
    return (weight_dtype == DType::fp8 && gpu.fp8_flops_per_s > 0) ? gpu.fp8_flops_per_s : gpu.bf16_flops_per_s;
}

double step_flops_per_s(const GpuSpec& gpu, DType weight_dtype, const Calibration& c) {
    const bool fp8 = weight_dtype == DType::fp8 && gpu.fp8_flops_per_s > 0;
    const double measured = fp8 ? gpu.achieved_fp8_flops_per_s : gpu.achieved_bf16_flops_per_s;
    const double ceiling =
        measured > 0 ? measured : peak_flops_per_s(gpu, weight_dtype) * (amd(gpu) ? c.amd_matmul_fraction : c.nvidia_matmul_fraction);
    return ceiling * c.step_matmul_efficiency;
}

bool runs_in_cuda_graph(const EngineRules& rules, const Scenario& s, double tokens, bool decode_only) {
    if (s.enforce_eager) return false;
    if (!rules.v1_engine) {
        // V0 captures decode batches only: up to 256 before 0.6.0, up to max_num_seqs after (PR #7894).
        const int64_t largest = rules.v0_overhauled ? *s.max_num_seqs : std::min<int64_t>(*s.max_num_seqs, 256);
        return decode_only && tokens <= static_cast<double>(largest);
    }
    // V1 captures by tokens in the step, up to 512 by default (piecewise: attention runs between pieces).
    return tokens <= 512;
}

double allreduce_s(double message_bytes, int64_t tp, const GpuSpec& gpu, const EngineRules& rules, const Scenario& s,
                   const Calibration& c) {
    if (tp <= 1) return 0.0;
    const double ring_bytes = 2.0 * static_cast<double>(tp - 1) / static_cast<double>(tp) * message_bytes;
    // vLLM's custom all-reduce runs over NVLink (and ROCm's links) for up to 8 ranks and 8 MiB, over
    // PCIe only between 2 GPUs with P2P; otherwise NCCL.
    const bool linked = gpu.interconnect != "pcie";
    const bool available = custom_allreduce_on(rules, gpu.vendor) && !s.disable_custom_all_reduce;
    const bool custom = available && message_bytes <= 8.0 * 1024 * 1024 && (linked ? tp <= 8 : tp == 2);
    const double latency = custom ? c.allreduce_custom_s : linked ? c.allreduce_nccl_s : c.allreduce_pcie_s;
    return latency + ring_bytes / gpu.interconnect_bytes_per_s;
}

double host_step_s(const EngineRules& rules, const Scenario& s, double sequences, const Calibration& c) {
    if (rules.v1_engine) return c.host_v1_step_s + c.host_v1_per_sequence_s * sequences;
    const double per_step = rules.v0_overhauled ? c.host_v0_step_s : c.host_v0_early_step_s;
    const double per_sequence = rules.v0_overhauled ? c.host_v0_per_sequence_s : c.host_v0_early_per_sequence_s;
    // Multi-step scheduling schedules and processes outputs once per N passes.
    return (per_step + per_sequence * sequences) / static_cast<double>(std::max<int64_t>(1, s.num_scheduler_steps));
}

}  // namespace kv
