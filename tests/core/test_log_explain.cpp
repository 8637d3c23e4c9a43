// Real vLLM start-up logs (tests/validation/startup_logs.json, each with its source) read back:
// every number a log states is parsed exactly, and the explanation lines the model up beside it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "io/explain_json.hpp"
#include "logs/log_parser.hpp"

using namespace kv;

namespace {

nlohmann::json startups() {
    std::ifstream in(KV_STARTUP_LOGS);
    REQUIRE(in.good());
    return nlohmann::json::parse(in).at("startups");
}

std::string joined(const nlohmann::json& lines) {
    std::string out;
    for (const auto& l : lines) out += l.get<std::string>() + "\n";
    return out;
}

// The explanation of a text that must have one (a log with start-up lines).
LogExplanation explained(const std::string& text, const GivenScenario& given = {}) {
    auto outcome = explain_log(text, given);
    REQUIRE(std::holds_alternative<LogExplanation>(outcome));
    return std::get<LogExplanation>(outcome);
}

// Whether one of the explanation's assumptions says `text` (at its start, if `at_start`).
bool assumes(const LogExplanation& x, const std::string& text, bool at_start = false) {
    return std::any_of(x.assumptions.begin(), x.assumptions.end(), [&](const std::string& a) {
        const size_t at = a.find(text);
        return at_start ? at == 0 : at != std::string::npos;
    });
}

}  // namespace

TEST_CASE("every number a real log states is parsed exactly") {
    int compared = 0, logs = 0;
    for (const auto& rec : startups()) {
        if (rec.contains("exclude_reason")) continue;   // e.g. two runs pasted into one comparison
        if (rec.contains("figure_restated")) continue;  // its author's words, not the engine's lines
        const std::string text = joined(rec.at("log_lines"));
        const ParsedLog p = parse_vllm_log(text);
        const auto& logged = rec.at("logged");
        INFO(rec.at("id").get<std::string>());
        logs += p.recognised.empty() ? 0 : 1;
        auto check = [&](const char* key, const auto& parsed, const char* marker) {
            if (!logged.contains(key) || !logged[key].is_number()) return;
            if (text.find(marker) == std::string::npos) return;  // the figure came from prose, not a log line
            REQUIRE(parsed);
            CHECK(static_cast<double>(*parsed) == Approx(logged[key].get<double>()).epsilon(1e-9));
            ++compared;
        };
        check("kv_cache_tokens", p.kv_cache_tokens, "GPU KV cache size");
        check("available_kv_cache_gib", p.available_gib, "Available KV cache memory");
        check("model_weights_gib", p.weights_gib, "oading");
        check("max_concurrency", p.max_concurrency, "Maximum concurrency");
        check("cuda_graph_estimated_gib", p.cuda_graph_estimate_gib, "Estimated CUDA graph memory");
        check("total_gpu_memory_gib", p.total_gib, "Free memory on device (");
        if (!p.kv_cache_tokens) check("num_gpu_blocks", p.gpu_blocks, "blocks: ");
    }
    CHECK(logs >= 30);
    CHECK(compared >= 80);
}

TEST_CASE("a log explained: its deployment, the model beside each number, the unstated terms inferred") {
    for (const auto& rec : startups()) {
        if (rec.at("id") != "repo-dennislee-a100-80gb-qwen2-7b-util025") continue;
        auto outcome = explain_log_json(joined(rec.at("log_lines")), {{"gpu", "A100"}});
        REQUIRE(std::holds_alternative<LogExplanation>(outcome));
        const auto& x = std::get<LogExplanation>(outcome);
        CHECK(x.scenario.model == "Qwen2-7B-Instruct");  // a local folder named after the repository
        CHECK(x.scenario.vllm_version == "0.10.1.1");
        CHECK(*x.scenario.max_model_len == 16384);
        CHECK(*x.scenario.gpu_memory_utilization == 0.25);
        const ExplainedTerm* rest = nullptr;
        const ExplainedTerm* weights = nullptr;
        const ExplainedTerm* available = nullptr;
        for (const auto& t : x.terms) {
            if (t.term == "activation peak + non-torch") rest = &t;
            if (t.term == "weights") weights = &t;
            if (t.term == "available KV cache") available = &t;
        }
        REQUIRE(rest);
        REQUIRE(weights);
        REQUIRE(available);
        CHECK(rest->inferred);
        // The inferred term and the stated ones add up to the budget the engine requested.
        const double requested = x.result.memory.visible_bytes / (1024.0 * 1024 * 1024) * 0.25;
        CHECK(*rest->logged + *weights->logged + *available->logged == Approx(requested));
        CHECK(std::fabs(*available->model / *available->logged - 1) < 0.1);
    }
}

TEST_CASE("refusals, prefixes, colours and wrapped lines") {
    const std::string log =
        "(EngineCore_DP0 pid=9) \x1b[1;36mINFO\x1b[0m 10-31 15:07:49 [gpu_worker.py:298] Available KV cache memory: 1.71 GiB\n"
        "(EngineCore_DP0 pid=9) ERROR 10-31 15:07:50 [core.py:708] ValueError: To serve at least one request with the models's "
        "max seq len (131072), (4.5 GiB KV cache is needed, which is larger than the available KV cache memory (1.71 GiB). Base\n"
        "d on the available memory, the estimated maximum model length is 49152. Try increasing `gpu_memory_utilization`\n";
    const ParsedLog p = parse_vllm_log(log);
    CHECK(*p.available_gib == 1.71);
    CHECK(*p.refusal_kind == kv::RefusalKind::max_model_len_does_not_fit);
    CHECK(*p.estimated_max_model_len == 49152);
}

TEST_CASE("a text with no start-up line, binary data or a 50 MB log: a clear error, never a crash") {
    CHECK(std::holds_alternative<InputError>(explain_log("")));
    CHECK(std::holds_alternative<InputError>(explain_log(std::string("\0\x01\xff\xfe binary", 12))));
    const std::string junk(50u << 20, 'x');
    auto outcome = explain_log(junk);
    REQUIRE(std::holds_alternative<InputError>(outcome));
    CHECK(std::get<InputError>(outcome).field == "log");
    auto unknown = explain_log("INFO non-default args: {'model': 'someone/unknown-model-7b'}\nINFO GPU KV cache size: 100 tokens\n");
    // A model the catalog lacks is no error (issue 22): the log is restated and the assumption says what to give.
    REQUIRE(std::holds_alternative<LogExplanation>(unknown));
    const LogExplanation& x = std::get<LogExplanation>(unknown);
    CHECK_FALSE(x.evaluated);
    REQUIRE(x.terms.size() == 1);
    CHECK(x.terms[0].logged == 100);
    CHECK(assumes(x, "someone/unknown-model-7b"));
}

TEST_CASE("a log that states no GPU memory is explained on an assumed H100, and says so where it matters") {
    // An A100-40GB start-up (vLLM 0.19.1): no line gives the card's total, so the budget is the
    // assumed GPU's, and the term inferred from it says that it is a guess.
    const std::string log =
        "INFO [utils.py:233] non-default args: {'model_tag': 'Qwen/Qwen3-8B', 'model': 'Qwen/Qwen3-8B'}\n"
        "INFO [core.py:105] Initializing a V1 LLM engine (v0.19.1) with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16, "
        "max_seq_len=40960, tensor_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=auto\n"
        "INFO [gpu_model_runner.py:4820] Model loading took 15.27 GiB memory and 4.543456 seconds\n"
        "INFO [gpu_model_runner.py:5955] Estimated CUDA graph memory: 2.35 GiB total\n"
        "INFO [gpu_worker.py:436] Available KV cache memory: 19.36 GiB\n"
        "INFO [kv_cache_utils.py:1319] GPU KV cache size: 140,960 tokens\n";
    const LogExplanation x = explained(log);
    CHECK(x.gpu_assumed);
    CHECK(x.scenario.gpu == "H100");
    const auto inferred =
        std::find_if(x.terms.begin(), x.terms.end(), [](const auto& t) { return t.term == "activation peak + non-torch"; });
    REQUIRE(inferred != x.terms.end());
    CHECK(inferred->meaning.rfind("Inferred from the assumed H100's memory", 0) == 0);
    // Named, the GPU is no assumption and the term is an ordinary inference.
    GivenScenario given;
    given.scenario.gpu = "A100-40GB";
    given.fields = {"gpu"};
    CHECK_FALSE(explained(log, given).gpu_assumed);
    // 0.19's advice on the CUDA-graph estimate implies the total: 2.35 GiB / (0.9596 - 0.9000) = 39.4
    // GiB, the 40 GB A100's.
    const std::string advised = log +
                                "INFO [gpu_worker.py:470] In v0.19, CUDA graph memory profiling will be enabled by default "
                                "(VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1), which more accurately accounts for CUDA graph memory "
                                "during KV cache allocation. To try it now, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 and increase "
                                "--gpu-memory-utilization from 0.9000 to 0.9596 to maintain the same effective KV cache size.\n";
    const LogExplanation y = explained(advised);
    CHECK_FALSE(y.gpu_assumed);
    CHECK(y.scenario.gpu == "A100-40GB");
    CHECK(assumes(y, "gpu A100-40GB: the nearest catalog GPU to the 39.4 GiB", true));
    // 0.20's wording says the same the other way round: 0.9000 is equivalent to 0.8404 without the
    // estimate, so the total is 2.35 / 0.0596 GiB again.
    const std::string equivalent = log +
                                   "INFO [gpu_worker.py:455] CUDA graph memory profiling is enabled (default since v0.21.0). The "
                                   "current --gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8404 without "
                                   "CUDA graph memory profiling.\n";
    CHECK(explained(equivalent).scenario.gpu == "A100-40GB");
    // A small estimate over a small change fixes no card: 0.08 GiB over 0.0026 is 31 GiB give or take 10%.
    std::string vague = advised;
    vague.replace(vague.find("2.35 GiB total"), 4, "0.08");
    vague.replace(vague.find("to 0.9596"), 9, "to 0.9026");
    CHECK(explained(vague).gpu_assumed);
}
