// KV offloading to CPU memory: vLLM's OffloadingConnector with its native CPU backend, switched on by
// --kv-offloading-size (GiB over all of an engine's ranks, kv_connector_extra_config cpu_bytes_to_use
// = size x 2^30: vllm/config/vllm.py). Pinned host memory holds whole blocks: one block is the page
// of every KV tensor on every rank (vllm/v1/kv_offload/cpu/spec.py: page_size_bytes x
// len(kv_cache_tensors) x world_size), so the CPU tier has cpu_bytes / that many blocks and the GPU
// pool is unchanged. Every full block a request computes is copied out as it fills (write-through,
// asynchronous); a request whose prefix is no longer on the GPU (evicted, or it was preempted) loads
// the blocks the CPU still holds back over the host link and waits for them, instead of computing
// them again (vllm/distributed/kv_transfer/kv_connector/v1/offloading_connector.py). Each rank copies
// its own share over its own link. Copies run on the GPU's DMA engines beside the forward pass (the
// vLLM blog "Inside vLLM's New Offloading Connector", 2025-12-29: about 50 GB/s one way on an
// H100's PCIe Gen5, 83.4 both ways at once); their interference with the step is left out.
// Refused: releases before the flag (0.14.0) and models with more than one KV cache group (sliding
// window, linear attention), for which the connector asks for --disable-hybrid-kv-cache-manager.
#pragma once
#include <cstdint>
#include <optional>

#include "base/input_error.hpp"
#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

struct KvLayout;

struct CpuOffload {
    bool on = false;
    double cpu_bytes = 0;             // --kv-offloading-size, all ranks together
    double block_bytes_per_rank = 0;  // one block on one rank: what each rank's link carries per block
    int64_t cpu_blocks = 0;           // blocks the CPU tier holds
    int64_t cpu_tokens = 0;           // cpu_blocks x block_size
    double link_bytes_per_s = 0;      // one direction of a rank's host link, as a DMA copy reaches it
    double load_s_per_block = 0;      // one block back to the GPU
};

// The CPU tier for the scenario's --kv-offloading-size over the rank's layout; off (all 0) at 0.
CpuOffload plan_offload(const Scenario& scenario, const KvLayout& layout, const GpuSpec& gpu, const Calibration& calibration);

// Time to load the full blocks of `tokens` tokens back from the CPU (each rank its share at once).
double offload_load_s(const CpuOffload& offload, int64_t tokens, int64_t block_size);

// The flag on a release without it, or on a model whose layout has several KV cache groups.
std::optional<InputError> check_offload(const Scenario& scenario, const KvLayout& layout, const EngineRules& rules);

}  // namespace kv
