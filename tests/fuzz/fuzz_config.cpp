// The config.json reader: any text as model_config, evaluated on an H100 when it is accepted.
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto config =
        nlohmann::json::parse(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size, nullptr, false);
    if (config.is_discarded()) return 0;
    auto model = kv::model_from_config(config, "model_config");
    if (!std::holds_alternative<kv::ModelSpec>(model)) return 0;
    kv::Scenario s;
    s.model_config = std::get<kv::ModelSpec>(model);
    s.max_model_len = 4096;
    auto outcome = kv::evaluate(s);
    if (auto* r = std::get_if<kv::Result>(&outcome)) kvfuzz::check_result(*r);
    return 0;
}
