// Data and expert parallelism (memory/parallelism.hpp) against hand calculations from the models'
// config.json: each data-parallel engine holds the attention and shared weights whole (split by
// tensor parallelism), the routed experts are spread over tensor x data parallel GPUs, sliced or,
// with --enable-expert-parallel, dealt out whole (vLLM's FusedMoEParallelConfig.make and
// determine_expert_map); what leaves the weights goes to each engine's own KV pool.
#include <catch2/catch.hpp>
#include <cmath>

#include "logs/engine_log.hpp"
#include "logs/log_explain.hpp"
#include "model/catalog.hpp"
#include "plan/plan.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_error;
using kvtest::evaluate_ok;

namespace {

// Qwen3-30B-A3B's config.json: 48 layers, hidden 2,048, 128 experts of width 768 (gate, up, down).
constexpr double qwen3_moe_expert_bytes = 48.0 * 128 * 3 * 2048 * 768 * 2;  // BF16

nlohmann::json qwen3_moe(nlohmann::json extra) {
    nlohmann::json s = {{"model", "Qwen3-30B-A3B"}, {"gpu", "H100"}, {"max_model_len", 8192}};
    if (extra.is_object()) s.update(extra);
    return s;
}

bool has_line(const Result& r, const std::string& part) {
    for (const LogLine& line : engine_log(r))
        if (line.text.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("data parallel on an MoE: the experts are sliced over TP x DP GPUs, the rest whole per engine") {
    const Result one = evaluate_ok(qwen3_moe({}));
    const Result dp2 = evaluate_ok(qwen3_moe({{"data_parallel_size", 2}}));
    // Without expert parallel every GPU holds half of every expert (768 / 2 = 384 wide).
    CHECK(one.memory.weight_bytes - dp2.memory.weight_bytes == Approx(qwen3_moe_expert_bytes / 2));
    // What leaves the weights goes to the pool, byte for byte (the profile run is the engine's own).
    CHECK(dp2.memory.available_kv_bytes - one.memory.available_kv_bytes == Approx(qwen3_moe_expert_bytes / 2));
    CHECK(dp2.memory.num_gpu_blocks == static_cast<int64_t>(std::floor(dp2.memory.available_kv_bytes / dp2.memory.layout.page_bytes / 48)));
    // Expert parallel over the same two GPUs: 64 whole experts each, the same bytes.
    const Result ep2 = evaluate_ok(qwen3_moe({{"data_parallel_size", 2}, {"enable_expert_parallel", true}}));
    CHECK(ep2.memory.weight_bytes == Approx(dp2.memory.weight_bytes));
    CHECK(ep2.deployment.engines == 2);
    CHECK(ep2.deployment.gpus == 2);
}

TEST_CASE("expert parallel deals whole experts, the first GPUs one more when they do not divide") {
    const Result one = evaluate_ok(qwen3_moe({}));
    // 128 experts over EP = 1 x 3: 43, 43, 42 (determine_expert_map); data-parallel rank 0 holds 43.
    const Result ep3 = evaluate_ok(qwen3_moe({{"data_parallel_size", 3}, {"enable_expert_parallel", true}}));
    CHECK(one.memory.weight_bytes - ep3.memory.weight_bytes == Approx(qwen3_moe_expert_bytes * (1.0 - 43.0 / 128.0)));
    // Tensor parallel 2 x data parallel 2 with expert parallel: EP = 4, 32 experts per GPU; the
    // attention stays split in two, as with tensor parallel 2 alone.
    const Result tp2 = evaluate_ok(qwen3_moe({{"tensor_parallel_size", 2}}));
    const Result tp2ep4 =
        evaluate_ok(qwen3_moe({{"tensor_parallel_size", 2}, {"data_parallel_size", 2}, {"enable_expert_parallel", true}}));
    CHECK(tp2.memory.weight_bytes - tp2ep4.memory.weight_bytes == Approx(qwen3_moe_expert_bytes / 2 - qwen3_moe_expert_bytes / 4));
    CHECK(tp2ep4.deployment.gpus == 4);
    // Alone, the flag changes nothing the bytes see when the experts divide evenly.
    const Result tp2ep = evaluate_ok(qwen3_moe({{"tensor_parallel_size", 2}, {"enable_expert_parallel", true}}));
    CHECK(tp2ep.memory.weight_bytes == Approx(tp2.memory.weight_bytes));
    // One GPU: nothing to spread (use_ep needs TP x DP > 1).
    CHECK(evaluate_ok(qwen3_moe({{"enable_expert_parallel", true}})).memory.weight_bytes == one.memory.weight_bytes);
}

TEST_CASE("DeepSeek-V3 (FP8) on eight H200s, two engines with expert parallel: 16 of 256 experts per GPU") {
    // 61 layers, the first 3 dense: 58 MoE layers of 256 experts, hidden 7,168, width 2,048; one byte each.
    const double expert_bytes = 58.0 * 256 * 3 * 7168 * 2048;
    const nlohmann::json base = {{"model", "DeepSeek-V3"}, {"gpu", "H200"}, {"tensor_parallel_size", 8}, {"max_model_len", 16384}};
    nlohmann::json wide = base;
    wide.update({{"data_parallel_size", 2}, {"enable_expert_parallel", true}});
    const Result tp8 = evaluate_ok(base);
    const Result ep16 = evaluate_ok(wide);
    CHECK(tp8.memory.weight_bytes - ep16.memory.weight_bytes == Approx(expert_bytes / 8 - expert_bytes * 16 / 256));
    CHECK(ep16.memory.available_kv_bytes - tp8.memory.available_kv_bytes == Approx(expert_bytes / 16));
    CHECK(ep16.memory.kv_cache_tokens > tp8.memory.kv_cache_tokens);
    CHECK(has_line(ep16, "each GPU holds 16 of the 256 routed experts"));
}

TEST_CASE("data parallel on a dense model leaves every per-GPU figure as it was; the totals multiply") {
    const Result one = evaluate_ok({{"concurrent_requests", 64}});
    const Result four = evaluate_ok({{"concurrent_requests", 64}, {"data_parallel_size", 4}, {"tensor_parallel_size", 2}});
    const Result tp2 = evaluate_ok({{"concurrent_requests", 64}, {"tensor_parallel_size", 2}});
    CHECK(one.deployment.engines == 1);
    CHECK(one.deployment.gpus == 1);
    CHECK(one.deployment.kv_cache_tokens == one.memory.kv_cache_tokens);
    CHECK(four.memory.weight_bytes == tp2.memory.weight_bytes);
    CHECK(four.memory.available_kv_bytes == tp2.memory.available_kv_bytes);
    CHECK(four.memory.kv_cache_tokens == tp2.memory.kv_cache_tokens);
    CHECK(four.deployment.gpus == 8);
    CHECK(four.deployment.kv_cache_tokens == 4 * tp2.memory.kv_cache_tokens);
    CHECK(four.deployment.max_concurrency == Approx(4 * tp2.memory.max_concurrency));
    CHECK(four.deployment.max_resident_sequences == 4 * tp2.admission.max_resident_sequences);
    // Each engine is given its share of the requests: 64 over 4 engines, 16 each.
    CHECK(four.deployment.requests_per_engine == 16);
    CHECK(four.admission.running == 16);
    CHECK(four.deployment.running == 64);
    CHECK(four.deployment.waiting == 0);
    // The engine's config line names the engines; the lesson line says each prints its own pool.
    CHECK(has_line(four, "pipeline_parallel_size=1, data_parallel_size=4,"));
    CHECK(has_line(four, "EngineCore_DP0 to EngineCore_DP3"));
    CHECK_FALSE(has_line(one, "data_parallel_size"));
}

TEST_CASE("bad data-parallel and expert-parallel input is named with what is allowed") {
    struct Case {
        const char* text;
        ErrorCode code;
        const char* in_message;
    };
    const Case cases[] = {
        {R"({"data_parallel_size": 0})", ErrorCode::out_of_range, "1 to 64"},
        {R"({"data_parallel_size": 65})", ErrorCode::out_of_range, "1 to 64"},
        {R"({"data_parallel_size": 1.5})", ErrorCode::out_of_range, "whole number"},
        {R"({"enable_expert_parallel": "yes"})", ErrorCode::wrong_type, "true or false"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const InputError e = evaluate_error(c.text);
        CHECK(e.field ==
              (std::string(c.text).find("data_parallel") != std::string::npos ? "data_parallel_size" : "enable_expert_parallel"));
        CHECK(e.code == c.code);
        CHECK(e.message.find(c.in_message) != std::string::npos);
    }
    // Without expert parallel the experts' width must divide over TP x DP (768 over 5 does not);
    // with it the engine starts.
    const Result sliced = evaluate_ok(qwen3_moe({{"data_parallel_size", 5}}));
    REQUIRE(sliced.memory.startup_error);
    CHECK(sliced.memory.startup_error->kind == RefusalKind::tensor_parallel_mismatch);
    CHECK(sliced.memory.startup_error->message.find("data_parallel_size (5)") != std::string::npos);
    CHECK_FALSE(evaluate_ok(qwen3_moe({{"data_parallel_size", 5}, {"enable_expert_parallel", true}})).memory.startup_error);
    // A dense model has no experts to split.
    CHECK_FALSE(evaluate_ok({{"data_parallel_size", 5}}).memory.startup_error);
}

TEST_CASE("the command line and a pasted log carry both flags") {
    const ModelSpec& moe = *find_model("Qwen3-30B-A3B");
    Scenario s;
    s.model = "Qwen3-30B-A3B";
    s.data_parallel_size = 2;
    s.enable_expert_parallel = true;
    const std::string command = serve_command(s, moe, 1);
    CHECK(command.find("--data-parallel-size 2") != std::string::npos);
    CHECK(command.find("--enable-expert-parallel") != std::string::npos);
    // The planner's replicas multiply in: two replicas of a two-engine scenario are four engines.
    CHECK(serve_command(s, moe, 2).find("--data-parallel-size 4") != std::string::npos);
    const auto explained = explain_log(
        "INFO 06-16 12:31:20 [utils.py:326] non-default args: {'model': 'Qwen/Qwen3-30B-A3B', 'max_model_len': 8192, "
        "'data_parallel_size': 2, 'enable_expert_parallel': True}\n");
    REQUIRE(std::holds_alternative<LogExplanation>(explained));
    const Scenario& read = std::get<LogExplanation>(explained).scenario;
    CHECK(read.data_parallel_size == 2);
    CHECK(read.enable_expert_parallel);
    const auto tagged =
        explain_log("(EngineCore_DP1 pid=7) INFO 10-14 19:25:01 [gpu_model_runner.py:2653] Model loading took 14.9889 GiB\n");
    REQUIRE(std::holds_alternative<LogExplanation>(tagged));
    CHECK(std::get<LogExplanation>(tagged).scenario.data_parallel_size == 2);
}
