// The built-in catalog (content/data/models.json and gpus.json, embedded by the build) read once
// into model/catalog.hpp's structs, and the catalog with every input field's row as data
// (`kvcache --catalog`, the page's pickers and twin controls).
#pragma once
#include <nlohmann/json.hpp>
#include <string_view>
#include <variant>

#include "base/input_error.hpp"

#include "model/catalog.hpp"

namespace kv {

// Ids, labels, every input field's row (scenario and workload) and the defaults.
nlohmann::json catalog_to_json();

// One of catalog_to_json's keys ("fields", "defaults", "models"...) alone, for a reader that needs
// no more (the page's in-text knobs need the fields, its twins the defaults); null for another name.
nlohmann::json catalog_part_json(std::string_view name);

// One entry of models.json's "models" (its id, hf_repo, config and, for ModelOpt checkpoints,
// hf_quant_config) or of gpus.json's "gpus", as the built-in catalog reads it.
std::variant<ModelSpec, InputError> model_from_catalog_entry(const nlohmann::json& entry);
std::variant<GpuSpec, InputError> gpu_from_catalog_entry(const nlohmann::json& entry);

}  // namespace kv
