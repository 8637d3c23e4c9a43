// evaluate(): one scenario in, everything the lesson shows out. The memory order and the step-time
// model are in memory_plan.hpp and step_time.hpp; this file only assembles them. Sizes are per GPU
// (per tensor-parallel rank) and counts per engine (per data-parallel rank) unless a name says
// otherwise (`deployment` adds the engines up); times in seconds; rates per second.
#pragma once
#include <cstdint>
#include <string>
#include <variant>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "model/gpu_spec.hpp"
#include "base/input_error.hpp"
#include "memory/admission.hpp"
#include "memory/memory_plan.hpp"
#include "memory/parallelism.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"
#include "time/step_time.hpp"

namespace kv {

// engine_refused: the engine stops at start-up (memory.startup_error says why, in its words);
// request_too_long: the engine starts but rejects a request longer than max_model_len.
enum class Status { ok, engine_refused, request_too_long };
const char* status_name(Status status);

struct Result {
    Status status = Status::ok;
    Scenario scenario;  // as evaluated: ids resolved, every engine default filled in
    ModelSpec model;    // after force_mha
    GpuSpec gpu;
    EngineRules rules;      // the vLLM version's accounting
    MemoryPlan memory;      // the engine's start-up accounting (memory/memory_plan.hpp)
    int64_t params = 0;     // parameters of the model
    Admission admission;    // what one engine's scheduler runs (memory/admission.hpp)
    Deployment deployment;  // every data-parallel engine together (memory/parallelism.hpp)
    StepTimes steps;        // step times, rates and DCGM readouts (time/step_time.hpp)
    // When the engine refuses for memory: other ways to start it, all else as is (evaluate() only;
    // evaluate_resolved leaves them 0 for the sweeps and the planner).
    int64_t tensor_parallel_that_starts = 0;  // the smallest of 2, 4, 8 above the current size; 0: none
    bool fp8_weights_start = false;           // --quantization fp8 on this 16-bit checkpoint would start it
    // The engine's log is text a slider drag never shows: engine_log(result) (logs/engine_log.hpp)
    // builds it when asked.
};

// The evaluated engine as the step-time model sees it.
inline StepEngine step_engine(const Result& result) { return {result.scenario, result.model, result.gpu, result.memory, result.rules}; }

// Resolves ids through the built-in catalog, validates the combination (tensor parallel size must
// divide the attention heads), and computes. Never throws; errors come back as InputError.
std::variant<Result, InputError> evaluate(const Scenario& scenario, const Calibration& calibration = {});

// The same with a model and GPU already resolved (sweeps call this in a loop).
Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const Calibration& calibration = {});

}  // namespace kv
