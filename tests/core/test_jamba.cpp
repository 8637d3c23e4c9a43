// AI21's Jamba: attention, original Mamba (Mamba1) mixers and mixtures of experts in one stack, as
// vLLM builds it (vllm/model_executor/models/jamba.py, layers/mamba/mamba_mixer.py) and sizes its
// state (layers/mamba/mamba_utils.py, mamba1_state_shape; models/config.py's
// HybridAttentionMambaModelConfig for the block). No start-up log of a Jamba model on V1 was found
// to check these against; the figures here are the engine's formulas worked by hand.
#include <catch2/catch.hpp>

#include "io/fields_json.hpp"
#include "memory/lora.hpp"
#include "model/catalog.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {

Result jamba(nlohmann::json extra = nlohmann::json::object()) {
    nlohmann::json s = {{"model", "Jamba-v0.1"}, {"gpu", "H200"}, {"vllm_version", "0.11.0"}, {"max_model_len", 32768}};
    s.update(extra);
    return evaluate_ok(s);
}

}  // namespace

TEST_CASE("Jamba's config: attention every eighth layer from the fifth, experts every second from the second") {
    const ModelSpec* m = find_model("Jamba-v0.1");
    REQUIRE(m != nullptr);
    CHECK(m->linear_kind == LinearKind::mamba1);
    CHECK(num_kv_cache_layers(*m) == 4);
    CHECK(m->num_linear_layers == 28);
    CHECK(m->num_experts == 16);
    CHECK(m->num_dense_layers == 16);
    CHECK(m->moe_intermediate_size == 14336);
    CHECK(m->mamba_intermediate_size == 8192);
    // 52B in all and 12B active, as AI21 publishes them.
    CHECK(parameter_count(*m) == 51'570'323'328);
    CHECK(active_parameter_count(*m) == Approx(12.11e9).epsilon(0.001));
    // Each layer's mixer and MLP end in an all-reduce (x_proj's narrow one is left out).
    CHECK(num_row_parallel_blocks(*m) == 64);
}

TEST_CASE("one Mamba1 layer's state: the conv window over the inner width and an inner x state matrix") {
    const ModelSpec* m = find_model("Jamba-v0.1");
    REQUIRE(m != nullptr);
    // 3 x 8,192 conv inputs and 8,192 x 16 recurrent values, 16-bit: 311,296 bytes.
    CHECK(linear_state_bytes(*m, 1) == 3 * 8192 * 2 + 8192 * 16 * 2);
    CHECK(linear_state_bytes(*m, 2) == linear_state_bytes(*m, 1) / 2);
    CHECK(linear_state_bytes(*m, 1, 4) == 3 * 8192 * 2 + 8192 * 16 * 4);
}

TEST_CASE("the block the engine sets for Jamba, and the padding it logs") {
    // One attention token is 8 KV heads x 128 x 2 x 2 bytes = 4,096 bytes a layer; the state page,
    // 311,296 bytes, needs 76 tokens, rounded up to a multiple of 16: 80, padding the state 5.26%.
    const Result r = jamba();
    CHECK(r.memory.layout.block_size == 80);
    CHECK(r.memory.layout.linear_layers == 28);
    CHECK(r.memory.layout.num_groups == 8);  // groups of 4: one of attention, seven of Mamba layers
    CHECK(kvtest::logs(r, "Setting attention block size to 80 tokens to ensure that attention page size is >= mamba page size."));
    CHECK(kvtest::logs(r, "Padding mamba page size by 5.26% to ensure that mamba page size and attention page size are exactly equal."));
    // An FP32 recurrent state (--mamba-ssm-cache-dtype float32, 0.10.2 on): 573,440 bytes, 144 tokens.
    const Result fp32 = jamba({{"mamba_ssm_cache_dtype", "float32"}});
    CHECK(fp32.memory.layout.block_size == 144);
    CHECK(kvtest::logs(fp32, "Padding mamba page size by 2.86% to ensure that mamba page size and attention page size are exactly equal."));
}

TEST_CASE("a Jamba config written back reads to the same model; a pattern outside the layers is refused") {
    const ModelSpec* m = find_model("Jamba-v0.1");
    REQUIRE(m != nullptr);
    auto again = model_from_config(model_to_config(*m), "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(again));
    ModelSpec read = std::get<ModelSpec>(again);
    CHECK(linear_state_bytes(read, 1) == linear_state_bytes(*m, 1));
    CHECK(parameter_count(read) == parameter_count(*m));
    CHECK(jamba({{"model_config", model_to_config(*m)}}).memory.num_gpu_blocks == jamba().memory.num_gpu_blocks);
    nlohmann::json config = model_to_config(*m);
    config["attn_layer_offset"] = 8;
    auto refused = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(refused));
    CHECK(std::get<InputError>(refused).field == "model_config.attn_layer_offset");
    config["attn_layer_period"] = 64;  // more than the 32 layers
    refused = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(refused));
    CHECK(std::get<InputError>(refused).field == "model_config.attn_layer_period");
}

TEST_CASE("LoRA on Jamba wraps the Mamba1 mixer's projections too") {
    const Result plain = jamba();
    const Result lora = jamba({{"enable_lora", true}});
    CHECK(lora.memory.num_gpu_blocks < plain.memory.num_gpu_blocks);
    // The inner width enters in_proj's B (2 x), conv1d's, x_proj's A, dt_proj's B and out_proj's A:
    // six times the inner width a layer, at rank 16, one adapter, 16 bits, over 28 Mamba layers.
    Scenario s;
    s.enable_lora = true;
    ModelSpec wider = *find_model("Jamba-v0.1");
    const EngineRules rules = engine_rules_of("0.11.0");
    const double base = lora_buffer_bytes(wider, s, rules, 32, true, true);
    wider.mamba_intermediate_size += 8192;
    CHECK(lora_buffer_bytes(wider, s, rules, 32, true, true) - base == 6.0 * 8192 * 28 * 16 * 2);
}

TEST_CASE("before 0.10.1, or on V0, Jamba is refused naming the release") {
    CHECK(kvtest::evaluate_error(R"({"model": "Jamba-v0.1", "gpu": "H200", "vllm_version": "0.10.0"})").field == "vllm_version");
    CHECK(kvtest::evaluate_error(R"({"model": "Jamba-v0.1", "gpu": "H200", "vllm_version": "0.10.1", "engine": "v0"})").field ==
          "vllm_version");
    CHECK(jamba({{"vllm_version", "0.10.1"}}).rules.v1_engine);
}
