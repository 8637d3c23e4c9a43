// KV offloading to CPU memory (memory/offload.hpp): the CPU tier's blocks as vLLM's CPUOffloadingSpec
// counts them (vllm/v1/kv_offload/cpu/spec.py), each block's size against the table of the vLLM blog
// "Inside vLLM's New Offloading Connector" (2025-12-29; 16-token blocks, the 0.12.0 layout), the
// connector's log line and stats lines, the simulation's reloads, and the refusals.
#include <catch2/catch.hpp>
#include <string>

#include "base/units.hpp"
#include "io/json_io.hpp"
#include "logs/engine_log.hpp"
#include "memory/offload.hpp"
#include "serving/simulate.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_error;
using kvtest::evaluate_ok;

TEST_CASE("a CPU block is one block of every layer, the size the vLLM blog's table gives") {
    struct Row {
        const char* model;
        int64_t tp;
        double block_mib;  // the blog's "new block size" column
    };
    const Row rows[] = {{"Llama-3.1-8B", 1, 2.0}, {"Llama-3.2-1B", 1, 0.5},   {"Qwen2.5-7B-Instruct", 1, 0.875},
                        {"Qwen3-32B", 2, 2.0},    {"Llama-3.1-70B", 4, 1.25}, {"Qwen3-4B", 1, 2.25}};
    for (const Row& row : rows) {
        CAPTURE(row.model);
        const Result r =
            evaluate_ok({{"model", row.model}, {"gpu", "H100"}, {"tensor_parallel_size", row.tp}, {"kv_offloading_size_gib", 10}});
        CHECK(r.memory.offload.block_bytes_per_rank == row.block_mib * MiB);
    }
}

TEST_CASE("the CPU tier holds the flag's bytes over every rank's share of a block; the GPU pool is unchanged") {
    const Result plain = evaluate_ok({{"model", "Qwen3-32B"}, {"gpu", "H100"}, {"tensor_parallel_size", 2}});
    const Result offloading =
        evaluate_ok({{"model", "Qwen3-32B"}, {"gpu", "H100"}, {"tensor_parallel_size", 2}, {"kv_offloading_size_gib", 10}});
    const CpuOffload& o = offloading.memory.offload;
    CHECK(o.cpu_blocks == 2560);  // 10 GiB / (2 MiB on each of 2 ranks)
    CHECK(o.cpu_tokens == 2560 * 16);
    CHECK(offloading.memory.num_gpu_blocks == plain.memory.num_gpu_blocks);
    CHECK_FALSE(plain.memory.offload.on);
    // About 50 GB/s one way over an H100's PCIe Gen5 x16: a 2 MiB block in about 42 us.
    CHECK(o.link_bytes_per_s == Approx(50e9));
    CHECK(o.load_s_per_block == Approx(2.0 * MiB / 50e9));
    // Loading a prompt back beats computing it (the blog: TTFT 2x to 22x lower).
    CHECK(offload_load_s(o, offloading.scenario.prompt_tokens, 16) < offloading.steps.prefill.total_s / 2);
}

TEST_CASE("the engine creates the offloading connector once the pool is sized") {
    const std::vector<LogLine> log = engine_log(evaluate_ok({{"model", "Llama-3.1-8B"}, {"gpu", "H100"}, {"kv_offloading_size_gib", 64}}));
    size_t sized = log.size(), connector = log.size();
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].text.rfind("INFO GPU KV cache size: ", 0) == 0) sized = i;
        if (log[i].text.rfind("INFO Creating v1 connector with name: OffloadingConnector and engine_id: ", 0) == 0) connector = i;
    }
    REQUIRE(connector < log.size());
    CHECK(sized < connector);
}

TEST_CASE("preempted requests load their blocks back from the CPU instead of computing them again") {
    nlohmann::json scenario = {{"model", "Qwen3-32B"},  {"gpu", "H100"},        {"vllm_version", "0.19.0"},
                               {"prompt_tokens", 2000}, {"output_tokens", 500}, {"max_model_len", 8192}};
    Workload w;
    w.rate_per_s = 0;
    w.requests = 300;
    auto plain_run = simulate(evaluate_ok(scenario), w);
    scenario["kv_offloading_size_gib"] = 64;
    auto offload_run = simulate(evaluate_ok(scenario), w);
    REQUIRE(std::holds_alternative<Simulation>(plain_run));
    REQUIRE(std::holds_alternative<Simulation>(offload_run));
    const Simulation& plain = std::get<Simulation>(plain_run);
    const Simulation& offloading = std::get<Simulation>(offload_run);
    REQUIRE(plain.summary.preemptions > 10);
    CHECK(plain.summary.external_hit_tokens == 0);
    CHECK(offloading.summary.external_hit_tokens > 16 * offloading.summary.preemptions);
    // Only first lookups count in vLLM's rate (vllm/v1/metrics/stats.py keeps preempted ones apart):
    // no two requests share a prompt here, so every reload is a preempted request's.
    CHECK(offloading.summary.external_hit_rate == 0.0);
    CHECK(offloading.summary.duration_s < plain.summary.duration_s);
    bool external = false, transfers = false;
    for (const std::string& line : offloading.stats_lines) {
        external |= line.find(", External prefix cache hit rate: ") != std::string::npos;
        transfers |= line.rfind("KV Transfer metrics: GPU_to_CPU_total_bytes=", 0) == 0 &&
                     line.find(", CPU_to_GPU_total_time=") != std::string::npos;
    }
    CHECK(external);
    CHECK(transfers);
    for (const std::string& line : plain.stats_lines) CHECK(line.find("External prefix cache") == std::string::npos);
}

TEST_CASE("offloading is refused where vLLM has no flag for it or its connector no support") {
    CHECK(evaluate_error(R"({"vllm_version":"0.13.0","kv_offloading_size_gib":8})").field == "kv_offloading_size_gib");
    CHECK(evaluate_error(R"({"model":"gpt-oss-20b","kv_offloading_size_gib":8})").field == "kv_offloading_size_gib");
    CHECK(evaluate_error(R"({"kv_offloading_size_gib":-1})").field == "kv_offloading_size_gib");
    CHECK(evaluate_error(
              R"({"gpu_config":{"memory_gib":24,"hbm_tb_per_s":1,"bf16_dense_tflops":100,"host_link":{"kind":"pcie9","gb_per_s":8}}})")
              .field == "gpu_config.host_link.kind");
}

TEST_CASE("a pasted start-up's --kv-offloading-size reaches the explained scenario where the release has the flag") {
    const LogExplanation args = kvtest::explained(
        "INFO 02-03 10:00:00 [api_server.py:1400] vLLM API server version 0.15.1\n"
        "INFO 02-03 10:00:00 [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'kv_offloading_size': 64.0}\n"
        "INFO 02-03 10:01:31 [gpu_model_runner.py:1624] Model loading took 14.99 GiB memory and 4.1 seconds\n"
        "INFO 02-03 10:01:48 [gpu_worker.py:232] Available KV cache memory: 55.02 GiB\n");
    CHECK(args.scenario.kv_offloading_size_gib == 64.0);
    const LogExplanation command = kvtest::explained(
        "vllm serve Qwen/Qwen3-8B --kv-offloading-size 16 --kv-offloading-backend native\n"
        "INFO 02-03 10:00:00 [api_server.py:1400] vLLM API server version 0.15.1\n"
        "INFO 02-03 10:01:48 [gpu_worker.py:232] Available KV cache memory: 55.02 GiB\n");
    CHECK(command.scenario.kv_offloading_size_gib == 16.0);
    const LogExplanation older = kvtest::explained(
        "INFO 02-03 10:00:00 [api_server.py:1400] vLLM API server version 0.11.0\n"
        "INFO 02-03 10:00:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', 'kv_offloading_size': 64.0}\n"
        "INFO 02-03 10:01:48 [gpu_worker.py:232] Available KV cache memory: 55.02 GiB\n");
    CHECK(older.scenario.kv_offloading_size_gib == 0.0);
}
