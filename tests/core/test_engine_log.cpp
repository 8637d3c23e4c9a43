// The engine log: vLLM's own start-up lines in the format of the version, the refusal as the
// engine words it, and the lesson's lines.
#include <catch2/catch.hpp>
#include "logs/engine_log.hpp"
#include "logs/log_parser.hpp"

#include "base/format.hpp"
#include "support.hpp"
#include "base/units.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {
std::vector<std::string> lines_of(const Result& r, LogKind kind) {
    std::vector<std::string> out;
    for (const LogLine& line : engine_log(r))
        if (line.kind == kind) out.push_back(line.text);
    return out;
}
bool has_line(const Result& r, const std::string& text) {
    for (const LogLine& line : engine_log(r))
        if (line.text == text) return true;
    return false;
}
}  // namespace

TEST_CASE("V1 start-up lines, in the engine's format") {
    const Result r = evaluate_ok({});
    const MemoryPlan& m = r.memory;
    // From 0.28.0 the size and the concurrency are one line.
    CHECK(has_line(r, "INFO GPU KV cache size: " + format_count(m.kv_cache_tokens) +
                          " tokens, Maximum concurrency for 40,960 tokens per request: " + format_fixed(m.max_concurrency, 2) + "x"));
    CHECK(has_line(r, "INFO Available KV cache memory: " + format_fixed(m.available_kv_bytes / GiB, 2) + " GiB"));
    CHECK(has_line(r, "INFO Model loading took " + format_fixed(m.weight_bytes / GiB, 2) + " GiB memory"));
    CHECK(has_line(r, "INFO Estimated CUDA graph memory: " + format_fixed(m.cuda_graph_bytes / GiB, 2) + " GiB total"));
    const Result v021 = evaluate_ok({{"vllm_version", "0.21.0"}});
    CHECK(has_line(v021, "INFO GPU KV cache size: " + format_count(v021.memory.kv_cache_tokens) + " tokens"));
    CHECK(has_line(v021, "INFO Maximum concurrency for 40,960 tokens per request: " + format_fixed(v021.memory.max_concurrency, 2) + "x"));
    // Before 0.11 the loading line had four decimals and no "memory"; before 0.20 no graph estimate.
    const Result v010 = evaluate_ok({{"vllm_version", "0.10.1"}});
    CHECK(has_line(v010, "INFO Model loading took " + format_fixed(v010.memory.weight_bytes / GiB, 4) + " GiB"));
    CHECK(lines_of(v010, LogKind::info)[2].rfind("INFO Available KV cache memory", 0) == 0);
    // Model runner V2 (Qwen3 dense from 0.22.0) printed no estimate and "GiB and" until 0.29.0.
    const Result v2 = evaluate_ok({{"vllm_version", "0.26.0"}});
    CHECK(has_line(v2, "INFO Model loading took " + format_fixed(v2.memory.weight_bytes / GiB, 2) + " GiB"));
    CHECK(lines_of(v2, LogKind::info)[2].rfind("INFO Available KV cache memory", 0) == 0);
}

TEST_CASE("the equivalent utilisation, printed when the CUDA-graph estimate comes out of the budget") {
    // Qwen3-8B on an H100 at 0.92: 0.77 GiB of graphs are 0.0098 of the 79.19 GiB CUDA reports.
    const Result r = evaluate_ok({{"gpu_memory_utilization", 0.92}});
    const double share = r.memory.cuda_graph_bytes / r.memory.visible_bytes;
    CHECK(share == Approx(0.0098).margin(0.0001));
    CHECK(has_line(r,
                   "INFO CUDA graph memory profiling is enabled (default since v0.21.0). The current "
                   "--gpu-memory-utilization=0.9200 is equivalent to --gpu-memory-utilization=" +
                       format_fixed(0.92 - share, 4) +
                       " without CUDA graph memory profiling. To maintain the same effective KV cache size as before, increase "
                       "--gpu-memory-utilization to " +
                       format_fixed(0.92 + share, 4) + ". To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0."));
    // Printed from 0.20.0, after the pool's budget; not without graphs, nor before 0.20.
    const auto info = lines_of(evaluate_ok({{"vllm_version", "0.20.0"}}), LogKind::info);
    CHECK(info[4].rfind("INFO CUDA graph memory profiling is enabled", 0) == 0);
    for (const Result& none : {evaluate_ok({{"vllm_version", "0.19.0"}}), evaluate_ok({{"enforce_eager", true}})})
        for (const std::string& line : lines_of(none, LogKind::info)) CHECK(line.find("CUDA graph memory profiling") == std::string::npos);
}

TEST_CASE("V0 start-up lines: blocks, not tokens") {
    const Result r = evaluate_ok({{"vllm_version", "0.6.3"}, {"max_model_len", 8192}});
    const MemoryPlan& m = r.memory;
    CHECK(has_line(r, "INFO # GPU blocks: " + std::to_string(m.num_gpu_blocks) + ", # CPU blocks: " + std::to_string(m.cpu_swap_blocks)));
    CHECK(m.cpu_swap_blocks == static_cast<int64_t>(4 * GiB / (16.0 * 147456)));
    CHECK(has_line(r, "INFO Loading model weights took " + format_fixed(m.weight_bytes / GiB, 4) + " GB"));
}

TEST_CASE("upstream releases before 0.8.3 say they turn the custom all-reduce off on AMD GPUs, and a log reader takes it up") {
    const std::string line = "INFO Disabled the custom all-reduce kernel because it is not supported on AMD GPUs.";
    const Result upstream = evaluate_ok({{"gpu", "MI300X"}, {"tensor_parallel_size", 8}, {"vllm_version", "0.6.1"}});
    CHECK(has_line(upstream, line));
    CHECK_FALSE(has_line(evaluate_ok({{"gpu", "MI300X"}, {"tensor_parallel_size", 8}, {"vllm_version", "0.6.1+rocm"}}), line));
    CHECK_FALSE(has_line(evaluate_ok({{"gpu", "MI300X"}, {"vllm_version", "0.6.1"}}), line));  // one GPU: nothing to reduce
    CHECK_FALSE(has_line(evaluate_ok({{"tensor_parallel_size", 8}, {"vllm_version", "0.6.1"}}), line));
    CHECK(parse_vllm_log(line).disable_custom_all_reduce == true);
    const ParsedLog config = parse_vllm_log(
        "INFO 01-02 03:04:05 llm_engine.py:237] Initializing an LLM engine (v0.6.3) with config: model='m', "
        "tensor_parallel_size=4, disable_custom_all_reduce=True, enforce_eager=False");
    CHECK(config.disable_custom_all_reduce == true);
}

TEST_CASE("the stats line and the lesson lines") {
    const Result r = evaluate_ok({{"prompt_tokens", 32768}});
    CHECK(has_line(
        r, "INFO Engine 000: Avg prompt throughput: " + format_fixed(r.steps.serving.prompt_tokens_per_s, 1) +
               " tokens/s, Avg generation throughput: " + format_fixed(r.steps.serving.generation_tokens_per_s, 1) +
               " tokens/s, Running: " + std::to_string(r.admission.running) + " reqs, Waiting: " + std::to_string(r.admission.waiting) +
               " reqs, GPU KV cache usage: " + format_fixed(r.admission.kv_cache_usage * 100, 1) + "%, Prefix cache hit rate: 0.0%"));
    const auto lessons = lines_of(r, LogKind::lesson);
    REQUIRE(lessons.size() >= 3);
    CHECK(lessons[0].find("the KV pool is the limit (" + format_count(r.admission.max_resident_sequences) + " sequences") !=
          std::string::npos);
    CHECK(lessons[0].find("Lowering max_num_seqs would not admit one more") != std::string::npos);
}

TEST_CASE("a refusal ends the log with the engine's ValueError and says what would start") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}});
    const auto failures = lines_of(r, LogKind::failure);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0] == "ERROR ValueError: " + r.memory.startup_error->message);
    CHECK(engine_log(r).back().kind == LogKind::lesson);
    CHECK(engine_log(r).back().text.find("max_model_len " + format_count(r.memory.estimated_max_model_len) + " would start") !=
          std::string::npos);
    for (const std::string& line : lines_of(r, LogKind::info)) CHECK(line.find("GPU KV cache size") == std::string::npos);
    // Out of memory while loading is torch's error, not a ValueError.
    nlohmann::json giant = {{"num_hidden_layers", 160},       {"hidden_size", 8192},      {"intermediate_size", 28672},
                            {"num_attention_heads", 64},      {"num_key_value_heads", 8}, {"vocab_size", 32000},
                            {"max_position_embeddings", 4096}};
    const auto oom = lines_of(evaluate_ok({{"model_config", giant}}), LogKind::failure);
    REQUIRE(oom.size() == 1);
    CHECK(oom[0].rfind("ERROR torch.OutOfMemoryError: CUDA out of memory", 0) == 0);
    // A refusal before loading prints no memory lines at all.
    const Result early = evaluate_ok({{"max_model_len", 65536}});
    CHECK(lines_of(early, LogKind::info).size() == 1);  // the engine config line
}

TEST_CASE("a request longer than max_model_len is rejected by the server") {
    const Result r = evaluate_ok({{"prompt_tokens", 65536}});
    CHECK(r.status == Status::request_too_long);
    CHECK(lines_of(r, LogKind::failure).size() == 1);
}
