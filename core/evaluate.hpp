// evaluate(): one scenario in, everything the lesson shows out. The memory order and the step-time
// model are in memory_plan.hpp and step_time.hpp; this file only assembles them. Sizes are per GPU
// (per tensor-parallel rank) unless a name says otherwise; times in seconds; rates per second.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "calibration.hpp"
#include "engine_rules.hpp"
#include "gpu_spec.hpp"
#include "input_error.hpp"
#include "memory_plan.hpp"
#include "model_spec.hpp"
#include "scenario.hpp"

namespace kv {

// engine_refused: the engine stops at start-up (memory.startup_error says why, in its words);
// request_too_long: the engine starts but rejects a request longer than max_model_len.
enum class Status { ok, engine_refused, request_too_long };
enum class BindingLimit { concurrent_requests, kv_pool, max_num_seqs, none };
enum class Bound { memory, compute, none };
enum class LogKind { info, warning, failure, lesson };

const char* status_name(Status status);
const char* binding_limit_name(BindingLimit limit);
const char* bound_name(Bound bound);
const char* log_kind_name(LogKind kind);

struct LogLine {
    LogKind kind = LogKind::info;
    std::string text;
};

// Prefill and decode through the same lens: work, traffic, and which one sets the time.
struct PhaseTiming {
    double flops = 0;             // per rank
    double bytes = 0;             // per rank, HBM traffic
    double compute_s = 0;
    double memory_s = 0;
    double communication_s = 0;   // tensor-parallel all-reduces
    double total_s = 0;           // max(compute, memory) + communication
    Bound bound = Bound::none;
    double arithmetic_intensity = 0;  // flops per byte
};

struct Result {
    Status status = Status::ok;
    Scenario scenario;            // as evaluated: ids resolved, every engine default filled in
    ModelSpec model;              // after force_mha
    GpuSpec gpu;
    EngineRules rules;            // the vLLM version's accounting
    MemoryPlan memory;            // the engine's start-up accounting (memory_plan.hpp)

    // Sizes.
    int64_t params = 0;
    double bytes_per_sequence = 0;        // per rank, prompt + output tokens (whole blocks)
    double outside_budget_bytes = 0;      // visible memory beyond the requested budget

    // Admission (zero when the engine refuses to start).
    int64_t max_resident_sequences = 0;
    int64_t running = 0;
    int64_t waiting = 0;
    BindingLimit binding_limit = BindingLimit::none;
    double kv_pool_used_bytes = 0;
    double min_utilization_that_fits = 0; // smallest gpu_memory_utilization at which the engine starts
    int64_t longest_request_tokens = 0;   // longest request one sequence could hold in the pool

    // The rates the step times assume: data-sheet peaks times the achieved fractions of
    // calibration.hpp (the panels' roofline and the lesson's stated assumptions read these).
    double achieved_bytes_per_s = 0;
    double achieved_flops_per_s = 0;
    double peak_flops_per_s = 0;          // the tensor roof the weights run at (FP8 where the GPU has it)
    double ridge_flops_per_byte = 0;      // achieved FLOP/s over achieved bytes/s: the roofline's knee

    // Decode step (one token for every running sequence).
    PhaseTiming decode;
    double decode_tokens_per_s = 0;       // aggregate
    double itl_s = 0;                     // per-stream inter-token latency (= decode step)
    double weight_share = 0;              // weight bytes / bytes moved
    double dram_active = 0;               // simulated DCGM_FI_PROF_DRAM_ACTIVE
    double tensor_active = 0;             // simulated DCGM_FI_PROF_PIPE_TENSOR_ACTIVE
    double gpu_utilization = 0;           // nvidia-smi "utilization": a kernel is resident

    // Prefill of one prompt (time to first token).
    PhaseTiming prefill;

    // Chunked prefill under max_num_batched_tokens.
    int64_t chunk_budget_tokens = 0;      // max_num_batched_tokens - running
    int64_t free_prefill_tokens = 0;      // ride along before compute exceeds memory time
    double step_with_full_chunk_s = 0;    // decode step with chunk_budget_tokens folded in

    // Steady-state stats line.
    double prompt_tokens_per_s = 0;
    double kv_cache_usage = 0;            // fraction 0..1

    std::vector<LogLine> log;
};

// Resolves ids through the built-in catalog, validates the combination (tensor parallel size must
// divide the attention heads), and computes. Never throws; errors come back as InputError.
std::variant<Result, InputError> evaluate(const Scenario& scenario,
                                          const Calibration& calibration = {});

// The same with a model and GPU already resolved (sweeps call this in a loop).
Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu,
                         const Calibration& calibration = {});

// Decode step time with `chunk_tokens` prefill tokens folded into the same forward pass.
double decode_step_with_chunk_s(const Result& result, int64_t chunk_tokens,
                                const Calibration& calibration = {});

}  // namespace kv
