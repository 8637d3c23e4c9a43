#include <catch2/catch.hpp>
#include "logs/engine_log.hpp"

#include "model/catalog.hpp"
#include "io/json_io.hpp"
#include "model/model_spec.hpp"
#include "support.hpp"
#include "base/units.hpp"

using namespace kv;

TEST_CASE("parameter counts from the architecture") {
    const ModelSpec& qwen8 = *find_model("Qwen3-8B");
    // Embeddings 151,936 x 4,096 twice (untied) plus 36 layers of attention, MLP and norms.
    CHECK(parameter_count(qwen8) == 8190735360);
    CHECK(parameter_count(with_multi_head_attention(qwen8)) == 9096705024);
    CHECK(parameter_count(*find_model("Qwen3-14B")) == 14768307200);
    const double qwen32_bf16_gib = static_cast<double>(parameter_count(*find_model("Qwen3-32B"))) * 2 / GiB;
    CHECK(qwen32_bf16_gib == Approx(61.02).epsilon(0.001));
}

TEST_CASE("tied embeddings and attention bias change the count by exactly their tensors") {
    ModelSpec m = *find_model("Qwen3-8B");
    const int64_t untied = parameter_count(m);
    m.tie_word_embeddings = true;
    CHECK(untied - parameter_count(m) == 151936LL * 4096);
    m.attention_bias = true;
    m.tie_word_embeddings = false;
    CHECK(parameter_count(m) - untied == 36LL * (4096 + 2 * 1024));
}

TEST_CASE("KV bytes per token use kv heads, not query heads") {
    CHECK(kvtest::evaluate_ok({}).memory.layout.kv_bytes_per_token == 2.0 * 36 * 8 * 128 * 2);
    CHECK(kvtest::evaluate_ok({{"force_mha", true}}).memory.layout.kv_bytes_per_token == 2.0 * 36 * 32 * 128 * 2);
    CHECK(kvtest::evaluate_ok({{"kv_cache_dtype", "fp8"}}).memory.layout.kv_bytes_per_token == 2.0 * 36 * 8 * 128);
    CHECK(kvtest::evaluate_ok({{"model", "Qwen3-32B"}}).memory.layout.kv_bytes_per_token == 256 * KiB);
}

TEST_CASE("config.json: head_dim falls back to hidden_size / num_attention_heads") {
    nlohmann::json config = {{"num_hidden_layers", 32},          {"hidden_size", 4096},      {"intermediate_size", 14336},
                             {"num_attention_heads", 32},        {"num_key_value_heads", 8}, {"vocab_size", 128256},
                             {"max_position_embeddings", 131072}};
    auto parsed = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(parsed));
    const ModelSpec& m = std::get<ModelSpec>(parsed);
    CHECK(m.head_dim == 128);
    CHECK(parameter_count(m) == 8030261248);  // Llama-3.1-8B, untied: 8.03B as published
    CHECK_FALSE(m.qk_norm);
}

TEST_CASE("config.json: an explicit head_dim wins over the quotient (Qwen3-32B: 128, not 80)") {
    const ModelSpec& m = *find_model("Qwen3-32B");
    CHECK(m.head_dim == 128);
    CHECK(m.hidden_size / m.num_attention_heads == 80);
}

TEST_CASE("config.json without num_key_value_heads is multi-head attention") {
    nlohmann::json config = {
        {"num_hidden_layers", 2}, {"hidden_size", 256}, {"intermediate_size", 512}, {"num_attention_heads", 4}, {"vocab_size", 1000}};
    auto parsed = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(parsed));
    CHECK(std::get<ModelSpec>(parsed).num_key_value_heads == 4);
    CHECK(std::get<ModelSpec>(parsed).max_position_embeddings == 0);
}

TEST_CASE("the catalog holds every model and GPU the lesson names") {
    for (const char* id : {"Qwen3-8B", "Qwen3-14B", "Qwen3-32B"}) CHECK(find_model(id) != nullptr);
    for (const char* id : {"A100", "H100", "H200"}) CHECK(find_gpu(id) != nullptr);
    CHECK(find_gpu("H100")->memory_bytes == 80 * GiB);
    CHECK(find_gpu("H100")->bf16_flops_per_s / find_gpu("A100")->bf16_flops_per_s == Approx(3.17).epsilon(0.001));
    CHECK(find_gpu("A100")->fp8_flops_per_s == 0);
}

TEST_CASE("config.json: an unknown key one edit from a known one is flagged, the derivation stated") {
    nlohmann::json config = {{"num_hidden_layers", 36},          {"hidden_size", 4096},     {"intermediate_size", 12288},
                             {"num_attention_heads", 32},        {"num_key_value_head", 8}, {"vocab_size", 151936},
                             {"max_position_embeddings", 40960}, {"rms_norm_eps", 1e-6}};
    const Result r = kvtest::evaluate_ok({{"model_config", config}});
    REQUIRE(r.model.suspicious_keys.size() == 1);
    CHECK(r.model.suspicious_keys[0].first == "num_key_value_head");
    CHECK(r.model.suspicious_keys[0].second == "num_key_value_heads");
    CHECK(r.model.num_key_value_heads == 32);  // read as multi-head attention, and said so
    bool said = false;
    for (const auto& [field, how] : r.model.derived)
        said = said || (field == "num_key_value_heads" && how.find("multi-head") != std::string::npos);
    CHECK(said);
    bool warned = false;
    for (const LogLine& line : engine_log(r)) warned = warned || line.text.find("\"num_key_value_head\" is unknown") != std::string::npos;
    CHECK(warned);
    // Real configs carry dozens of other keys; none of the catalog's is flagged.
    for (const ModelSpec& m : builtin_catalog().models) CHECK(m.suspicious_keys.empty());
}
