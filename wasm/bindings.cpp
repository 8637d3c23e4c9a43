// The JS/WASM boundary, all of it: a short list of verbs that take and return JSON text, so
// nothing JS holds needs delete(). Errors come back as {"error": {"field", "code", "message"}}.
#include <emscripten/bind.h>

#include <string>

#include "evaluate.hpp"
#include "format.hpp"
#include "json_io.hpp"
#include "sweep.hpp"

namespace {

using nlohmann::json;

// Evaluates a scenario text and hands the result (or the error) to `on_result`.
template <typename OnResult>
std::string with_result(const std::string& scenario_text, OnResult on_result) {
    auto scenario = kv::scenario_from_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&scenario)) return kv::error_to_json(*error).dump();
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return kv::error_to_json(*error).dump();
    return on_result(std::get<kv::Result>(outcome)).dump();
}

std::string evaluate_scenario(const std::string& scenario_text) {
    return with_result(scenario_text, [](const kv::Result& r) { return kv::result_to_json(r); });
}

std::string sweep_batch(const std::string& scenario_text) {
    return with_result(scenario_text, [](const kv::Result& r) { return kv::batch_sweep_to_json(kv::sweep_batch(r)); });
}

std::string sweep_tensor_parallel(const std::string& scenario_text) {
    return with_result(scenario_text,
                       [](const kv::Result& r) { return kv::tensor_parallel_sweep_to_json(kv::sweep_tensor_parallel(r)); });
}

std::string catalog() { return kv::catalog_to_json().dump(); }

// Formats `value` with a named format (format.hpp); an unknown name gives "".
std::string format_value(double value, const std::string& format_name) {
    return kv::format_named(value, format_name).value_or("");
}

}  // namespace

EMSCRIPTEN_BINDINGS(kvcache) {
    emscripten::function("evaluate", &evaluate_scenario);
    emscripten::function("sweepBatch", &sweep_batch);
    emscripten::function("sweepTensorParallel", &sweep_tensor_parallel);
    emscripten::function("catalog", &catalog);
    emscripten::function("formatValue", &format_value);
}
