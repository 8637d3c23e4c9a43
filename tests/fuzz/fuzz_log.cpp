// The vLLM log parser and explainer: any text in; an error or an explanation whose result keeps
// the invariants out.
#include <string_view>

#include "fuzz_common.hpp"
#include "io/explain_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto outcome = kv::explain_log_json(text, {{"model", "Qwen3-8B"}});
    if (auto* x = std::get_if<kv::LogExplanation>(&outcome)) {
        kvfuzz::check_result(x->result);
        kvfuzz::all_finite(kv::explanation_to_json(*x));
    }
    return 0;
}
