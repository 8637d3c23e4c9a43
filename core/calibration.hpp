// The few constants that are not data-sheet or config.json numbers. They were fitted once so that
// the model reproduces the lesson's figures (see tests/reference_figures.json) and are stated here,
// in one place, so the text can say what it assumes.
#pragma once
#include <cstdint>

namespace kv {

struct Calibration {
    // Fraction of peak HBM bandwidth a well-tuned decode kernel sustains.
    double achieved_bandwidth_fraction = 0.80;
    // Fraction of dense tensor peak a large GEMM sustains.
    double achieved_tensor_fraction = 0.55;
    // Activation reserve (vLLM's profile run): the largest forward pass keeps this many
    // hidden-width activations per token alive at once (residual, normed input, attention
    // output, o_proj and down_proj outputs), in the activation dtype.
    int64_t live_hidden_buffers = 5;
    int64_t activation_bytes_per_element = 2;  // activations stay BF16 whatever the weights are
    int64_t logits_bytes_per_element = 4;      // the sampler's logits are FP32
    // Non-activation workspace inside the budget: cuBLAS workspaces and the CUDA-graph pool.
    double fixed_workspace_bytes = 640.0 * 1024 * 1024;
    // vLLM hands out the cache in blocks of this many tokens.
    int64_t kv_block_tokens = 16;
    // NCCL ring all-reduce over NVLink: fixed latency per call (launch and synchronisation).
    double allreduce_latency_s = 8e-6;
};

}  // namespace kv
