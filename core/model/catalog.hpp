// The built-in models and GPUs. The numbers are data (content/data/models.json and gpus.json, each
// with its source); the build embeds those files as text, so core/ reads no files at run time.
#pragma once
#include <string>
#include <vector>

#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"

namespace kv {

struct Catalog {
    std::vector<ModelSpec> models;
    std::vector<GpuSpec> gpus;
};

// Parsed once; a malformed embedded catalog is a build defect and aborts loudly in tests.
const Catalog& builtin_catalog();

const ModelSpec* find_model(const std::string& id);
const GpuSpec* find_gpu(const std::string& id);
std::string model_ids();  // "Qwen3-8B, Qwen3-14B, Qwen3-32B", for error messages
std::string gpu_ids();

}  // namespace kv
