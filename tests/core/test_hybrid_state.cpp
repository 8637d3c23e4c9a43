// Hybrid models: linear-attention (Gated DeltaNet) layers keep a fixed-size state per request in the
// KV pool. Expected values follow vLLM's code (mamba_utils.py gated_delta_net_state_shape, config.py
// HybridAttentionMambaModelConfig, kv_cache_interface.py MambaSpec) and one real start-up: Qwen3-Next
// on two H200s at 0.10.2 (tests/validation/startup_logs.json, store-h200-qwen3next-tp2-v0102).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "base/units.hpp"
#include "io/fields_json.hpp"
#include "logs/engine_log.hpp"
#include "logs/log_explain.hpp"
#include "time/step_time.hpp"
#include "memory/memory_plan.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;
using kvtest::logs;

namespace {

// A small dense hybrid in Qwen3-Next's layout: 6 Gated DeltaNet layers and 2 full attention.
nlohmann::json small_hybrid() {
    return {{"model_type", "qwen3_next"},
            {"num_hidden_layers", 8},
            {"hidden_size", 1024},
            {"intermediate_size", 4096},
            {"num_attention_heads", 8},
            {"num_key_value_heads", 2},
            {"head_dim", 128},
            {"vocab_size", 32000},
            {"max_position_embeddings", 8192},
            {"full_attention_interval", 4},
            {"linear_num_key_heads", 2},
            {"linear_num_value_heads", 4},
            {"linear_key_head_dim", 64},
            {"linear_value_head_dim", 64},
            {"linear_conv_kernel_dim", 4}};
}

nlohmann::json qwen3_next(int64_t tp) {
    return {{"model", "Qwen3-Next-80B-A3B"}, {"gpu", "H200"}, {"vllm_version", "0.10.2"}, {"tensor_parallel_size", tp}};
}

}  // namespace

TEST_CASE("Qwen3-Next's layers: every fourth is full attention, the rest Gated DeltaNet") {
    const Result r = evaluate_ok(qwen3_next(2));
    CHECK(r.model.num_linear_layers == 36);  // full_attention_interval 4 of 48 layers
    CHECK(num_kv_cache_layers(r.model) == 12);
    CHECK(r.memory.layout.kv_bytes_per_token == 12 * 1024.0);  // 12 layers x 2 x 1 KV head per rank x 256 x 2 bytes
}

TEST_CASE("one layer's state: the conv window and the recurrent matrices, split over the ranks") {
    const ModelSpec m = evaluate_ok(qwen3_next(1)).model;
    // conv: (4 - 1) x (2 x 16 x 128 + 32 x 128) / tp; recurrent: 32 / tp x 128 x 128; both 16-bit.
    CHECK(linear_state_bytes(m, 1) == (3.0 * 8192 + 32.0 * 128 * 128) * 2);
    CHECK(linear_state_bytes(m, 2) == (3.0 * 4096 + 16.0 * 128 * 128) * 2);
    CHECK(linear_state_bytes(m, 4) == (3.0 * 2048 + 8.0 * 128 * 128) * 2);
}

TEST_CASE("the attention block grows until one page holds a state, and the state's page is padded to it") {
    const Result r = evaluate_ok(qwen3_next(2));
    const KvLayout& k = r.memory.layout;
    // The real start-up's lines: 16 x ceil(548,864 / (16 x 1,024)) = 544 tokens; 557,056 / 548,864 - 1.
    CHECK(k.block_size == 544);
    CHECK(*r.scenario.block_size == 544);
    CHECK(logs(r, "Setting attention block size to 544 tokens to ensure that attention page size is >= mamba page size."));
    CHECK(logs(r, "Padding mamba page size by 1.49% to ensure that mamba page size and attention page size are exactly equal."));
    CHECK(evaluate_ok(qwen3_next(4)).memory.layout.block_size == 272);  // half the state, the same attention page per token
    // The small hybrid's state (35,840 bytes) needs 48 tokens of 1 KiB: a block of 32 set by hand is
    // raised, one of 64 stays and is not announced.
    const Result raised = evaluate_ok({{"model_config", small_hybrid()}, {"gpu", "H100"}, {"block_size", 32}});
    CHECK(raised.memory.layout.block_size == 48);
    CHECK(logs(raised, "Setting attention block size to 48 tokens to ensure that attention page size is >= mamba page size."));
    const Result kept = evaluate_ok({{"model_config", small_hybrid()}, {"gpu", "H100"}, {"block_size", 64}});
    CHECK(kept.memory.layout.block_size == 64);
    CHECK_FALSE(kept.memory.layout.block_size_raised);
    CHECK(logs(kept, "Padding mamba page size by 82.86% to ensure that mamba page size and attention page size are exactly equal."));
}

TEST_CASE("the state pages share the pool: four groups of twelve layers, one state page per request and layer") {
    const Result r = evaluate_ok(qwen3_next(2));
    const MemoryPlan& m = r.memory;
    const KvLayout& k = m.layout;
    CHECK(k.group_size == 12);
    CHECK(k.num_groups == 4);
    CHECK(k.linear_groups == 3);
    CHECK(m.num_gpu_blocks == static_cast<int64_t>(std::floor(m.available_kv_bytes / k.page_bytes / 12.0)));
    // 0.10.2 prints blocks / groups x block_size (the real start-up: 7,162 / 4 x 544 = 973,760).
    CHECK(m.kv_cache_tokens == m.num_gpu_blocks / 4 * 544);
    // A request of L tokens: ceil(L / 544) pages in the attention group, one page in each state group.
    const double one = request_kv_bytes(k, r.model, 1, 1), long_one = request_kv_bytes(k, r.model, 10'000, 1);
    CHECK(one == Approx(12 * k.page_bytes * (1 + 3)));
    CHECK(long_one == Approx(12 * k.page_bytes * (std::ceil(10'000 / 544.0) + 3)));
}

TEST_CASE("the real Qwen3-Next start-up on two H200s, term by term") {
    const MemoryPlan m = evaluate_ok(qwen3_next(2)).memory;
    CHECK(m.weight_bytes / GiB == Approx(74.2812).epsilon(0.005));  // Gated DeltaNet and gated-query weights counted
    CHECK(static_cast<double>(m.kv_cache_tokens) == Approx(973'760).epsilon(0.03));
    CHECK(m.max_concurrency == Approx(14.77).epsilon(0.03));
}

TEST_CASE("linear-attention widths are required, and their heads must divide over the ranks") {
    nlohmann::json config = small_hybrid();
    const Result r = evaluate_ok({{"model_config", config}, {"gpu", "H100"}});
    CHECK(r.model.num_linear_layers == 6);
    const Result refused = evaluate_ok({{"model_config", config}, {"gpu", "H100"}, {"tensor_parallel_size", 8}});
    REQUIRE(refused.memory.startup_error);
    CHECK(refused.memory.startup_error->kind == RefusalKind::tensor_parallel_mismatch);
    config.erase("linear_value_head_dim");
    const auto missing = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(missing));
    CHECK(std::get<InputError>(missing).field == "model_config.linear_value_head_dim");
}

TEST_CASE("a decode step reads each sequence's state pages and writes its states back") {
    const Result r = evaluate_ok({{"model_config", small_hybrid()}, {"gpu", "H100"}});
    const KvLayout& k = r.memory.layout;
    const StepEngine e{r.scenario, r.model, r.gpu, r.memory, r.rules};
    const StepLoad load = decode_load(e, 8, 1000);
    CHECK(load.decode_kv_bytes == Approx(8 * request_kv_bytes(k, r.model, 1000, 1)));
    const Calibration c;
    StepLoad no_pages = load;
    no_pages.decode_kv_bytes = 0;
    CHECK(time_step(e, load, c).bytes - time_step(e, no_pages, c).bytes == Approx(load.decode_kv_bytes));
    // A dense model reads the same weights for 4 sequences as for 8: the rest is the states written.
    StepLoad fewer = no_pages;
    fewer.decode_tokens = 4;
    CHECK(time_step(e, no_pages, c).bytes - time_step(e, fewer, c).bytes == Approx(4 * 6 * k.linear_state_bytes));
}

TEST_CASE("a hybrid's config.json written back reads to the same pool (links carry model_config)") {
    const Result r = evaluate_ok(qwen3_next(2));
    const Result again =
        evaluate_ok({{"model_config", model_to_config(r.model)}, {"gpu", "H200"}, {"vllm_version", "0.10.2"}, {"tensor_parallel_size", 2}});
    CHECK(again.model.num_linear_layers == 36);
    CHECK(again.memory.weight_bytes == r.memory.weight_bytes);
    CHECK(again.memory.kv_cache_tokens == r.memory.kv_cache_tokens);
}

TEST_CASE("a hybrid start-up explained: its block size read, and the pool over printed tokens compared like for like") {
    std::string paste =
        "(APIServer pid=1) INFO 10-23 15:10:10 [utils.py:328] non-default args: {'model': '/data/models/Qwen3-Next-80B-A3B-Instruct', "
        "'tensor_parallel_size': 2}\n"
        "(APIServer pid=1) INFO 10-23 15:10:22 [config.py:390] Setting attention block size to 544 tokens to ensure that attention "
        "page size is >= mamba page size.\n"
        "(Worker_TP0 pid=2) INFO 10-23 15:14:30 [gpu_worker.py:298] Available KV cache memory: 44.59 GiB\n"
        "(Worker_TP0 pid=2) INFO 10-23 15:14:56 [gpu_worker.py:391] Free memory on device (139.21/139.81 GiB) on startup. Desired GPU "
        "memory utilization is (0.9, 125.83 GiB).\n"
        "(EngineCore_DP0 pid=3) INFO 10-23 15:14:30 [kv_cache_utils.py:1028] GPU KV cache size: 973,760 tokens\n";
    const LogExplanation x = kvtest::explained(paste);
    REQUIRE(x.log.state_block_size);
    CHECK(*x.log.state_block_size == 544);
    bool compared = false;
    for (const auto& t : x.terms)
        if (t.term == "KV bytes per token" && t.logged && t.model) {
            compared = true;
            CHECK(*t.model == Approx(*t.logged).epsilon(0.02));  // 48 KiB a printed token on both sides, not 12 against 48
        }
    CHECK(compared);
}
