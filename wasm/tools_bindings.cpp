// The tools' module (kvtools.js): the core's log explainer and planner, without the panels. The page
// fetches it the first time a reader pastes a start-up log or plans a load (site/js/kvpanels.js:
// KvPanels.explainLog and KvPanels.plan), so the panels' module every reader downloads stays
// lighter. Its verbs take and return JSON text as the panels' module's do (wasm/bindings.cpp);
// errors come back as {"error": {"field", "code", "message"}}. The sweeps (`kvcache --sweep`) are
// here too: the batching panel computes its own in the panels' module, and only the Node test and
// the benchmark ask for them as JSON.
//
// Verbs: explainLog, planFlags, sweepBatch, sweepTensorParallel.
#include <emscripten/bind.h>

#include <string>

#include "io/explain_json.hpp"
#include "io/plan_json.hpp"
#include "plan/plan.hpp"
#include "result/sweep.hpp"
#include "verb_text.hpp"

namespace {

using nlohmann::json;

using kvverbs::error_text;
using kvverbs::with_result;

// A vLLM start-up log explained by the model (logs/log_explain.hpp): the scenario it describes, the
// assumptions, each logged number beside the model's. `given_json` ("" or an object) adds what the
// log does not say (model, gpu). The error names "log" when nothing in it is a start-up line.
std::string explain_log(const std::string& text, const std::string& given_json) {
    auto given = kv::parse_input_text(given_json.empty() ? "{}" : given_json, "scenario");
    if (auto* error = std::get_if<kv::InputError>(&given)) return error_text(*error);
    if (!std::get<json>(given).is_object())
        return error_text({"scenario", kv::ErrorCode::malformed_json, "the given scenario must be a JSON object"});
    auto outcome = kv::explain_log_json(text, std::get<json>(given));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return error_text(*error);
    return kv::json_text(kv::explanation_to_json(std::get<kv::LogExplanation>(outcome)));
}

// The flags that serve a target (plan/plan.hpp, `kvcache --plan`): `target_json` as the CLI reads it
// (model, gpu, gpu_count, users, prompt_tokens, output_tokens, itl_s, ttft_s, ...); the answer is
// plan_to_json's {met, summary, candidates | closest, ...}, or the error naming the target's field.
std::string plan_flags(const std::string& target_json) {
    auto target = kv::plan_target_from_text(target_json);
    if (auto* error = std::get_if<kv::InputError>(&target)) return error_text(*error);
    auto outcome = kv::plan(std::get<kv::PlanTarget>(target));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return error_text(*error);
    return kv::json_text(kv::plan_to_json(std::get<kv::PlanResult>(outcome)));
}

std::string sweep_batch(const std::string& scenario_text) {
    return with_result(scenario_text, [](const kv::Result& r) { return kv::batch_sweep_to_json(kv::sweep_batch(r)); });
}

std::string sweep_tensor_parallel(const std::string& scenario_text) {
    return with_result(scenario_text, [](const kv::Result& r) { return kv::tensor_parallel_sweep_to_json(kv::sweep_tensor_parallel(r)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(kvtools) {
    emscripten::function("explainLog", &explain_log);
    emscripten::function("planFlags", &plan_flags);
    emscripten::function("sweepBatch", &sweep_batch);
    emscripten::function("sweepTensorParallel", &sweep_tensor_parallel);
}
