#include "logs/engine_log.hpp"
#include "io/json_io.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "model/catalog.hpp"
#include "base/format.hpp"
#include "base/units.hpp"

namespace kv {
namespace {

using nlohmann::json;

InputError fail(std::string field, ErrorCode code, std::string message) { return InputError{std::move(field), code, std::move(message)}; }

}  // namespace

// A whole number within [lo, hi]; JSON floats such as 4096.0 count, 1e30 and 4.5 do not.
std::variant<int64_t, InputError> read_integer(const json& value, const std::string& field, int64_t lo, int64_t hi) {
    const std::string range = "a whole number from " + format_count(lo) + " to " + format_count(hi);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
        return fail(field, ErrorCode::out_of_range, field + " is " + value.dump() + "; it must be " + range);
    return static_cast<int64_t>(v);
}

std::variant<double, InputError> read_number(const json& value, const std::string& field, double lo, double hi, int decimals) {
    const std::string range = "a number from " + format_fixed(lo, decimals) + " to " + format_fixed(hi, decimals);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        return fail(field, ErrorCode::out_of_range, field + " is " + value.dump() + "; it must be " + range);
    return v;
}

namespace {

std::variant<bool, InputError> read_bool(const json& value, const std::string& field) {
    if (!value.is_boolean()) return fail(field, ErrorCode::wrong_type, field + " must be true or false");
    return value.get<bool>();
}

std::variant<DType, InputError> read_dtype(const json& value, const std::string& field) {
    if (value == "bf16" || value == "auto") return DType::bf16;
    if (value == "fp8") return DType::fp8;
    return fail(field, value.is_string() ? ErrorCode::unknown_value : ErrorCode::wrong_type, field + " must be \"bf16\" or \"fp8\"");
}

std::variant<std::string, InputError> read_id(const json& value, const std::string& field, bool known, const std::string& choices) {
    if (!value.is_string()) return fail(field, ErrorCode::wrong_type, field + " must be one of " + choices);
    if (!known)
        return fail(field, ErrorCode::unknown_value, field + " \"" + value.get<std::string>() + "\" is not known; use one of " + choices);
    return value.get<std::string>();
}

// Copies a parsed value into `target` or hands the error back.
template <typename T, typename Target>
std::optional<InputError> assign(std::variant<T, InputError> parsed, Target& target) {
    if (auto* error = std::get_if<InputError>(&parsed)) return *error;
    target = std::get<T>(parsed);
    return std::nullopt;
}

}  // namespace

namespace {

// The scenario's numeric fields: name, range and where each lives. Plain and optional (engine
// default when unset or null) integers share the reader; the help text is for pickers and docs.
struct IntegerField {
    const char* name;
    int64_t lo, hi;
    int64_t Scenario::*plain;
    std::optional<int64_t> Scenario::*optional;
    const char* help;
};
using L = ScenarioLimits;
const IntegerField integer_fields[] = {
    {"prompt_tokens", L::min_prompt_tokens, L::max_prompt_tokens, &Scenario::prompt_tokens, nullptr, "tokens in each prompt"},
    {"output_tokens", L::min_output_tokens, L::max_output_tokens, &Scenario::output_tokens, nullptr, "tokens each request generates"},
    {"concurrent_requests", L::min_concurrent, L::max_concurrent, &Scenario::concurrent_requests, nullptr, "requests in flight"},
    {"max_num_seqs", L::min_num_seqs, L::max_num_seqs, nullptr, &Scenario::max_num_seqs, "--max-num-seqs (null: the engine's default)"},
    {"max_num_batched_tokens", L::min_batched_tokens, L::max_batched_tokens, nullptr, &Scenario::max_num_batched_tokens,
     "--max-num-batched-tokens (null: the engine's default)"},
    {"max_model_len", L::min_model_len, L::max_model_len, nullptr, &Scenario::max_model_len,
     "--max-model-len (null: the model's max_position_embeddings)"},
    {"block_size", L::min_block_size, L::max_block_size, nullptr, &Scenario::block_size, "--block-size (null: 16, MLA 64)"},
    {"tensor_parallel_size", 1, 64, &Scenario::tensor_parallel_size, nullptr, "--tensor-parallel-size"},
    {"pipeline_parallel_size", 1, L::max_pipeline_parallel, &Scenario::pipeline_parallel_size, nullptr, "--pipeline-parallel-size"},
};

std::optional<InputError> read_version(const json& value, std::string& target) {
    const std::string msg =
        "vllm_version must be a version string such as \"0.6.3\" or \"0.21.0\" (0.2.5 or newer: the first to count memory outside torch)";
    if (!value.is_string()) return fail("vllm_version", ErrorCode::wrong_type, msg);
    const auto v = parse_engine_version(value.get<std::string>());
    if (!v) return fail("vllm_version", ErrorCode::unknown_value, msg);
    if (*v < oldest_modelled_version) return fail("vllm_version", ErrorCode::out_of_range, msg);
    target = value.get<std::string>();
    return std::nullopt;
}

}  // namespace

std::variant<Scenario, InputError> scenario_from_json(const json& in, const Scenario& base) {
    if (!in.is_object()) return fail("scenario", ErrorCode::wrong_type, "the scenario must be a JSON object");
    Scenario s = base;
    for (const auto& [key, value] : in.items()) {
        std::optional<InputError> e;
        const IntegerField* integer = nullptr;
        for (const IntegerField& f : integer_fields)
            if (key == f.name) integer = &f;
        if (integer) {
            if (integer->optional && value.is_null()) {
                (s.*(integer->optional)).reset();
                continue;
            }
            if (integer->plain) e = assign(read_integer(value, key, integer->lo, integer->hi), s.*(integer->plain));
            else e = assign(read_integer(value, key, integer->lo, integer->hi), s.*(integer->optional));
        } else if (key == "model")
            e = assign(read_id(value, key, value.is_string() && find_model(value.get<std::string>()), model_ids()), s.model);
        else if (key == "model_config") {
            if (value.is_null()) {
                s.model_config.reset();
                continue;
            }
            e = assign(model_from_config(value, key), s.model_config);
        } else if (key == "gpu") e = assign(read_id(value, key, value.is_string() && find_gpu(value.get<std::string>()), gpu_ids()), s.gpu);
        else if (key == "gpu_config") {
            if (value.is_null()) {
                s.gpu_config.reset();
                continue;
            }
            e = assign(gpu_from_json(value, key), s.gpu_config);
        } else if (key == "vllm_version") e = read_version(value, s.vllm_version);
        else if (key == "entry") {
            if (value == "serve") s.entry = Entry::serve;
            else if (value == "offline") s.entry = Entry::offline;
            else
                e = fail(key, value.is_string() ? ErrorCode::unknown_value : ErrorCode::wrong_type,
                         "entry must be \"serve\" (vllm serve) or \"offline\" (the LLM class)");
        } else if (key == "gpu_memory_utilization") {
            if (value.is_null()) {
                s.gpu_memory_utilization.reset();
                continue;
            }
            e = assign(read_number(value, key, L::min_utilization, L::max_utilization), s.gpu_memory_utilization);
        } else if (key == "kv_cache_dtype") e = assign(read_dtype(value, key), s.kv_cache_dtype);
        else if (key == "weight_dtype") e = assign(read_dtype(value, key), s.weight_dtype);
        else if (key == "force_mha") e = assign(read_bool(value, key), s.force_mha);
        else if (key == "enforce_eager") e = assign(read_bool(value, key), s.enforce_eager);
        else {
            const std::string shown = key.size() > 60 ? key.substr(0, 57) + "..." : key;  // never echo a huge key
            e = fail(shown, ErrorCode::unknown_field, "\"" + shown + "\" is not a scenario field");
        }
        if (e) return *e;
    }
    return s;
}

std::variant<Scenario, InputError> scenario_from_text(const std::string& text, const Scenario& base) {
    // A scenario, even with a config.json inside, is a few kilobytes: refuse before parsing more.
    constexpr size_t max_bytes = 1 << 20;
    if (text.size() > max_bytes)
        return fail("scenario", ErrorCode::out_of_range,
                    "the scenario is " + format_count(static_cast<int64_t>(text.size())) + " bytes; at most " + format_count(max_bytes) +
                        " are read");
    if (text.find('\0') != std::string::npos)
        return fail("scenario", ErrorCode::malformed_json, "the scenario contains a NUL byte; it must be JSON text");
    // Two values for one key would silently keep the last: name the key instead.
    std::vector<std::vector<std::string>> keys_by_depth;
    std::string duplicate;
    const json::parser_callback_t watch = [&](int depth, json::parse_event_t event, json& value) {
        const auto level = static_cast<size_t>(depth);
        if (event == json::parse_event_t::object_start) {
            if (keys_by_depth.size() <= level + 1) keys_by_depth.resize(level + 2);
            keys_by_depth[level + 1].clear();
        } else if (event == json::parse_event_t::key && duplicate.empty()) {
            if (keys_by_depth.size() <= level) keys_by_depth.resize(level + 1);
            auto& seen = keys_by_depth[level];
            const std::string key = value.get<std::string>();
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) duplicate = key;
            else seen.push_back(key);
        }
        return true;
    };
    const json parsed = json::parse(text, watch, false);
    if (parsed.is_discarded()) return fail("scenario", ErrorCode::malformed_json, "the scenario is not valid JSON");
    if (!duplicate.empty()) {
        const std::string shown = duplicate.size() > 60 ? duplicate.substr(0, 57) + "..." : duplicate;
        return fail(shown, ErrorCode::malformed_json, "\"" + shown + "\" is given twice; give each field once");
    }
    return scenario_from_json(parsed, base);
}

namespace {

json optional_json(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

// A config.json that reads back to the same ModelSpec.
json model_to_config(const ModelSpec& m) {
    json c = {{"model_type", m.model_type.empty() ? "llama" : m.model_type},
              {"num_hidden_layers", m.num_hidden_layers},
              {"hidden_size", m.hidden_size},
              {"num_attention_heads", m.num_attention_heads},
              {"num_key_value_heads", m.num_key_value_heads},
              {"head_dim", m.head_dim},
              {"vocab_size", m.vocab_size},
              {"tie_word_embeddings", m.tie_word_embeddings},
              {"attention_bias", m.attention_bias}};
    if (m.norms_per_layer != 2) c["model_type"] = "gemma3_text";
    if (m.intermediate_size > 0) c["intermediate_size"] = m.intermediate_size;
    if (m.max_position_embeddings > 0) c["max_position_embeddings"] = m.max_position_embeddings;
    if (m.attention == AttentionKind::mla)
        c.update({{"kv_lora_rank", m.kv_lora_rank},
                  {"q_lora_rank", m.q_lora_rank > 0 ? json(m.q_lora_rank) : json(nullptr)},
                  {"qk_rope_head_dim", m.qk_rope_head_dim},
                  {"qk_nope_head_dim", m.qk_nope_head_dim},
                  {"v_head_dim", m.v_head_dim}});
    if (m.num_experts > 0)
        c.update({{"num_experts", m.num_experts},
                  {"num_experts_per_tok", m.experts_per_token},
                  {"moe_intermediate_size", m.moe_intermediate_size},
                  {"shared_expert_intermediate_size", m.shared_expert_intermediate_size},
                  {"first_k_dense_replace", m.num_dense_layers}});
    if (m.sliding_window > 0) {
        json types = json::array();
        for (int64_t i = 0; i < m.num_hidden_layers; ++i)
            types.push_back(i < m.num_sliding_layers ? "sliding_attention" : "full_attention");
        c.update({{"sliding_window", m.sliding_window}, {"layer_types", types}});
    }
    switch (m.weight_format) {
        case WeightFormat::bf16:
            break;
        case WeightFormat::fp8:
            c["quantization_config"] = {{"quant_method", "fp8"}};
            break;
        case WeightFormat::int4_grouped:
            c["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}, {"group_size", m.quant_group_size}};
            break;
        case WeightFormat::mxfp4_experts:
            c["quantization_config"] = {{"quant_method", "mxfp4"}};
            break;
    }
    return c;
}

json gpu_to_json(const GpuSpec& g) {
    return {{"id", g.name},
            {"label", g.label},
            {"memory_gib", g.memory_bytes / GiB},
            {"visible_memory_mib", g.visible_memory_bytes / MiB},
            {"hbm_tb_per_s", g.hbm_bytes_per_s / 1e12},
            {"bf16_dense_tflops", g.bf16_flops_per_s / 1e12},
            {"fp8_dense_tflops", g.fp8_flops_per_s / 1e12},
            {"interconnect", {{"kind", g.interconnect}, {"bidirectional_gb_per_s", g.interconnect_bytes_per_s * 2 / 1e9}}}};
}

}  // namespace

json scenario_to_json(const Scenario& s) {
    json out = {
        {"model", s.model},
        {"gpu", s.gpu},
        {"vllm_version", s.vllm_version},
        {"entry", entry_name(s.entry)},
        {"gpu_memory_utilization", s.gpu_memory_utilization ? json(*s.gpu_memory_utilization) : json(nullptr)},
        {"kv_cache_dtype", dtype_name(s.kv_cache_dtype)},
        {"weight_dtype", dtype_name(s.weight_dtype)},
        {"force_mha", s.force_mha},
        {"enforce_eager", s.enforce_eager},
    };
    for (const IntegerField& f : integer_fields) out[f.name] = f.plain ? json(s.*(f.plain)) : optional_json(s.*(f.optional));
    out["model_config"] = s.model_config ? model_to_config(*s.model_config) : json(nullptr);
    out["gpu_config"] = s.gpu_config ? gpu_to_json(*s.gpu_config) : json(nullptr);
    return out;
}

namespace {
json phase_to_json(const PhaseTiming& p) {
    return {{"flops", p.flops},
            {"bytes", p.bytes},
            {"compute_s", p.compute_s},
            {"memory_s", p.memory_s},
            {"communication_s", p.communication_s},
            {"total_s", p.total_s},
            {"bound", bound_name(p.bound)},
            {"arithmetic_intensity", p.arithmetic_intensity}};
}

json serving_to_json(const ServingSteady& v) {
    return {{"decode_tokens_per_step", v.decode_tokens_per_step},
            {"prefill_tokens_per_step", v.prefill_tokens_per_step},
            {"token_budget_binds", v.token_budget_binds},
            {"prefill_step_share", v.prefill_step_share},
            {"prefill_tokens_per_prefill_step", v.prefill_tokens_per_prefill_step},
            {"step_with_prefill", phase_to_json(v.step_with_prefill)},
            {"decode_step", phase_to_json(v.decode_step)},
            {"mean_step_s", v.mean_step_s},
            {"generation_tokens_per_s", v.generation_tokens_per_s},
            {"prompt_tokens_per_s", v.prompt_tokens_per_s},
            {"itl_s", v.itl_s},
            {"queue_s", v.queue_s},
            {"prefill_steps", v.prefill_steps},
            {"ttft_s", v.ttft_s},
            {"decode_only_tokens_per_s", v.decode_only_tokens_per_s},
            {"prefill_only_tokens_per_s", v.prefill_only_tokens_per_s}};
}
}  // namespace

json startup_error_to_json(const std::optional<StartupError>& e) {
    return e ? json{{"kind", e->kind}, {"message", e->message}} : json(nullptr);
}

namespace {

json model_json(const ModelSpec& m) {
    json derived = json::array();
    for (const auto& [field, how] : m.derived) derived.push_back({{"field", field}, {"how", how}});
    json suspicious = json::array();
    for (const auto& [typed, meant] : m.suspicious_keys) suspicious.push_back({{"key", typed}, {"did_you_mean", meant}});
    return {{"name", m.name},
            {"model_type", m.model_type},
            {"num_hidden_layers", m.num_hidden_layers},
            {"num_attention_heads", m.num_attention_heads},
            {"num_key_value_heads", m.num_key_value_heads},
            {"head_dim", m.head_dim},
            {"hidden_size", m.hidden_size},
            {"attention", m.attention == AttentionKind::mla ? "mla" : "standard"},
            {"num_experts", m.num_experts},
            {"sliding_window", m.sliding_window},
            {"num_sliding_layers", m.num_sliding_layers},
            {"weight_format", weight_format_name(m.weight_format)},
            {"multimodal", m.multimodal},
            {"max_position_embeddings", m.max_position_embeddings},
            {"derived", derived},
            {"suspicious_keys", suspicious}};
}

}  // namespace

json result_to_json(const Result& r) {
    const MemoryPlan& mem = r.memory;
    json log = json::array(), kinds = json::array();
    for (const LogLine& line : engine_log(r)) {
        log.push_back(line.text);
        kinds.push_back(log_kind_name(line.kind));
    }
    return {
        {"status", status_name(r.status)},
        {"scenario", scenario_to_json(r.scenario)},
        {"startup_error", startup_error_to_json(r.memory.startup_error)},
        {"model", model_json(r.model)},
        {"gpu",
         {{"id", r.gpu.name},
          {"name", r.gpu.name},
          {"label", r.gpu.label},
          {"memory_bytes", r.gpu.memory_bytes},
          {"visible_memory_bytes", r.gpu.visible_memory_bytes},
          {"hbm_bytes_per_s", r.gpu.hbm_bytes_per_s},
          {"bf16_flops_per_s", r.gpu.bf16_flops_per_s},
          {"fp8_flops_per_s", r.gpu.fp8_flops_per_s},
          {"interconnect", r.gpu.interconnect},
          {"interconnect_bytes_per_s", r.gpu.interconnect_bytes_per_s}}},
        {"params", r.params},
        {"achieved_bytes_per_s", r.steps.achieved_bytes_per_s},
        {"achieved_flops_per_s", r.steps.achieved_flops_per_s},
        {"peak_flops_per_s", r.steps.peak_flops_per_s},
        {"ridge_flops_per_byte", r.steps.ridge_flops_per_byte},
        {"kv_bytes_per_token", mem.layout.kv_bytes_per_token},
        {"kv_bytes_per_token_per_layer", mem.layout.bytes_per_token_per_layer},
        {"visible_memory_bytes", mem.visible_bytes},
        {"budget_bytes", mem.requested_bytes},
        {"outside_budget_bytes", r.admission.outside_budget_bytes},
        {"weight_bytes", mem.weight_bytes},
        {"activation_bytes", mem.activation_peak_bytes},
        {"non_torch_bytes", mem.non_torch_bytes},
        {"cuda_graph_bytes", mem.cuda_graph_bytes},
        {"cuda_graph_in_budget", mem.cuda_graph_in_budget},
        {"available_kv_cache_bytes", mem.available_kv_bytes},
        {"kv_pool_bytes", std::max(0.0, mem.available_kv_bytes)},
        {"kv_pool_used_bytes", r.admission.kv_pool_used_bytes},
        {"num_gpu_blocks", mem.num_gpu_blocks},
        {"block_size", mem.layout.block_size},
        {"kv_cache_groups", mem.layout.num_groups},
        {"kv_cache_tokens", mem.kv_cache_tokens},
        {"max_concurrency", mem.max_concurrency},
        {"request_kv_bytes", mem.request_kv_bytes},
        {"estimated_max_model_len", mem.estimated_max_model_len},
        {"profile_tokens", mem.profile_tokens},
        {"engine", r.rules.v1_engine ? "V1" : "V0"},
        {"bytes_per_sequence", r.admission.bytes_per_sequence},
        {"kv_heads_per_rank", mem.layout.kv_heads_per_rank},
        {"kv_heads_replicated", mem.layout.kv_heads_replicated},
        {"max_resident_sequences", r.admission.max_resident_sequences},
        {"running", r.admission.running},
        {"waiting", r.admission.waiting},
        {"binding_limit", binding_limit_name(r.admission.binding_limit)},
        {"min_utilization_that_fits", r.admission.min_utilization_that_fits},
        {"longest_request_tokens", r.admission.longest_request_tokens},
        {"tensor_parallel_that_starts", r.tensor_parallel_that_starts},
        {"fp8_weights_start", r.fp8_weights_start},
        {"decode_bytes_per_step", r.steps.decode.bytes},
        {"decode_step_s", r.steps.decode.total_s},
        {"decode_memory_s", r.steps.decode.memory_s},
        {"decode_compute_s", r.steps.decode.compute_s},
        {"decode_communication_s", r.steps.decode.communication_s},
        {"decode_tokens_per_s", r.steps.decode_tokens_per_s},
        {"itl_s", r.steps.itl_s},
        {"weight_share", r.steps.weight_share},
        {"decode_bound", bound_name(r.steps.decode.bound)},
        {"decode", phase_to_json(r.steps.decode)},
        {"ttft_s", r.steps.prefill.total_s},
        {"prefill_bound", bound_name(r.steps.prefill.bound)},
        {"prefill", phase_to_json(r.steps.prefill)},
        {"dram_active", r.steps.dram_active},
        {"tensor_active", r.steps.tensor_active},
        {"gpu_utilization", r.steps.gpu_utilization},
        {"chunk_budget_tokens", r.steps.chunk_budget_tokens},
        {"free_prefill_tokens", r.steps.free_prefill_tokens},
        {"step_with_full_chunk_s", r.steps.step_with_full_chunk_s},
        {"generation_tokens_per_s", r.steps.serving.generation_tokens_per_s},
        {"prompt_tokens_per_s", r.steps.serving.prompt_tokens_per_s},
        {"serving_step_s", r.steps.serving.mean_step_s},
        {"serving_ttft_s", r.steps.serving.ttft_s},
        {"serving", serving_to_json(r.steps.serving)},
        {"kv_cache_usage", r.admission.kv_cache_usage},
        {"log", log},
        {"log_kinds", kinds},
    };
}

json error_to_json(const InputError& e) {
    return {{"error", {{"field", e.field}, {"code", error_code_name(e.code)}, {"message", e.message}}}};
}

json batch_sweep_to_json(const BatchSweep& sweep) {
    json points = json::array();
    for (const BatchPoint& p : sweep.points)
        points.push_back({{"batch", p.batch},
                          {"step_s", p.step_s},
                          {"tokens_per_s", p.tokens_per_s},
                          {"weight_share", p.weight_share},
                          {"bound", bound_name(p.bound)}});
    return {{"points", points}, {"pool_limit", sweep.pool_limit}, {"amortised_batch", sweep.amortised_batch}};
}

json tensor_parallel_sweep_to_json(const std::vector<TensorParallelPoint>& points) {
    json out = json::array();
    for (const TensorParallelPoint& p : points) {
        json point = {{"tensor_parallel_size", p.tensor_parallel_size}, {"valid", p.valid}};
        if (p.valid) {
            const Result& r = p.result;
            point.update({{"status", status_name(r.status)},
                          {"kv_pool_bytes", std::max(0.0, r.memory.available_kv_bytes)},
                          {"weight_bytes", r.memory.weight_bytes},
                          {"kv_heads_per_rank", r.memory.layout.kv_heads_per_rank},
                          {"kv_heads_replicated", r.memory.layout.kv_heads_replicated},
                          {"max_resident_sequences", r.admission.max_resident_sequences},
                          {"running", r.admission.running},
                          {"decode_step_s", r.steps.decode.total_s},
                          {"decode_communication_s", r.steps.decode.communication_s},
                          {"decode_tokens_per_s", r.steps.decode_tokens_per_s},
                          {"ttft_s", r.steps.prefill.total_s}});
        }
        out.push_back(point);
    }
    return out;
}

json catalog_to_json() {
    json models = json::array(), gpus = json::array();
    for (const ModelSpec& m : builtin_catalog().models) {
        json entry = model_json(m);
        entry["id"] = m.name;
        entry["params"] = parameter_count(m);
        models.push_back(entry);
    }
    for (const GpuSpec& g : builtin_catalog().gpus) gpus.push_back(gpu_to_json(g));
    json fields = json::object(), limits = json::object();
    for (const IntegerField& f : integer_fields) {
        fields[f.name] = {{"type", "integer"}, {"min", f.lo}, {"max", f.hi}, {"nullable", f.optional != nullptr}, {"help", f.help}};
        limits[f.name] = {f.lo, f.hi};
    }
    limits["gpu_memory_utilization"] = {L::min_utilization, L::max_utilization};
    return {{"models", models}, {"gpus", gpus}, {"fields", fields}, {"limits", limits}, {"defaults", scenario_to_json(Scenario{})}};
}

std::variant<Result, InputError> evaluate_text(const std::string& text) {
    auto scenario = scenario_from_text(text);
    if (auto* error = std::get_if<InputError>(&scenario)) return *error;
    return evaluate(std::get<Scenario>(scenario));
}

}  // namespace kv
