// The built-in catalog (content/data/models.json and gpus.json, embedded by the build) read once
// into model/catalog.hpp's structs, and the catalog with every input field's row as data
// (`kvcache --catalog`, the page's pickers and twin controls).
#pragma once
#include <nlohmann/json.hpp>

#include "model/catalog.hpp"

namespace kv {

// Ids, labels, every input field's row (scenario and workload) and the defaults.
nlohmann::json catalog_to_json();

}  // namespace kv
