#include "evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "catalog.hpp"
#include "engine_log.hpp"
#include "memory_plan.hpp"
#include "startup_checks.hpp"
#include "step_time.hpp"

namespace kv {

int bytes_per_element(DType dtype) { return dtype == DType::fp8 ? 1 : 2; }
const char* dtype_name(DType dtype) { return dtype == DType::fp8 ? "fp8" : "bf16"; }

const char* error_code_name(ErrorCode code) {
    static const char* const names[] = {"malformed_json", "wrong_type",    "unknown_field",      "unknown_value",
                                        "out_of_range",   "missing_field", "inconsistent_config"};
    return names[static_cast<int>(code)];
}
const char* entry_name(Entry entry) { return entry == Entry::offline ? "offline" : "serve"; }

const char* status_name(Status status) {
    static const char* const names[] = {"ok", "engine_refused", "request_too_long"};
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

namespace {

// The scheduler runs what is asked, up to what the pool holds and what max_num_seqs allows.
void admit(Result& r) {
    const Scenario& s = r.scenario;
    const MemoryPlan& mem = r.memory;
    const KvLayout& k = mem.layout;
    const int64_t sequence_tokens = s.prompt_tokens + s.output_tokens;
    const double block_set_bytes = k.page_bytes * static_cast<double>(k.group_size);
    // A running sequence holds only the window of its sliding-window layers.
    const double need = request_kv_bytes(k, r.model, sequence_tokens, 1);
    const auto blocks_per_sequence = static_cast<int64_t>(std::ceil(need / block_set_bytes));
    r.bytes_per_sequence = need;
    r.outside_budget_bytes = mem.visible_bytes - mem.requested_bytes;
    r.min_utilization_that_fits = (mem.requested_bytes - mem.available_kv_bytes + mem.request_kv_bytes) / mem.visible_bytes;
    r.longest_request_tokens = mem.estimated_max_model_len;
    if (r.status != Status::ok) {
        r.waiting = s.concurrent_requests;
        return;
    }
    r.max_resident_sequences = blocks_per_sequence > 0 ? mem.num_gpu_blocks / blocks_per_sequence : 0;
    r.running = std::min({s.concurrent_requests, r.max_resident_sequences, *s.max_num_seqs});
    r.waiting = s.concurrent_requests - r.running;
    if (r.running == s.concurrent_requests) r.binding_limit = BindingLimit::concurrent_requests;
    else if (r.running == r.max_resident_sequences) r.binding_limit = BindingLimit::kv_pool;
    else r.binding_limit = BindingLimit::max_num_seqs;
    r.kv_pool_used_bytes = need * static_cast<double>(r.running);
    // vLLM counts usage over num_gpu_blocks - 1 (one null block).
    r.kv_cache_usage = std::min(
        1.0, static_cast<double>(r.running * blocks_per_sequence) / static_cast<double>(std::max<int64_t>(1, mem.num_gpu_blocks - 1)));
}

}  // namespace

namespace {

// Ways out of a memory refusal that the panels offer beside the utilisation and max_model_len:
// the fewest more GPUs, or FP8 weights, all else as is.
void find_remedies(Result& r, const Scenario& scenario, const ModelSpec& model, const Calibration& calibration) {
    for (int64_t tp : {2, 4, 8}) {
        if (tp <= scenario.tensor_parallel_size) continue;
        Scenario wider = scenario;
        wider.tensor_parallel_size = tp;
        if (!evaluate_resolved(wider, model, r.gpu, calibration).memory.startup_error) {
            r.tensor_parallel_that_starts = tp;
            break;
        }
    }
    if (scenario.weight_dtype == DType::bf16 && model.weight_format == WeightFormat::bf16) {
        Scenario fp8 = scenario;
        fp8.weight_dtype = DType::fp8;
        r.fp8_weights_start = !evaluate_resolved(fp8, model, r.gpu, calibration).memory.startup_error;
    }
}

}  // namespace

std::variant<Result, InputError> evaluate(const Scenario& scenario, const Calibration& calibration) {
    ModelSpec model;
    if (scenario.model_config) {
        model = *scenario.model_config;
        model.name = "config.json";  // the reader's own file, whatever field carried it
    } else if (const ModelSpec* found = find_model(scenario.model)) {
        model = *found;
    } else {
        return InputError{"model", ErrorCode::unknown_value, "model \"" + scenario.model + "\" is not known; use one of " + model_ids()};
    }
    GpuSpec gpu;
    if (scenario.gpu_config) gpu = *scenario.gpu_config;
    else if (const GpuSpec* found = find_gpu(scenario.gpu)) gpu = *found;
    else return InputError{"gpu", ErrorCode::unknown_value, "gpu \"" + scenario.gpu + "\" is not known; use one of " + gpu_ids()};
    if (!scenario.max_model_len && model.max_position_embeddings <= 0)
        return InputError{"max_model_len", ErrorCode::missing_field,
                          "config.json has no max_position_embeddings: set max_model_len (16 to 16,777,216)"};
    Result r = evaluate_resolved(scenario, model, gpu, calibration);
    // Only the top-level evaluation looks for ways out: sweeps and the planner evaluate many
    // refused configurations and need none of them.
    if (r.memory.startup_error && r.memory.startup_error->stage != RefusalStage::configuration) {
        find_remedies(r, scenario, model, calibration);
    }
    return r;
}

Result evaluate_resolved(const Scenario& scenario, const ModelSpec& model, const GpuSpec& gpu, const Calibration& calibration) {
    Result r;
    r.model = scenario.force_mha ? with_multi_head_attention(model) : model;
    r.gpu = gpu;
    // An unparseable version cannot reach here: the JSON reader checks it.
    r.rules = engine_rules(parse_engine_version(scenario.vllm_version).value_or(EngineVersion{0, 21, 0}));
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
    admit(r);
    r.steps = time_steps(r, calibration);
    return r;
}

}  // namespace kv
