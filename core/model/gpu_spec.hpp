// One accelerator as the serving engine sees it: the memory CUDA (or ROCm) reports as total, which
// is what vLLM multiplies by gpu_memory_utilization (a few hundred MiB below the marketed size),
// HBM bandwidth, dense tensor throughput and the interconnect its all-reduces use. Peak figures are
// the vendor's data-sheet numbers; the achieved fractions live in Calibration.
#pragma once
#include <string>

namespace kv {

struct GpuSpec {
    std::string name;                     // short id: A100, H100, L4
    std::string label;                    // full product name
    double memory_bytes = 0;              // marketed capacity, read as GiB (80 for an H100)
    double visible_memory_bytes = 0;      // what cudaMemGetInfo reports as total (79.19 GiB on an H100)
    double hbm_bytes_per_s = 0;           // peak memory bandwidth
    double bf16_flops_per_s = 0;          // dense (no sparsity) BF16 tensor throughput
    double fp8_flops_per_s = 0;           // dense FP8; 0 when the GPU has no FP8 tensor cores
    double interconnect_bytes_per_s = 0;  // per GPU, one direction (half the bidirectional figure)
    std::string interconnect = "nvlink";  // nvlink, pcie or xgmi
    std::string vendor = "nvidia";        // nvidia or amd: which kernels and collectives vLLM runs
    bool nvml_memory_total = true;        // NVML has a memory total (not on GB10's unified memory)
    // CUDA compute capability (8.0 for an A100, 7.5 for a T4; gpus.json "compute_capability"): which
    // engine a release runs on it (engine_rules_for). 0 where it is not a CUDA device or not stated.
    double compute_capability = 0;
    // The path to the host's memory that KV offloading copies over, one direction at its data-sheet
    // rate (gpus.json "host_link"): PCIe x16 of a generation (pcie3 to pcie6), NVLink-C2C on Grace
    // parts (c2c), or unified, where CPU and GPU share one memory and the CPU tier comes out of it.
    std::string host_link = "pcie4";
    double host_link_bytes_per_s = 32e9;
    // Measured by public benchmarks (gpus.json "achieved", each with its source); 0 where none is:
    // then the data sheet times the fraction its vendor's measured parts reach (calibration.hpp).
    double achieved_hbm_bytes_per_s = 0;   // a STREAM-like read
    double achieved_bf16_flops_per_s = 0;  // the best-shape matmul ceiling (MAMF)
    double achieved_fp8_flops_per_s = 0;

    bool operator==(const GpuSpec&) const = default;
};

}  // namespace kv
