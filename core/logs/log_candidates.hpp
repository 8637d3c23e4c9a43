// Which catalog models a log is consistent with, for a paste that does not name one: the weights
// it loaded (this rank's shard), the KV bytes per token its pool and token count imply, and, where
// the pool's size in bytes is not printed, which GPU's budget leaves the pool it logged. Each
// candidate says what matched, so the reader sees how sure the guess is.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logs/log_parser.hpp"
#include "scenario/scenario.hpp"

namespace kv {

enum class Evidence { weights_and_kv_bytes, weights_and_pool, weights };  // strongest first
const char* evidence_name(Evidence evidence);

struct ModelCandidate {
    std::string model;
    int64_t tensor_parallel_size = 1;
    DType kv_cache_dtype = DType::bf16;
    Evidence evidence = Evidence::weights;
    double weights_gib = 0;         // the model's shard on one rank
    double weights_difference = 0;  // model / logged - 1
    double kv_bytes_per_token = 0;  // one rank's, every layer
    std::optional<double> kv_bytes_difference;
    std::string gpu;  // weights_and_pool: the GPU whose budget leaves the logged pool
    std::optional<double> pool_difference;
};

struct ModelInference {
    std::optional<double> kv_bytes_per_token;  // the pool's bytes over its tokens, as logged
    std::vector<ModelCandidate> candidates;    // best first
    bool unique = false;                       // one model (or several of the same shapes) alone has the strongest evidence
};

// The pool's bytes per token as logged: its GiB over its tokens (V1) or blocks of block_size (V0).
std::optional<double> logged_kv_bytes_per_token(const ParsedLog& log);

// `base`: the scenario the rest of the log describes (version, GPU if it printed its memory, flags).
ModelInference infer_model(const ParsedLog& log, const Scenario& base, bool gpu_known);

}  // namespace kv
