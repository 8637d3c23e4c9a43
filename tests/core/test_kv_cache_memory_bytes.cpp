// --kv-cache-memory-bytes, as vllm/v1/worker/gpu_worker.py's determine_available_memory treats it
// (PR #21489, modelled from 0.11.0): the pool is the bytes given, the worker prints the line below
// instead of "Available KV cache memory", runs no CUDA-graph estimate, ignores the utilisation's
// budget (its free-memory check at start still runs, in init_device) and checks nothing against
// the weights; releases before it refuse the argument.
#include <catch2/catch.hpp>

#include <cmath>

#include "base/format.hpp"
#include "base/units.hpp"
#include "logs/engine_log.hpp"
#include "logs/log_explain.hpp"
#include "logs/log_parser.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_error;
using kvtest::evaluate_ok;

namespace {
bool has_line_starting(const Result& r, const std::string& start) {
    for (const LogLine& line : engine_log(r))
        if (line.text.rfind(start, 0) == 0) return true;
    return false;
}
constexpr int64_t eight_gib = 8LL << 30;
}  // namespace

TEST_CASE("kv_cache_memory_bytes is the pool, whatever the utilisation") {
    const Result r = evaluate_ok({{"kv_cache_memory_bytes", eight_gib}});
    const MemoryPlan& m = r.memory;
    CHECK(m.available_kv_bytes == static_cast<double>(eight_gib));
    CHECK(m.num_gpu_blocks == static_cast<int64_t>(std::floor(static_cast<double>(eight_gib) / m.layout.page_bytes /
                                                              static_cast<double>(m.layout.group_size))));
    CHECK_FALSE(m.cuda_graph_in_budget);
    CHECK_FALSE(m.startup_error);
    const Result lower = evaluate_ok({{"kv_cache_memory_bytes", eight_gib}, {"gpu_memory_utilization", 0.5}});
    CHECK(lower.memory.num_gpu_blocks == m.num_gpu_blocks);
    // Unset, the utilisation sizes it as before.
    CHECK(evaluate_ok({}).memory.available_kv_bytes != static_cast<double>(eight_gib));
    CHECK_FALSE(evaluate_ok({}).memory.kv_cache_memory_bytes_set);
    CHECK(r.scenario.kv_cache_memory_bytes == eight_gib);
}

TEST_CASE("kv_cache_memory_bytes: the worker's line replaces the budget's") {
    const Result r = evaluate_ok({{"kv_cache_memory_bytes", eight_gib}});
    const std::string line = "INFO Initial free memory " + format_fixed(r.memory.free_at_start_bytes / GiB, 2) +
                             " GiB, reserved 8.00 GiB memory for KV Cache as specified by kv_cache_memory_bytes config and skipped "
                             "memory profiling. This does not respect the gpu_memory_utilization config. Only use "
                             "kv_cache_memory_bytes config when you want manual control of KV cache memory size. If OOM'ed, check "
                             "the difference of initial free memory between the current run and the previous run where "
                             "kv_cache_memory_bytes is suggested and update it correspondingly.";
    bool found = false;
    for (const LogLine& l : engine_log(r)) found = found || l.text == line;
    CHECK(found);
    CHECK_FALSE(has_line_starting(r, "INFO Available KV cache memory"));
    CHECK_FALSE(has_line_starting(r, "INFO Estimated CUDA graph memory"));
    CHECK_FALSE(has_line_starting(r, "INFO CUDA graph memory profiling is enabled"));
    CHECK(has_line_starting(r, "INFO GPU KV cache size: "));
}

TEST_CASE("kv_cache_memory_bytes: the checks that still run, and the memory it can run out of") {
    // init_device's free-memory check does not look at the argument.
    const Result greedy = evaluate_ok({{"kv_cache_memory_bytes", eight_gib}, {"gpu_memory_utilization", 0.999}});
    REQUIRE(greedy.memory.startup_error);
    CHECK(greedy.memory.startup_error->kind == RefusalKind::free_memory_below_request);
    // A pool larger than the card: torch runs out of memory allocating it.
    const Result too_big = evaluate_ok({{"kv_cache_memory_bytes", 200LL << 30}});
    REQUIRE(too_big.memory.startup_error);
    CHECK(too_big.memory.startup_error->kind == RefusalKind::out_of_memory_after_sizing);
    CHECK(too_big.memory.startup_error->message.rfind("torch.OutOfMemoryError: CUDA out of memory allocating the KV cache", 0) == 0);
    // One the max_model_len does not fit in: the engine's own refusal.
    const Result too_small = evaluate_ok({{"kv_cache_memory_bytes", 64LL << 20}});
    REQUIRE(too_small.memory.startup_error);
    CHECK(too_small.memory.startup_error->kind == RefusalKind::max_model_len_does_not_fit);
}

TEST_CASE("kv_cache_memory_bytes: older releases refuse it, bad values are named") {
    const InputError old = evaluate_error(R"({"kv_cache_memory_bytes": 8589934592, "vllm_version": "0.10.1"})");
    CHECK(old.field == "kv_cache_memory_bytes");
    CHECK(old.code == ErrorCode::unknown_field);
    CHECK(old.message.find("0.11.0") != std::string::npos);
    CHECK(evaluate_ok({{"kv_cache_memory_bytes", eight_gib}, {"vllm_version", "0.11.0"}}).memory.available_kv_bytes ==
          static_cast<double>(eight_gib));
    for (const char* bad : {R"({"kv_cache_memory_bytes": 0})", R"({"kv_cache_memory_bytes": -1})"}) {
        const InputError e = evaluate_error(bad);
        CHECK(e.field == "kv_cache_memory_bytes");
        CHECK(e.code == ErrorCode::out_of_range);
    }
    const InputError text = evaluate_error(R"({"kv_cache_memory_bytes": "8GiB"})");
    CHECK(text.field == "kv_cache_memory_bytes");
    CHECK(text.code == ErrorCode::wrong_type);
    CHECK_FALSE(evaluate_ok({{"kv_cache_memory_bytes", nullptr}}).memory.kv_cache_memory_bytes_set);
}

TEST_CASE("the log reader takes --kv-cache-memory-bytes and the reserved line") {
    const ParsedLog p = parse_vllm_log(
        "INFO 10-02 12:00:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', 'kv_cache_memory_bytes': 8589934592}\n"
        "INFO 10-02 12:00:30 [gpu_worker.py:276] Initial free memory 78.68 GiB, reserved 8.00 GiB memory for KV Cache as "
        "specified by kv_cache_memory_bytes config and skipped memory profiling. This does not respect the "
        "gpu_memory_utilization config.\n");
    CHECK(p.kv_cache_memory_bytes == eight_gib);
    REQUIRE(p.available_gib);
    CHECK(*p.available_gib == Approx(8.0));
    const ParsedLog command = parse_vllm_log("vllm serve Qwen/Qwen3-8B --kv-cache-memory-bytes 4294967296\n");
    CHECK(command.kv_cache_memory_bytes == (4LL << 30));
}

TEST_CASE("a paste with --kv-cache-memory-bytes and no version is read as 0.11.0 at least") {
    const auto outcome = explain_log(
        "(EngineCore_DP0 pid=1) INFO 10-10 12:00:40 [gpu_worker.py:276] Initial free memory 78.68 GiB, reserved 8.00 GiB memory "
        "for KV Cache as specified by kv_cache_memory_bytes config and skipped memory profiling.\n"
        "vllm serve Qwen/Qwen3-8B --kv-cache-memory-bytes 8589934592\n",
        GivenScenario{});
    REQUIRE(std::holds_alternative<LogExplanation>(outcome));
    const LogExplanation& x = std::get<LogExplanation>(outcome);
    CHECK(x.result.scenario.vllm_version == "0.11.0");
    CHECK(x.result.memory.available_kv_bytes == static_cast<double>(eight_gib));
}
