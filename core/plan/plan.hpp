// Planning the flags (`kvcache --plan`): given a model, a GPU, a GPU count and a target load (users
// at a prompt and output length, or a request rate), search the engine's levers with
// evaluate_resolved() for configurations that start and hold the users, then run the target load on
// each with the serving simulation (serving/simulate.hpp) and keep those whose simulated latency
// percentiles meet the objectives, cheapest first: fewest GPUs used, then the fewest accuracy caveats
// (weights and cache as trained), then most headroom (resident sequences over users per replica),
// then the lowest simulated p99 TPOT.
//   Searched: tensor_parallel_size 1, 2, 4, 8 (up to the GPU count); data-parallel replicas from 1
//   to count / tp (users or requests split evenly, the busiest replica gets the odd ones);
//   gpu_memory_utilization 0.90, 0.92, 0.95; kv_cache_dtype bf16, fp8; the weights as published,
//   and for a 16-bit checkpoint its pre-quantised siblings in the catalog (FP8, 4-bit: the same
//   shapes under another repository), else --quantization fp8; max_model_len the model's own, else
//   the smallest multiple of 1,024 that holds prompt + output; max_num_seqs the engine default when
//   it holds the users per replica, else exactly that many. A rate's users are the requests it
//   keeps in flight (Little's law, from a lone request's time on the probe); they need not all run
//   at once, as a queue of them is the simulation's to judge.
//   The load, per replica: `users` clients each sending its next request when the last one ends
//   (vllm bench serve --max-concurrency; the users' first requests, which all arrive at once, are
//   left out of the percentiles), or requests at `rate_per_s` (Poisson); fixed lengths; 100 to
//   1,000 requests (at most 2 M generated tokens). A configuration meets the target when the
//   engine starts, every user of a replica can run, the queue is stable and every objective holds.
//   Bound: one probe, then at most 2 evaluations per tp, replica count, utilisation and dtype pair;
//   one candidate per (tp, replicas, kv dtype, weights) is kept (the utilisation with the most
//   headroom) and at most 48 of those are simulated, each GPU count's cheapest in equal shares.
//   PlanResult::evaluations counts the evaluations, simulations the runs.
// Leaves out pipeline parallelism, expert parallelism, prefix caching, speculative decoding,
// max_num_batched_tokens and block_size (engine defaults), a load balancer's uneven split across
// replicas, and the accuracy cost of quantisation beyond naming it (PlanCandidate::caveats).
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
#include "serving/simulate.hpp"

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
    std::optional<double> rate_per_s;  // requests a second to the whole deployment; unset: `users` clients in a closed loop
    // Objectives on the simulated load (unset: none): time to first token and time per output token
    // (vllm bench serve's TTFT and TPOT), at the median, the 90th and the 99th percentile.
    std::optional<double> ttft_s, ttft_p90_s, ttft_p99_s;
    std::optional<double> itl_s, tpot_p90_s, tpot_p99_s;  // itl_s: the median TPOT
    std::optional<double> gpu_hour_price;                 // what a GPU-hour costs (any currency): the plan's cost per million tokens
    int64_t max_candidates = 5;
};

// What the target load does on a candidate's busiest replica, simulated.
struct ServedLoad {
    Percentiles ttft_s, tpot_s;
    Load load = Load::stable;
    double offered_rate_per_s = 0, sustained_rate_per_s = 0;  // per replica (SimSummary's)
    int64_t requests = 0;                                     // simulated on the replica
    double output_tokens_per_s = 0, input_tokens_per_s = 0;   // all replicas together
    // With a GPU-hour price: the GPU time to output tokens and to prompt tokens as the simulation
    // apportions it (decodes costed alone; prompt chunks at what they add), per million of each.
    double cost_per_million_output_tokens = 0, cost_per_million_input_tokens = 0;
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
    double users_headroom = 0;            // max_resident_sequences / users_per_replica
    double itl_s = 0;                     // one decode step of all its users, no prompt in it (the served TPOT is longer)
    double ttft_s = 0;                    // one prompt on an idle replica (the served TTFT waits for others)
    double decode_tokens_per_s = 0;       // all replicas together, decode steps alone
    double available_kv_cache_bytes = 0;  // per rank; below a request's needs when the engine refuses
    std::optional<ServedLoad> served;     // the target load simulated (a configuration that starts and holds the users)
    bool meets = false;
    std::vector<std::string> misses;   // why it falls short, in words (empty when it meets)
    std::vector<std::string> caveats;  // what its quantisation may cost in accuracy, in words
};

struct PlanResult {
    PlanTarget target;  // as searched
    bool met = false;
    std::vector<PlanCandidate> candidates;  // the ones that meet the target, cheapest first
    std::optional<PlanCandidate> closest;   // when none meets: most users running, then lowest ITL
    int64_t evaluations = 0;                // evaluate_resolved() calls made
    int64_t simulations = 0;                // target loads simulated
    int64_t configurations_met = 0;         // of those simulated
    // Among the simulated candidates, those no other beats on both GPUs used and p99 TPOT, fewest
    // GPUs first: what each added GPU buys in latency.
    std::vector<PlanCandidate> pareto;
    std::string summary;  // one sentence for people
};

// Validates the target (an InputError names the field and its range), then searches.
std::variant<PlanResult, InputError> plan(const PlanTarget& target, const Calibration& calibration = {});

// The `vllm serve` command for one replica of `scenario` (flags only where they differ from the
// engine's defaults; --data-parallel-size when replicas > 1).
std::string serve_command(const Scenario& scenario, const ModelSpec& model, int64_t replicas);

}  // namespace kv
