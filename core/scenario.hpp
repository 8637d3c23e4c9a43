// The reader's knobs: one serving scenario. Defaults are the lesson's starting point (Qwen3-8B on
// an H100 at 0.90, 4,096-token prompts, 256 output tokens, 32 concurrent requests) and live here
// only. Names and units match vLLM's engine arguments where vLLM has one.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "model_spec.hpp"

namespace kv {

enum class DType { bf16, fp8 };
int bytes_per_element(DType dtype);
const char* dtype_name(DType dtype);

struct Scenario {
    std::string model = "Qwen3-8B";          // catalog id, ignored when model_config is set
    std::optional<ModelSpec> model_config;   // a parsed Hugging Face config.json
    std::string gpu = "H100";
    int64_t prompt_tokens = 4096;
    int64_t output_tokens = 256;
    int64_t concurrent_requests = 32;
    double gpu_memory_utilization = 0.90;
    DType kv_cache_dtype = DType::bf16;
    DType weight_dtype = DType::bf16;
    bool force_mha = false;
    int64_t max_num_seqs = 256;
    int64_t max_num_batched_tokens = 8192;
    int64_t tensor_parallel_size = 1;
    std::optional<int64_t> max_model_len;    // defaults to the model's max_position_embeddings
};

// Inclusive ranges for every numeric knob; the JSON parser, the panels' sliders and the error
// messages all read these.
struct ScenarioLimits {
    static constexpr int64_t min_prompt_tokens = 1, max_prompt_tokens = 1 << 20;
    static constexpr int64_t min_output_tokens = 1, max_output_tokens = 1 << 20;
    static constexpr int64_t min_concurrent = 1, max_concurrent = 4096;
    static constexpr double min_utilization = 0.05, max_utilization = 1.0;
    static constexpr int64_t min_num_seqs = 1, max_num_seqs = 4096;
    static constexpr int64_t min_batched_tokens = 16, max_batched_tokens = 1 << 20;
    static constexpr int64_t min_model_len = 16, max_model_len = 1 << 24;
};

}  // namespace kv
