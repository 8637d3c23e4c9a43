// Vision encoders: the towers' parameters against published counts, the profile run's images as
// vLLM's compute_mm_encoder_budget and MultiModalBudget set them (vllm/v1/core/encoder_cache_manager.py,
// vllm/multimodal/encoder_budget.py), and the real Qwen2.5-VL-7B start-ups of
// tests/validation/startup_logs.json (tsailiming-l4-qwen25vl7b-*).
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "base/units.hpp"
#include "io/fields_json.hpp"
#include "logs/engine_log.hpp"
#include "logs/log_explain.hpp"
#include "model/catalog.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;
using kvtest::logs;

namespace {

nlohmann::json startup(const std::string& id) {
    std::ifstream in(KV_STARTUP_LOGS);
    const auto rows = nlohmann::json::parse(in).at("startups");
    for (const auto& row : rows)
        if (row.at("id") == id) return row;
    FAIL("no start-up " << id);
    return {};
}

ModelSpec qwen25_vl_7b() {
    auto m = model_from_config(startup("tsailiming-l4-qwen25vl7b-tp1-2k").at("scenario").at("model_config"), "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(m));
    return std::get<ModelSpec>(m);
}

}  // namespace

TEST_CASE("the towers' parameters are the published ones") {
    // Qwen2.5-VL-7B-Instruct: 8,292,166,656 in all, 676,550,144 of them in model.visual, as a
    // fine-tuning script printed them (search-store id 49095663873; the total is also Hugging Face's
    // numParameters).
    const ModelSpec qwen = qwen25_vl_7b();
    CHECK(qwen.vision.family == VisionFamily::qwen2_5_vl);
    CHECK(vision_parameter_count(qwen) == 676550144);
    CHECK(parameter_count(qwen) == 7615616512);
    // Gemma 3 27B: KerasHub's gemma3_instruct_27b (vision + text) 27,432,062,576 less gemma3_instruct_27b_text
    // 27,009,002,240, both over 262,144 vocabulary rows (keras_hub/src/models/gemma3/gemma3_presets.py).
    const ModelSpec gemma = *find_model("gemma-3-27b-it");
    CHECK(gemma.vision.family == VisionFamily::siglip);
    CHECK(vision_parameter_count(gemma) == 27432062576 - 27009002240);
    CHECK(max_image_tokens(gemma) == 256);
    CHECK(vision_patches_per_token(gemma) == 16);  // (896 / 14)^2 patches pooled to 256 tokens
    // A config written back reads to the same tower.
    for (const ModelSpec& m : {qwen, gemma}) {
        auto again = model_from_config(model_to_config(m), "model_config");
        REQUIRE(std::holds_alternative<ModelSpec>(again));
        CHECK(vision_parameter_count(std::get<ModelSpec>(again)) == vision_parameter_count(m));
        CHECK(parameter_count(std::get<ModelSpec>(again)) == parameter_count(m));
    }
}

TEST_CASE("a tower's bad numbers are named with their range") {
    nlohmann::json config = model_to_config(*find_model("gemma-3-27b-it"));
    config["mm_tokens_per_image"] = -5;
    auto bad = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(bad));
    CHECK(std::get<InputError>(bad).field == "model_config.mm_tokens_per_image");
    config["mm_tokens_per_image"] = 256;
    config["vision_config"]["patch_size"] = "fourteen";
    bad = model_from_config(config, "model_config");
    REQUIRE(std::holds_alternative<InputError>(bad));
    CHECK(std::get<InputError>(bad).field == "model_config.vision_config.patch_size");
}

TEST_CASE("an unread tower is named, not counted") {
    auto m = model_from_config({{"model_type", "llava"},
                                {"text_config",
                                 {{"model_type", "llama"},
                                  {"hidden_size", 4096},
                                  {"intermediate_size", 11008},
                                  {"num_hidden_layers", 32},
                                  {"num_attention_heads", 32},
                                  {"vocab_size", 32064}}},
                                {"vision_config", {{"hidden_size", 1024}}}},
                               "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(m));
    const ModelSpec& llava = std::get<ModelSpec>(m);
    CHECK(llava.vision.family == VisionFamily::none);
    CHECK(vision_parameter_count(llava) == 0);
    bool named = false;
    for (const auto& [field, how] : llava.derived) named |= field == "vision_config" && how.find("(llava)") != std::string::npos;
    CHECK(named);
}

TEST_CASE("the profile run's images: budget, items, and the line the engine prints") {
    // The real start-up on one L4 (0.9.0.1, max_model_len 2048): one image of 16,384 tokens, the
    // budget raised from max_num_batched_tokens 2,048 to it.
    const auto row = startup("tsailiming-l4-qwen25vl7b-tp1-2k");
    const Result r = evaluate_ok(row.at("scenario"));
    CHECK(r.memory.encoder.item_tokens == 16384);
    CHECK(logs(
        r,
        "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 1 image items of the maximum feature size."));
    CHECK(r.memory.vision_weight_bytes == 676550144.0 * 2);
    CHECK(r.memory.weight_bytes / GiB == Approx(15.6271).epsilon(0.015));  // logged; vLLM holds 0.18 GiB more
    CHECK(r.memory.kv_cache_tokens == Approx(33824).epsilon(0.08));        // logged 33,824
    // The tower's pass over 65,536 patches is the peak, far above the text pass's.
    CHECK(r.memory.encoder.forward_peak_bytes == r.memory.activation_peak_bytes);
    CHECK(r.memory.activation_peak_bytes / GiB > 2.0);

    // Gemma 3: 256 tokens an image, so one step's 8,192 tokens hold 32 images, unless fewer requests
    // of fewer images can be in flight (max_num_seqs x images per prompt within max_model_len).
    const Result gemma =
        evaluate_ok({{"model", "gemma-3-27b-it"}, {"gpu", "H100"}, {"vllm_version", "0.19.0"}, {"max_num_batched_tokens", 8192}});
    CHECK(gemma.memory.encoder.budget_tokens == 8192);
    CHECK(gemma.memory.encoder.items == 32);
    const Result few = evaluate_ok({{"model", "gemma-3-27b-it"},
                                    {"gpu", "H100"},
                                    {"vllm_version", "0.19.0"},
                                    {"max_num_batched_tokens", 8192},
                                    {"max_num_seqs", 4},
                                    {"max_model_len", 512}});
    CHECK(few.memory.encoder.items == 8);
}

TEST_CASE("V0 profiles no images of its own, and no step reads the tower") {
    const Result v0 = evaluate_ok({{"model", "gemma-3-27b-it"}, {"gpu", "H100"}, {"vllm_version", "0.6.6"}});
    CHECK(v0.memory.encoder.items == 0);
    CHECK(v0.memory.vision_weight_bytes > 0);
    for (const LogLine& line : engine_log(v0)) CHECK(line.text.find("Encoder cache") == std::string::npos);

    // The same language model without its tower: the same decode step.
    auto text_only = startup("tsailiming-l4-qwen25vl7b-tp1-2k").at("scenario");
    text_only["model_config"].erase("vision_config");
    const Result with = evaluate_ok(startup("tsailiming-l4-qwen25vl7b-tp1-2k").at("scenario")), without = evaluate_ok(text_only);
    CHECK(with.memory.weight_bytes - with.memory.vision_weight_bytes == without.memory.weight_bytes);
    const auto step_weights = [](const Result& r) { return r.steps.decode.bytes * r.steps.weight_share; };
    CHECK(step_weights(with) == Approx(step_weights(without)));
}

TEST_CASE("the explainer reads the encoder's line and says what it means") {
    const auto row = startup("tsailiming-l4-qwen25vl7b-tp1-2k");
    std::string log;
    for (const auto& line : row.at("log_lines")) log += line.get<std::string>() + "\n";
    const LogExplanation x = kvtest::explained(log);
    REQUIRE(x.log.encoder_items);
    CHECK(*x.log.encoder_items == 1);
    CHECK(x.log.encoder_budget_tokens.value_or(0) == 16384);
    bool noted = false;
    for (const std::string& note : x.notes)
        noted |= note.find("first encoded 1 image items of the largest size (16,384 tokens of budget)") != std::string::npos;
    CHECK(noted);
}
