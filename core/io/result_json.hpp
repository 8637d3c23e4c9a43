// Results as JSON: one evaluated scenario (every figure the lesson and the page bind to), the
// engine's refusal, an input error, and the batching panel's two sweeps.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "base/input_error.hpp"
#include "memory/memory_plan.hpp"
#include "result/evaluate.hpp"
#include "result/sweep.hpp"

namespace kv {

nlohmann::json result_to_json(const Result& result);
nlohmann::json startup_error_to_json(const std::optional<StartupError>& error);  // null when none
nlohmann::json error_to_json(const InputError& error);
nlohmann::json batch_sweep_to_json(const BatchSweep& sweep);
nlohmann::json tensor_parallel_sweep_to_json(const std::vector<TensorParallelPoint>& points);
// The model as the result describes it (also each catalog entry of --catalog).
nlohmann::json model_json(const ModelSpec& model);

}  // namespace kv
