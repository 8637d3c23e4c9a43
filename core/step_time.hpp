// How long a forward pass takes: a roofline per step. Time = max(FLOPs / achieved tensor rate,
// bytes / achieved HBM bandwidth) + tensor-parallel all-reduces (not overlapped).
//   FLOPs: 2 x params per token for the matmuls (a simplification that also counts the embedding
//   lookup), plus attention: 4 x layers x heads x head_dim per token and context token
//   (QK^T and AV), halved for the causal prefill triangle.
//   Bytes: the rank's weights, plus every running sequence's whole KV block (the new query attends
//   over all of it).
//   All-reduce: two per layer (after attention and after the MLP), ring algorithm:
//   2 (tp-1)/tp x message bytes over one direction of the interconnect (NVLink, PCIe), plus a fixed latency per call.
// Leaves out kernel launch gaps, sampling, and overlap of communication with compute.
#pragma once
#include "evaluate.hpp"

namespace kv {

// Fills decode, prefill, chunked-prefill, DCGM and throughput fields (memory plan already done).
void time_steps(Result& result, const Calibration& calibration);

// Matmul rate the weights run at: FP8 weights use the FP8 tensor rate where the GPU has one.
double achieved_flops_per_s(const GpuSpec& gpu, DType weight_dtype, const Calibration& calibration);

}  // namespace kv
