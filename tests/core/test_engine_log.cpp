#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {
std::vector<std::string> lines_of(const Result& r, LogKind kind) {
    std::vector<std::string> out;
    for (const LogLine& line : r.log)
        if (line.kind == kind) out.push_back(line.text);
    return out;
}
bool has_line(const Result& r, const std::string& text) {
    for (const LogLine& line : r.log)
        if (line.text == text) return true;
    return false;
}
}  // namespace

TEST_CASE("vLLM's own lines, in vLLM's format") {
    const Result r = evaluate_ok({});
    CHECK(has_line(r, "INFO GPU KV cache size: 405,312 tokens, Maximum concurrency for 40,960 tokens per request: 9.90x"));
    CHECK(has_line(r, "INFO Available KV cache memory: 55.66 GiB"));
    CHECK(has_line(r, "INFO Model loading took 15.2564 GiB"));
    CHECK(has_line(r, "INFO Avg prompt throughput: 37169.0 tokens/s, Avg generation throughput: 2323.1 tokens/s, "
                      "Running: 32 reqs, Waiting: 0 reqs, GPU KV cache usage: 34.4%, Prefix cache hit rate: 0.0%"));
}

TEST_CASE("the boot line for the brief's example shape: 32k max_model_len") {
    const Result r = evaluate_ok({{"max_model_len", 32768}});
    CHECK(has_line(r, "INFO GPU KV cache size: 405,312 tokens, Maximum concurrency for 32,768 tokens per request: 12.37x"));
}

TEST_CASE("lesson lines name the binding limit and the weight share") {
    const Result r = evaluate_ok({{"prompt_tokens", 32768}});
    const auto lessons = lines_of(r, LogKind::lesson);
    REQUIRE(lessons.size() >= 3);
    CHECK(lessons[0].find("the KV pool is the limit (12 sequences") != std::string::npos);
    CHECK(lessons[0].find("Lowering max_num_seqs would not admit one more") != std::string::npos);
    CHECK(has_line(r, "LESSON weight share of the decode step: 22% of 69.7 GiB moved per step; each running sequence adds 4.54 GiB."));
}

TEST_CASE("weights that do not fit: one failure line with the shortfall and the utilisation that fits") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}, {"gpu_memory_utilization", 0.72}});
    const auto failures = lines_of(r, LogKind::failure);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].find("4.58 GiB short") != std::string::npos);
    CHECK(failures[0].find("smallest gpu_memory_utilization that loads them is 0.78") != std::string::npos);
    CHECK(lines_of(r, LogKind::lesson).empty());  // nothing that would mean nothing
}

TEST_CASE("a pool that cannot hold one request: need, pool and the longest request that fits") {
    const Result r = evaluate_ok({{"model", "Qwen3-32B"}, {"force_mha", true}});
    const auto failures = lines_of(r, LogKind::failure);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].find("needs 8.50 GiB but the pool is 1.07 GiB") != std::string::npos);
    CHECK(failures[0].find("longest request that fits is 545 tokens") != std::string::npos);
}

TEST_CASE("a request longer than max_model_len is flagged") {
    const Result r = evaluate_ok({{"prompt_tokens", 65536}});
    CHECK(lines_of(r, LogKind::warning).size() == 1);
}
