// The text of content/data/models.json and gpus.json, embedded by the build (catalog_data.cpp is
// generated from catalog_data.cpp.in).
#pragma once

namespace kv {
extern const char* const builtin_models_json;
extern const char* const builtin_gpus_json;
}  // namespace kv
