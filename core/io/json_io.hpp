// The JSON boundary of the core: scenarios in, results out, Hugging Face config.json files and the
// built-in catalog. Every rejection names the field and its allowed range.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "result/evaluate.hpp"
#include "model/gpu_spec.hpp"
#include "base/input_error.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"
#include "result/sweep.hpp"

namespace kv {

// A Hugging Face config.json as published (config_json.cpp). `field_prefix` names it in errors ("model_config").
std::variant<ModelSpec, InputError> model_from_config(const nlohmann::json& config, const std::string& field_prefix);
// A GPU: a catalog entry (content/data/gpus.json) or the reader's own description.
std::variant<GpuSpec, InputError> gpu_from_json(const nlohmann::json& entry, const std::string& field_prefix);

// Missing fields keep the defaults of `base` (Scenario{} unless given): a page can send one knob.
std::variant<Scenario, InputError> scenario_from_json(const nlohmann::json& json, const Scenario& base = {});
std::variant<Scenario, InputError> scenario_from_text(const std::string& text, const Scenario& base = {});

nlohmann::json scenario_to_json(const Scenario& scenario);
nlohmann::json result_to_json(const Result& result);
nlohmann::json startup_error_to_json(const std::optional<StartupError>& error);  // null when none
nlohmann::json error_to_json(const InputError& error);
nlohmann::json batch_sweep_to_json(const BatchSweep& sweep);
nlohmann::json tensor_parallel_sweep_to_json(const std::vector<TensorParallelPoint>& points);
// Ids, labels and the knob ranges, for pickers and documentation.
nlohmann::json catalog_to_json();

// One JSON number for `field` within [lo, hi] (whole for read_integer), or an InputError naming the range.
std::variant<int64_t, InputError> read_integer(const nlohmann::json& value, const std::string& field, int64_t lo, int64_t hi);
std::variant<double, InputError> read_number(const nlohmann::json& value, const std::string& field, double lo, double hi, int decimals = 2);

// Parses a scenario text and evaluates it: the one path every text front end (CLI, embind) takes.
std::variant<Result, InputError> evaluate_text(const std::string& scenario_text);

}  // namespace kv
