// The engine's memory order, as vLLM carves HBM at start-up:
//   1. budget = gpu_memory_utilization x capacity (the rest: CUDA context, allocator, driver);
//   2. minus the weights (this rank's shard);
//   3. minus the activation reserve for the largest forward pass the scheduler may launch;
//   4. the rest is the KV pool. Each sequence holds a contiguous block for prompt + output tokens,
//      so capacity = floor(pool / bytes per sequence).
// Leaves out paged allocation (a sequence only holding what it has generated) and preemption.
#pragma once
#include "evaluate.hpp"

namespace kv {

// Bytes reserved for activations: calibration.live_hidden_buffers hidden-width activations for
// every token of a max_num_batched_tokens forward pass, the sampler's FP32 logits for
// max_num_seqs sequences (vocab-parallel under tensor parallelism), and a fixed workspace.
double activation_reserve_bytes(const ModelSpec& model, const Scenario& scenario,
                                const Calibration& calibration);

// Fills the size and admission fields of `result` (scenario, model and gpu already set).
void plan_memory(Result& result, const Calibration& calibration);

}  // namespace kv
