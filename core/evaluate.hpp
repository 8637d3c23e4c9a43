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
#include "step_time.hpp"

namespace kv {

// engine_refused: the engine stops at start-up (memory.startup_error says why, in its words);
// request_too_long: the engine starts but rejects a request longer than max_model_len.
enum class Status { ok, engine_refused, request_too_long };
enum class BindingLimit { concurrent_requests, kv_pool, max_num_seqs, none };
enum class LogKind { info, warning, failure, lesson };

const char* status_name(Status status);
const char* binding_limit_name(BindingLimit limit);
const char* log_kind_name(LogKind kind);

struct LogLine {
    LogKind kind = LogKind::info;
    std::string text;
};

struct Result {
    Status status = Status::ok;
    Scenario scenario;  // as evaluated: ids resolved, every engine default filled in
    ModelSpec model;    // after force_mha
    GpuSpec gpu;
    EngineRules rules;  // the vLLM version's accounting
    MemoryPlan memory;  // the engine's start-up accounting (memory_plan.hpp)

    // Sizes.
    int64_t params = 0;
    double bytes_per_sequence = 0;    // per rank, prompt + output tokens (whole blocks)
    double outside_budget_bytes = 0;  // visible memory beyond the requested budget

    // Admission (zero when the engine refuses to start).
    int64_t max_resident_sequences = 0;
    int64_t running = 0;
    int64_t waiting = 0;
    BindingLimit binding_limit = BindingLimit::none;
    double kv_pool_used_bytes = 0;
    double min_utilization_that_fits = 0;  // smallest gpu_memory_utilization at which the engine starts
    int64_t longest_request_tokens = 0;    // longest request one sequence could hold in the pool
    // When the engine refuses for memory: other ways to start it, all else as is (evaluate() only;
    // evaluate_resolved leaves them 0 for the sweeps and the planner).
    int64_t tensor_parallel_that_starts = 0;  // the smallest of 2, 4, 8 above the current size; 0: none
    bool fp8_weights_start = false;           // --quantization fp8 on this 16-bit checkpoint would start it

    StepTimes steps;  // step times, rates and DCGM readouts (step_time.hpp)

    double kv_cache_usage = 0;  // stats line: fraction of blocks in use, 0..1
    // The engine's log is text a slider drag never shows: engine_log(result) (engine_log.hpp)
    // builds it when asked.
};

// Resolves ids through the built-in catalog, validates the combination (tensor parallel size must
// divide the attention heads), and computes. Never throws; errors come back as InputError.
std::variant<Result, InputError> evaluate(const Scenario& scenario, const Calibration& calibration = {});

// The same with a model and GPU already resolved (sweeps call this in a loop).
Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const Calibration& calibration = {});

}  // namespace kv
