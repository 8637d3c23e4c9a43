// The costs of one forward pass besides its FLOPs and bytes, and the rates those run at, each a
// named term with the measurements behind it (the constants and their sources: engine/calibration.hpp):
//   - achieved rates: the GPU's measured HBM bandwidth and matmul ceiling (gpus.json "achieved"),
//     or the data sheet times the fraction its vendor's measured parts reach, times what a serving
//     step's kernels reach of those (a mixture of experts' routed experts, in their grouped GEMM, a
//     measured share of that: time/step_time.cpp);
//   - kernel floors: launch, ramp and tail per decoder layer, in a captured CUDA graph or eager
//     (V0 captures decode-only steps up to its largest graph batch; V1 captures steps of up to 512
//     tokens, PIECEWISE until 0.11.0 and for steps with prompt tokens after; --enforce-eager
//     captures none), a piecewise graph's split at each attention or mixer layer, and routing and
//     alignment per MoE layer;
//   - collectives: per all-reduce a latency by what runs it (vLLM's custom all-reduce over NVLink
//     or P2P, NCCL, NCCL over PCIe) plus the ring's bytes over one direction of the link;
//   - the host: scheduling, input preparation and output processing per step and per sequence, by
//     engine era; V0's multi-step scheduling pays it once per N steps, async scheduling overlaps it
//     with the GPU.
#pragma once
#include <cstdint>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// The rates a serving step's kernels reach on this GPU.
double step_bytes_per_s(const GpuSpec& gpu, const Calibration& calibration);
// What decode attention's gather of the KV cache reaches (an FP8 cache's at its measured share: the
// kernel dequantises every element as it reads).
double attention_read_bytes_per_s(const GpuSpec& gpu, DType kv_cache_dtype, const Calibration& calibration);
double step_flops_per_s(const GpuSpec& gpu, DType weight_dtype, const Calibration& calibration);
// The data sheet's tensor roof the weights run at (FP8 where the GPU has it).
double peak_flops_per_s(const GpuSpec& gpu, DType weight_dtype);

// Whether a pass of `tokens` tokens (`decode_only`: one token per sequence) replays a CUDA graph.
bool runs_in_cuda_graph(const EngineRules& rules, const Scenario& scenario, double tokens, bool decode_only);

// One all-reduce of `message_bytes` over `tensor_parallel_size` ranks: vLLM's own kernel where the
// release, the GPU's vendor and the scenario's --disable-custom-all-reduce allow it, else NCCL.
double allreduce_s(double message_bytes, int64_t tensor_parallel_size, const GpuSpec& gpu, const EngineRules& rules,
                   const Scenario& scenario, const Calibration& calibration);

// The CPU's time for one step over `sequences` sequences, before any overlap with the GPU.
double host_step_s(const EngineRules& rules, const Scenario& scenario, double sequences, const Calibration& calibration);

}  // namespace kv
