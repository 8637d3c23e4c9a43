// The constants that are not data-sheet or config.json numbers, in one place, each with what it
// stands for and which data set it. The memory constants were fitted to the "fit" rows of
// tests/validation/startup_logs.json (real vLLM start-ups, each with its source) and are checked
// against the held-out rows by the validation test; the step-time fractions come from the lesson
// brief's figures (tests/reference_figures.json).
#pragma once
#include <cstdint>

namespace kv {

struct Calibration {
    // --- Step time (the brief's figures) ---
    // Fraction of peak HBM bandwidth a well-tuned decode kernel sustains.
    double achieved_bandwidth_fraction = 0.80;
    // Fraction of dense tensor peak a large GEMM sustains.
    double achieved_tensor_fraction = 0.55;
    // NCCL ring all-reduce over NVLink: fixed latency per call (launch and synchronisation).
    double allreduce_latency_s = 8e-6;
    int64_t activation_bytes_per_element = 2;  // activations stay 16-bit whatever the weights are

    // --- The profile run's activation peak (torch_peak_increase in vLLM's logs) ---
    // Live activations per profiled token during the forward pass, in 16-bit elements: this many
    // hidden-width tensors (residual, normed input, attention output, projections) ...
    double forward_hidden_buffers = 4.0;
    // ... plus this many MLP-intermediate-width tensors of this rank (gate and up outputs, the
    // activation) ...
    double forward_mlp_buffers = 3.0;
    // ... plus this many q/k/v-width tensors of this rank.
    double forward_qkv_buffers = 1.0;
    // The sampler's pass over min(max_num_seqs, tokens) rows of full-vocabulary logits: bytes per
    // logit (the 16-bit logits, their FP32 copy and the FP32 probabilities alive at once).
    double sampler_bytes_per_logit = 14.0;

    // --- Memory outside torch (non_torch_memory in vLLM's logs) ---
    // CUDA context, cuBLAS workspaces and allocator slack that grows during the profile run.
    double non_torch_bytes = 0.25 * 1024 * 1024 * 1024;
    // Extra with tensor or pipeline parallelism: NCCL buffers and the custom all-reduce's.
    double non_torch_parallel_bytes = 1.0 * 1024 * 1024 * 1024;
    // CUDA context and allocator already in use before the engine's start-up snapshot (the
    // free-memory check compares what is left with total x util).
    double startup_context_bytes = 0.5 * 1024 * 1024 * 1024;

    // --- CUDA graphs (captured after the KV cache is allocated) ---
    // Memory of the captured graphs: a fixed part and a part per decoder layer.
    double cuda_graph_fixed_bytes = 0.10 * 1024 * 1024 * 1024;
    double cuda_graph_bytes_per_layer = 12.0 * 1024 * 1024;
};

}  // namespace kv
