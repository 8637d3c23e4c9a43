// vLLM's start-up accounting: the order of the terms, the version rules, the blocks and the
// refusals. Values are derived from the formulas the engine uses (shared/reference/vllm-memory.md).
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/calibration.hpp"
#include "memory/memory_plan.hpp"
#include "support.hpp"
#include "base/units.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {

// A small dense config.json (Llama layout) to vary one thing at a time.
nlohmann::json small_config() {
    return {{"model_type", "llama"},     {"num_hidden_layers", 24},  {"hidden_size", 2048}, {"intermediate_size", 8192},
            {"num_attention_heads", 16}, {"num_key_value_heads", 4}, {"vocab_size", 32000}, {"max_position_embeddings", 32768}};
}

}  // namespace

TEST_CASE("available KV = visible x util - weights - activation peak - non-torch - CUDA graphs") {
    const Result r = evaluate_ok({{"gpu_memory_utilization", 0.9}});
    const MemoryPlan& m = r.memory;
    CHECK(m.requested_bytes == Approx(0.9 * m.visible_bytes));
    CHECK(m.visible_bytes < 80 * GiB);  // CUDA reports less than the marketed size
    CHECK(m.cuda_graph_in_budget);      // 0.31.0, the default version
    CHECK(m.available_kv_bytes ==
          Approx(m.requested_bytes - m.weight_bytes - m.activation_peak_bytes - m.non_torch_bytes - m.cuda_graph_bytes));
    const Result older = evaluate_ok({{"vllm_version", "0.19.0"}, {"gpu_memory_utilization", 0.9}});
    CHECK_FALSE(older.memory.cuda_graph_in_budget);
    CHECK(older.memory.available_kv_bytes - m.available_kv_bytes == Approx(m.cuda_graph_bytes));
    // PR #38284 made the estimate and the 0.92 default the engine's in 0.20.0 (its line says v0.21.0).
    CHECK(evaluate_ok({{"vllm_version", "0.20.0"}}).memory.cuda_graph_in_budget);
    const Result eager = evaluate_ok({{"enforce_eager", true}, {"gpu_memory_utilization", 0.9}});
    CHECK(*evaluate_ok({}).scenario.gpu_memory_utilization == 0.92);
    CHECK(*older.scenario.gpu_memory_utilization == 0.9);
    CHECK(*evaluate_ok({{"vllm_version", "0.19.0"}}).scenario.gpu_memory_utilization == 0.90);
    CHECK(*evaluate_ok({{"vllm_version", "0.20.0"}}).scenario.gpu_memory_utilization == 0.92);
    CHECK(eager.memory.cuda_graph_bytes == 0);
    CHECK(eager.memory.available_kv_bytes > m.available_kv_bytes);
}

TEST_CASE("blocks: floor(available / page / layers), 16 tokens each, the same on every rank") {
    const Result r = evaluate_ok({});
    const MemoryPlan& m = r.memory;
    CHECK(m.layout.page_bytes == 16.0 * 2 * 8 * 128 * 2);
    CHECK(m.num_gpu_blocks == static_cast<int64_t>(std::floor(m.available_kv_bytes / m.layout.page_bytes / 36)));
    CHECK(m.kv_cache_tokens == m.num_gpu_blocks * 16);
    CHECK(m.max_concurrency == Approx(static_cast<double>(m.num_gpu_blocks) / (40960 / 16)));
    CHECK(evaluate_ok({{"block_size", 32}}).memory.kv_cache_tokens % 32 == 0);
}

TEST_CASE("the activation peak follows the profile batch the engine version uses") {
    Calibration c;
    const Result v1 = evaluate_ok({{"max_model_len", 8192}});
    const Result v1_long = evaluate_ok({{"max_model_len", 32768}});
    CHECK(v1.memory.profile_tokens == 8192);  // max_num_batched_tokens, not the context
    CHECK(v1_long.memory.activation_peak_bytes == v1.memory.activation_peak_bytes);
    // V0 without chunked prefill profiles max(max_model_len, 2048) tokens in one pass.
    const Result v0 = evaluate_ok({{"vllm_version", "0.6.3"}, {"max_model_len", 8192}, {"max_num_batched_tokens", nullptr}});
    const Result v0_long = evaluate_ok({{"vllm_version", "0.6.3"}, {"max_model_len", 32768}, {"max_num_batched_tokens", nullptr}});
    CHECK(v0.memory.profile_tokens == 8192);
    CHECK(v0_long.memory.profile_tokens == 32768);
    // At 8,192 tokens the sampler's sort over 256 rows of Qwen3-8B's 151,936 logits is the peak
    // (V0's profile run samples with top-k and top-p), the hidden states beside it; at 32,768 the forward pass.
    CHECK(v0.memory.activation_peak_bytes == Approx(256.0 * 151936 * c.sorting_sampler_bytes_per_logit + 8192.0 * 4096 * 2));
    CHECK(v0_long.memory.activation_peak_bytes > v0.memory.activation_peak_bytes);
    // The forward pass at down_proj: four hidden-width tensors, and Qwen3's MLP (Qwen2's) keeps
    // gate_up (2 x 12,288) beside the activation (12,288).
    CHECK(v0_long.memory.activation_peak_bytes == Approx(32768 * 2.0 * (4 * 4096 + 3 * 12288)));
}

TEST_CASE("V0's forward peak of a dense model is the tensors its code keeps alive") {
    // Llama's MLP rebinds gate_up: at Llama-3.1-8B's width the activation's moment (3H + 2I + I)
    // beats down_proj's (4H + I): 110,592 bytes a token, gh10517's logged slope.
    const Result llama = evaluate_ok({{"model", "Llama-3.1-8B"}, {"vllm_version", "0.6.4"}, {"max_model_len", 32768}});
    CHECK(llama.memory.profile_tokens == 32768);
    CHECK(llama.memory.activation_peak_bytes == Approx(32768 * 110592.0));
    // Qwen2 keeps gate_up through down_proj, and from 0.6.5 a tensor-parallel all-reduce too large
    // for the custom kernel returns a copy: 5H + 3I/tp at TP 2 (Qwen2.5-7B: H 3,584, I 18,944).
    const auto qwen_tp2 = [](const char* version) {
        return evaluate_ok(
            {{"model", "Qwen2.5-7B-Instruct"}, {"vllm_version", version}, {"tensor_parallel_size", 2}, {"max_model_len", 32768}});
    };
    CHECK(qwen_tp2("0.7.2").memory.activation_peak_bytes == Approx(32768 * 2.0 * (5 * 3584 + 3 * 18944 / 2)));
    CHECK(qwen_tp2("0.6.4").memory.activation_peak_bytes == Approx(32768 * 2.0 * (4 * 3584 + 3 * 18944 / 2)));
    // Before 0.6.5 the all-reduce worked in place. V1 keeps its own measure: calibration.hpp's
    // buffers (hidden, MLP and q/k/v widths of this rank), scaled.
    Calibration c;
    const double v1_width = c.v1_forward_scale * (c.forward_hidden_buffers * 3584 + c.forward_mlp_buffers * 18944 / 2 +
                                                  c.forward_qkv_buffers * (3584 + 2 * 512) / 2);
    const Result v1 = evaluate_ok({{"model", "Qwen2.5-7B-Instruct"},
                                   {"vllm_version", "0.8.4"},
                                   {"tensor_parallel_size", 2},
                                   {"max_model_len", 32768},
                                   {"max_num_batched_tokens", 65536},
                                   {"max_num_seqs", 16}});
    REQUIRE(v1.memory.profile_tokens == 65536);  // 16 sampled rows: the forward pass is the peak
    CHECK(v1.memory.activation_peak_bytes == Approx(65536 * 2.0 * v1_width));
}

TEST_CASE("an MoE's fused workspace is beside the sampler only where the engine keeps it allocated") {
    Calibration c;
    // Qwen3-30B-A3B on one H100, 8,192 profiled tokens and 1,024 sampled rows: 8 routed experts of
    // 768 per token, hidden 2,048, vocabulary 151,936.
    const double workspace = 8192.0 * 8 * 2 * c.moe_workspace_buffers * (3.0 * 768 + 2048);
    const double hidden = 8192.0 * 2048 * 2;
    const auto peak = [](const nlohmann::json& changes) {
        nlohmann::json s = {{"model", "Qwen3-30B-A3B"}, {"max_model_len", 4096}, {"max_num_batched_tokens", 8192}, {"max_num_seqs", 1024}};
        s.update(changes);
        return evaluate_ok(s).memory.activation_peak_bytes;
    };
    // 0.12.0 calls fused_experts(), whose caches are freed layer by layer (fused_moe.py); its older
    // profile run sorts the logits on an H100.
    CHECK(peak({{"vllm_version", "0.12.0"}}) == Approx(1024.0 * 151936 * c.sorting_sampler_bytes_per_logit + hidden));
    // Expert parallelism's all-to-all path keeps the modular kernel's buffers.
    CHECK(peak({{"vllm_version", "0.12.0"}, {"enable_expert_parallel", true}}) ==
          Approx(1024.0 * 151936 * c.sorting_sampler_bytes_per_logit + hidden + workspace));
    // From 0.14 the unquantized MoE runs through the modular kernel and its persistent workspace.
    CHECK(peak({{"vllm_version", "0.19.0"}}) == Approx(1024.0 * 151936 * c.sampler_bytes_per_logit + hidden + workspace));
}

TEST_CASE("batch defaults by version, GPU and entry point") {
    const Result h100 = evaluate_ok({{"max_num_seqs", nullptr}, {"max_num_batched_tokens", nullptr}});
    CHECK(*h100.scenario.max_num_seqs == 1024);
    CHECK(*h100.scenario.max_num_batched_tokens == 8192);
    const Result a100 = evaluate_ok({{"gpu", "A100"}, {"max_num_seqs", nullptr}, {"max_num_batched_tokens", nullptr}});
    CHECK(*a100.scenario.max_num_seqs == 256);
    CHECK(*a100.scenario.max_num_batched_tokens == 2048);
    const Result offline = evaluate_ok({{"entry", "offline"}, {"max_num_seqs", nullptr}, {"max_num_batched_tokens", nullptr}});
    CHECK(*offline.scenario.max_num_batched_tokens == 16384);
    auto batch_defaults = [](const char* gpu, const char* version, const char* engine = "auto") {
        return evaluate_ok(
            {{"gpu", gpu}, {"vllm_version", version}, {"engine", engine}, {"max_num_seqs", nullptr}, {"max_num_batched_tokens", nullptr}});
    };
    const auto seqs_and_tokens = [&](const char* gpu, const char* version, const char* engine = "auto") {
        const Result r = batch_defaults(gpu, version, engine);
        return std::pair<int64_t, int64_t>{*r.scenario.max_num_seqs, *r.scenario.max_num_batched_tokens};
    };
    using P = std::pair<int64_t, int64_t>;
    // Before PR #12369 V1 served 2,048 tokens a step everywhere; from 0.7.0 an H100 or H200, by its
    // device name, 8,192 (a GH200's name has "h200" in it; an H20's has not).
    CHECK(seqs_and_tokens("H200", "0.6.6", "v1") == P{1024, 2048});
    CHECK(seqs_and_tokens("H200", "0.7.0", "v1") == P{1024, 8192});
    CHECK(seqs_and_tokens("GH200", "0.8.4") == P{1024, 8192});
    // Every GPU had 1,024 sequences until PR #16158 (0.8.4) kept them for the H100 and H200.
    CHECK(seqs_and_tokens("A100", "0.8.3") == P{1024, 2048});
    CHECK(seqs_and_tokens("A100", "0.8.4") == P{256, 2048});
    CHECK(seqs_and_tokens("H20", "0.8.4") == P{256, 2048});
    // PR #17073 (0.8.5): every GPU of 70 GiB or more, the A100 too, until PR #17885 (0.9.0).
    CHECK(seqs_and_tokens("H20", "0.8.5") == P{1024, 8192});
    CHECK(seqs_and_tokens("A100", "0.8.5") == P{1024, 8192});
    CHECK(seqs_and_tokens("A100", "0.9.0") == P{256, 2048});
    CHECK(seqs_and_tokens("H20", "0.9.0") == P{1024, 8192});
    // More sampler rows and a longer profile pass mean a larger peak and a smaller pool.
    CHECK(batch_defaults("H20", "0.8.5").memory.activation_peak_bytes > batch_defaults("H20", "0.8.4").memory.activation_peak_bytes);
    // From 0.28.0 a GPU of 160 GiB or more serves 16,384 tokens a step (PR #51726); an H200 does not.
    const Result b200 = batch_defaults("B200", "0.28.0");
    CHECK(*b200.scenario.max_num_seqs == 1024);
    CHECK(*b200.scenario.max_num_batched_tokens == 16384);
    CHECK(*batch_defaults("MI300X", "0.28.0").scenario.max_num_batched_tokens == 16384);
    CHECK(*batch_defaults("B200", "0.27.1").scenario.max_num_batched_tokens == 8192);
    CHECK(*batch_defaults("H200", "0.28.0").scenario.max_num_batched_tokens == 8192);
    // Unified memory: NVML has no memory total on a GB10 or a Jetson Thor, vLLM's device-memory query
    // fails and the small-GPU defaults apply although CUDA sees 122 GiB (a Thor start-up on 0.10.2
    // prints max_num_batched_tokens=2048 without the flag).
    CHECK(seqs_and_tokens("Jetson-Thor", "0.10.2") == P{256, 2048});
    CHECK(seqs_and_tokens("GB10", "0.13.0") == P{256, 2048});
}

TEST_CASE("model runner V2 kept no CUDA-graph estimate for the models it ran, from 0.22.0 until 0.29.0") {
    auto in_budget = [](const char* model, const char* version) {
        return evaluate_ok({{"model", model}, {"vllm_version", version}}).memory.cuda_graph_in_budget;
    };
    // 0.22.0: Qwen3 dense only; 0.23.0: Llama and Mistral too; quantised checkpoints stay on V1.
    CHECK_FALSE(in_budget("Qwen3-8B", "0.22.0"));
    CHECK(in_budget("Llama-3.1-8B", "0.22.0"));
    CHECK_FALSE(in_budget("Llama-3.1-8B", "0.23.0"));
    CHECK_FALSE(in_budget("Mistral-7B-Instruct-v0.3", "0.23.0"));
    CHECK(in_budget("Qwen3-32B-FP8", "0.23.0"));
    CHECK(in_budget("Qwen2.5-7B-Instruct", "0.23.0"));
    // 0.24.0: quantised checkpoints of those architectures, and DeepseekV2's MoE.
    CHECK_FALSE(in_budget("Qwen3-32B-FP8", "0.24.0"));
    CHECK_FALSE(in_budget("DeepSeek-V2-Lite-Chat", "0.24.0"));
    CHECK(in_budget("Qwen2.5-7B-Instruct", "0.24.0"));
    // 0.25.0: every dense model; other MoE models and hybrids stay on V1, with the estimate.
    CHECK_FALSE(in_budget("Qwen2.5-7B-Instruct", "0.25.0"));
    CHECK_FALSE(in_budget("gemma-2-9b-it", "0.28.0"));
    CHECK(in_budget("Qwen3-30B-A3B", "0.28.0"));
    CHECK(in_budget("gpt-oss-20b", "0.25.0"));
    CHECK(in_budget("Qwen3-Next-80B-A3B", "0.25.0"));
    // 0.29.0: V2 measures its graphs, and runs every model.
    CHECK(in_budget("Qwen2.5-7B-Instruct", "0.29.0"));
    CHECK(evaluate_ok({{"model", "Qwen3-Next-80B-A3B"}, {"vllm_version", "0.29.0"}}).memory.model_runner_v2);
    CHECK_FALSE(evaluate_ok({{"model", "Qwen3-Next-80B-A3B"}, {"vllm_version", "0.28.0"}}).memory.model_runner_v2);
    // Without the estimate the pool is larger by it, and the graphs must fit outside the budget.
    const Result v2 = evaluate_ok({{"model", "Qwen3-8B"}, {"vllm_version", "0.26.0"}});
    const Result v1 = evaluate_ok({{"model", "Qwen3-8B"}, {"vllm_version", "0.21.0"}});
    CHECK(v2.memory.model_runner_v2);
    CHECK_FALSE(v1.memory.model_runner_v2);
    CHECK(v2.memory.available_kv_bytes - v1.memory.available_kv_bytes == Approx(v1.memory.cuda_graph_bytes));
}

TEST_CASE("Qwen3-32B on one H100 at 0.90: the engine refuses its 40,960-token default and says what fits") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}});
    REQUIRE(r.memory.startup_error);
    CHECK(r.status == Status::engine_refused);
    CHECK(r.memory.startup_error->kind == kv::RefusalKind::max_model_len_does_not_fit);
    CHECK_THAT(r.memory.startup_error->message, Catch::StartsWith("To serve at least one request with the model's max seq len (40960)"));
    CHECK_THAT(r.memory.startup_error->message,
               Catch::EndsWith("Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or "
                               "decreasing `max_model_len` when initializing the engine. See "
                               "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details."));
    // 0.21.0 still had the typo and no word on the CPU backend (PR #42479 is in 0.22.0).
    const Result v021 = evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.9}, {"vllm_version", "0.21.0"}});
    REQUIRE(v021.memory.startup_error);
    CHECK_THAT(v021.memory.startup_error->message, Catch::StartsWith("To serve at least one request with the models's max seq len"));
    CHECK_THAT(v021.memory.startup_error->message, Catch::EndsWith("or decreasing `max_model_len` when initializing the engine."));
    const int64_t fits = r.memory.estimated_max_model_len;
    CHECK(fits > 4352);
    CHECK(fits < 40960);
    CHECK_THAT(r.memory.startup_error->message, Catch::Contains("estimated maximum model length is " + std::to_string(fits)));
    CHECK(r.admission.running == 0);
    CHECK(r.admission.waiting == 32);
    // The estimate starts; one block more does not.
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}, {"max_model_len", fits}}).status == Status::ok);
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}, {"max_model_len", fits + 16}}).status == Status::engine_refused);
}

TEST_CASE("the other refusals, each with the engine's reason") {
    auto kind_of = [](const nlohmann::json& s) {
        const Result r = evaluate_ok(s);
        return r.memory.startup_error ? std::string(kv::refusal_kind_name(r.memory.startup_error->kind)) : std::string("none");
    };
    // The weights load, then nothing is left for blocks.
    CHECK(kind_of({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.72}, {"max_model_len", 4352}}) == "no_kv_cache_memory");
    // Free memory at start is below total x 1.0 (the CUDA context is already there).
    CHECK(kind_of({{"gpu_memory_utilization", 1.0}}) == "free_memory_below_request");
    CHECK(kind_of({{"gpu_memory_utilization", 1.0}, {"vllm_version", "0.6.3"}}) == "none");  // V0 had no such check
    CHECK(kind_of({{"max_model_len", 65536}}) == "max_model_len_too_long");
    nlohmann::json six_kv = small_config();
    six_kv["num_attention_heads"] = 24;
    six_kv["num_key_value_heads"] = 6;
    six_kv["hidden_size"] = 3072;
    CHECK(kind_of({{"model_config", six_kv}, {"tensor_parallel_size", 4}}) == "tensor_parallel_mismatch");
    CHECK(kind_of({{"model_config", six_kv}, {"tensor_parallel_size", 5}}) == "tensor_parallel_mismatch");
    CHECK(kind_of({{"model_config", six_kv}, {"tensor_parallel_size", 3}}) == "none");
    nlohmann::json giant = small_config();
    giant["num_hidden_layers"] = 160;
    giant["hidden_size"] = 8192;
    giant["intermediate_size"] = 28672;
    giant["num_attention_heads"] = 64;
    giant["num_key_value_heads"] = 8;
    CHECK(kind_of({{"model_config", giant}}) == "weights_do_not_fit");
    const Result refused = evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.72}, {"max_model_len", 4352}});
    CHECK(refused.admission.min_utilization_that_fits > 0.72);
    CHECK(evaluate_ok({{"model", "Qwen3-32B"},
                       {"max_model_len", 4352},
                       {"gpu_memory_utilization", std::ceil(refused.admission.min_utilization_that_fits * 100) / 100}})
              .status == Status::ok);
}

TEST_CASE("a request longer than max_model_len is rejected, the engine still starts") {
    const Result r = evaluate_ok({{"prompt_tokens", 8192}, {"max_model_len", 4096}});
    CHECK(r.status == Status::request_too_long);
    CHECK_FALSE(r.memory.startup_error);
    CHECK(r.memory.kv_cache_tokens > 0);
    CHECK(r.admission.running == 0);
}

TEST_CASE("capacity counts whole blocks of prompt + output tokens") {
    const Result r = evaluate_ok({{"prompt_tokens", 32768}});
    CHECK(r.admission.bytes_per_sequence == 147456.0 * (32768 + 256));
    CHECK(r.admission.max_resident_sequences == r.memory.num_gpu_blocks / ((32768 + 256) / 16));
}

TEST_CASE("which of the three limits binds") {
    SECTION("the requests themselves") {
        const Result r = evaluate_ok({});
        CHECK(r.admission.binding_limit == BindingLimit::concurrent_requests);
        CHECK(r.admission.running == 32);
        CHECK(r.admission.waiting == 0);
    }
    SECTION("the pool") {
        const Result r = evaluate_ok({{"prompt_tokens", 32768}});
        CHECK(r.admission.binding_limit == BindingLimit::kv_pool);
        CHECK(r.admission.running == r.admission.max_resident_sequences);
        CHECK(r.admission.waiting == 32 - r.admission.running);
    }
    SECTION("max_num_seqs, below what the pool could hold") {
        const Result r = evaluate_ok({{"max_num_seqs", 16}});
        CHECK(r.admission.binding_limit == BindingLimit::max_num_seqs);
        CHECK(r.admission.running == 16);
        CHECK(r.admission.max_resident_sequences > 16);
    }
}

TEST_CASE("lowering max_num_seqs never admits more and never helps throughput") {
    const Result pool_bound = evaluate_ok({{"prompt_tokens", 32768}});
    const Result knob_lowered = evaluate_ok({{"prompt_tokens", 32768}, {"max_num_seqs", 6}});
    CHECK(knob_lowered.admission.running == 6);
    CHECK(knob_lowered.steps.decode_tokens_per_s < pool_bound.steps.decode_tokens_per_s);
}

TEST_CASE("tensor parallelism shards weights and KV heads, then replicates heads") {
    const Result tp1 = evaluate_ok({});
    const Result tp4 = evaluate_ok({{"tensor_parallel_size", 4}});
    CHECK(tp4.memory.weight_bytes == Approx(tp1.memory.weight_bytes / 4).epsilon(0.001));
    CHECK(tp4.memory.layout.kv_heads_per_rank == 2);
    CHECK(tp4.memory.layout.kv_bytes_per_token == tp1.memory.layout.kv_bytes_per_token / 4);
    CHECK(tp4.memory.non_torch_bytes > tp1.memory.non_torch_bytes);  // NCCL buffers
    CHECK(static_cast<double>(tp4.memory.kv_cache_tokens) > 4.0 * static_cast<double>(tp1.memory.kv_cache_tokens));
    const Result tp8 = evaluate_ok({{"model", "Qwen3-32B"}, {"tensor_parallel_size", 8}});
    CHECK(tp8.memory.layout.kv_heads_per_rank == 1);
    CHECK_FALSE(tp8.memory.layout.kv_heads_replicated);
    nlohmann::json four_kv_heads = small_config();
    const Result replicated = evaluate_ok({{"model_config", four_kv_heads}, {"tensor_parallel_size", 8}});
    CHECK(replicated.memory.layout.kv_heads_per_rank == 1);
    CHECK(replicated.memory.layout.kv_heads_replicated);
    CHECK(replicated.memory.layout.kv_bytes_per_token ==
          evaluate_ok({{"model_config", four_kv_heads}, {"tensor_parallel_size", 4}}).memory.layout.kv_bytes_per_token);
}

TEST_CASE("pipeline parallelism: each stage holds its layers; the engine takes the fewest blocks") {
    const Result pp1 = evaluate_ok({});
    const Result pp2 = evaluate_ok({{"pipeline_parallel_size", 2}});
    CHECK(pp2.memory.layout.layers == 18);
    CHECK(pp2.memory.weight_bytes < 0.6 * pp1.memory.weight_bytes);
    CHECK(pp2.memory.kv_cache_tokens > 2 * pp1.memory.kv_cache_tokens);
    CHECK(evaluate_ok({{"model_config", small_config()}, {"pipeline_parallel_size", 16}}).memory.layout.layers == 2);
}

TEST_CASE("sliding-window layers: their own KV-cache groups (gpt-oss and Gemma 3 layouts)") {
    nlohmann::json alternating = small_config();
    nlohmann::json types = nlohmann::json::array();
    for (int i = 0; i < 24; ++i) types.push_back(i % 2 ? "full_attention" : "sliding_attention");
    alternating["layer_types"] = types;
    alternating["sliding_window"] = 128;
    const Result r = evaluate_ok({{"model_config", alternating}, {"max_model_len", 32768}});
    CHECK(r.memory.layout.sliding_layers == 12);
    CHECK(r.memory.layout.group_size == 12);
    CHECK(r.memory.layout.num_groups == 2);
    CHECK(r.memory.num_gpu_blocks == static_cast<int64_t>(std::floor(r.memory.available_kv_bytes / r.memory.layout.page_bytes / 12)));
    // Since 0.21.0 the printed size is int(concurrency x max_model_len). A request takes 2,048 blocks
    // in the full-attention group; in the sliding one its window and, from 0.26.0, both batches in
    // flight under async scheduling: ceil((127 + 2 x 8,192) / 16) + 1 = 1,033 (0.25: 521, one batch).
    CHECK(r.memory.max_concurrency == Approx(static_cast<double>(r.memory.num_gpu_blocks) / (2048 + 1033)));
    CHECK(r.memory.kv_cache_tokens == static_cast<int64_t>(static_cast<double>(r.memory.num_gpu_blocks) / 3081.0 * 32768.0));
    const Result v025 = evaluate_ok({{"model_config", alternating}, {"max_model_len", 32768}, {"vllm_version", "0.25.0"}});
    CHECK(v025.memory.max_concurrency == Approx(static_cast<double>(v025.memory.num_gpu_blocks) / (2048 + 521)));
    const Result v020 = evaluate_ok({{"model_config", alternating}, {"max_model_len", 32768}, {"vllm_version", "0.20.0"}});
    CHECK(v020.memory.kv_cache_tokens == v020.memory.num_gpu_blocks / 2 * 16);  // blocks / groups x block size
    // A sequence holds full blocks in the full-attention group and only its window in the other.
    const Result full = evaluate_ok({{"model_config", small_config()}, {"max_model_len", 32768}});
    CHECK(r.admission.max_resident_sequences > full.admission.max_resident_sequences);
    // Before the hybrid allocator (0.10) every layer was cached as full attention.
    CHECK(evaluate_ok({{"model_config", alternating}, {"vllm_version", "0.9.2"}}).memory.layout.num_groups == 1);

    nlohmann::json gemma3 = small_config();
    gemma3["num_hidden_layers"] = 62;
    gemma3["model_type"] = "gemma3_text";
    gemma3["sliding_window"] = 1024;
    gemma3["sliding_window_pattern"] = 6;
    const Result g = evaluate_ok({{"model_config", gemma3}});
    CHECK(g.memory.layout.sliding_layers == 52);
    CHECK(g.memory.layout.group_size == 10);
    CHECK(g.memory.layout.num_groups == 7);
    CHECK(g.memory.layout.padding_layers == 8);
}

TEST_CASE("MLA: one latent per token and layer, not split by tensor parallelism, 64-token blocks") {
    nlohmann::json mla = small_config();
    mla["kv_lora_rank"] = 512;
    mla["qk_rope_head_dim"] = 64;
    mla["qk_nope_head_dim"] = 128;
    mla["v_head_dim"] = 128;
    const Result r = evaluate_ok({{"model_config", mla}});
    CHECK(r.memory.layout.bytes_per_token_per_layer == 576.0 * 2);
    CHECK(r.memory.layout.block_size == 64);
    const Result tp2 = evaluate_ok({{"model_config", mla}, {"tensor_parallel_size", 2}});
    CHECK(tp2.memory.layout.bytes_per_token_per_layer == 576.0 * 2);
}

TEST_CASE("a memory refusal names the other ways out: more GPUs, FP8 weights") {
    const Result qwen = evaluate_ok({{"model", "Qwen3-32B"}});
    CHECK(qwen.tensor_parallel_that_starts == 2);
    CHECK(qwen.fp8_weights_start);
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}, {"tensor_parallel_size", 2}}).status == Status::ok);
    const Result mixtral = evaluate_ok({{"model", "Mixtral-8x7B-Instruct-v0.1"}});
    REQUIRE(mixtral.memory.startup_error);
    CHECK(mixtral.tensor_parallel_that_starts == 2);
    // A configuration refusal offers none, and neither does an engine that starts.
    CHECK(evaluate_ok({{"max_model_len", 65536}}).tensor_parallel_that_starts == 0);
    CHECK(evaluate_ok({}).tensor_parallel_that_starts == 0);
    CHECK_FALSE(evaluate_ok({}).fp8_weights_start);
}

TEST_CASE("DeepSeek before MLA's kernels (0.7.0): every head's key and value in the cache, about ten times the latent") {
    const nlohmann::json deepseek = {{"model", "DeepSeek-V3"}, {"gpu", "H200"}, {"tensor_parallel_size", 8}, {"max_model_len", 8192}};
    nlohmann::json before = deepseek, after = deepseek;
    before["vllm_version"] = "0.7.0";
    after["vllm_version"] = "0.7.1";
    const Result old_cache = evaluate_ok(before), latent = evaluate_ok(after);
    // 61 layers x 16 heads a rank x (128 nope + 64 rope) for the key, the value padded to it, 2 bytes.
    CHECK(old_cache.memory.layout.kv_bytes_per_token == 61.0 * 2 * 16 * 192 * 2);
    CHECK(old_cache.memory.layout.kv_heads_per_rank == 16);
    // 61 layers x (512 latent + 64 rope) x 2 bytes, shared by the heads.
    CHECK(latent.memory.layout.kv_bytes_per_token == 61.0 * 576 * 2);
    // Neural Magic's post (2025-02-04) measured 54,560 tokens at 0.7.0 and 512,000 at 0.7.1 on 8 H200s
    // (its own settings, not stated): the model's pools hold about ten times more at 0.7.1 too.
    const double ratio = static_cast<double>(latent.memory.kv_cache_tokens) / static_cast<double>(old_cache.memory.kv_cache_tokens);
    CHECK(ratio > 9.0);
    CHECK(ratio < 11.5);
}
