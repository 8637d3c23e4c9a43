// The scenario parser and the whole evaluation: any text in; an error or a result that keeps the
// invariants out.
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto outcome = kv::evaluate_text(text);
    if (auto* r = std::get_if<kv::Result>(&outcome)) kvfuzz::check_result(*r);
    return 0;
}
