#include "evaluate.hpp"

#include "catalog.hpp"
#include "engine_log.hpp"
#include "memory_plan.hpp"
#include "step_time.hpp"

namespace kv {

int bytes_per_element(DType dtype) { return dtype == DType::fp8 ? 1 : 2; }
const char* dtype_name(DType dtype) { return dtype == DType::fp8 ? "fp8" : "bf16"; }

const char* error_code_name(ErrorCode code) {
    static const char* const names[] = {"malformed_json", "wrong_type",   "unknown_field",      "unknown_value",
                                        "out_of_range",   "missing_field", "inconsistent_config"};
    return names[static_cast<int>(code)];
}
const char* status_name(Status status) {
    static const char* const names[] = {"ok", "weights_do_not_fit", "request_does_not_fit"};
    return names[static_cast<int>(status)];
}
const char* binding_limit_name(BindingLimit limit) {
    static const char* const names[] = {"concurrent_requests", "kv_pool", "max_num_seqs", "none"};
    return names[static_cast<int>(limit)];
}
const char* bound_name(Bound bound) {
    static const char* const names[] = {"memory", "compute", "none"};
    return names[static_cast<int>(bound)];
}
const char* log_kind_name(LogKind kind) {
    static const char* const names[] = {"info", "warning", "failure", "lesson"};
    return names[static_cast<int>(kind)];
}

std::variant<Result, InputError> evaluate(const Scenario& scenario, const Calibration& calibration) {
    Scenario s = scenario;
    ModelSpec model;
    if (s.model_config) {
        model = *s.model_config;
        model.name = "config.json";
    } else if (const ModelSpec* found = find_model(s.model)) {
        model = *found;
    } else {
        return InputError{"model", ErrorCode::unknown_value, "model \"" + s.model + "\" is not known; use one of " + model_ids()};
    }
    const GpuSpec* gpu = find_gpu(s.gpu);
    if (!gpu) return InputError{"gpu", ErrorCode::unknown_value, "gpu \"" + s.gpu + "\" is not known; use one of " + gpu_ids()};
    if (model.num_attention_heads % s.tensor_parallel_size != 0)
        return InputError{"tensor_parallel_size", ErrorCode::inconsistent_config,
                          "tensor_parallel_size " + std::to_string(s.tensor_parallel_size) +
                              " must divide the model's " + std::to_string(model.num_attention_heads) + " attention heads"};
    if (!s.max_model_len) {
        if (model.max_position_embeddings <= 0)
            return InputError{"max_model_len", ErrorCode::missing_field,
                              "config.json has no max_position_embeddings: set max_model_len (16 to 16,777,216)"};
        s.max_model_len = model.max_position_embeddings;
    }
    return evaluate_resolved(s, model, *gpu, calibration);
}

Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu,
                         const Calibration& calibration) {
    Result r;
    r.scenario = scenario;
    r.model = scenario.force_mha ? with_multi_head_attention(model) : model;
    r.gpu = gpu;
    plan_memory(r, calibration);
    time_steps(r, calibration);
    write_engine_log(r);
    return r;
}

}  // namespace kv
