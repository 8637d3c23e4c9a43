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
    // hidden-width tensors, MLP-intermediate-width tensors of this rank (gate and up outputs, the
    // activation) and q/k/v-width tensors. Set by the V0 rows gh10517-* (the peak grows by about
    // 110 KB per profiled token for Llama-3.1-8B as max_model_len goes from 20,000 to 29,000).
    double forward_hidden_buffers = 2.0;
    double forward_mlp_buffers = 3.0;
    double forward_qkv_buffers = 1.0;
    // V1's compiled forward pass keeps a quarter more alive: set by planner-h100-llama31-8b-pp2,
    // whose first stage (no sampler) peaks at 1.10 GiB over 8,192 tokens where V0's rate gives 0.88.
    double v1_forward_scale = 1.25;
    // The sampler's pass over min(max_num_seqs, tokens) rows of full-vocabulary logits (V0: over
    // max_num_seqs rows), in bytes per logit:
    //   - V0: about 5 (the FP32 logits): gh13061 logs a 0.19 GiB peak over 256 x 152,064 logits.
    //   - V1 before the newer profile run, on the large devices that get 1,024 rows (H100, H200):
    //     about 36, a full sort for top-k/top-p (FP32 logits, probabilities and sorted values,
    //     int64 indices). Set by repo-mlops-h100-qwen3-30b-a3b-bf16-4k (0.10.2: 5.58 GiB) and
    //     checked by repo-bench3-h200 (0.11.2), llmd-bench-h100-qwen3-32b-tp2 (0.11.0) and
    //     gh23278 (0.10.1, refused). The A100 and L4 logs of the same releases show no sort (the
    //     repo-dennislee and repo-demo-env rows); the logs do not say which sampler kernel ran.
    //   - Otherwise about 15 (16-bit logits, an FP32 copy and the probabilities): set by the
    //     planner-h100-* rows of 0.19.0, where the Llama, Qwen2.5, phi-4 and Gemma 2 peaks differ
    //     by 15 bytes per vocabulary entry and row.
    double v0_sampler_bytes_per_logit = 5.0;
    double sorting_sampler_bytes_per_logit = 36.0;
    double sampler_bytes_per_logit = 15.0;
    // Mixture of experts: the fused-MoE workspace (gate/up, activation and output per routed
    // token) stays allocated through the sampler pass. Set by planner-h100-qwen3-30b-a3b and
    // planner-h100-mixtral-8x7b-tp2 (0.19.0), where the peak exceeds the sampler's by it.
    double moe_workspace_buffers = 1.0;

    // --- Memory outside torch (non_torch_memory in vLLM's logs) ---
    // CUDA context growth, cuBLAS workspaces and allocator slack during the profile run: 0.25 GiB
    // in the TP=1 rows of 0.19.0 (planner-h100-*) and of V0 (gh10517, gh13061).
    double non_torch_bytes = 0.25 * 1024 * 1024 * 1024;
    // Extra with tensor parallelism (NCCL and custom all-reduce buffers; pipeline parallelism
    // alone adds none: planner-h100-llama31-8b-pp2 logs 0.07 GiB). About 1.85 GiB more in the
    // 0.19.0 rows (planner-h100-llama31-8b-tp4, mixtral-tp2: 2.07-2.13 GiB in all), about 0.3
    // GiB before (llmd-bench-h100-qwen3-32b-tp2 at 0.11.0: 0.54 GiB in all).
    double non_torch_tensor_parallel_bytes = 1.85 * 1024 * 1024 * 1024;
    double non_torch_tensor_parallel_bytes_before_newer_profile = 0.30 * 1024 * 1024 * 1024;
    // CUDA context and allocator already in use before the engine's start-up snapshot: the
    // planner rows log 78.68 GiB free of 79.19 at start (TP=1).
    double startup_context_bytes = 0.51 * 1024 * 1024 * 1024;

    // --- CUDA graphs (captured after the KV cache is allocated) ---
    // The engine's estimate ("Estimated CUDA graph memory") per decoder layer at the default 51
    // capture sizes: 0.54-1.82 GiB for 28-80 layers in the planner-h100-* rows (0.19.0).
    double cuda_graph_fixed_bytes = 0.0;
    double cuda_graph_bytes_per_layer = 22.0 * 1024 * 1024;
};

}  // namespace kv
