// Deep and wide JSON at the core's text boundary: the bytes are a small program that writes JSON
// text (open an object or array, close, a number at the edge of a double, a key, repeat the last
// value thousands of times, nest hundreds deep), placed as a scenario's model_config, as a
// workload and as a whole scenario. The byte-level targets rarely reach either shape; this one
// lands on both every run. Whatever it writes is refused by name or evaluated, never a crash, a
// recursion past the depth limit, or an unbounded allocation (libFuzzer's rss and time limits).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/input_text.hpp"
#include "io/simulate_json.hpp"

namespace {

// One op per byte (its low 3 bits); the following byte, when an op needs one, is its argument.
std::string write_json(const uint8_t* data, size_t size) {
    std::string out;
    std::vector<char> open;  // '{' or '['
    std::vector<bool> first;
    std::string last = "1";
    auto value_slot = [&]() {  // a comma between members, and a key inside an object
        if (open.empty()) return;
        if (!first.back()) out += ',';
        first.back() = false;
        if (open.back() == '{') out += "\"k" + std::to_string(out.size() % 97) + "\":";
    };
    for (size_t i = 0; i < size && out.size() < (1u << 20); ++i) {
        const uint8_t arg = i + 1 < size ? data[i + 1] : 0;
        switch (data[i] & 7) {
            case 0:
            case 1:  // open, up to 300 deep
                if (open.size() >= 300) break;
                value_slot();
                open.push_back((data[i] & 7) == 0 ? '{' : '[');
                first.push_back(true);
                out += open.back();
                break;
            case 2:  // close
                if (open.empty()) break;
                out += open.back() == '{' ? '}' : ']';
                open.pop_back();
                first.pop_back();
                break;
            case 3: {  // a number: ordinary, at a double's edge, or beyond it
                static const char* const edges[] = {"0", "-1", "1e308", "1e400", "-1e400", "4.9e-324", "9007199254740993", "1e-400"};
                value_slot();
                char text[32];
                std::snprintf(text, sizeof text, "%d", static_cast<int>(arg) * 1000);
                last = arg & 1 ? edges[arg >> 5] : text;
                out += last;
                ++i;
                break;
            }
            case 4:  // a string, or a field name the readers know
                value_slot();
                last = arg & 1 ? "\"hidden_size\"" : "\"Qwen3-8B\"";
                out += last;
                ++i;
                break;
            case 5:  // repeat the last value, up to 8,192 times: wide
                for (int n = 0; n < 32 * (arg + 1) && out.size() < (1u << 20); ++n) {
                    value_slot();
                    out += last;
                }
                ++i;
                break;
            case 6:
                value_slot();
                out += arg & 1 ? "null" : "true";
                ++i;
                break;
            default:  // nest straight down, 32 to 256 levels at once: deep
                for (int n = 0; n < 32 * (1 + (arg & 7)) && open.size() < 300; ++n) {
                    value_slot();
                    open.push_back('[');
                    first.push_back(true);
                    out += '[';
                }
                ++i;
        }
    }
    while (!open.empty()) {
        out += open.back() == '{' ? '}' : ']';
        open.pop_back();
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string shape = write_json(data, size);
    for (const std::string& text : {"{\"model_config\":" + shape + "}", shape}) {
        auto parsed = kv::parse_input_text(text, "scenario");
        if (!std::holds_alternative<nlohmann::json>(parsed)) continue;  // refused by name: size, depth, syntax
        const nlohmann::json& json = std::get<nlohmann::json>(parsed);
        auto scenario = kv::scenario_from_json(json);
        if (auto* s = std::get_if<kv::Scenario>(&scenario)) {
            s->max_model_len = 4096;
            auto outcome = kv::evaluate(*s);
            if (auto* r = std::get_if<kv::Result>(&outcome)) kvfuzz::check_result(*r);
        }
        (void)kv::workload_from_json(json);
    }
    return 0;
}
