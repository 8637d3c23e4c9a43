// The planner's two halves that go beyond one evaluation (internal to plan/): the weights it tries
// for a checkpoint (as published, its pre-quantised siblings in the catalog, or FP8 at load time),
// and the target load run on a candidate with the serving simulation, judged against the objectives.
#pragma once
#include <string>
#include <vector>

#include "engine/calibration.hpp"
#include "plan/plan.hpp"
#include "result/evaluate.hpp"

namespace kv {

struct WeightOption {
    const ModelSpec* model;            // what is evaluated
    std::string scenario_model;        // the catalog id the scenario names ("" for the target's own)
    DType weight_dtype = DType::bf16;  // fp8: --quantization fp8 on a 16-bit checkpoint
    std::string caveat;                // what it may cost in accuracy ("" for 16-bit weights)
};

// The target's checkpoint as published, each catalog model with its shapes in another weight
// format (a pre-quantised release: FP8, 4-bit), and, for a 16-bit checkpoint with no FP8 release in
// the catalog, FP8 quantised when the engine loads it.
std::vector<WeightOption> weight_options(const ModelSpec& model, bool from_catalog);

// What the FP8 KV cache may cost in accuracy.
std::string fp8_cache_caveat();

// Runs the target load on the candidate's busiest replica (`replica`: its evaluation) and judges
// the objectives: fills served and misses, and sets meets.
void serve_load(PlanCandidate& candidate, const Result& replica, const PlanTarget& target, const Calibration& calibration);

// The served candidates no other beats on both GPUs used and p99 TPOT, fewest GPUs first.
std::vector<PlanCandidate> pareto_front(const std::vector<PlanCandidate>& served);

}  // namespace kv
