// Which engine runs a scenario (VLLM_USE_V1, and V0's fallback on GPUs before Ampere) and what
// the readers do with it: the evaluation's rules, the refusals vLLM gives, the planner's command
// line and the log explainer.
#include <catch2/catch.hpp>

#include "io/fields_json.hpp"
#include "model/catalog.hpp"
#include "plan/plan.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_error;
using kvtest::evaluate_ok;

TEST_CASE("auto runs V0 before 0.8.0, V1 from it, and V0 on a GPU before Ampere until 0.10.2") {
    CHECK_FALSE(evaluate_ok({{"vllm_version", "0.7.3"}}).rules.v1_engine);
    CHECK(evaluate_ok({{"vllm_version", "0.8.2"}}).rules.v1_engine);
    // A T4 is compute capability 7.5: "Compute Capability < 8.0 is not supported by the V1 Engine.
    // Falling back to V0." (store-colab-t4-llama32-3b-fp16-v082-unsloth-sdk's log).
    const Result t4 = evaluate_ok({{"gpu", "T4"}, {"model", "Llama-3.2-3B"}, {"vllm_version", "0.8.2"}, {"max_model_len", 2048}});
    CHECK_FALSE(t4.rules.v1_engine);
    CHECK_FALSE(t4.rules.startup_free_memory_check);
    CHECK(t4.memory.cpu_swap_blocks > 0);  // V0's swap space
    CHECK(evaluate_ok({{"gpu", "T4"}, {"model", "Llama-3.2-3B"}, {"vllm_version", "0.10.2"}, {"max_model_len", 2048}}).rules.v1_engine);
    // An AMD GPU has no CUDA compute capability: the release's default.
    CHECK(evaluate_ok({{"gpu", "MI300X"}, {"vllm_version", "0.8.2"}}).rules.v1_engine);
}

TEST_CASE("multi-step scheduling, which V1 lacked, falls back to V0 until 0.11.0") {
    CHECK_FALSE(evaluate_ok({{"vllm_version", "0.9.2"}, {"num_scheduler_steps", 8}}).rules.v1_engine);
    CHECK(evaluate_ok({{"vllm_version", "0.11.0"}, {"num_scheduler_steps", 8}}).rules.v1_engine);
    CHECK(evaluate_error(R"({"vllm_version": "0.9.2", "engine": "v1", "num_scheduler_steps": 8})").field == "engine");
}

TEST_CASE("VLLM_USE_V1 picks the engine where the release has both") {
    const Result v0 = evaluate_ok({{"vllm_version", "0.8.4"}, {"engine", "v0"}, {"max_model_len", 8192}});
    CHECK_FALSE(v0.rules.v1_engine);
    CHECK(v0.memory.profile_rows == v0.memory.limits.max_num_seqs);  // V0 samples every sequence's row
    CHECK(evaluate_ok({{"vllm_version", "0.7.0"}, {"engine", "v1"}}).rules.v1_engine);
    CHECK(evaluate_ok({{"vllm_version", "0.10.1"}, {"engine", "auto"}}).rules.v1_engine);
}

TEST_CASE("an engine the release does not run is refused, naming the field") {
    const InputError v0_late = evaluate_error(R"({"vllm_version": "0.11.0", "engine": "v0"})");
    CHECK(v0_late.field == "engine");
    CHECK(v0_late.message.find("0.11.0") != std::string::npos);
    const InputError v1_early = evaluate_error(R"({"vllm_version": "0.6.3", "engine": "v1"})");
    CHECK(v1_early.field == "engine");
    CHECK(v1_early.message.find("0.6.4") != std::string::npos);
    const InputError before_ampere = evaluate_error(R"({"vllm_version": "0.9.2", "engine": "v1", "gpu": "V100-32GB"})");
    CHECK(before_ampere.field == "engine");
    CHECK(before_ampere.message.find("compute capability") != std::string::npos);
    // Before 0.8.0 V1 was opt-in and the oracle that refused it did not exist yet.
    CHECK(evaluate_ok({{"vllm_version", "0.7.2"}, {"engine", "v1"}, {"gpu", "T4"}, {"model", "Llama-3.2-3B"}, {"max_model_len", 2048}})
              .rules.v1_engine);
    CHECK(evaluate_error(R"({"engine": "v2"})").field == "engine");
}

TEST_CASE("a GPU's compute capability is CUDA's, within range") {
    nlohmann::json gpu = {{"memory_gib", 16}, {"hbm_tb_per_s", 0.32}, {"bf16_dense_tflops", 65}, {"compute_capability", 7.5}};
    auto read = gpu_from_json(gpu, "gpu_config");
    REQUIRE(std::holds_alternative<GpuSpec>(read));
    CHECK(std::get<GpuSpec>(read).compute_capability == 7.5);
    gpu["compute_capability"] = 75;
    CHECK(std::get<InputError>(gpu_from_json(gpu, "gpu_config")).field == "gpu_config.compute_capability");
    gpu["compute_capability"] = 9.4;
    gpu["vendor"] = "amd";
    CHECK(std::get<InputError>(gpu_from_json(gpu, "gpu_config")).field == "gpu_config.compute_capability");
}

TEST_CASE("the planner writes an engine asked for by name before the command") {
    Scenario s;
    s.model = "Llama-3.1-8B";
    s.vllm_version = "0.8.4";
    s.engine = "v0";
    const std::string command = serve_command(s, *find_model("Llama-3.1-8B"), 1);
    CHECK(command.rfind("VLLM_USE_V1=0 vllm serve ", 0) == 0);
}

TEST_CASE("a log's V0 lines set the engine where its release would have chosen V1") {
    // gh16883's worker lines (0.8.4 with VLLM_USE_V1=0) under the version banner.
    const std::string log =
        "INFO 04-20 16:25:40 [api_server.py:1034] vLLM API server version 0.8.4\n"
        "(VllmWorkerProcess pid=1866) INFO 04-20 16:25:56 [model_runner.py:1146] Model loading took 15.4132 GiB and 6.686331 seconds\n"
        "(VllmWorkerProcess pid=1866) INFO 04-20 16:26:30 [worker.py:267] the current vLLM instance can use total_gpu_memory "
        "(44.32GiB) x gpu_memory_utilization (0.90) = 39.89GiB\n"
        "(VllmWorkerProcess pid=1866) INFO 04-20 16:26:30 [worker.py:267] model weights take 15.41GiB; non_torch_memory takes 0.37GiB; "
        "PyTorch activation peak memory takes 11.32GiB; the rest of the memory reserved for KV Cache is 12.78GiB.\n";
    const LogExplanation x = kvtest::explained(log);
    CHECK(x.scenario.vllm_version == "0.8.4");
    CHECK(x.scenario.engine == "v0");
    CHECK_FALSE(engine_rules_for(engine_rules_of(x.scenario.vllm_version), x.scenario.engine, 8.9).v1_engine);
    // The oracle's warning says the same.
    const LogExplanation fallback = kvtest::explained(
        "INFO 05-05 15:15:08 [api_server.py:981] vLLM API server version 0.8.2\n"
        "WARNING 05-05 15:15:24 [arg_utils.py:1854] Compute Capability < 8.0 is not supported by the V1 Engine. Falling back to V0.\n"
        "INFO 05-05 15:25:32 [executor_base.py:111] # cuda blocks: 3637, # CPU blocks: 1170\n");
    CHECK(fallback.scenario.engine == "v0");
}
