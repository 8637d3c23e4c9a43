// LoRA buffers: shapes from vLLM's create_lora_weights (vllm/lora/layers/*.py), when they count
// (PR #14469, 0.8.0), what the engine logs, and two real start-ups with --enable-lora
// (tests/validation/startup_logs.json: store-rtxpro6000-mistral7b-lora-v0140, store-l40s-...).
#include <catch2/catch.hpp>
#include <string>

#include "base/units.hpp"
#include "logs/engine_log.hpp"
#include "logs/log_explain.hpp"
#include "memory/lora.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {

nlohmann::json mistral(bool lora) {
    return {{"model", "Mistral-7B-Instruct-v0.3"}, {"gpu", "L40S"}, {"vllm_version", "0.14.0"}, {"enable_lora", lora}};
}

size_t line_index(const Result& r, const std::string& start) {
    const std::vector<LogLine> log = engine_log(r);
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].text.rfind("INFO " + start, 0) == 0) return i;
    return log.size();
}

}  // namespace

TEST_CASE("one adapter of rank 16 on Mistral-7B: A and B of every wrapped projection, the embedding and the lm_head") {
    const Result r = evaluate_ok(mistral(true));
    // Per layer, per adapter and unit of rank: qkv A 3 x 4,096 and B 4,096 + 2 x 1,024; o_proj A 4,096
    // and B 4,096; gate_up A 2 x 4,096 and B 2 x 14,336; down A 14,336 and B 4,096.
    const double per_layer = 3 * 4096 + 6144 + 4096 + 4096 + 2 * 4096 + 2 * 14336 + 14336 + 4096;
    const double tables = 2 * (32768 + 4096);  // embedding A over the vocabulary and B hidden wide; lm_head the other way
    CHECK(r.memory.lora_bytes == (32 * per_layer + tables) * 16 * 2);
    CHECK(r.memory.lora_bytes / GiB == Approx(0.080).epsilon(0.01));  // the logs: 13.58 GiB loaded with it, 13.50 without
    const Result none = evaluate_ok(mistral(false));
    CHECK(none.memory.lora_bytes == 0);
    CHECK(r.memory.weight_bytes - none.memory.weight_bytes == Approx(r.memory.lora_bytes));
    // The buffers scale with max_loras x max_lora_rank.
    nlohmann::json four = mistral(true);
    four["max_loras"] = 4;
    four["max_lora_rank"] = 64;
    CHECK(evaluate_ok(four).memory.lora_bytes == Approx(16 * r.memory.lora_bytes));
}

TEST_CASE("from 0.8.0 the buffers are weights and shrink the pool; before, V0 kept them outside the budget") {
    const Result on = evaluate_ok(mistral(true)), off = evaluate_ok(mistral(false));
    CHECK(off.memory.available_kv_bytes - on.memory.available_kv_bytes == Approx(on.memory.lora_bytes));
    nlohmann::json old_on = mistral(true), old_off = mistral(false);
    old_on["vllm_version"] = old_off["vllm_version"] = "0.7.2";
    const Result v0 = evaluate_ok(old_on), v0_off = evaluate_ok(old_off);
    CHECK(v0.memory.lora_bytes > 0);
    CHECK(v0.memory.weight_bytes == v0_off.memory.weight_bytes);  // issue #14450: the blocks did not change
    CHECK(v0.memory.num_gpu_blocks == v0_off.memory.num_gpu_blocks);
}

TEST_CASE("the engine's LoRA line: before the loading line from 0.8.0, after it in 0.7") {
    const Result r = evaluate_ok(mistral(true));
    CHECK(line_index(r, "Using PunicaWrapperGPU.") + 1 == line_index(r, "Model loading took"));
    CHECK(line_index(evaluate_ok(mistral(false)), "Using PunicaWrapperGPU.") == engine_log(evaluate_ok(mistral(false))).size());
    nlohmann::json old = mistral(true);
    old["vllm_version"] = "0.7.2";
    const Result v0 = evaluate_ok(old);
    CHECK(line_index(v0, "Loading model weights took") + 1 == line_index(v0, "Using PunicaWrapperGPU."));
}

TEST_CASE("an MoE's routed experts get buffers from 0.11.1, and lora_extra_vocab_size rows until 0.12.0") {
    nlohmann::json moe = {{"model", "Qwen3-30B-A3B"}, {"gpu", "H100"}, {"enable_lora", true}, {"vllm_version", "0.11.1"}};
    const double with_experts = evaluate_ok(moe).memory.lora_bytes;
    moe["vllm_version"] = "0.11.0";
    const double without = evaluate_ok(moe).memory.lora_bytes;
    // 48 layers x 128 experts x (w13 A 2 x 2,048 + B 2 x 768, w2 A 768 + B 2,048), one adapter of rank 16.
    CHECK(with_experts - without == Approx(48.0 * 128 * (2 * 2048 + 2 * 768 + 768 + 2048) * 16 * 2));
    // 0.11.x adds 256 vocabulary rows to both tables and a 256-row table per adapter to each.
    moe["vllm_version"] = "0.12.0";
    CHECK(with_experts - evaluate_ok(moe).memory.lora_bytes == Approx(2.0 * (256 * 16 + 256 * 2048) * 2));
}

TEST_CASE("a pasted LoRA start-up is explained with its adapters") {
    const std::string paste =
        "INFO 04-21 12:32:10 [utils.py:233] non-default args: {'max_model_len': 3072, 'enable_lora': True, 'max_loras': 2, "
        "'max_lora_rank': 32, 'model': 'mistralai/Mistral-7B-Instruct-v0.3'}\n"
        "INFO 04-21 12:32:18 [punica_selector.py:20] Using PunicaWrapperGPU.\n"
        "INFO 04-21 12:32:18 [gpu_model_runner.py:4820] Model loading took 13.82 GiB memory and 5.603437 seconds\n";
    const LogExplanation x = kvtest::explained(paste);
    CHECK(x.scenario.enable_lora);
    CHECK(x.scenario.max_loras == 2);
    CHECK(x.scenario.max_lora_rank == 32);
    // The marker alone says LoRA is on (the default adapters then).
    CHECK(kvtest::explained("INFO [punica_selector.py:20] Using PunicaWrapperGPU.\nINFO Model loading took 13.58 GiB memory\n")
              .scenario.enable_lora);
}
