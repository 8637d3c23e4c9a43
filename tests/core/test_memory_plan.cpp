#include <catch2/catch.hpp>

#include "memory_plan.hpp"
#include "support.hpp"
#include "units.hpp"

using namespace kv;
using kvtest::evaluate_ok;

TEST_CASE("the budget is filled in the engine's order") {
    const Result r = evaluate_ok({});
    CHECK(r.budget_bytes == Approx(0.9 * 80 * GiB));
    CHECK(r.outside_budget_bytes == Approx(0.1 * 80 * GiB));
    CHECK(r.weight_bytes == 8190735360.0 * 2);
    // Reserve: 5 hidden-width BF16 activations x 8,192 tokens + 256 x 151,936 FP32 logits + 640 MiB.
    CHECK(r.activation_bytes == 5.0 * 8192 * 4096 * 2 + 256.0 * 151936 * 4 + 640 * MiB);
    CHECK(r.kv_pool_bytes == Approx(r.budget_bytes - r.weight_bytes - r.activation_bytes));
}

TEST_CASE("the reserve grows with max_num_batched_tokens and the model's width") {
    const Result small = evaluate_ok({{"max_num_batched_tokens", 2048}});
    const Result large = evaluate_ok({{"max_num_batched_tokens", 32768}});
    CHECK(large.activation_bytes > small.activation_bytes);
    CHECK(large.kv_pool_bytes < small.kv_pool_bytes);
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}}).activation_bytes / GiB == Approx(1.16).epsilon(0.01));
    CHECK(evaluate_ok({}).activation_bytes / GiB == Approx(1.08).epsilon(0.01));
}

TEST_CASE("capacity is floor(pool / bytes per sequence) for prompt + output tokens") {
    const Result r = evaluate_ok({{"prompt_tokens", 32768}});
    CHECK(r.bytes_per_sequence == 147456.0 * (32768 + 256));
    CHECK(r.max_resident_sequences == static_cast<int64_t>(r.kv_pool_bytes / r.bytes_per_sequence));
    CHECK(r.max_resident_sequences == 12);
}

TEST_CASE("which of the three limits binds") {
    SECTION("the requests themselves") {
        const Result r = evaluate_ok({});
        CHECK(r.binding_limit == BindingLimit::concurrent_requests);
        CHECK(r.running == 32);
        CHECK(r.waiting == 0);
    }
    SECTION("the pool") {
        const Result r = evaluate_ok({{"prompt_tokens", 32768}});
        CHECK(r.binding_limit == BindingLimit::kv_pool);
        CHECK(r.running == 12);
        CHECK(r.waiting == 20);
    }
    SECTION("max_num_seqs, below what the pool could hold") {
        const Result r = evaluate_ok({{"max_num_seqs", 16}});
        CHECK(r.binding_limit == BindingLimit::max_num_seqs);
        CHECK(r.running == 16);
        CHECK(r.max_resident_sequences == 93);
    }
}

TEST_CASE("lowering max_num_seqs never admits more and never helps throughput") {
    const Result pool_bound = evaluate_ok({{"prompt_tokens", 32768}});
    const Result knob_lowered = evaluate_ok({{"prompt_tokens", 32768}, {"max_num_seqs", 6}});
    CHECK(knob_lowered.max_resident_sequences == pool_bound.max_resident_sequences);
    CHECK(knob_lowered.running == 6);
    CHECK(knob_lowered.decode_tokens_per_s < pool_bound.decode_tokens_per_s);
}

TEST_CASE("vLLM's boot line: whole 16-token blocks, divided by max_model_len") {
    const Result r = evaluate_ok({});
    CHECK(r.kv_cache_tokens % 16 == 0);
    CHECK(r.kv_cache_tokens == 405312);
    CHECK(r.max_concurrency == Approx(405312.0 / 40960));
    CHECK(evaluate_ok({{"max_model_len", 4352}}).max_concurrency == Approx(405312.0 / 4352));
}

TEST_CASE("weights that do not fit: nothing runs and the smallest utilisation is stated") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.72}});
    CHECK(r.status == Status::weights_do_not_fit);
    CHECK(r.kv_pool_bytes == 0);
    CHECK(r.running == 0);
    CHECK(r.waiting == 32);
    CHECK(r.min_utilization_that_fits == Approx((r.weight_bytes + r.activation_bytes) / (80 * GiB)));
    CHECK(r.min_utilization_that_fits > 0.72);
    // 0.78 loads the weights but leaves no room for a 4,352-token request; 0.80 serves one.
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.78}}).status == Status::request_does_not_fit);
    CHECK(evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.80}}).running == 1);
}

TEST_CASE("a pool too small for one request reports the longest request that fits") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}, {"force_mha", true}});
    CHECK(r.status == Status::request_does_not_fit);
    CHECK(r.max_resident_sequences == 0);
    CHECK(r.longest_request_tokens == static_cast<int64_t>(r.kv_pool_bytes / r.kv_bytes_per_token));
    CHECK(r.longest_request_tokens < 4352);
    Result shorter = evaluate_ok({{"model", "Qwen3-32B"}, {"force_mha", true},
                                  {"prompt_tokens", r.longest_request_tokens - 256}});
    CHECK(shorter.max_resident_sequences == 1);
}

TEST_CASE("tensor parallelism shards weights and KV heads, then replicates heads") {
    const Result tp1 = evaluate_ok({});
    const Result tp4 = evaluate_ok({{"tensor_parallel_size", 4}});
    CHECK(tp4.weight_bytes == tp1.weight_bytes / 4);
    CHECK(tp4.kv_heads_per_rank == 2);
    CHECK(tp4.kv_bytes_per_token == tp1.kv_bytes_per_token / 4);
    CHECK(static_cast<double>(tp4.kv_cache_tokens) > 4.0 * static_cast<double>(tp1.kv_cache_tokens));
    // Qwen3-32B has 8 KV heads: 8 ranks hold one each; the heads cannot be split further.
    const Result tp8 = evaluate_ok({{"model", "Qwen3-32B"}, {"tensor_parallel_size", 8}});
    CHECK(tp8.kv_heads_per_rank == 1);
    CHECK_FALSE(tp8.kv_heads_replicated);
    nlohmann::json four_kv_heads = {{"num_hidden_layers", 4}, {"hidden_size", 1024}, {"intermediate_size", 2048},
                                    {"num_attention_heads", 16}, {"num_key_value_heads", 4}, {"vocab_size", 1000},
                                    {"max_position_embeddings", 8192}};
    const Result replicated = evaluate_ok({{"model_config", four_kv_heads}, {"tensor_parallel_size", 8}});
    CHECK(replicated.kv_heads_per_rank == 1);
    CHECK(replicated.kv_heads_replicated);
    CHECK(replicated.kv_bytes_per_token == evaluate_ok({{"model_config", four_kv_heads}, {"tensor_parallel_size", 4}}).kv_bytes_per_token);
}
