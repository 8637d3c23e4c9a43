// Planning the flags (`kvcache --plan`): given a model, a GPU, a GPU count and a target (users at a
// prompt and output length, optionally a TTFT objective for one prompt and an ITL objective), search
// the engine's levers with evaluate_resolved() and return the configurations that meet the target,
// cheapest first: fewest GPUs used, then most headroom (resident sequences over users per replica),
// then the lowest ITL.
//   Searched: tensor_parallel_size 1, 2, 4, 8 (up to the GPU count); data-parallel replicas from 1
//   to count / tp (users split evenly, the busiest replica gets the odd ones); gpu_memory_utilization
//   0.90, 0.92, 0.95; kv_cache_dtype bf16, fp8; weight_dtype bf16, fp8 (16-bit checkpoints only);
//   max_model_len the model's own, else the smallest multiple of 1,024 that holds prompt + output;
//   max_num_seqs the engine default when it holds the users per replica, else exactly that many.
//   A configuration meets the target when the engine starts, every user of a replica is running and
//   the objectives hold.
//   Bound: one probe, then at most 2 evaluations (the model's max_model_len, then the shorter one)
//   per tp, replica count, utilisation and dtype pair; replica counts that leave the busiest replica
//   no fewer users are skipped. 4 GPUs: at most 1 + 7 x 3 x 4 x 2 = 169 evaluations; 64 GPUs (the
//   limit): at most 1 + 120 x 24 = 2,881, each about 5 µs. PlanResult::evaluations counts them.
//   One candidate is kept per (tp, replicas, kv dtype, weight dtype): the utilisation with the most
//   headroom.
// Leaves out pipeline parallelism, expert parallelism, prefix caching, speculative decoding,
// max_num_batched_tokens and block_size (engine defaults), the accuracy cost of FP8 weights or KV
// cache (the ranking does not weigh it), and a load balancer's uneven split across replicas.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/calibration.hpp"
#include "result/evaluate.hpp"
#include "model/gpu_spec.hpp"
#include "base/input_error.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

struct PlanTarget {
    std::string model = "Qwen3-8B";         // catalog id, ignored when model_config is set
    std::optional<ModelSpec> model_config;  // a parsed Hugging Face config.json
    std::string gpu = "H100";               // catalog id, ignored when gpu_config is set
    std::optional<GpuSpec> gpu_config;
    std::string vllm_version = default_vllm_version;
    int64_t gpu_count = 1;  // GPUs available; a plan may use fewer
    int64_t users = 32;     // concurrent users, across all replicas
    int64_t prompt_tokens = 4096;
    int64_t output_tokens = 256;
    std::optional<double> ttft_s;  // objective: time to first token of one prompt
    std::optional<double> itl_s;   // objective: seconds per output token
    int64_t max_candidates = 5;
};

// The utilisations the search tries.
inline constexpr double searched_utilizations[] = {0.90, 0.92, 0.95};

struct PlanCandidate {
    Scenario scenario;  // one replica, as `vllm serve` is told (unset = engine default)
    int64_t replicas = 1;
    int64_t gpus_used = 1;  // tensor_parallel_size x replicas
    int64_t users_per_replica = 0;
    std::string command_line;                // `vllm serve ...` with the flags that differ from the defaults
    std::vector<std::string> startup_lines;  // the engine's INFO lines on memory (from Result::log)
    std::optional<StartupError> startup_error;
    // Margins, per replica.
    int64_t running = 0;
    int64_t max_resident_sequences = 0;
    double users_headroom = 0;  // max_resident_sequences / users_per_replica
    double itl_s = 0;
    double ttft_s = 0;
    double decode_tokens_per_s = 0;       // all replicas together
    double available_kv_cache_bytes = 0;  // per rank; below a request's needs when the engine refuses
    double itl_headroom = 0;              // objective / itl_s (0 without an objective)
    double ttft_headroom = 0;             // objective / ttft_s (0 without an objective)
    bool meets = false;
    std::vector<std::string> misses;  // why it falls short, in words (empty when it meets)
};

struct PlanResult {
    PlanTarget target;  // as searched
    bool met = false;
    std::vector<PlanCandidate> candidates;  // the ones that meet the target, cheapest first
    std::optional<PlanCandidate> closest;   // when none meets: most users running, then lowest ITL
    int64_t evaluations = 0;                // evaluate_resolved() calls made
    int64_t configurations_met = 0;         // before keeping one per (tp, replicas, dtypes)
    std::string summary;                    // one sentence for people
};

// Validates the target (an InputError names the field and its range), then searches.
std::variant<PlanResult, InputError> plan(const PlanTarget& target, const Calibration& calibration = {});

// The `vllm serve` command for one replica of `scenario` (flags only where they differ from the
// engine's defaults; --data-parallel-size when replicas > 1).
std::string serve_command(const Scenario& scenario, const ModelSpec& model, int64_t replicas);

}  // namespace kv
