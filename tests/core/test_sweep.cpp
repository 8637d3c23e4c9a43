#include <catch2/catch.hpp>

#include "support.hpp"
#include "result/sweep.hpp"

using namespace kv;
using kvtest::evaluate_ok;

TEST_CASE("batch sweep: every point is a full evaluation, up to the pool limit") {
    const Result base = evaluate_ok({{"prompt_tokens", 32768}, {"kv_cache_dtype", "fp8"}, {"weight_dtype", "fp8"}});
    const BatchSweep sweep = sweep_batch(base);
    const auto limit = static_cast<size_t>(base.admission.max_resident_sequences);
    REQUIRE(limit > 8);
    REQUIRE(sweep.points.size() == limit);
    CHECK(sweep.pool_limit == base.admission.max_resident_sequences);
    CHECK(sweep.points.front().batch == 1);
    CHECK(sweep.points.back().batch == base.admission.max_resident_sequences);
    const Result at8 =
        evaluate_ok({{"prompt_tokens", 32768}, {"kv_cache_dtype", "fp8"}, {"weight_dtype", "fp8"}, {"concurrent_requests", 8}});
    CHECK(sweep.points[7].step_s == Approx(at8.steps.decode.total_s));
    CHECK(sweep.points[7].tokens_per_s == Approx(at8.steps.decode_tokens_per_s));
    // Cache read equals weight read where batch x bytes per sequence = weight bytes.
    CHECK(sweep.amortised_batch == Approx(base.memory.weight_bytes / base.admission.bytes_per_sequence));
}

TEST_CASE("batch sweep: aggregate rises with diminishing returns, per-stream latency rises") {
    const BatchSweep sweep = sweep_batch(evaluate_ok({{"concurrent_requests", 256}}));
    REQUIRE(sweep.points.size() >= 64);
    for (size_t i = 1; i < sweep.points.size(); ++i) {
        CHECK(sweep.points[i].tokens_per_s >= sweep.points[i - 1].tokens_per_s);
        CHECK(sweep.points[i].step_s >= sweep.points[i - 1].step_s);
    }
    CHECK(sweep.points.size() <= 128);
}

TEST_CASE("tensor-parallel sweep marks sizes that do not divide the heads") {
    const Result base = evaluate_ok({{"model", "Qwen3-14B"}});  // 40 heads: 1, 2, 4, 8 all divide
    const auto points = sweep_tensor_parallel(base);
    REQUIRE(points.size() == 4);
    for (const auto& p : points) CHECK(p.valid);
    CHECK(points[3].result.memory.layout.kv_heads_per_rank == 1);
    nlohmann::json six_heads = {{"num_hidden_layers", 2},         {"hidden_size", 384},       {"intermediate_size", 1024},
                                {"num_attention_heads", 6},       {"num_key_value_heads", 2}, {"vocab_size", 1000},
                                {"max_position_embeddings", 4096}};
    const auto odd = sweep_tensor_parallel(evaluate_ok({{"model_config", six_heads}}));
    CHECK(odd[1].valid);
    CHECK_FALSE(odd[2].valid);
    CHECK_FALSE(odd[3].valid);
}
