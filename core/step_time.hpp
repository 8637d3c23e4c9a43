// How long a forward pass takes: a roofline per step. Time = max(FLOPs / achieved tensor rate,
// bytes / achieved HBM bandwidth) + tensor-parallel all-reduces (not overlapped).
//   FLOPs: 2 x active parameters per token for the matmuls (a simplification that also counts the
//   embedding lookup), plus attention: 4 x layers x heads x head_dim per token and context token
//   (QK^T and AV), halved for the causal prefill triangle.
//   Bytes: the rank's weights (for a mixture of experts, the experts the batch routes to), plus
//   every running sequence's KV blocks (the new query attends over all of them).
//   All-reduce: two per layer (after attention and after the MLP), ring algorithm:
//   2 (tp-1)/tp x message bytes over one direction of the interconnect (NVLink, PCIe), plus a
//   fixed latency per call.
// Leaves out kernel launch gaps, sampling, and overlap of communication with compute.
#pragma once
#include <cstdint>

#include "calibration.hpp"
#include "gpu_spec.hpp"
#include "scenario.hpp"

namespace kv {

struct Result;

enum class Bound { memory, compute, none };
const char* bound_name(Bound bound);

// Prefill and decode through the same lens: work, traffic, and which one sets the time.
struct PhaseTiming {
    double flops = 0;             // per rank
    double bytes = 0;             // per rank, HBM traffic
    double compute_s = 0;
    double memory_s = 0;
    double communication_s = 0;   // tensor-parallel all-reduces
    double total_s = 0;           // max(compute, memory) + communication
    Bound bound = Bound::none;
    double arithmetic_intensity = 0;  // flops per byte
};

struct StepTimes {
    // The rates the step times assume: data-sheet peaks times the achieved fractions of
    // calibration.hpp (the panels' roofline and the lesson's stated assumptions read these).
    double achieved_bytes_per_s = 0;
    double achieved_flops_per_s = 0;
    double peak_flops_per_s = 0;          // the tensor roof the weights run at (FP8 where the GPU has it)
    double ridge_flops_per_byte = 0;      // achieved FLOP/s over achieved bytes/s: the roofline's knee

    // Decode step (one token for every running sequence).
    PhaseTiming decode;
    double decode_tokens_per_s = 0;       // aggregate
    double itl_s = 0;                     // per-stream inter-token latency (= decode step)
    double weight_share = 0;              // weight bytes / bytes moved
    double dram_active = 0;               // simulated DCGM_FI_PROF_DRAM_ACTIVE
    double tensor_active = 0;             // simulated DCGM_FI_PROF_PIPE_TENSOR_ACTIVE
    double gpu_utilization = 0;           // nvidia-smi "utilization": a kernel is resident

    // Prefill of one prompt (time to first token).
    PhaseTiming prefill;

    // Chunked prefill under max_num_batched_tokens.
    int64_t chunk_budget_tokens = 0;      // max_num_batched_tokens - running
    int64_t free_prefill_tokens = 0;      // ride along before compute exceeds memory time
    double step_with_full_chunk_s = 0;    // decode step with chunk_budget_tokens folded in

    // Steady state: prompt tokens prefilled per second to keep the decodes fed.
    double prompt_tokens_per_s = 0;
};

// Step times for an assembled result (memory plan and admission done).
StepTimes time_steps(const Result& result, const Calibration& calibration);

// Decode step time with `chunk_tokens` prefill tokens folded into the same forward pass.
double decode_step_with_chunk_s(const Result& result, const StepTimes& steps, int64_t chunk_tokens,
                                const Calibration& calibration = {});

// Matmul rate the weights run at: FP8 weights use the FP8 tensor rate where the GPU has one.
double achieved_flops_per_s(const GpuSpec& gpu, DType weight_dtype, const Calibration& calibration);

}  // namespace kv
