#include "result/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/format.hpp"
#include "model/catalog.hpp"
#include "scenario/scenario_fields.hpp"
#include "memory/memory_plan.hpp"
#include "memory/offload.hpp"
#include "memory/parallelism.hpp"
#include "memory/speculative.hpp"
#include "memory/startup_checks.hpp"
#include "time/step_time.hpp"

namespace kv {

const char* status_name(Status status) {
    static const char* const names[] = {"ok", "engine_refused", "request_too_long"};
    return names[static_cast<int>(status)];
}

namespace {

// The evaluation once the rules of the engine that runs are known (evaluate() has them already).
Result evaluate_with_rules(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const EngineRules& rules,
                           const Calibration& calibration) {
    Result r;
    if (scenario.force_mha) r.model = with_multi_head_attention(model);
    else r.model = model;
    r.gpu = gpu;
    r.rules = rules;
    r.memory = plan_memory(scenario, r.model, gpu, r.rules, calibration);
    r.memory.startup_error = check_startup(scenario, r.model, r.memory, r.rules, calibration);
    r.scenario = scenario;
    r.scenario.max_num_seqs = r.memory.limits.max_num_seqs;
    r.scenario.max_num_batched_tokens = r.memory.limits.max_num_batched_tokens;
    r.scenario.max_model_len = r.memory.limits.max_model_len;
    r.scenario.block_size = r.memory.limits.block_size;
    r.scenario.gpu_memory_utilization = r.memory.limits.gpu_memory_utilization;
    r.params = parameter_count(r.model);
    if (r.memory.startup_error) r.status = Status::engine_refused;
    else if (scenario.prompt_tokens + scenario.output_tokens > r.memory.limits.max_model_len) r.status = Status::request_too_long;
    // One engine's admission: with data parallelism it is given its share of the requests.
    r.admission = admit(r.scenario, requests_per_engine(r.scenario), r.model, r.memory, r.status == Status::ok);
    r.deployment = deploy(r.scenario, r.memory, r.admission);
    r.steps = time_steps(step_engine(r), r.admission, r.status != Status::engine_refused, calibration);
    return r;
}

// Ways out of a memory refusal that the panels offer beside the utilisation and max_model_len:
// the fewest more GPUs, or FP8 weights, all else as is.
void find_remedies(Result& r, const Scenario& scenario, const ModelSpec& model, const Calibration& calibration) {
    for (int64_t tp : deployed_tensor_parallel_sizes()) {
        if (tp <= scenario.tensor_parallel_size) continue;
        Scenario wider = scenario;
        wider.tensor_parallel_size = tp;
        if (!evaluate_with_rules(wider, model, r.gpu, r.rules, calibration).memory.startup_error) {
            r.tensor_parallel_that_starts = tp;
            break;
        }
    }
    if (scenario.weight_dtype == DType::bf16 && model.weight_format == WeightFormat::bf16) {
        Scenario fp8 = scenario;
        fp8.weight_dtype = DType::fp8;
        r.fp8_weights_start = !evaluate_with_rules(fp8, model, r.gpu, r.rules, calibration).memory.startup_error;
    }
}

// VLLM_USE_V1 where the release has that engine (engine_rules.hpp); `rules` are the release's own.
std::optional<InputError> check_engine(const Scenario& s, const GpuSpec& gpu, const EngineRules& rules) {
    const auto refuse = [&](const std::string& why) {
        return InputError{"engine", ErrorCode::unknown_value,
                          "engine " + s.engine + " is not one vLLM " + s.vllm_version + " runs: " + why};
    };
    if (s.engine == "v0" && !(rules.version < first_v1_only_version)) return refuse("V0 left the code before 0.11.0; use auto or v1");
    if (s.engine == "v1" && rules.version < first_v1_engine_version) return refuse("VLLM_USE_V1=1 came with 0.6.4; use auto or v0");
    if (s.engine == "v1" && v1_refused_before_ampere(rules, gpu.compute_capability))
        return refuse("from 0.8.0 to 0.10.1 V1 refused GPUs of compute capability under 8.0 (" + gpu.name + "); use auto or v0");
    if (s.engine == "v1" && s.num_scheduler_steps > 1 && !(rules.version < first_v1_default_version) &&
        rules.version < first_v1_only_version)
        return refuse("V1 refused --num-scheduler-steps above 1; use auto or v0, or num_scheduler_steps 1");
    return std::nullopt;
}

// Jamba's Mamba1 layers ran on V1 from PR #21249 (0.10.1); before, JambaForCausalLM was
// SupportsV0Only and V0 kept their state in a cache of its own (MambaCacheManager), which this
// model does not follow.
std::optional<InputError> check_mamba1_engine(const Scenario& s, const ModelSpec& model, const EngineRules& rules) {
    if (model.linear_kind != LinearKind::mamba1 || (rules.v1_engine && !(rules.version < first_v1_mamba1_version))) return std::nullopt;
    return InputError{"vllm_version", ErrorCode::out_of_range,
                      "vllm_version " + s.vllm_version +
                          ": vLLM runs Jamba's Mamba1 layers in its V1 engine from 0.10.1 (PR #21249); before, V0 kept their state in a "
                          "cache of its own, which this model does not follow. Use 0.10.1 or later, with engine auto or v1"};
}

}  // namespace

std::variant<Result, InputError> evaluate(const Scenario& scenario, const Calibration& calibration) {
    std::optional<ModelSpec> own_model;  // the reader's config.json; a catalog model is read in place
    const ModelSpec* found_model = nullptr;
    if (scenario.model_config) {
        own_model = *scenario.model_config;
        own_model->name = "config.json";  // the reader's own file, whatever field carried it
        found_model = &*own_model;
    } else if (!(found_model = find_model(scenario.model))) {
        return InputError{"model", ErrorCode::unknown_value,
                          "model \"" + format_excerpt(scenario.model) + "\" is not known; use one of " + model_ids()};
    }
    const GpuSpec* found_gpu = scenario.gpu_config ? &*scenario.gpu_config : find_gpu(scenario.gpu);
    if (!found_gpu)
        return InputError{"gpu", ErrorCode::unknown_value,
                          "gpu \"" + format_excerpt(scenario.gpu) + "\" is not known; use one of " + gpu_ids()};
    const ModelSpec& model = *found_model;
    const GpuSpec& gpu = *found_gpu;
    if (!scenario.max_model_len && model.max_position_embeddings <= 0)
        return InputError{"max_model_len", ErrorCode::missing_field,
                          "config.json has no max_position_embeddings: set max_model_len (16 to 16,777,216)"};
    // An older release has no such engine argument and refuses it (engine_rules.hpp).
    const EngineRules release = engine_rules_of(scenario.vllm_version);
    if (scenario.kv_cache_memory_bytes && !release.kv_cache_memory_bytes_argument)
        return InputError{"kv_cache_memory_bytes", ErrorCode::unknown_field,
                          "kv_cache_memory_bytes (--kv-cache-memory-bytes) is not an engine argument of vLLM " + scenario.vllm_version +
                              ": it came with PR #21489, first released in 0.11.0"};
    if ((scenario.mamba_ssm_cache_dtype == "float32" && !release.ssm_float32_argument) ||
        (scenario.mamba_ssm_cache_dtype == "float16" && !release.ssm_float16_argument))
        return InputError{"mamba_ssm_cache_dtype", ErrorCode::unknown_value,
                          "mamba_ssm_cache_dtype " + scenario.mamba_ssm_cache_dtype + " is not a value vLLM " + scenario.vllm_version +
                              " accepts: float32 came with PR #22928 (0.10.2), float16 with PR #29978 (0.13.0)"};
    if (auto error = check_engine(scenario, gpu, release)) return *error;
    const EngineRules engine = engine_rules_of(scenario, gpu, release);  // the engine the run asks for, on this GPU
    if (auto error = check_mamba1_engine(scenario, model, engine)) return *error;
    if (spec_method(scenario) != SpecMethod::none)
        if (auto error = check_speculative(scenario, model, engine.v1_engine)) return *error;
    Result r = evaluate_with_rules(scenario, model, gpu, engine, calibration);
    if (auto error = check_offload(scenario, r.memory.layout, r.rules)) return *error;
    // Only the top-level evaluation looks for ways out: sweeps and the planner evaluate many
    // refused configurations and need none of them.
    if (r.memory.startup_error && r.memory.startup_error->stage != RefusalStage::configuration) {
        find_remedies(r, scenario, model, calibration);
    }
    return r;
}

Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const Calibration& calibration) {
    // An unparseable version cannot reach here: the readers have checked the text.
    return evaluate_with_rules(scenario, model, gpu, engine_rules_of(scenario, gpu), calibration);
}

}  // namespace kv
