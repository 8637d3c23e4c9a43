#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

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

TEST_CASE("chunk sweep: the decode step with prefill folded in, slow to grow while it rides free, then rising") {
    const Result base = evaluate_ok({{"concurrent_requests", 64}, {"max_num_batched_tokens", 8192}});
    const StepTimes& t = base.steps;
    REQUIRE(t.free_prefill_tokens > 0);
    const ChunkSweep sweep = sweep_chunk(base);
    REQUIRE(sweep.points.size() == 97);
    CHECK(sweep.max_prefill_tokens == std::max<int64_t>(std::max<int64_t>(t.chunk_budget_tokens, 1), t.free_prefill_tokens * 2));
    CHECK(sweep.points.front().prefill_tokens == 0);
    CHECK(sweep.points.back().prefill_tokens == static_cast<double>(sweep.max_prefill_tokens));
    // Every point is the step-time model's own, at the nearest whole token.
    for (const ChunkPoint& p : sweep.points) CHECK(p.step_s == chunk_step_s(base, std::llround(p.prefill_tokens)));
    for (size_t i = 1; i < sweep.points.size(); ++i) CHECK(sweep.points[i].step_s >= sweep.points[i - 1].step_s);
    // With nothing folded in it is the decode step; a full chunk is the step the result states.
    CHECK(chunk_step_s(base, 0) == Approx(t.decode.total_s));
    CHECK(chunk_step_s(base, t.chunk_budget_tokens) == Approx(t.step_with_full_chunk_s));
    CHECK(sweep.added_itl_s == Approx(std::max(0.0, t.step_with_full_chunk_s - t.decode.total_s)));
    // The step grows with every token folded in (a matmul near the ridge pays for its arithmetic as
    // well as its loads), slowly while the slice rides on the weight read. Where it outgrows V1's
    // largest CUDA graph (512 tokens) it launches its kernels one by one, but the fitted eager floor
    // is no higher than a graph's (calibration.hpp): the launches hide behind kernels that long, so
    // the step does not jump there.
    const int64_t last_in_graph = 512 - base.admission.running;
    CHECK(chunk_step_s(base, t.free_prefill_tokens) <= free_prefill_step_growth * t.decode.total_s);
    CHECK(chunk_step_s(base, t.free_prefill_tokens + 1) > free_prefill_step_growth * t.decode.total_s);
    const double across_line_s = chunk_step_s(base, last_in_graph + 1) - chunk_step_s(base, last_in_graph);
    const double before_line_s = chunk_step_s(base, last_in_graph) - chunk_step_s(base, last_in_graph - 1);
    CHECK(across_line_s == Approx(before_line_s).epsilon(0.05));
    CHECK(sweep.points.back().step_s > t.decode.total_s);
}

TEST_CASE("chunk sweep: none for an engine that does not run") {
    const Result refused = evaluate_ok({{"gpu_memory_utilization", 0.2}});
    REQUIRE(refused.status == Status::engine_refused);
    const ChunkSweep sweep = sweep_chunk(refused);
    CHECK(sweep.points.empty());
    CHECK(sweep.added_itl_s == 0);
}
