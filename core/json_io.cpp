#include "json_io.hpp"

#include <cmath>
#include <optional>

#include "catalog.hpp"
#include "format.hpp"
#include "units.hpp"

namespace kv {
namespace {

using nlohmann::json;

InputError fail(std::string field, ErrorCode code, std::string message) {
    return InputError{std::move(field), code, std::move(message)};
}

// A whole number within [lo, hi]; JSON floats such as 4096.0 count, 1e30 and 4.5 do not.
std::variant<int64_t, InputError> read_integer(const json& value, const std::string& field, int64_t lo,
                                               int64_t hi) {
    const std::string range = "a whole number from " + format_count(lo) + " to " + format_count(hi);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
        return fail(field, ErrorCode::out_of_range,
                    field + " is " + value.dump() + "; it must be " + range);
    return static_cast<int64_t>(v);
}

std::variant<double, InputError> read_number(const json& value, const std::string& field, double lo, double hi) {
    const std::string range = "a number from " + format_fixed(lo, 2) + " to " + format_fixed(hi, 2);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        return fail(field, ErrorCode::out_of_range, field + " is " + value.dump() + "; it must be " + range);
    return v;
}

std::variant<bool, InputError> read_bool(const json& value, const std::string& field) {
    if (!value.is_boolean()) return fail(field, ErrorCode::wrong_type, field + " must be true or false");
    return value.get<bool>();
}

std::variant<DType, InputError> read_dtype(const json& value, const std::string& field) {
    if (value == "bf16" || value == "auto") return DType::bf16;
    if (value == "fp8") return DType::fp8;
    return fail(field, value.is_string() ? ErrorCode::unknown_value : ErrorCode::wrong_type,
                field + " must be \"bf16\" or \"fp8\"");
}

std::variant<std::string, InputError> read_id(const json& value, const std::string& field, bool known,
                                              const std::string& choices) {
    if (!value.is_string()) return fail(field, ErrorCode::wrong_type, field + " must be one of " + choices);
    if (!known) return fail(field, ErrorCode::unknown_value,
                            field + " \"" + value.get<std::string>() + "\" is not known; use one of " + choices);
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

std::variant<ModelSpec, InputError> model_from_config(const json& config, const std::string& prefix) {
    if (!config.is_object()) return fail(prefix, ErrorCode::wrong_type, prefix + " must be a config.json object");
    const auto field = [&](const char* key) { return prefix + "." + key; };
    ModelSpec m;
    m.name = prefix;
    struct Required { const char* key; int64_t ModelSpec::*member; int64_t max; };
    const Required required[] = {
        {"num_hidden_layers", &ModelSpec::num_hidden_layers, ConfigLimits::max_layers},
        {"hidden_size", &ModelSpec::hidden_size, ConfigLimits::max_hidden},
        {"intermediate_size", &ModelSpec::intermediate_size, ConfigLimits::max_intermediate},
        {"num_attention_heads", &ModelSpec::num_attention_heads, ConfigLimits::max_heads},
        {"vocab_size", &ModelSpec::vocab_size, ConfigLimits::max_vocab},
    };
    for (const Required& r : required) {
        if (!config.contains(r.key))
            return fail(field(r.key), ErrorCode::missing_field, field(r.key) + " is missing from config.json");
        if (auto e = assign(read_integer(config[r.key], field(r.key), 1, r.max), m.*r.member)) return *e;
    }
    m.num_key_value_heads = m.num_attention_heads;  // absent means multi-head attention
    if (config.contains("num_key_value_heads")) {
        const std::string f = field("num_key_value_heads");
        if (auto e = assign(read_integer(config["num_key_value_heads"], f, 1, ConfigLimits::max_heads),
                            m.num_key_value_heads)) return *e;
        if (m.num_attention_heads % m.num_key_value_heads != 0)
            return fail(f, ErrorCode::inconsistent_config,
                        f + " is " + std::to_string(m.num_key_value_heads) + "; it must divide num_attention_heads (" +
                            std::to_string(m.num_attention_heads) + ")");
    }
    if (config.contains("head_dim") && !config["head_dim"].is_null()) {
        if (auto e = assign(read_integer(config["head_dim"], field("head_dim"), 1, ConfigLimits::max_head_dim),
                            m.head_dim)) return *e;
    } else {
        if (m.hidden_size % m.num_attention_heads != 0)
            return fail(field("head_dim"), ErrorCode::inconsistent_config,
                        field("head_dim") + " is absent and hidden_size (" + std::to_string(m.hidden_size) +
                            ") is not a multiple of num_attention_heads (" + std::to_string(m.num_attention_heads) + ")");
        m.head_dim = m.hidden_size / m.num_attention_heads;
    }
    if (config.contains("max_position_embeddings")) {
        if (auto e = assign(read_integer(config["max_position_embeddings"], field("max_position_embeddings"), 1,
                                         ConfigLimits::max_positions), m.max_position_embeddings)) return *e;
    }
    if (config.contains("tie_word_embeddings"))
        if (auto e = assign(read_bool(config["tie_word_embeddings"], field("tie_word_embeddings")),
                            m.tie_word_embeddings)) return *e;
    if (config.contains("attention_bias"))
        if (auto e = assign(read_bool(config["attention_bias"], field("attention_bias")), m.attention_bias)) return *e;
    m.qk_norm = config.value("model_type", json()) == "qwen3";
    return m;
}

std::variant<GpuSpec, InputError> gpu_from_catalog_entry(const json& entry) {
    GpuSpec g;
    try {
        g.name = entry.at("id").get<std::string>();
        g.label = entry.at("label").get<std::string>();
        g.memory_bytes = entry.at("memory_gib").get<double>() * GiB;
        g.hbm_bytes_per_s = entry.at("hbm_tb_per_s").get<double>() * 1e12;
        g.bf16_flops_per_s = entry.at("bf16_dense_tflops").get<double>() * 1e12;
        g.fp8_flops_per_s = entry.at("fp8_dense_tflops").get<double>() * 1e12;
        g.nvlink_bytes_per_s = entry.at("nvlink_bidirectional_gb_per_s").get<double>() * 1e9 / 2.0;
    } catch (const json::exception& e) {
        return fail("gpu", ErrorCode::missing_field, std::string("GPU catalog entry: ") + e.what());
    }
    if (g.memory_bytes <= 0 || g.hbm_bytes_per_s <= 0 || g.bf16_flops_per_s <= 0 || g.nvlink_bytes_per_s <= 0)
        return fail("gpu", ErrorCode::out_of_range, "GPU catalog entry " + g.name + " has a non-positive figure");
    return g;
}

std::variant<Scenario, InputError> scenario_from_json(const json& in, const Scenario& base) {
    if (!in.is_object()) return fail("scenario", ErrorCode::wrong_type, "the scenario must be a JSON object");
    using L = ScenarioLimits;
    Scenario s = base;
    for (const auto& [key, value] : in.items()) {
        std::optional<InputError> e;
        if (key == "model") e = assign(read_id(value, key, value.is_string() && find_model(value.get<std::string>()),
                                               model_ids()), s.model);
        else if (key == "model_config") {
            if (value.is_null()) { s.model_config.reset(); continue; }
            e = assign(model_from_config(value, key), s.model_config);
        }
        else if (key == "gpu") e = assign(read_id(value, key, value.is_string() && find_gpu(value.get<std::string>()),
                                                  gpu_ids()), s.gpu);
        else if (key == "prompt_tokens") e = assign(read_integer(value, key, L::min_prompt_tokens, L::max_prompt_tokens), s.prompt_tokens);
        else if (key == "output_tokens") e = assign(read_integer(value, key, L::min_output_tokens, L::max_output_tokens), s.output_tokens);
        else if (key == "concurrent_requests") e = assign(read_integer(value, key, L::min_concurrent, L::max_concurrent), s.concurrent_requests);
        else if (key == "gpu_memory_utilization") e = assign(read_number(value, key, L::min_utilization, L::max_utilization), s.gpu_memory_utilization);
        else if (key == "kv_cache_dtype") e = assign(read_dtype(value, key), s.kv_cache_dtype);
        else if (key == "weight_dtype") e = assign(read_dtype(value, key), s.weight_dtype);
        else if (key == "force_mha") e = assign(read_bool(value, key), s.force_mha);
        else if (key == "max_num_seqs") e = assign(read_integer(value, key, L::min_num_seqs, L::max_num_seqs), s.max_num_seqs);
        else if (key == "max_num_batched_tokens") e = assign(read_integer(value, key, L::min_batched_tokens, L::max_batched_tokens), s.max_num_batched_tokens);
        else if (key == "tensor_parallel_size") {
            e = assign(read_integer(value, key, 1, 8), s.tensor_parallel_size);
            const int64_t tp = s.tensor_parallel_size;
            if (!e && tp != 1 && tp != 2 && tp != 4 && tp != 8)
                e = fail(key, ErrorCode::out_of_range, key + " is " + value.dump() + "; it must be 1, 2, 4 or 8");
        }
        else if (key == "max_model_len") {
            if (value.is_null()) { s.max_model_len.reset(); continue; }
            e = assign(read_integer(value, key, L::min_model_len, L::max_model_len), s.max_model_len);
        }
        else e = fail(key, ErrorCode::unknown_field, "\"" + key + "\" is not a scenario field");
        if (e) return *e;
    }
    return s;
}

std::variant<Scenario, InputError> scenario_from_text(const std::string& text, const Scenario& base) {
    const json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded())
        return fail("scenario", ErrorCode::malformed_json, "the scenario is not valid JSON");
    return scenario_from_json(parsed, base);
}

json scenario_to_json(const Scenario& s) {
    json out = {
        {"model", s.model}, {"gpu", s.gpu}, {"prompt_tokens", s.prompt_tokens},
        {"output_tokens", s.output_tokens}, {"concurrent_requests", s.concurrent_requests},
        {"gpu_memory_utilization", s.gpu_memory_utilization},
        {"kv_cache_dtype", dtype_name(s.kv_cache_dtype)}, {"weight_dtype", dtype_name(s.weight_dtype)},
        {"force_mha", s.force_mha}, {"max_num_seqs", s.max_num_seqs},
        {"max_num_batched_tokens", s.max_num_batched_tokens},
        {"tensor_parallel_size", s.tensor_parallel_size},
    };
    out["max_model_len"] = s.max_model_len ? json(*s.max_model_len) : json(nullptr);
    if (s.model_config) {
        const ModelSpec& m = *s.model_config;
        out["model_config"] = {
            {"num_hidden_layers", m.num_hidden_layers}, {"hidden_size", m.hidden_size},
            {"intermediate_size", m.intermediate_size}, {"num_attention_heads", m.num_attention_heads},
            {"num_key_value_heads", m.num_key_value_heads}, {"head_dim", m.head_dim},
            {"vocab_size", m.vocab_size}, {"tie_word_embeddings", m.tie_word_embeddings},
            {"attention_bias", m.attention_bias}, {"model_type", m.qk_norm ? "qwen3" : "llama"}};
        if (m.max_position_embeddings > 0) out["model_config"]["max_position_embeddings"] = m.max_position_embeddings;
    }
    return out;
}

namespace {
json phase_to_json(const PhaseTiming& p) {
    return {{"flops", p.flops}, {"bytes", p.bytes}, {"compute_s", p.compute_s}, {"memory_s", p.memory_s},
            {"communication_s", p.communication_s}, {"total_s", p.total_s}, {"bound", bound_name(p.bound)},
            {"arithmetic_intensity", p.arithmetic_intensity}};
}
}  // namespace

json result_to_json(const Result& r) {
    json log = json::array(), kinds = json::array();
    for (const LogLine& line : r.log) {
        log.push_back(line.text);
        kinds.push_back(log_kind_name(line.kind));
    }
    return {
        {"status", status_name(r.status)},
        {"scenario", scenario_to_json(r.scenario)},
        {"model", {{"name", r.model.name}, {"num_hidden_layers", r.model.num_hidden_layers},
                   {"num_attention_heads", r.model.num_attention_heads},
                   {"num_key_value_heads", r.model.num_key_value_heads}, {"head_dim", r.model.head_dim},
                   {"hidden_size", r.model.hidden_size}}},
        {"gpu", {{"name", r.gpu.name}, {"label", r.gpu.label}, {"memory_bytes", r.gpu.memory_bytes},
                 {"hbm_bytes_per_s", r.gpu.hbm_bytes_per_s}, {"bf16_flops_per_s", r.gpu.bf16_flops_per_s},
                 {"fp8_flops_per_s", r.gpu.fp8_flops_per_s}, {"nvlink_bytes_per_s", r.gpu.nvlink_bytes_per_s}}},
        {"params", r.params},
        {"kv_bytes_per_token", r.kv_bytes_per_token},
        {"weight_bytes", r.weight_bytes},
        {"activation_bytes", r.activation_bytes},
        {"budget_bytes", r.budget_bytes},
        {"outside_budget_bytes", r.outside_budget_bytes},
        {"kv_pool_bytes", r.kv_pool_bytes},
        {"kv_pool_used_bytes", r.kv_pool_used_bytes},
        {"bytes_per_sequence", r.bytes_per_sequence},
        {"kv_heads_per_rank", r.kv_heads_per_rank},
        {"kv_heads_replicated", r.kv_heads_replicated},
        {"max_resident_sequences", r.max_resident_sequences},
        {"running", r.running},
        {"waiting", r.waiting},
        {"binding_limit", binding_limit_name(r.binding_limit)},
        {"kv_cache_tokens", r.kv_cache_tokens},
        {"max_concurrency", r.max_concurrency},
        {"min_utilization_that_fits", r.min_utilization_that_fits},
        {"longest_request_tokens", r.longest_request_tokens},
        {"decode_bytes_per_step", r.decode.bytes},
        {"decode_step_s", r.decode.total_s},
        {"decode_memory_s", r.decode.memory_s},
        {"decode_compute_s", r.decode.compute_s},
        {"decode_communication_s", r.decode.communication_s},
        {"decode_tokens_per_s", r.decode_tokens_per_s},
        {"itl_s", r.itl_s},
        {"weight_share", r.weight_share},
        {"decode_bound", bound_name(r.decode.bound)},
        {"decode", phase_to_json(r.decode)},
        {"ttft_s", r.prefill.total_s},
        {"prefill_bound", bound_name(r.prefill.bound)},
        {"prefill", phase_to_json(r.prefill)},
        {"dram_active", r.dram_active},
        {"tensor_active", r.tensor_active},
        {"gpu_utilization", r.gpu_utilization},
        {"chunk_budget_tokens", r.chunk_budget_tokens},
        {"free_prefill_tokens", r.free_prefill_tokens},
        {"step_with_full_chunk_s", r.step_with_full_chunk_s},
        {"prompt_tokens_per_s", r.prompt_tokens_per_s},
        {"kv_cache_usage", r.kv_cache_usage},
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
        points.push_back({{"batch", p.batch}, {"step_s", p.step_s}, {"tokens_per_s", p.tokens_per_s},
                          {"weight_share", p.weight_share}, {"bound", bound_name(p.bound)}});
    return {{"points", points}, {"pool_limit", sweep.pool_limit}, {"amortised_batch", sweep.amortised_batch}};
}

json tensor_parallel_sweep_to_json(const std::vector<TensorParallelPoint>& points) {
    json out = json::array();
    for (const TensorParallelPoint& p : points) {
        json point = {{"tensor_parallel_size", p.tensor_parallel_size}, {"valid", p.valid}};
        if (p.valid) {
            const Result& r = p.result;
            point.update({{"status", status_name(r.status)}, {"kv_pool_bytes", r.kv_pool_bytes},
                          {"weight_bytes", r.weight_bytes}, {"kv_heads_per_rank", r.kv_heads_per_rank},
                          {"kv_heads_replicated", r.kv_heads_replicated},
                          {"max_resident_sequences", r.max_resident_sequences}, {"running", r.running},
                          {"decode_step_s", r.decode.total_s}, {"decode_communication_s", r.decode.communication_s},
                          {"decode_tokens_per_s", r.decode_tokens_per_s}, {"ttft_s", r.prefill.total_s}});
        }
        out.push_back(point);
    }
    return out;
}

json catalog_to_json() {
    json models = json::array(), gpus = json::array();
    for (const ModelSpec& m : builtin_catalog().models)
        models.push_back({{"id", m.name}, {"params", parameter_count(m)}, {"num_hidden_layers", m.num_hidden_layers},
                          {"num_attention_heads", m.num_attention_heads},
                          {"num_key_value_heads", m.num_key_value_heads}, {"head_dim", m.head_dim},
                          {"max_position_embeddings", m.max_position_embeddings}});
    for (const GpuSpec& g : builtin_catalog().gpus)
        gpus.push_back({{"id", g.name}, {"label", g.label}, {"memory_bytes", g.memory_bytes},
                        {"hbm_bytes_per_s", g.hbm_bytes_per_s}, {"bf16_flops_per_s", g.bf16_flops_per_s},
                        {"fp8_flops_per_s", g.fp8_flops_per_s}});
    using L = ScenarioLimits;
    const json limits = {
        {"prompt_tokens", {L::min_prompt_tokens, L::max_prompt_tokens}},
        {"output_tokens", {L::min_output_tokens, L::max_output_tokens}},
        {"concurrent_requests", {L::min_concurrent, L::max_concurrent}},
        {"gpu_memory_utilization", {L::min_utilization, L::max_utilization}},
        {"max_num_seqs", {L::min_num_seqs, L::max_num_seqs}},
        {"max_num_batched_tokens", {L::min_batched_tokens, L::max_batched_tokens}},
        {"tensor_parallel_size", {1, 2, 4, 8}},
        {"max_model_len", {L::min_model_len, L::max_model_len}}};
    return {{"models", models}, {"gpus", gpus}, {"limits", limits}, {"defaults", scenario_to_json(Scenario{})}};
}

std::variant<Result, InputError> evaluate_text(const std::string& text) {
    auto scenario = scenario_from_text(text);
    if (auto* error = std::get_if<InputError>(&scenario)) return *error;
    return evaluate(std::get<Scenario>(scenario));
}

}  // namespace kv
