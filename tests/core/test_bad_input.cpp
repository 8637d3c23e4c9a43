// Bad input is reported with the field, an enumerated code and the allowed range; never a crash.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kv;
using kvtest::evaluate_error;

TEST_CASE("out-of-range and wrong-type scenario fields") {
    struct Case {
        const char* text;
        const char* field;
        ErrorCode code;
        const char* in_message;
    };
    const Case cases[] = {
        {R"({"prompt_tokens": 1e30})", "prompt_tokens", ErrorCode::out_of_range, "1 to 1,048,576"},
        {R"({"prompt_tokens": 0})", "prompt_tokens", ErrorCode::out_of_range, "1 to 1,048,576"},
        {R"({"prompt_tokens": 4096.5})", "prompt_tokens", ErrorCode::out_of_range, "whole number"},
        {R"({"prompt_tokens": "4k"})", "prompt_tokens", ErrorCode::wrong_type, "whole number"},
        {R"({"output_tokens": -1})", "output_tokens", ErrorCode::out_of_range, "1 to"},
        {R"({"concurrent_requests": 100000})", "concurrent_requests", ErrorCode::out_of_range, "1 to 4,096"},
        {R"({"gpu_memory_utilization": 1.5})", "gpu_memory_utilization", ErrorCode::out_of_range, "0.05 to 1.00"},
        {R"({"gpu_memory_utilization": "high"})", "gpu_memory_utilization", ErrorCode::wrong_type, "0.05 to 1.00"},
        {R"({"kv_cache_dtype": "int4"})", "kv_cache_dtype", ErrorCode::unknown_value, "\"bf16\" or \"fp8\""},
        {R"({"weight_dtype": 8})", "weight_dtype", ErrorCode::wrong_type, "\"bf16\" or \"fp8\""},
        {R"({"force_mha": "yes"})", "force_mha", ErrorCode::wrong_type, "true or false"},
        {R"({"max_num_seqs": 0})", "max_num_seqs", ErrorCode::out_of_range, "1 to 4,096"},
        {R"({"max_num_batched_tokens": 8})", "max_num_batched_tokens", ErrorCode::out_of_range, "16 to"},
        {R"({"tensor_parallel_size": 0})", "tensor_parallel_size", ErrorCode::out_of_range, "1 to 64"},
        {R"({"tensor_parallel_size": 128})", "tensor_parallel_size", ErrorCode::out_of_range, "1 to 64"},
        {R"({"pipeline_parallel_size": 17})", "pipeline_parallel_size", ErrorCode::out_of_range, "1 to 16"},
        {R"({"block_size": 0})", "block_size", ErrorCode::out_of_range, "1 to 256"},
        {R"({"vllm_version": "0.2.4"})", "vllm_version", ErrorCode::out_of_range, "0.2.5 or newer"},
        {R"({"vllm_version": "latest"})", "vllm_version", ErrorCode::unknown_value, "version string"},
        {R"({"vllm_version": 0.6})", "vllm_version", ErrorCode::wrong_type, "version string"},
        {R"({"entry": "batch"})", "entry", ErrorCode::unknown_value, "\"serve\""},
        {R"({"enforce_eager": 1})", "enforce_eager", ErrorCode::wrong_type, "true or false"},
        {R"({"gpu_config": {"hbm_tb_per_s": 2, "bf16_dense_tflops": 100}})", "gpu_config.memory_gib", ErrorCode::missing_field, "missing"},
        {R"({"gpu_config": {"memory_gib": 1e30, "hbm_tb_per_s": 2, "bf16_dense_tflops": 100}})", "gpu_config.memory_gib",
         ErrorCode::out_of_range, "1 to 1,024"},
        {R"({"gpu_config": {"memory_gib": 4096, "hbm_tb_per_s": 2, "bf16_dense_tflops": 100}})", "gpu_config.memory_gib",
         ErrorCode::out_of_range, "1 to 1,024"},
        {R"({"gpu_config": {"memory_gib": 24, "hbm_tb_per_s": "fast", "bf16_dense_tflops": 100}})", "gpu_config.hbm_tb_per_s",
         ErrorCode::wrong_type, "number"},
        {R"({"max_model_len": 1})", "max_model_len", ErrorCode::out_of_range, "16 to"},
        {R"({"model": "GPT-5"})", "model", ErrorCode::unknown_value, "Qwen3-8B, Qwen3-14B, Qwen3-32B"},
        {R"({"gpu": "V100"})", "gpu", ErrorCode::unknown_value, "A100, "},
        {R"({"prompt": 4096})", "prompt", ErrorCode::unknown_field, "not a scenario field"},
        {R"([1, 2])", "scenario", ErrorCode::wrong_type, "JSON object"},
        {R"({"prompt_tokens": )", "scenario", ErrorCode::malformed_json, "not valid JSON"},
        {R"({"prompt_tokens": -5, "prompt_tokens": 32768})", "prompt_tokens", ErrorCode::malformed_json, "given twice"},
        {R"({"model_config": {"hidden_size": 1, "hidden_size": 2}})", "hidden_size", ErrorCode::malformed_json, "given twice"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const InputError e = evaluate_error(c.text);
        CHECK(e.field == c.field);
        CHECK(e.code == c.code);
        CHECK(e.message.find(c.in_message) != std::string::npos);
    }
}

TEST_CASE("oversized, NUL-carrying and huge-key inputs are refused without echoing them") {
    const std::string huge(2u << 20, ' ');
    CHECK(evaluate_error("{\"prompt_tokens\": 1}" + huge).code == ErrorCode::out_of_range);
    CHECK(evaluate_error(std::string("{\"prompt_tokens\": 1}\0{\"x\": 2}", 30)).code == ErrorCode::malformed_json);
    const InputError e = evaluate_error("{\"" + std::string(100000, 'k') + "\": 1}");
    CHECK(e.code == ErrorCode::unknown_field);
    CHECK(e.message.size() < 200);
    // Keys may repeat in different objects.
    CHECK(kvtest::evaluate_ok(nlohmann::json::parse(R"({"model_config": {"num_hidden_layers": 2, "hidden_size": 256,
        "intermediate_size": 512, "num_attention_heads": 4, "vocab_size": 1000, "max_position_embeddings": 4096,
        "text_config": null, "quantization_config": null}, "max_model_len": 2048})"))
              .params > 0);
}

TEST_CASE("inconsistent or incomplete config.json") {
    const std::string base = R"("hidden_size": 4096, "intermediate_size": 12288, "vocab_size": 151936, "max_position_embeddings": 40960)";
    struct Case {
        std::string config;
        const char* field;
        ErrorCode code;
    };
    const Case cases[] = {
        {R"({"num_hidden_layers": 0, "num_attention_heads": 32, )" + base + "}", "model_config.num_hidden_layers", ErrorCode::out_of_range},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 0, )" + base + "}", "model_config.num_attention_heads",
         ErrorCode::out_of_range},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 0, )" + base + "}",
         "model_config.num_key_value_heads", ErrorCode::out_of_range},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 7, )" + base + "}",
         "model_config.num_key_value_heads", ErrorCode::inconsistent_config},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 24, "num_key_value_heads": 8, "hidden_size": 4000, "intermediate_size": 1, "vocab_size": 1})",
         "model_config.head_dim", ErrorCode::inconsistent_config},
        {R"({"num_attention_heads": 32, )" + base + "}", "model_config.num_hidden_layers", ErrorCode::missing_field},
        {R"({"num_hidden_layers": "36", "num_attention_heads": 32, )" + base + "}", "model_config.num_hidden_layers",
         ErrorCode::wrong_type},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 32, "tie_word_embeddings": 1, )" + base + "}",
         "model_config.tie_word_embeddings", ErrorCode::wrong_type},
        {R"("config")", "model_config", ErrorCode::wrong_type},
        {R"({"text_config": {"num_hidden_layers": 36, "num_attention_heads": 32, "hidden_size": 4096, "vocab_size": 1000, "intermediate_size": -1}})",
         "model_config.text_config.intermediate_size", ErrorCode::out_of_range},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 32, "quantization_config": {"quant_method": "hqq"}, )" + base + "}",
         "model_config.quantization_config", ErrorCode::unknown_value},
        {R"({"num_hidden_layers": 36, "num_attention_heads": 32, "num_experts": 1e9, )" + base + "}", "model_config.num_experts",
         ErrorCode::out_of_range},
    };
    for (const Case& c : cases) {
        const std::string text = R"({"model_config": )" + c.config + "}";
        INFO(text);
        const InputError e = evaluate_error(text);
        CHECK(e.field == c.field);
        CHECK(e.code == c.code);
    }
}

TEST_CASE("cross-field checks after resolution") {
    SECTION("a tensor-parallel size that does not divide the heads is the engine's refusal, not bad input") {
        const nlohmann::json scenario = nlohmann::json::parse(R"({"model_config": {"num_hidden_layers": 2, "hidden_size": 384,
            "intermediate_size": 1024, "num_attention_heads": 6, "num_key_value_heads": 2, "vocab_size": 1000,
            "max_position_embeddings": 4096}, "tensor_parallel_size": 4})");
        const Result r = kvtest::evaluate_ok(scenario);
        REQUIRE(r.memory.startup_error);
        CHECK(r.memory.startup_error->kind == kv::RefusalKind::tensor_parallel_mismatch);
        CHECK(r.memory.startup_error->message == "Total number of attention heads (6) must be divisible by tensor parallel size (4).");
    }
    SECTION("a config without max_position_embeddings needs max_model_len") {
        const std::string config = R"({"model_config": {"num_hidden_layers": 2, "hidden_size": 256,
            "intermediate_size": 512, "num_attention_heads": 4, "vocab_size": 1000}})";
        const InputError e = evaluate_error(config);
        CHECK(e.field == "max_model_len");
        CHECK(e.code == ErrorCode::missing_field);
    }
}

TEST_CASE("an error keeps the rest of the scenario: parsing onto a base changes only named fields") {
    Scenario base;
    base.prompt_tokens = 32768;
    auto updated = scenario_from_json({{"gpu", "H200"}}, base);
    REQUIRE(std::holds_alternative<Scenario>(updated));
    CHECK(std::get<Scenario>(updated).prompt_tokens == 32768);
    CHECK(std::get<Scenario>(updated).gpu == "H200");
    CHECK(std::holds_alternative<InputError>(scenario_from_json({{"gpu", "H200"}, {"prompt_tokens", -5}}, base)));
}

TEST_CASE("error JSON names field, code and message") {
    const auto j = error_to_json(evaluate_error(R"({"prompt_tokens": 1e30})"));
    CHECK(j.at("error").at("field") == "prompt_tokens");
    CHECK(j.at("error").at("code") == "out_of_range");
    CHECK_FALSE(j.at("error").at("message").get<std::string>().empty());
}

TEST_CASE("config.json keys of the wrong type are read as absent or named, never thrown (found by fuzz_config)") {
    const auto e = evaluate_error(R"({"model_config": {"num_hidden_layers": 2, "hidden_size": 256, "intermediate_size": 512,
        "num_attention_heads": 4, "vocab_size": 1000, "max_position_embeddings": 4096, "model_type": 2e-05,
        "rope_scaling": {"rope_type": 7, "factor": "x"}, "quantization_config": {"quant_method": 4}}})");
    CHECK(e.field == "model_config.quantization_config");
    const auto gpu = evaluate_error(R"({"gpu_config": {"id": 5, "label": [], "memory_gib": 24, "hbm_tb_per_s": 1,
        "bf16_dense_tflops": 100, "interconnect": {"kind": 3}}, "model": "nope"})");
    CHECK(gpu.field == "model");
}
