#include "scenario/scenario.hpp"

namespace kv {

int bytes_per_element(DType dtype) { return dtype == DType::fp8 ? 1 : 2; }
const char* dtype_name(DType dtype) { return dtype == DType::fp8 ? "fp8" : "bf16"; }
const char* entry_name(Entry entry) { return entry == Entry::offline ? "offline" : "serve"; }

}  // namespace kv
