// One accelerator as the serving engine sees it: HBM size and bandwidth, dense tensor throughput
// and the NVLink bandwidth its all-reduces use. Peak figures are the vendor's data-sheet numbers;
// the achieved fractions live in Calibration.
#pragma once
#include <string>

namespace kv {

struct GpuSpec {
    std::string name;                 // short id: A100, H100, H200
    std::string label;                // full product name
    double memory_bytes = 0;          // nominal HBM capacity
    double hbm_bytes_per_s = 0;       // peak HBM bandwidth
    double bf16_flops_per_s = 0;      // dense (no sparsity) BF16 tensor throughput
    double fp8_flops_per_s = 0;       // dense FP8; 0 when the GPU has no FP8 tensor cores
    double nvlink_bytes_per_s = 0;    // per GPU, one direction (half the bidirectional figure)
};

}  // namespace kv
