// Speculative decoding (memory/speculative.hpp): the drafter's weights and layers as vLLM loads and
// pools them, checked against a real EAGLE start-up (vLLM #19996: Llama-3.1-8B on an H100, 51.63 GiB
// for 410,128 tokens), the verification step's cost and what it gains, the simulation's acceptance
// runs against vLLM's SpecDecoding metrics line (vllm/v1/spec_decode/metrics.py), the engine's lines
// and the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "base/units.hpp"
#include "logs/engine_log.hpp"
#include "memory/speculative.hpp"
#include "serving/simulate.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {

nlohmann::json llama_eagle(int64_t concurrent = 32) {
    return {{"model", "Llama-3.1-8B"},          {"gpu", "H100"},
            {"vllm_version", "0.9.1"},          {"max_model_len", 131072},
            {"speculative_method", "eagle"},    {"num_speculative_tokens", 3},
            {"concurrent_requests", concurrent}};
}

nlohmann::json without_drafter(nlohmann::json s) {
    s.erase("speculative_method");
    s.erase("num_speculative_tokens");
    return s;
}

}  // namespace

TEST_CASE("an EAGLE head pools one more layer of keys and values, as vLLM #19996's start-up shows") {
    const Result r = evaluate_ok(llama_eagle());
    CHECK(r.memory.layout.draft_layers == 1);
    CHECK(r.memory.layout.kv_bytes_per_token == 33 * 4096);
    // The log: 51.63 GiB available for 410,128 tokens, 135,170 bytes a token: 33 layers of 4 KiB.
    CHECK(51.63 * GiB / 410128 == Approx(33 * 4096).epsilon(0.001));
    CHECK(static_cast<double>(r.memory.kv_cache_tokens) == Approx(410128).epsilon(0.02));
    CHECK(static_cast<double>(evaluate_ok(without_drafter(llama_eagle())).memory.layout.kv_bytes_per_token) == 32 * 4096);
}

TEST_CASE("the drafter's weights: one decoder layer and its fc, the embedding and lm_head shared") {
    const Result r = evaluate_ok(llama_eagle());
    // Llama-3.1-8B's layer: q, k, v, o (4,096 x 6,144 + 4,096 x 4,096), gate, up, down (3 x 4,096 x
    // 14,336), two norms and the final one; the fc joins two hidden states (2 x 4,096 x 4,096). 16-bit.
    const double layer = 4096.0 * 6144 + 4096.0 * 4096 + 3 * 4096.0 * 14336 + 3 * 4096;
    const double fc = 2 * 4096.0 * 4096;
    CHECK(r.memory.draft_weight_bytes == Approx((layer + fc) * 2));
    const Result plain = evaluate_ok(without_drafter(llama_eagle()));
    CHECK(r.memory.weight_bytes - plain.memory.weight_bytes == Approx(r.memory.draft_weight_bytes));
    // A pass reads the shared lm_head as well (128,256 x 4,096).
    CHECK(r.memory.draft_pass_weight_bytes - r.memory.draft_weight_bytes == Approx(128256.0 * 4096 * 2));
    // A draft model loads whole, its layers in the model's widths: Qwen3-0.6B's 28 layers of 8 KV heads x 128.
    const Result qwen = evaluate_ok({{"model", "Qwen3-8B"},
                                     {"gpu", "H100"},
                                     {"speculative_method", "draft_model"},
                                     {"draft_model", "Qwen3-0.6B"},
                                     {"num_speculative_tokens", 4}});
    CHECK(qwen.memory.layout.draft_layers == 28);
    CHECK(qwen.memory.draft_weight_bytes / GiB == Approx(parameter_count(qwen.memory.drafter.model) * 2.0 / GiB).epsilon(0.001));
}

TEST_CASE("DeepSeek's MTP layer: an MoE layer of the checkpoint, its latent in every block") {
    const nlohmann::json base = {{"model", "DeepSeek-V3"}, {"gpu", "H200"}, {"tensor_parallel_size", 8}};
    nlohmann::json mtp = base;
    mtp["speculative_method"] = "mtp";
    const Result r = evaluate_ok(mtp), plain = evaluate_ok(base);
    CHECK(r.memory.drafter.num_speculative_tokens == 1);  // unset: the checkpoint's one layer
    CHECK(r.memory.layout.kv_bytes_per_token == plain.memory.layout.kv_bytes_per_token / 61 * 62);
    // One FP8 MoE layer of 256 experts over 8 ranks is well over a GiB a rank.
    CHECK(r.memory.draft_weight_bytes / GiB == Approx(1.5).epsilon(0.15));
}

TEST_CASE("a step scores 1 + k tokens a sequence and gains the mean acceptance length") {
    CHECK(mean_acceptance_length(0.7, 3) == Approx(1 + 0.7 + 0.49 + 0.343));
    CHECK(mean_acceptance_length(0.0, 5) == 1.0);
    const Result one = evaluate_ok(llama_eagle(1)), one_plain = evaluate_ok(without_drafter(llama_eagle(1)));
    CHECK(one.steps.decode.draft_s > 0);
    CHECK(one.steps.itl_s == Approx(one.steps.decode.total_s / mean_acceptance_length(0.7, 3)));
    CHECK(one_plain.steps.decode.draft_s == 0);
    // At one sequence the step reads the weights either way: speculation nearly doubles the speed.
    const double speedup_one = one.steps.decode_tokens_per_s / one_plain.steps.decode_tokens_per_s;
    CHECK(speedup_one > 1.7);
    // Long contexts keep a big batch's step on its cache reads, which the drafts share: it still pays.
    // Short ones make the scoring pass compute-bound, and four times the tokens cost most of the gain.
    nlohmann::json long_many = llama_eagle(256), short_many = llama_eagle(256);
    short_many["prompt_tokens"] = 256;
    short_many["output_tokens"] = 256;
    const auto speedup = [](const nlohmann::json& s) {
        return evaluate_ok(s).steps.decode_tokens_per_s / evaluate_ok(without_drafter(s)).steps.decode_tokens_per_s;
    };
    CHECK(speedup(long_many) > 1.5);
    CHECK(speedup(short_many) < 1.2);
}

TEST_CASE("the simulation's acceptance runs average what vLLM's SpecDecoding metrics line prints") {
    const Result r = evaluate_ok({{"model", "Llama-3.1-8B"},
                                  {"gpu", "H100"},
                                  {"prompt_tokens", 1000},
                                  {"output_tokens", 300},
                                  {"speculative_method", "eagle"},
                                  {"num_speculative_tokens", 3}});
    Workload w;
    w.rate_per_s = 0;
    w.requests = 200;
    w.max_concurrency = 16;
    auto outcome = simulate(r, w);
    REQUIRE(std::holds_alternative<Simulation>(outcome));
    const Simulation& sim = std::get<Simulation>(outcome);
    CHECK(sim.summary.finished == 200);
    std::string line;
    for (const std::string& l : sim.stats_lines)
        if (l.rfind("SpecDecoding metrics: Mean acceptance length: ", 0) == 0) line = l;
    REQUIRE(!line.empty());
    CHECK(std::stod(line.substr(46)) == Approx(mean_acceptance_length(0.7, 3)).margin(0.1));
    CHECK(line.find(", Per-position acceptance rate: 0.") != std::string::npos);
    // A request's time per output token is the step over what the step gained, near the single-batch view.
    Workload plain_w = w;
    const Result plain = evaluate_ok({{"model", "Llama-3.1-8B"}, {"gpu", "H100"}, {"prompt_tokens", 1000}, {"output_tokens", 300}});
    auto plain_outcome = simulate(plain, plain_w);
    REQUIRE(std::holds_alternative<Simulation>(plain_outcome));
    CHECK(sim.summary.tpot_s.mean < 0.75 * std::get<Simulation>(plain_outcome).summary.tpot_s.mean);
}

TEST_CASE("the drafter loads inside the loading line's measurement") {
    const std::vector<LogLine> log = engine_log(evaluate_ok(llama_eagle()));
    size_t drafter = log.size(), loading = log.size();
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].text.find("Loading drafter model...") != std::string::npos) drafter = i;
        if (log[i].text.find("Model loading took") != std::string::npos) loading = i;
    }
    CHECK(drafter + 1 == loading);
}

TEST_CASE("what vLLM refuses in a speculative config, by field") {
    using kvtest::evaluate_error;
    CHECK(evaluate_error(R"({"model":"Qwen3-8B","speculative_method":"eagle"})").field == "num_speculative_tokens");
    CHECK(evaluate_error(R"({"model":"Qwen3-8B","speculative_method":"mtp"})").field == "speculative_method");
    const InputError vocab = evaluate_error(
        R"({"model":"Qwen3-8B","speculative_method":"draft_model","draft_model":"Llama-3.2-1B","num_speculative_tokens":4})");
    CHECK(vocab.field == "draft_model");
    CHECK(vocab.message.find("tokenizer") != std::string::npos);
    CHECK(evaluate_error(R"({"vllm_version":"0.6.3","speculative_method":"ngram","num_speculative_tokens":3})").field ==
          "speculative_method");
    CHECK(evaluate_error(R"({"speculative_method":"medusa"})").field == "speculative_method");
    CHECK(evaluate_error(R"({"speculative_method":"eagle","num_speculative_tokens":17})").field == "num_speculative_tokens");
}

TEST_CASE("a pasted speculative start-up is explained with its drafter") {
    const LogExplanation args = kvtest::explained(
        "INFO 06-23 14:20:01 [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'speculative_config': "
        "{'model': 'yuhuili/EAGLE-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 3, 'method': 'eagle'}}\n"
        "INFO 06-23 14:21:30 [gpu_model_runner.py:1595] Loading drafter model...\n"
        "INFO 06-23 14:21:31 [gpu_model_runner.py:1624] Model loading took 15.43 GiB and 4.1 seconds\n"
        "INFO 06-23 14:21:48 [gpu_worker.py:232] Available KV cache memory: 51.63 GiB\n");
    CHECK(args.scenario.speculative_method == "eagle");
    CHECK(args.scenario.num_speculative_tokens == 3);
    // Without the loading line the paste's shape reads as V0, whose speculative decoding is not modelled.
    const LogExplanation v0 = kvtest::explained(
        "INFO non-default args: {'speculative_config': {'num_speculative_tokens': 3, 'method': 'eagle'}}\n"
        "INFO Available KV cache memory: 51.63 GiB\n");
    CHECK(v0.scenario.speculative_method == "none");
    const LogExplanation config = kvtest::explained(
        "INFO 02-10 09:00:00 [core.py:71] Initializing a V1 LLM engine (v0.10.1) with config: model='deepseek-ai/DeepSeek-V3', "
        "speculative_config=SpeculativeConfig(method='deepseek_mtp', model='deepseek-ai/DeepSeek-V3', num_spec_tokens=2), "
        "tokenizer='deepseek-ai/DeepSeek-V3'\n"
        "INFO 02-10 09:05:00 [gpu_worker.py:232] Available KV cache memory: 20.00 GiB\n");
    CHECK(config.scenario.speculative_method == "mtp");
    CHECK(config.scenario.num_speculative_tokens == 2);
}
