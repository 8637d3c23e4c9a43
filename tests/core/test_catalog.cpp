// The catalogs are data with a source for every number (content/data/*.json): each entry parses,
// carries its sources, and the model's parameter count equals the published one.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "io/catalog_json.hpp"
#include "model/catalog.hpp"
#include "support.hpp"

using namespace kv;

namespace {
nlohmann::json load(const std::string& name) {
    std::ifstream in(std::string(KV_CONTENT_DATA) + "/" + name);
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}
}  // namespace

TEST_CASE("at least 15 models and 15 GPUs, each with its sources") {
    const auto models = load("models.json");
    const auto gpus = load("gpus.json");
    CHECK(builtin_catalog().models.size() == models.at("models").size());
    CHECK(builtin_catalog().gpus.size() == gpus.at("gpus").size());
    CHECK(models.at("models").size() >= 15);
    CHECK(gpus.at("gpus").size() >= 15);
    for (const auto& m : models.at("models")) {
        INFO(m.at("id").get<std::string>());
        CHECK(m.at("source").get<std::string>().find("huggingface.co/") != std::string::npos);
        CHECK_FALSE(m.at("hf_repo").get<std::string>().empty());
    }
    for (const auto& g : gpus.at("gpus")) {
        INFO(g.at("id").get<std::string>());
        for (const char* key : {"memory_gib", "visible_memory_mib", "hbm_tb_per_s", "bf16_dense_tflops", "fp8_dense_tflops"})
            CHECK_FALSE(g.at("sources").value(key, std::string()).empty());
        // What CUDA reports is below the marketed size, by at most the ECC reserve of GDDR cards.
        const double visible_gib = g.at("visible_memory_mib").get<double>() / 1024;
        CHECK(visible_gib < g.at("memory_gib").get<double>() + 1e-9);
        CHECK(visible_gib > 0.88 * g.at("memory_gib").get<double>());
    }
}

// The module embeds a copy of each catalog that keeps only the keys the readers name (core/
// CMakeLists.txt): every entry must read to the same model and GPU from content/data's full copy.
TEST_CASE("the embedded catalog reads to the same models and GPUs as content/data") {
    const auto models = load("models.json").at("models");
    const auto gpus = load("gpus.json").at("gpus");
    REQUIRE(builtin_catalog().models.size() == models.size());
    REQUIRE(builtin_catalog().gpus.size() == gpus.size());
    for (size_t i = 0; i < models.size(); ++i) {
        INFO(models[i].at("id").get<std::string>());
        const auto full = model_from_catalog_entry(models[i]);
        REQUIRE(std::holds_alternative<ModelSpec>(full));
        CHECK(std::get<ModelSpec>(full) == builtin_catalog().models[i]);
    }
    for (size_t i = 0; i < gpus.size(); ++i) {
        INFO(gpus[i].at("id").get<std::string>());
        const auto full = gpu_from_catalog_entry(gpus[i]);
        REQUIRE(std::holds_alternative<GpuSpec>(full));
        CHECK(std::get<GpuSpec>(full) == builtin_catalog().gpus[i]);
    }
}

TEST_CASE("parameter counts equal the published ones") {
    int exact = 0;
    const auto models = load("models.json");
    for (const auto& m : models.at("models")) {
        if (!m.contains("published_params")) continue;
        const auto& published = m["published_params"];
        INFO(m.at("id").get<std::string>() << ": " << published.value("source", std::string()));
        if (published.contains("counts_differently")) continue;  // says why (tied head counted twice, vision tower)
        const auto count = static_cast<double>(parameter_count(*find_model(m.at("id").get<std::string>())));
        const double value = published.at("value").get<double>();
        if (published.value("approximate", false)) {
            CHECK(std::fabs(count / value - 1) < 0.025);
        } else {
            CHECK(count == value);
            ++exact;
        }
    }
    CHECK(exact >= 12);
}

TEST_CASE("architecture families are read from config.json as published") {
    CHECK(find_model("Mixtral-8x7B-Instruct-v0.1")->num_experts == 8);
    CHECK(find_model("Qwen3-30B-A3B")->experts_per_token == 8);
    CHECK(find_model("DeepSeek-V3")->attention == AttentionKind::mla);
    CHECK(find_model("DeepSeek-V3")->num_dense_layers == 3);
    CHECK(find_model("DeepSeek-V3")->weight_format == WeightFormat::fp8);
    CHECK(find_model("gpt-oss-20b")->num_sliding_layers == 12);
    CHECK(find_model("gpt-oss-20b")->weight_format == WeightFormat::mxfp4_experts);
    CHECK(find_model("gemma-3-27b-it")->multimodal);
    CHECK(find_model("gemma-3-27b-it")->num_sliding_layers == 52);
    CHECK(find_model("Llama-3.1-70B-Instruct-AWQ-INT4")->weight_format == WeightFormat::int4_grouped);
    CHECK(find_model("Llama-3.1-70B-Instruct-FP8")->weight_format == WeightFormat::fp8);
    CHECK(find_model("Qwen2.5-7B-Instruct")->attention_bias);       // Qwen2's biases, unstated in its config
    CHECK(find_model("Qwen2.5-7B-Instruct")->sliding_window == 0);  // use_sliding_window: false
}
