// Mamba2 hybrids (IBM Granite 4.0-H): each Mamba2 layer keeps a conv window and a recurrent state per
// request in the KV pool. Expected values follow vLLM's code (mamba_utils.py mamba2_state_shape and
// extra_groups_for_head_shards, granitemoehybrid.py, config.py HybridAttentionMambaModelConfig) and
// the lines real start-ups printed:
//  - granite-4.0-h-1b at 0.19.0 on an RTX 3060 (github.com/am-dev-75/retriva-docs @bc36c14,
//    implementations/1/README.md): "Setting attention block size to 400 tokens", "Padding mamba page
//    size by 1.59%", "Model loading took 2.72 GiB";
//  - granite-4.0-h-350m at 0.15.0rc3, a ROCm build on a Strix Halo APU (a log in a comment of
//    github.com/ROCm/ROCm/issues/5724): 400 tokens, 1.39%;
//  - granite-4.0-h-small at 0.11.1rc6, the same APU (github.com/ROCm/ROCm/issues/5590, a log that
//    stops before the KV cache lines): 528 tokens, 0.69%.
// The configs are the published config.json's fields as quoted in test fixtures of other projects;
// h-small's mamba_n_heads and mamba_d_head (128 x 64) are not in the quoted excerpt: they are the
// values mamba_expand x hidden_size requires with 64-wide heads, and its printed block and padding
// check them.
#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "base/units.hpp"
#include "io/fields_json.hpp"
#include "memory/memory_plan.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;
using kvtest::logs;

namespace {

nlohmann::json layer_types(std::initializer_list<std::pair<const char*, int>> runs) {
    nlohmann::json types = nlohmann::json::array();
    for (const auto& [type, count] : runs)
        for (int i = 0; i < count; ++i) types.push_back(type);
    return types;
}

nlohmann::json granite_h_1b() {
    return {{"model_type", "granitemoehybrid"},
            {"hidden_size", 1536},
            {"num_hidden_layers", 40},
            {"num_attention_heads", 12},
            {"num_key_value_heads", 4},
            {"intermediate_size", 4096},
            {"shared_intermediate_size", 4096},
            {"num_local_experts", 0},
            {"num_experts_per_tok", 0},
            {"vocab_size", 100352},
            {"tie_word_embeddings", true},
            {"mamba_d_state", 128},
            {"mamba_n_groups", 1},
            {"mamba_n_heads", 48},
            {"mamba_d_head", 64},
            {"mamba_expand", 2},
            {"mamba_d_conv", 4},
            {"max_position_embeddings", 131072},
            {"layer_types", layer_types({{"mamba", 5},
                                         {"attention", 1},
                                         {"mamba", 9},
                                         {"attention", 1},
                                         {"mamba", 9},
                                         {"attention", 1},
                                         {"mamba", 9},
                                         {"attention", 1},
                                         {"mamba", 4}})}};
}

nlohmann::json granite_h_350m() {
    nlohmann::json c = granite_h_1b();
    c.update({{"hidden_size", 768},
              {"num_hidden_layers", 32},
              {"intermediate_size", 2048},
              {"shared_intermediate_size", 2048},
              {"mamba_d_head", 32},
              {"max_position_embeddings", 32768},
              {"layer_types", layer_types({{"mamba", 10},
                                           {"attention", 1},
                                           {"mamba", 2},
                                           {"attention", 1},
                                           {"mamba", 3},
                                           {"attention", 1},
                                           {"mamba", 9},
                                           {"attention", 1},
                                           {"mamba", 4}})}});
    return c;
}

nlohmann::json granite_h_small() {
    nlohmann::json c = granite_h_1b();
    c.update({{"hidden_size", 4096},
              {"num_attention_heads", 32},
              {"num_key_value_heads", 8},
              {"num_local_experts", 72},
              {"num_experts_per_tok", 10},
              {"shared_intermediate_size", 1536},
              {"intermediate_size", 768},
              {"mamba_n_heads", 128},
              {"mamba_d_head", 64},
              {"layer_types", layer_types({{"mamba", 36}, {"attention", 4}})}});
    return c;
}

Result granite(const nlohmann::json& config, int64_t tp = 1) {
    return evaluate_ok(
        {{"model_config", config}, {"gpu", "H200"}, {"vllm_version", "0.19.0"}, {"max_model_len", 4096}, {"tensor_parallel_size", tp}});
}

}  // namespace

TEST_CASE("Granite 4.0-H's layer_types: Mamba2 layers keep a state, the attention layers a KV cache") {
    const Result r = granite(granite_h_1b());
    CHECK(r.model.linear_kind == LinearKind::mamba2);
    CHECK(r.model.num_linear_layers == 36);
    CHECK(num_kv_cache_layers(r.model) == 4);
    CHECK(r.model.head_dim == 128);            // hidden_size / num_attention_heads, as GraniteMoeHybridAttention takes it
    CHECK(r.model.intermediate_size == 4096);  // shared_intermediate_size: every layer's MLP
    CHECK(r.memory.weight_bytes / GiB == Approx(2.72).margin(0.005));  // "Model loading took 2.72 GiB"
}

TEST_CASE("one Mamba2 layer's state: the conv window over x, B and C and a head_dim x state_size matrix per head") {
    const ModelSpec m = granite(granite_h_1b()).model;
    // conv: (4 - 1) x (3072 + 2 x 1 x 128); recurrent: 48 x 64 x 128; both 16-bit.
    CHECK(linear_state_bytes(m, 1) == (3.0 * 3328 + 48.0 * 64 * 128) * 2);
    // One group over two ranks: both ranks hold it (the group count is raised to the rank count).
    CHECK(linear_state_bytes(m, 2) == (3.0 * (3072 + 2 * 2 * 128) / 2 + 24.0 * 64 * 128) * 2);
}

TEST_CASE("the block the engine sets for a Mamba2 hybrid and the padding it logs, as three real start-ups printed") {
    struct Case {
        nlohmann::json config;
        int64_t block;
        const char* padding;
    };
    const Case cases[] = {{granite_h_1b(), 400, "1.59%"}, {granite_h_350m(), 400, "1.39%"}, {granite_h_small(), 528, "0.69%"}};
    for (const Case& c : cases) {
        const Result r = granite(c.config);
        CHECK(r.memory.layout.block_size == c.block);
        CHECK(logs(r, "Setting attention block size to " + std::to_string(c.block) +
                          " tokens to ensure that attention page size is >= mamba page size."));
        CHECK(logs(r, std::string("Padding mamba page size by ") + c.padding +
                          " to ensure that mamba page size and attention page size are exactly equal."));
    }
}

TEST_CASE("Granite 4.0-H-Small: a shared MLP beside 72 experts, ten a token") {
    const ModelSpec m = granite(granite_h_small()).model;
    CHECK(m.num_experts == 72);
    CHECK(m.experts_per_token == 10);
    CHECK(m.moe_intermediate_size == 768);
    CHECK(m.shared_expert_intermediate_size == 1536);
    CHECK(static_cast<double>(parameter_count(m)) == Approx(32.2e9).epsilon(0.01));  // IBM's model card: 32B total
}

TEST_CASE("a Mamba2 hybrid's config.json written back reads to the same pool") {
    for (const nlohmann::json& config : {granite_h_1b(), granite_h_small()}) {
        const Result r = granite(config);
        const Result again = granite(model_to_config(r.model));
        CHECK(again.model.linear_kind == LinearKind::mamba2);
        CHECK(again.model.experts_per_token == r.model.experts_per_token);
        CHECK(again.model.shared_expert_intermediate_size == r.model.shared_expert_intermediate_size);
        CHECK(again.memory.weight_bytes == r.memory.weight_bytes);
        CHECK(again.memory.kv_cache_tokens == r.memory.kv_cache_tokens);
    }
}

TEST_CASE("Mamba2 widths are required and must agree; the heads must divide over the ranks") {
    nlohmann::json config = granite_h_1b();
    config.erase("mamba_d_state");
    const auto missing = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(missing));
    CHECK(std::get<InputError>(missing).field == "model_config.mamba_d_state");
    config = granite_h_1b();
    config["mamba_d_head"] = 32;  // 48 x 32 is not mamba_expand x hidden_size
    const auto inconsistent = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(inconsistent));
    CHECK(std::get<InputError>(inconsistent).field == "model_config.mamba_d_head");
    const Result refused = granite(granite_h_1b(), 32);  // 48 heads over 32 ranks
    REQUIRE(refused.memory.startup_error);
    CHECK(refused.memory.startup_error->kind == RefusalKind::tensor_parallel_mismatch);
}
