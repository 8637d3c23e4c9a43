#include <catch2/catch.hpp>
#include <cmath>

#include "io/fields_json.hpp"
#include "model/catalog.hpp"
#include "time/step_costs.hpp"
#include "time/step_time.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

// Qwen3-8B's token embedding: 151,936 x 4,096 in 16 bits, apart from its lm_head (not tied).
constexpr double qwen3_8b_table_bytes = 151936.0 * 4096 * 2;
constexpr double qwen3_8b_table_params = 151936.0 * 4096;

TEST_CASE("decode moves the weights plus every running sequence's whole cache, at the rates a step reaches") {
    const Result r = evaluate_ok({});
    const Calibration c;
    // Every weight but the embedding, which a step gathers its tokens' rows from.
    CHECK(r.memory.gathered_table_bytes == qwen3_8b_table_bytes);
    const double read_bytes = r.memory.weight_bytes - qwen3_8b_table_bytes;
    CHECK(r.steps.decode.bytes == read_bytes + 32 * r.admission.bytes_per_sequence);
    // The H100's measured rates (gpus.json "achieved"), times what a serving step reaches of them;
    // the attention kernel's gather of the cache a share of that.
    const double weights_per_s = 3.0255e12 * c.step_bandwidth_efficiency;
    const double cache_bytes = 32 * r.admission.bytes_per_sequence;
    CHECK(r.steps.decode.memory_s ==
          Approx(read_bytes / weights_per_s + cache_bytes / (weights_per_s * c.nvidia_attention_read_efficiency)));
    CHECK(r.steps.decode.compute_s == Approx(r.steps.decode.flops / (794.5e12 * c.step_matmul_efficiency)));
    const PhaseTiming& d = r.steps.decode;
    // The matmuls and attention run one after the other, each at its own roofline; the matmuls near
    // the ridge pay for both their loads and their arithmetic (a p-norm), attention the longer.
    CHECK(d.gpu_s == Approx(d.matmul_s + d.attention_s + d.kernel_s + d.communication_s));
    const double matmul_params = static_cast<double>(active_parameter_count(r.model)) - qwen3_8b_table_params;
    const double matmul_compute_s = 32 * 2.0 * matmul_params / (794.5e12 * c.step_matmul_efficiency);
    const double matmul_memory_s = read_bytes / weights_per_s, p = c.matmul_roofline_exponent;
    CHECK(d.matmul_s == Approx(std::pow(std::pow(matmul_compute_s, p) + std::pow(matmul_memory_s, p), 1 / p)));
    CHECK(d.matmul_s > 1.05 * matmul_memory_s);  // a batch of 32 is far below the ridge, yet not free
    CHECK(d.attention_s == Approx(cache_bytes / (weights_per_s * c.nvidia_attention_read_efficiency)));
    CHECK(d.communication_s == 0);  // one GPU
    // 36 layers of kernel floors in a full CUDA graph (decodes alone, no piecewise splits); the
    // release (0.21) overlaps the host with the GPU.
    CHECK(d.kernel_s == Approx(36 * c.layer_floor_graph_s));
    CHECK(d.host_s == Approx(c.host_v1_step_s + 32 * c.host_v1_per_sequence_s));
    CHECK(d.total_s == Approx(std::max(d.gpu_s, d.host_s)));
    CHECK(r.steps.decode.bound == Bound::memory);
    CHECK(r.steps.decode_tokens_per_s == Approx(32 / r.steps.decode.total_s));
    CHECK(r.steps.itl_s == r.steps.decode.total_s);
    CHECK(r.steps.weight_share == Approx(read_bytes / r.steps.decode.bytes));
}

TEST_CASE("a tied embedding is the lm_head, read whole every step; an untied one only on a stage without the head") {
    const Result tied = evaluate_ok({{"model", "Qwen3-4B"}});  // tie_word_embeddings: true
    CHECK(tied.memory.gathered_table_bytes == 0);
    CHECK(tied.steps.decode.bytes == tied.memory.weight_bytes + 32 * tied.admission.bytes_per_sequence);
    // Two pipeline stages: the first holds the embedding, the last its own lm_head; the plan is the
    // stage with fewer blocks, and its gathered bytes are the first stage's table or nothing.
    const Result staged = evaluate_ok({{"model", "Qwen3-4B"}, {"pipeline_parallel_size", 2}});
    CHECK((staged.memory.gathered_table_bytes == 0 || staged.memory.gathered_table_bytes == 151936.0 * 2560 * 2));
}

TEST_CASE("decode FLOPs: 2 x params per token, no matmul for the embedding's lookup, plus attention over the context") {
    const Result r = evaluate_ok({});
    const double attention = 4.0 * 36 * 32 * 128 * (4096 + 256);
    CHECK(r.steps.decode.flops == Approx(32 * (2.0 * (8190735360.0 - qwen3_8b_table_params) + attention)));
}

TEST_CASE("prefill: matmuls plus the causal attention triangle, or the weight read if longer") {
    const Result r = evaluate_ok({{"model", "Qwen3-14B"}, {"gpu", "A100"}});
    const double p = 4096;
    // The lm_head (151,936 x 5,120) computes logits for one row a pass, the chunk's last: two chunks.
    const double head = 151936.0 * 5120;
    CHECK(r.steps.prefill.flops == Approx(2.0 * (14768307200.0 - 2 * head) * p + 2 * 2.0 * head + 4.0 * 40 * 40 * 128 * p * p / 2));
    CHECK(r.steps.prefill.bound == Bound::compute);
    // 4,096 tokens on an A100 (2,048 a step by default): two passes, each eager, with its floors
    // (never below a graph's), each attention layer's op run eagerly as in a piecewise graph, and
    // host work.
    const Calibration c;
    CHECK(r.steps.prefill.compute_s == Approx(r.steps.prefill.flops / (271.2e12 * c.step_matmul_efficiency)));
    CHECK(r.steps.prefill.kernel_s == Approx(2 * 40 * (std::max(c.layer_floor_eager_s, c.layer_floor_graph_s) + c.piecewise_split_s)));
    CHECK(r.steps.prefill.total_s == Approx(std::max(r.steps.prefill.gpu_s, r.steps.prefill.host_s)));
}

TEST_CASE("the quadratic term matters only for long prompts") {
    const Result short_prompt = evaluate_ok({{"prompt_tokens", 1024}});
    const Result long_prompt = evaluate_ok({{"prompt_tokens", 32768}});
    // 32x the tokens costs more than 32x the time once attention grows with the square.
    CHECK(long_prompt.steps.prefill.total_s / short_prompt.steps.prefill.total_s > 32.0);
}

TEST_CASE("FP8 weights run at the FP8 matmul rate where the GPU has one; a GPU with no measurement takes its vendor's fraction") {
    const Calibration c;
    CHECK(step_flops_per_s(*find_gpu("H100"), DType::fp8, c) == Approx(1402.6e12 * c.step_matmul_efficiency));
    CHECK(step_flops_per_s(*find_gpu("A100"), DType::fp8, c) == Approx(271.2e12 * c.step_matmul_efficiency));  // no FP8 tensor cores
    CHECK(step_bytes_per_s(*find_gpu("H200"), c) == Approx(3.888e12 * c.step_bandwidth_efficiency));
    CHECK(step_bytes_per_s(*find_gpu("H800"), c) == Approx(3.35e12 * c.nvidia_hbm_fraction * c.step_bandwidth_efficiency));
    CHECK(step_bytes_per_s(*find_gpu("MI300X"), c) == Approx(4.293e12 * c.step_bandwidth_efficiency));
}

// vLLM multiplies an FP8 checkpoint's weights in FP8 where the GPU can (Fp8LinearMethod), as it does
// weights it quantises itself; a block-scaled checkpoint runs the blockwise kernels, measured well
// below BF16 (calibration.hpp, block_fp8_matmul_share); an Ampere card dequantises into 16 bits.
TEST_CASE("an FP8 checkpoint's matmuls: FP8 for scales per tensor, a measured share of 16 bits for block scales, 16 bits on Ampere") {
    const Calibration c;
    const auto rate = [](const char* model, const char* gpu) {
        return evaluate_ok({{"model", model}, {"gpu", gpu}, {"tensor_parallel_size", 8}}).steps.achieved_flops_per_s;
    };
    CHECK(rate("Llama-3.1-70B-Instruct-FP8", "H100") == Approx(step_flops_per_s(*find_gpu("H100"), DType::fp8, c)));
    CHECK(rate("Llama-3.1-70B-Instruct-FP8", "H100") > 1.5 * rate("Llama-3.1-70B", "H100"));
    CHECK(rate("Llama-3.1-70B-Instruct-FP8", "A100") == Approx(rate("Llama-3.1-70B", "A100")));
    CHECK(find_model("DeepSeek-V3")->weight_block_size == 128);
    CHECK(find_model("Llama-3.1-70B-Instruct-FP8")->weight_block_size == 0);
    const auto again = model_from_config(model_to_config(*find_model("DeepSeek-V3")), "model_config");  // written back, read again
    REQUIRE(std::holds_alternative<ModelSpec>(again));
    CHECK(std::get<ModelSpec>(again).weight_block_size == 128);
    CHECK(rate("DeepSeek-V3", "H200") == Approx(step_flops_per_s(*find_gpu("H200"), DType::bf16, c) * c.block_fp8_matmul_share));
    const Result block = evaluate_ok({{"model", "Qwen3-32B-FP8"}});
    CHECK(block.steps.peak_flops_per_s == Approx(find_gpu("H100")->fp8_flops_per_s));  // the tensor roof it runs under
    CHECK(block.steps.achieved_flops_per_s < evaluate_ok({{"model", "Qwen3-32B"}}).steps.achieved_flops_per_s);
}

TEST_CASE("simulated DCGM: busy memory, idle tensor cores, nvidia-smi at 100%") {
    const Calibration c;
    const Result r = evaluate_ok({});
    // Memory-bound: DRAM busy for the part of the step that streams, at the rate its reads reach;
    // kernel floors and the host's share of the step leave it idle for the rest.
    const double streaming_share = r.steps.decode.memory_s / r.steps.decode.total_s;
    const double streaming_bytes_per_s = r.steps.decode.bytes / r.steps.decode.memory_s;
    CHECK(r.steps.dram_active == Approx(streaming_bytes_per_s / r.gpu.hbm_bytes_per_s * streaming_share));
    CHECK(streaming_bytes_per_s <= step_bytes_per_s(r.gpu, c));
    CHECK(r.steps.dram_active > 0.5);
    CHECK(r.steps.tensor_active < 0.1);
    CHECK(r.steps.gpu_utilization == 1.0);
    const Result compute_bound =
        evaluate_ok({{"model", "Qwen3-14B"}, {"prompt_tokens", 128}, {"output_tokens", 16}, {"concurrent_requests", 256}});
    const double compute_share = compute_bound.steps.decode.compute_s / compute_bound.steps.decode.total_s;
    CHECK(compute_bound.steps.tensor_active ==
          Approx(step_flops_per_s(compute_bound.gpu, DType::bf16, c) / compute_bound.steps.peak_flops_per_s * compute_share));
    // Compute-bound: the tensor cores several times busier than in the memory-bound step, DRAM less.
    CHECK(compute_bound.steps.decode.bound == Bound::compute);
    CHECK(compute_bound.steps.tensor_active > 4 * r.steps.tensor_active);
    CHECK(compute_bound.steps.dram_active < r.steps.dram_active);
}

TEST_CASE("chunked prefill: a slice rides nearly free on the step's weight read, then costs compute") {
    const Result r = evaluate_ok({});
    CHECK(r.steps.chunk_budget_tokens == 8192 - 32);
    REQUIRE(r.steps.free_prefill_tokens > 0);
    CHECK(decode_step_with_chunk_s(step_engine(r), r.admission.running, 0) == Approx(r.steps.decode.total_s));
    // Up to the free count the step grows by at most a tenth, one token more and it grows more...
    const auto growth = [&](int64_t tokens) {
        return decode_step_with_chunk_s(step_engine(r), r.admission.running, tokens) / r.steps.decode.total_s;
    };
    CHECK(growth(r.steps.free_prefill_tokens) <= 1.10);
    CHECK(growth(r.steps.free_prefill_tokens + 1) > 1.10);
    // ...while the same tokens in a pass of their own would read every weight again.
    StepLoad alone;
    add_prefill(alone, static_cast<double>(r.steps.free_prefill_tokens), 4096, 4096);
    CHECK(time_step(step_engine(r), alone, Calibration{}).total_s > 5 * (growth(r.steps.free_prefill_tokens) - 1) * r.steps.decode.total_s);
    // Past it the step grows with every token.
    const double at_budget = decode_step_with_chunk_s(step_engine(r), r.admission.running, r.steps.chunk_budget_tokens);
    CHECK(at_budget == Approx(r.steps.step_with_full_chunk_s));
    CHECK(at_budget > 3 * r.steps.decode.total_s);
}

TEST_CASE("tensor parallelism: sublinear because of the all-reduces") {
    const Result tp1 = evaluate_ok({});
    const Result tp4 = evaluate_ok({{"tensor_parallel_size", 4}});
    CHECK(tp4.steps.decode.bytes == Approx(tp1.steps.decode.bytes / 4).epsilon(0.001));  // norms stay whole on every rank
    CHECK(tp4.steps.decode.communication_s > 0);
    const double speedup = tp1.steps.decode.total_s / tp4.steps.decode.total_s;
    // Each rank reads a quarter of the weights, but the step's fixed costs (kernel floors, 74
    // all-reduces) do not shrink with it.
    CHECK(speedup > 1.5);
    CHECK(speedup < 3.0);
    // Two ring all-reduces per layer of running x hidden BF16 activations, one after the vocabulary-
    // parallel embedding and one gathering the logits; each pays vLLM's custom all-reduce latency
    // (NVLink, 4 ranks, a message under 8 MiB).
    const double message = 32.0 * 4096 * 2;
    const double per_call = 2.0 * 3 / 4 * message / 450e9 + Calibration{}.allreduce_custom_s;
    CHECK(tp4.steps.decode.communication_s == Approx((2 * 36 + 2) * per_call));
}

TEST_CASE("the custom all-reduce: off by the flag, from 0.3.1 to 0.4.1, and on AMD GPUs in upstream releases before 0.8.3") {
    const Calibration c;
    const double message = 32.0 * 4096 * 2;
    const auto latency = [&](const nlohmann::json& s) {
        const Result r = evaluate_ok(s);
        const double ring = 2.0 * 3 / 4 * message / r.gpu.interconnect_bytes_per_s;
        return r.steps.decode.communication_s / (2 * 36 + 2) - ring;
    };
    CHECK(latency({{"tensor_parallel_size", 4}}) == Approx(c.allreduce_custom_s));
    CHECK(latency({{"tensor_parallel_size", 4}, {"disable_custom_all_reduce", true}}) == Approx(c.allreduce_nccl_s));
    // vllm/config.py's ParallelConfig until PR #14125: "not supported on AMD GPUs"; AMD's fork kept it.
    CHECK(latency({{"gpu", "MI300X"}, {"tensor_parallel_size", 4}, {"vllm_version", "0.6.1"}}) == Approx(c.allreduce_nccl_s));
    CHECK(latency({{"gpu", "MI300X"}, {"tensor_parallel_size", 4}, {"vllm_version", "0.6.1+rocm"}}) == Approx(c.allreduce_custom_s));
    CHECK(latency({{"gpu", "MI300X"}, {"tensor_parallel_size", 4}, {"vllm_version", "0.8.3"}}) == Approx(c.allreduce_custom_s));
    CHECK(latency({{"gpu", "H100"}, {"tensor_parallel_size", 4}, {"vllm_version", "0.6.1"}}) == Approx(c.allreduce_custom_s));
    // It came with 0.3.0 (PR #2192), was turned off by default a week later (PR #2808) and back on
    // by PR #4040: NCCL in the releases between.
    for (const char* version : {"0.2.7", "0.3.1", "0.3.3", "0.4.0"})
        CHECK(latency({{"tensor_parallel_size", 4}, {"vllm_version", version}}) == Approx(c.allreduce_nccl_s));
    for (const char* version : {"0.3.0", "0.4.1"})
        CHECK(latency({{"tensor_parallel_size", 4}, {"vllm_version", version}}) == Approx(c.allreduce_custom_s));
}

TEST_CASE("MLA attends two ways: a decode over the latent, a prefill over keys and values decompressed per head") {
    // DeepSeek-V2-Lite: 27 layers, 16 heads, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head_dim 128.
    const Result r = evaluate_ok({{"model", "DeepSeek-V2-Lite-Chat"}});
    const StepEngine engine = step_engine(r);
    const double per_width = 2.0 * 27 * 16;
    const auto flops = [&](const StepLoad& load) { return time_step(engine, load, Calibration{}).flops; };
    // One sequence decoding at 1,000 tokens of context against the same at none: QK^T over 512 + 64,
    // AV over the 512-wide latent, per context token.
    CHECK(flops(decode_load(engine, 1, 1000)) - flops(decode_load(engine, 1, 0)) == Approx(1000 * per_width * (2 * 512 + 64)));
    // A 4,096-token prompt in one chunk attends over half of itself on average, at 128 + 64 + 128 per
    // head; cut in four chunks, each later chunk also decompresses the earlier chunks' latent
    // (kv_b_proj: 512 in, 16 x (128 + 128) out) and attends the same pairs; and each chunk's last
    // row gets logits (the lm_head: 102,400 x 2,048), three more than the whole prompt's one.
    StepLoad whole, chunked;
    add_prefill(whole, 4096, 4096, 4096);
    add_prefill(chunked, 4096, 4096, 1024);
    StepLoad none;
    add_prefill(none, 4096, 4096, 4096);
    none.prefill_context_pairs = 0;
    CHECK(flops(whole) - flops(none) == Approx(4096.0 * 4096 / 2 * per_width * (128 + 64 + 128)));
    CHECK(flops(chunked) - flops(whole) == Approx(1024.0 * (1 + 2 + 3) * per_width * 512 * (128 + 128) + 3 * 2.0 * 102400 * 2048));
}

TEST_CASE("a decode step's weight read gains intensity with the batch, its cache read stays at the group size") {
    const Result r = evaluate_ok({});  // Qwen3-8B: 32 query heads on 8 KV heads, BF16 cache
    const DecodeIntensities one = decode_intensities(step_engine(r), 1, 4352);
    const DecodeIntensities many = decode_intensities(step_engine(r), 64, 4352);
    CHECK(one.weight_flops_per_byte ==
          Approx(2.0 * (8190735360.0 - qwen3_8b_table_params) / (r.memory.weight_bytes - qwen3_8b_table_bytes)));
    CHECK(many.weight_flops_per_byte == Approx(64 * one.weight_flops_per_byte));
    CHECK(one.kv_flops_per_byte == Approx(4.0));
    CHECK(many.kv_flops_per_byte == Approx(4.0));
    const Result fp8 = evaluate_ok({{"kv_cache_dtype", "fp8"}});
    CHECK(decode_intensities(step_engine(fp8), 8, 4352).kv_flops_per_byte == Approx(8.0));
}

TEST_CASE("a mixture of experts: the routed experts' grouped GEMM runs at its measured share of the dense matmuls' rate") {
    // Mixtral-8x7B at TP 2 on an H100, one 1,024-token prompt: each token runs through 2 of 8
    // experts of 3 x 4,096 x 14,336 weights in 32 layers, half of each on this rank.
    const Result r = evaluate_ok({{"model", "Mixtral-8x7B-Instruct-v0.1"}, {"tensor_parallel_size", 2}});
    const StepEngine engine = step_engine(r);
    // The experts' bytes on this rank, as loaded: 32 layers of 8 experts, half of each, 16 bits.
    CHECK(r.memory.expert_weight_bytes == Approx(32.0 * 8 * 3 * 4096 * 14336 * 2 / 2));
    StepLoad prompt;
    add_prefill(prompt, 1024, 1024, 1024);
    Calibration dense_rate;
    dense_rate.moe_grouped_gemm_efficiency = 1.0;
    const Calibration c;
    const double expert_flops = 1024 * 2.0 * 2 * 3 * 4096 * 14336 * 32 / 2;
    const double rate = 794.5e12 * c.step_matmul_efficiency;
    const double slower_s = time_step(engine, prompt, c).compute_s - time_step(engine, prompt, dense_rate).compute_s;
    CHECK(slower_s == Approx(expert_flops / rate * (1 / c.moe_grouped_gemm_efficiency - 1)));
    // One layer's experts against vLLM's benchmark_moe.py on an H100 (PR #24700, tuned config):
    // 833.72 us at 1,024 tokens, where a lone dense GEMM would reach 95% of the measured ceiling. The
    // model's step reaches step_matmul_efficiency of it, so the kernel's time is scaled the same way.
    const double layer_s = expert_flops / (rate * c.moe_grouped_gemm_efficiency) / 32;
    CHECK(layer_s == Approx(833.72e-6 * 0.95 / c.step_matmul_efficiency).epsilon(0.10));
}

TEST_CASE("MXFP4 experts are a smaller share of the bytes than of the parameters, and a step skips only theirs") {
    // gpt-oss-20b keeps its experts in 4.25-bit MXFP4 (padded to 3,072 wide) and the rest in 16 bits.
    const Result r = evaluate_ok({{"model", "gpt-oss-20b"}});
    const ParameterCount p = count_parameters(r.model);
    const double expert_param_share = static_cast<double>(p.experts) / static_cast<double>(p.total());
    CHECK(r.memory.expert_weight_bytes / r.memory.weight_bytes < 0.85 * expert_param_share);
    // One sequence touches 4 of 32 experts a layer; the step reads the rest of the weights whole,
    // and the embedding (not tied) only as the rows it gathers, besides the new token's cache.
    const StepLoad one = decode_load(step_engine(r), 1, 0);
    const double touched = 4.0 / 32;
    CHECK(
        time_step(step_engine(r), one, Calibration{}).bytes ==
        Approx(r.memory.weight_bytes - r.memory.gathered_table_bytes - r.memory.expert_weight_bytes * (1 - touched) + one.decode_kv_bytes));
}

TEST_CASE("before the fused MoE kernel (0.3.0) a rank ran every token through each of its whole experts") {
    // Mixtral-8x7B at TP 2 on an H100: 0.2.7's expert parallelism gives each rank 4 whole experts,
    // 0.3.0's fused kernel half of each of the 8; the same bytes either way.
    const auto engine_at = [](const char* version) {
        return evaluate_ok({{"model", "Mixtral-8x7B-Instruct-v0.1"}, {"tensor_parallel_size", 2}, {"vllm_version", version}});
    };
    const Result before = engine_at("0.2.7"), fused = engine_at("0.3.0");
    CHECK(before.memory.expert_weight_bytes == fused.memory.expert_weight_bytes);
    const Calibration c;
    const StepLoad one = decode_load(step_engine(before), 1, 0);
    const PhaseTiming dense = time_step(step_engine(before), one, c), routed = time_step(step_engine(fused), one, c);
    // One token touches 2 of 8 experts: the fused kernel reads only theirs, the older code all of its own.
    const double expert_bytes = before.memory.expert_weight_bytes;
    CHECK(dense.bytes - routed.bytes == Approx(expert_bytes * (1 - 2.0 / 8)));
    // It multiplies the token by all 4 of its experts (32 layers of 3 x 4,096 x 14,336 each), where
    // the fused kernel multiplies it by half of each of its 2.
    const double expert_params = 32.0 * 3 * 4096 * 14336;
    CHECK(dense.flops - routed.flops == Approx(2.0 * (4 * expert_params - 2 * expert_params / 2)));
    // Both route each layer's tokens (the older code in small torch ops, then masks its experts'
    // outputs); the fused kernel's per-expert floor hides under its read of two experts.
    CHECK(dense.kernel_s == Approx(32 * (c.layer_floor_graph_s + c.moe_layer_floor_s)));
    CHECK(routed.kernel_s == Approx(dense.kernel_s));
}

TEST_CASE("V1's graphs split at every attention layer until 0.11.0 and for prompt steps after; its host adds to a step until 0.14.0") {
    const Calibration c;
    const Result piecewise = evaluate_ok({{"vllm_version", "0.10.1"}});
    const Result full = evaluate_ok({{"vllm_version", "0.11.0"}});
    const Result overlapped = evaluate_ok({{"vllm_version", "0.14.0"}});
    // Qwen3-8B's 36 attention layers: each an eager op between two graph pieces before 0.11.0.
    CHECK(full.steps.decode.kernel_s == Approx(36 * c.layer_floor_graph_s));
    CHECK(piecewise.steps.decode.kernel_s == Approx(36 * (c.layer_floor_graph_s + c.piecewise_split_s)));
    // A step with prompt tokens in it still runs piecewise after 0.11.0.
    StepLoad mixed = decode_load(step_engine(full), 32, 4096);
    add_prefill(mixed, 256, 4096, 256);
    CHECK(time_step(step_engine(full), mixed, c).kernel_s == Approx(36 * (c.layer_floor_graph_s + c.piecewise_split_s)));
    // Synchronous scheduling until 0.14.0: the CPU's work adds to the step; after, it overlaps.
    CHECK(full.steps.decode.host_s == Approx(c.host_v1_step_s + 32 * c.host_v1_per_sequence_s));
    CHECK(full.steps.decode.total_s == Approx(full.steps.decode.gpu_s + full.steps.decode.host_s));
    CHECK(overlapped.steps.decode.total_s == Approx(std::max(overlapped.steps.decode.gpu_s, overlapped.steps.decode.host_s)));
}

TEST_CASE("an FP8 cache halves the bytes decode attention gathers, at the measured share of a 16-bit cache's rate") {
    const Calibration c;
    const Result bf16 = evaluate_ok({});
    const Result fp8 = evaluate_ok({{"kv_cache_dtype", "fp8"}});
    const StepLoad at_bf16 = decode_load(step_engine(bf16), 32, 4352), at_fp8 = decode_load(step_engine(fp8), 32, 4352);
    CHECK(at_fp8.decode_kv_bytes == Approx(at_bf16.decode_kv_bytes / 2));
    const double gather_per_s = attention_read_bytes_per_s(bf16.gpu, DType::bf16, c);
    CHECK(attention_read_bytes_per_s(fp8.gpu, DType::fp8, c) == Approx(gather_per_s * c.fp8_kv_read_share));
    const double bf16_s = time_step(step_engine(bf16), at_bf16, c).attention_s, fp8_s = time_step(step_engine(fp8), at_fp8, c).attention_s;
    CHECK(bf16_s == Approx(at_bf16.decode_kv_bytes / gather_per_s));
    CHECK(fp8_s == Approx(at_fp8.decode_kv_bytes / (gather_per_s * c.fp8_kv_read_share)));
    // Half the bytes at 0.69 of the rate: the gather takes 0.72 of the 16-bit time, not half.
    CHECK(fp8_s / bf16_s == Approx(0.5 / c.fp8_kv_read_share));
}
