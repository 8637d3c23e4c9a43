#include "io/catalog_json.hpp"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "model/catalog_data.hpp"
#include "io/fields_json.hpp"
#include "io/input_text.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "scenario/scenario_fields.hpp"
#include "serving/workload_fields.hpp"

namespace kv {
namespace {

[[noreturn]] void catalog_defect(const std::string& what) {
    std::fprintf(stderr, "built-in catalog is invalid: %s\n", what.c_str());
    std::abort();
}

Catalog parse_catalog() {
    Catalog catalog;
    const auto models = nlohmann::json::parse(builtin_models_json, nullptr, false);
    const auto gpus = nlohmann::json::parse(builtin_gpus_json, nullptr, false);
    if (models.is_discarded() || gpus.is_discarded()) catalog_defect("not JSON");
    for (const auto& entry : models.at("models")) {
        auto parsed = model_from_catalog_entry(entry);
        if (auto* error = std::get_if<InputError>(&parsed)) catalog_defect(error->message);
        catalog.models.push_back(std::get<ModelSpec>(parsed));
    }
    for (const auto& entry : gpus.at("gpus")) {
        auto parsed = gpu_from_catalog_entry(entry);
        if (auto* error = std::get_if<InputError>(&parsed)) catalog_defect(error->message);
        catalog.gpus.push_back(std::get<GpuSpec>(parsed));
    }
    return catalog;
}

template <typename T>
std::string join_names(const std::vector<T>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item.name;
    return out;
}

// What a field accepts, as the page's messages list it: [lo, hi], the choices, the catalog's ids.
nlohmann::json accepted_values(const FieldSpec& spec) {
    nlohmann::json out = nlohmann::json::array();
    switch (spec.type) {
        case FieldType::integer:
            return {static_cast<int64_t>(spec.lo), static_cast<int64_t>(spec.hi)};
        case FieldType::number:
            return {spec.lo, spec.hi};
        case FieldType::boolean:
            return {false, true};
        case FieldType::choice:
            for (const Choice& c : spec.choices) out.push_back(c.value);
            return out;
        case FieldType::text:
            if (spec.rule == TextRule::model_id)
                for (const ModelSpec& m : builtin_catalog().models) out.push_back(m.name);
            if (spec.rule == TextRule::gpu_id)
                for (const GpuSpec& g : builtin_catalog().gpus) out.push_back(g.name);
            return out;
        case FieldType::object:
            break;
    }
    return nullptr;
}

}  // namespace

std::variant<ModelSpec, InputError> model_from_catalog_entry(const nlohmann::json& entry) {
    nlohmann::json config = entry.at("config");
    // ModelOpt checkpoints keep their quantisation in a separate hf_quant_config.json.
    if (entry.contains("hf_quant_config") && !config.contains("quantization_config") &&
        entry["hf_quant_config"].value("quantization", nlohmann::json::object()).value("quant_algo", "") == "FP8")
        config["quantization_config"] = {{"quant_method", "modelopt"}, {"quant_algo", "FP8"}};
    auto parsed = model_from_config(config, entry.at("id").get<std::string>());
    if (auto* spec = std::get_if<ModelSpec>(&parsed)) {
        spec->name = entry.at("id").get<std::string>();
        spec->hf_repo = entry.value("hf_repo", std::string());
    }
    return parsed;
}

std::variant<GpuSpec, InputError> gpu_from_catalog_entry(const nlohmann::json& entry) {
    return gpu_from_json(entry, "gpus." + entry.value("id", std::string("?")));
}

const Catalog& builtin_catalog() {
    static const Catalog catalog = parse_catalog();
    return catalog;
}

const ModelSpec* find_model(const std::string& id) {
    for (const auto& m : builtin_catalog().models)
        if (m.name == id) return &m;
    return nullptr;
}

const GpuSpec* find_gpu(const std::string& id) {
    for (const auto& g : builtin_catalog().gpus)
        if (g.name == id) return &g;
    return nullptr;
}

std::string model_ids() { return join_names(builtin_catalog().models); }
std::string gpu_ids() { return join_names(builtin_catalog().gpus); }

namespace {

nlohmann::json models_json() {
    nlohmann::json models = nlohmann::json::array();
    for (const ModelSpec& m : builtin_catalog().models) {
        nlohmann::json entry = model_json(m);
        entry["id"] = m.name;
        entry["params"] = parameter_count(m);
        models.push_back(entry);
    }
    return models;
}

nlohmann::json gpus_json() {
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuSpec& g : builtin_catalog().gpus) gpus.push_back(gpu_to_json(g));
    return gpus;
}

nlohmann::json limits_json() {
    nlohmann::json limits = nlohmann::json::object();
    for (const Field<Scenario>& f : scenario_fields()) {
        nlohmann::json accepted = accepted_values(*f.spec);
        if (!accepted.empty()) limits[f.spec->name] = accepted;  // objects and free text have no list
    }
    return limits;
}

struct Part {
    const char* name;
    nlohmann::json (*make)();
};

const Part parts[] = {
    {"models", models_json},
    {"gpus", gpus_json},
    {"fields", [] { return fields_table_json(scenario_fields(), Scenario{}); }},
    {"workload_fields", [] { return fields_table_json(workload_fields(), Workload{}); }},
    {"limits", limits_json},
    // What the readers take at most, for the page to refuse a paste before copying it in.
    {"input_limits",
     [] {
         return nlohmann::json{{"input_bytes", max_input_bytes}, {"log_bytes", max_log_bytes}, {"json_depth", max_json_depth}};
     }},
    {"defaults", [] { return scenario_to_json(Scenario{}); }},
};

}  // namespace

nlohmann::json catalog_part_json(std::string_view name) {
    for (const Part& part : parts)
        if (name == part.name) return part.make();
    return nullptr;
}

nlohmann::json catalog_to_json() {
    nlohmann::json out = nlohmann::json::object();
    for (const Part& part : parts) out[part.name] = part.make();
    return out;
}

}  // namespace kv
