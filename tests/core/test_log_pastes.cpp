// Logs as people paste them: with container and journal prefixes, cut short, naming no model,
// showing a failure. The start-up logs of tests/validation/startup_logs.json with every line that
// names the model taken out check the model inference against what each start-up really ran.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "base/units.hpp"
#include "io/validation_json.hpp"
#include "logs/log_explain.hpp"
#include "result/evaluate.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::explained;

namespace {

bool names_model(const std::string& line) {
    for (const char* marker : {"model=", "'model'", "'model_tag'", "vllm serve"})
        if (line.find(marker) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("prefixes a paste carries are taken off, and lines after them are not merged") {
    const std::string compose =
        "qwen3-1  | INFO 05-01 10:00:01 [gpu_model_runner.py:1892] Model loading took 14.99 GiB and 5.124567 seconds, with some more "
        "words to pass the wrap length\n"
        "qwen3-1  | INFO 05-01 10:00:09 [kv_cache_utils.py:716] GPU KV cache size: 158,656 tokens\n"
        "qwen3-1  | INFO 05-01 10:00:09 [kv_cache_utils.py:720] Maximum concurrency for 32,768 tokens per request: 4.84x\n";
    const ParsedLog p = parse_vllm_log(compose);
    CHECK(p.weights_gib == Approx(14.99));
    CHECK(p.kv_cache_tokens == 158656);
    CHECK(p.concurrency_tokens == 32768);
    CHECK(p.max_concurrency == Approx(4.84));
    CHECK(p.recognised.size() == 3);

    const ParsedLog k = parse_vllm_log("[pod/vllm-0/vllm] INFO 05-01 10:00:09 [kv_cache_utils.py:716] GPU KV cache size: 90,000 tokens\n");
    CHECK(k.kv_cache_tokens == 90000);
    const ParsedLog j = parse_vllm_log(
        "Mar 03 10:00:00 gpu-box vllm[1234]: INFO 03-03 10:00:00 [gpu_worker.py:276] Available KV cache memory: 20.53 GiB\n");
    CHECK(j.available_gib == Approx(20.53));
    const ParsedLog t = parse_vllm_log(
        "2026-05-14 12:43:20.135 | (EngineCore pid=219) INFO 05-14 10:43:20 [kv_cache_utils.py:1708] GPU KV cache size: 286,007 tokens\n"
        "2024-05-01T10:00:00.123456789Z INFO 05-01 10:00:00 [worker.py:1] # GPU blocks: 7351, # CPU blocks: 512\n");
    CHECK(t.kv_cache_tokens == 286007);
    CHECK(t.gpu_blocks == 7351);
}

TEST_CASE("lines of the newer releases and a pasted command line") {
    const ParsedLog p = parse_vllm_log(
        "$ vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len=16384 --gpu-memory-utilization 0.85 --kv-cache-dtype fp8 "
        "--enforce-eager\n"
        "(EngineCore pid=184) INFO 09-09 20:24:26 [kv_cache_utils.py:2312] GPU KV cache size: 1,844,583 tokens, Maximum concurrency for "
        "1,048,576 tokens per request: 1.76x\n"
        "(Worker_TP0 pid=257) INFO 09-09 20:24:26 [gpu_worker.py:696] CUDA graph memory profiling is enabled (default since v0.21.0). "
        "The current --gpu-memory-utilization=0.8700 is equivalent to --gpu-memory-utilization=0.8577 without CUDA graph memory "
        "profiling.\n");
    CHECK(p.model == "Qwen/Qwen3-8B");
    CHECK(p.tensor_parallel_size == 2);
    CHECK(p.max_model_len == 16384);
    CHECK(p.kv_cache_dtype == "fp8");
    CHECK(p.enforce_eager == true);
    CHECK(p.kv_cache_tokens == 1844583);
    CHECK(p.concurrency_tokens == 1048576);
    CHECK(p.max_concurrency == Approx(1.76));
    // The utilisation the engine ran with is the one it prints, over the command's.
    CHECK(p.gpu_memory_utilization == Approx(0.87));
    CHECK(p.equivalent_utilization == Approx(0.8577));
    // A data-parallel size from the command is said as engines, each with its own pool.
    const LogExplanation dp = explained("vllm serve Qwen/Qwen3-8B --data-parallel-size 4\nINFO GPU KV cache size: 90,000 tokens\n");
    CHECK(dp.log.data_parallel_size == 4);
    REQUIRE(dp.notes.size() == 1);
    CHECK(dp.notes[0].find("4 engines") != std::string::npos);
}

TEST_CASE("several data-parallel engines in one paste: each engine's own pool is said, reprints counted once") {
    // Two engines size their pools apart and print slightly different numbers (each profiles its own GPUs).
    const std::string paste =
        "(Worker_DP0_TP0 pid=21) INFO 09-23 05:11:15 [gpu_worker.py:360] Available KV cache memory: 37.44 GiB\n"
        "(EngineCore_DP0 pid=11) INFO 09-23 05:11:15 [kv_cache_utils.py:2235] GPU KV cache size: 1,226,636 tokens\n"
        "(EngineCore_DP0 pid=11) INFO 09-23 05:11:15 [kv_cache_utils.py:2235] GPU KV cache size: 1,226,636 tokens\n"
        "(Worker_DP1_TP0 pid=22) INFO 09-23 05:11:16 [gpu_worker.py:360] Available KV cache memory: 37.37 GiB\n"
        "(EngineCore_DP1 pid=12) INFO 09-23 05:11:16 [kv_cache_utils.py:2235] GPU KV cache size: 1,224,353 tokens\n"
        "(EngineCore_DP1 pid=12) INFO 09-23 05:11:16 [kv_cache_utils.py:2236] Maximum concurrency for 32,768 tokens per request: 37.36x\n";
    const ParsedLog p = parse_vllm_log(paste);
    REQUIRE(p.engine_pools.size() == 2);
    CHECK(p.engine_pools[0].rank == 0);
    CHECK(p.engine_pools[0].available_gib == Approx(37.44));
    CHECK(p.engine_pools[0].kv_cache_tokens == 1226636);
    CHECK_FALSE(p.engine_pools[0].max_concurrency);
    CHECK(p.engine_pools[1].rank == 1);
    CHECK(p.engine_pools[1].kv_cache_tokens == 1224353);
    CHECK(p.engine_pools[1].max_concurrency == Approx(37.36));
    // The paste's own figures stay the last printed; a line with no pool figure keeps them.
    CHECK(p.kv_cache_tokens == 1224353);
    CHECK(p.available_gib == Approx(37.37));
    const LogExplanation x = explained(paste);
    REQUIRE(x.notes.size() == 1);
    CHECK(x.notes[0].find("2 engines") != std::string::npos);
    CHECK(x.notes[0].find("Engine 0: 37.44 GiB for the pool, 1,226,636 tokens; engine 1: 37.37 GiB for the pool, 1,224,353 tokens, "
                          "37.36x concurrency.") != std::string::npos);
    // One engine alone says nothing more than its numbers.
    CHECK(parse_vllm_log("(EngineCore_DP0 pid=1) INFO GPU KV cache size: 90,048 tokens\n").engine_pools.size() == 1);
}

TEST_CASE("failures are named by the stage they struck in, each with what to change") {
    const std::string oom =
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB\n";
    CHECK(parse_vllm_log("INFO Loading weights on cuda\n" + oom).failure->stage == LogStage::loading_weights);
    CHECK(parse_vllm_log("INFO Model loading took 14.99 GiB and 5 seconds\n" + oom).failure->stage == LogStage::profiling);
    const std::string capture =
        "INFO Model loading took 14.99 GiB and 5 seconds\nINFO GPU KV cache size: 158,656 tokens\n"
        "Capturing CUDA graphs (decode, FULL):  50%|█████     | 1/2\n" +
        oom;
    const ParsedLog c = parse_vllm_log(capture);
    REQUIRE(c.failure);
    CHECK(c.failure->kind == FailureKind::out_of_memory);
    CHECK(c.failure->stage == LogStage::capturing_graphs);
    CHECK(c.refusal_kind == RefusalKind::out_of_memory_after_sizing);
    const LogExplanation x = explained(capture);
    CHECK(x.advice.find("--enforce-eager") != std::string::npos);
    CHECK(parse_vllm_log("INFO Application startup complete.\n" + oom).failure->stage == LogStage::serving);

    const ParsedLog n = parse_vllm_log(
        "(RayWorkerWrapper pid=5012, ip=10.0.0.2) ERROR torch.distributed.DistBackendError: NCCL error in: "
        "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version "
        "2.20.5\n");
    REQUIRE(n.failure);
    CHECK(n.failure->kind == FailureKind::nccl_error);
    CHECK(explained("(RayWorkerWrapper pid=5012) ERROR ncclUnhandledCudaError: Call to CUDA function failed.\n")
              .advice.find("NCCL_DEBUG=INFO") != std::string::npos);
}

TEST_CASE("a paste naming no model: its numbers restated, the catalog models they fit listed") {
    const LogExplanation x = explained(
        "INFO Model loading took 14.99 GiB and 5.1 seconds\nINFO GPU KV cache size: 158,656 tokens\n"
        "INFO Maximum concurrency for 32,768 tokens per request: 4.84x\n");
    REQUIRE(!x.inference.candidates.empty());
    CHECK(x.inference.candidates.front().model == "Llama-3.1-8B");
    // A pool matched on a card the log does not name is a hint, not an answer: no model runs.
    CHECK_FALSE(x.inference.unique);
    CHECK_FALSE(x.evaluated);
    CHECK(x.terms.size() == 3);
    for (const ExplainedTerm& t : x.terms) CHECK_FALSE(t.model);

    // With its card's memory and the pool in GiB, the bytes per token decide.
    const LogExplanation y = explained(
        "INFO Memory profiling takes 5.2 seconds. Free memory on device (78.68/79.19 GiB) on startup.\n"
        "INFO Model loading took 14.99 GiB and 5.1 seconds\nINFO Available KV cache memory: 56.97 GiB\n"
        "INFO GPU KV cache size: 466,656 tokens\n");
    REQUIRE(y.inference.unique);
    CHECK(y.evaluated);
    CHECK(y.scenario.model == "Llama-3.1-8B");
    CHECK(y.assumptions.back().find("the log does not name it") != std::string::npos);
}

TEST_CASE("the start-up logs with the model's name taken out: the model inferred is never a wrong one") {
    std::ifstream in(KV_STARTUP_LOGS);
    REQUIRE(in.good());
    const nlohmann::json data = nlohmann::json::parse(in);
    auto records = startup_records_from_json(data);
    REQUIRE(std::holds_alternative<std::vector<StartupRecord>>(records));
    const auto& list = std::get<std::vector<StartupRecord>>(records);
    int logs = 0, inferred = 0;
    for (const auto& rec : data.at("startups")) {
        if (rec.contains("exclude_reason")) continue;  // no scenario to check the inference against
        // The inference names catalog models; a model outside the catalog can fit one by coincidence
        // (repo-sqlagentrl's Qwen2.5-Coder-1.5B: its shard and pool are Llama-3.2-3B's at TP 2 with an
        // FP8 cache, to 0.4%, once the lines naming it are gone), so only catalog start-ups are held to it.
        if (rec.at("scenario").contains("model_config")) continue;
        std::string text;
        for (const auto& line : rec.at("log_lines"))
            if (!names_model(line.get<std::string>())) text += line.get<std::string>() + "\n";
        auto outcome = explain_log(text);
        if (!std::holds_alternative<LogExplanation>(outcome)) continue;  // nothing left but the model's lines
        ++logs;
        const LogExplanation x = std::get<LogExplanation>(outcome);
        if (!x.inference.unique) continue;
        ++inferred;
        // The start-up's own scenario: the inferred model must do the same arithmetic.
        const auto match = std::find_if(list.begin(), list.end(), [&](const StartupRecord& r) { return r.id == rec.at("id"); });
        REQUIRE(match != list.end());
        const Result truth = std::get<Result>(evaluate(match->scenario));
        const ModelCandidate& best = x.inference.candidates.front();
        INFO(match->id << ": inferred " << best.model);
        CHECK(best.weights_gib * GiB == Approx(truth.memory.weight_bytes).epsilon(0.01));
        CHECK(best.kv_bytes_per_token == Approx(truth.memory.layout.kv_bytes_per_token).epsilon(0.001));
        // A rank's numbers cannot tell tensor from pipeline parallelism: the GPUs per replica match.
        CHECK(best.tensor_parallel_size == match->scenario.tensor_parallel_size * match->scenario.pipeline_parallel_size);
    }
    CHECK(logs >= 35);
    CHECK(inferred >= 15);  // 18 of them today
}

TEST_CASE("a start-up that compiled its graphs afresh is told its pool is smaller than a warm restart's") {
    std::ifstream in(KV_STARTUP_LOGS);
    REQUIRE(in.good());
    const nlohmann::json data = nlohmann::json::parse(in);
    const auto lines_of = [&](const std::string& id) {
        std::string text;
        for (const auto& rec : data.at("startups"))
            if (rec.at("id") == id)
                for (const auto& line : rec.at("log_lines")) text += line.get<std::string>() + "\n";
        return text;
    };
    // TW-10519/VLLM-ROUTER's log on a DGX Spark: "Compiling a graph for compile range (1, 2048) takes
    // 45.10 s", "torch.compile takes 50.20 s in total" (0.13's wording) before the pool is sized.
    const std::string cold = lines_of("repo-vllmrouter-gb10-gpt-oss-20b-abliterated-u025-8k-v0130nv");
    const ParsedLog p = parse_vllm_log(cold);
    CHECK(p.graphs_compiled);
    CHECK(p.kv_cache_tokens == 282624);  // the lines after the compile's still read
    CHECK(p.torch_compile_s == Approx(50.2));
    GivenScenario given;
    given.scenario.model = "gpt-oss-20b";
    given.scenario.gpu = "GB10";
    given.fields = {"model", "gpu"};
    auto outcome = explain_log(cold, given);
    REQUIRE(std::holds_alternative<LogExplanation>(outcome));
    const LogExplanation& x = std::get<LogExplanation>(outcome);
    REQUIRE(x.evaluated);
    REQUIRE(x.notes.size() == 1);
    CHECK(x.notes[0].find("compiled the model's graphs afresh (torch.compile 50.2 s)") != std::string::npos);
    CHECK(x.notes[0].find("On unified memory the compiler's host memory counts too.") != std::string::npos);
    // The same card's pool as logged sits below the model's, as the note says it would.
    CHECK(*x.log.kv_cache_tokens < x.result.memory.kv_cache_tokens);

    // vLLM PR #17122's L40S start-up loaded its graphs from the cache (0.8.5): nothing to say.
    const ParsedLog warm = parse_vllm_log(lines_of("gh17122-l40s-llama31-8b-32k"));
    CHECK_FALSE(warm.graphs_compiled);
    CHECK(warm.torch_compile_s == Approx(6.41));
    CHECK(explained(lines_of("gh17122-l40s-llama31-8b-32k")).notes.empty());
    // 0.18's wording, and a V0 log (its profile run did not compile, PR #7796) says nothing either.
    CHECK(parse_vllm_log("INFO [monitor.py:48] torch.compile took 42.67 s in total\n").torch_compile_s == Approx(42.67));
    CHECK(explained("INFO [worker.py:1] # GPU blocks: 7351, # CPU blocks: 512\n"
                    "INFO [backends.py:1] Compiling a graph for general shape takes 20.1 s\n")
              .notes.empty());
}

TEST_CASE("real pastes from public threads (tests/validation/log_pastes.json): each explained, its numbers and failure read") {
    std::ifstream in(KV_LOG_PASTES);
    REQUIRE(in.good());
    const nlohmann::json pastes = nlohmann::json::parse(in).at("pastes");
    CHECK(pastes.size() >= 25);
    int failures = 0, numbers = 0;
    for (const auto& paste : pastes) {
        INFO(paste.at("id").get<std::string>() << " (" << paste.at("source").get<std::string>() << ")");
        const LogExplanation x = explained(paste.at("text").get<std::string>());
        const nlohmann::json& e = paste.at("expect");
        auto expect_number = [&](const char* key, const std::optional<double>& parsed) {
            if (e.value(key, nlohmann::json()).is_null()) return;
            ++numbers;
            REQUIRE(parsed);
            CHECK(*parsed == Approx(e.at(key).get<double>()));
        };
        auto as_double = [](const std::optional<int64_t>& v) { return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt; };
        expect_number("weights_gib", x.log.weights_gib);
        expect_number("kv_cache_tokens", as_double(x.log.kv_cache_tokens));
        expect_number("gpu_blocks", as_double(x.log.gpu_blocks));
        expect_number("max_concurrency", x.log.max_concurrency);
        expect_number("gpu_memory_utilization", x.log.gpu_memory_utilization);
        expect_number("state_block_size", as_double(x.log.state_block_size));
        if (!e.value("data_parallel_ranks", nlohmann::json()).is_null())
            CHECK(static_cast<int64_t>(x.log.data_parallel_ranks.size()) == e.at("data_parallel_ranks").get<int64_t>());
        const nlohmann::json failure = e.value("failure", nlohmann::json());
        if (failure.is_null()) continue;
        ++failures;
        const std::string kind = failure.get<std::string>();
        CHECK_FALSE(x.advice.empty());  // every failure comes with what to change
        if (kind == "max_model_len_refusal") CHECK(x.log.refusal_kind == RefusalKind::max_model_len_does_not_fit);
        else if (kind == "no_kv_cache_memory") CHECK(x.log.refusal_kind == RefusalKind::no_kv_cache_memory);
        else {
            REQUIRE(x.log.failure);
            if (kind == "nccl_error") CHECK(x.log.failure->kind == FailureKind::nccl_error);
            else {
                CHECK(x.log.failure->kind == FailureKind::out_of_memory);
                const LogStage stage = x.log.failure->stage;
                if (kind == "oom_weights_loading") CHECK(stage == LogStage::loading_weights);
                if (kind == "oom_profile_run") CHECK(stage == LogStage::profiling);
                if (kind == "oom_cuda_graph_capture") CHECK((stage == LogStage::capturing_graphs || stage == LogStage::sized));
                if (kind == "oom_first_requests") CHECK(stage == LogStage::serving);
            }
        }
    }
    CHECK(failures >= 10);
    CHECK(numbers >= 30);
}
