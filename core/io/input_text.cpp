#include "io/input_text.hpp"

#include <algorithm>
#include <vector>

#include "base/format.hpp"

namespace kv {

using nlohmann::json;

std::variant<json, InputError> parse_input_text(const std::string& text, const char* what, size_t max_bytes) {
    const std::string name = what;
    if (text.size() > max_bytes)
        return InputError{name, ErrorCode::out_of_range,
                          "the " + name + " is " + format_count(static_cast<int64_t>(text.size())) + " bytes; at most " +
                              format_count(static_cast<int64_t>(max_bytes)) + " are read"};
    if (text.find('\0') != std::string::npos)
        return InputError{name, ErrorCode::malformed_json, "the " + name + " contains a NUL byte; it must be JSON text"};
    std::vector<std::vector<std::string>> keys_by_depth;
    std::string duplicate;
    bool too_deep = false;
    const json::parser_callback_t watch = [&](int depth, json::parse_event_t event, json& value) {
        const auto level = static_cast<size_t>(depth);
        if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) {
            // Discarding the value keeps the tree shallow; the parser itself is not recursive.
            if (depth >= max_json_depth) {
                too_deep = true;
                return false;
            }
            if (event == json::parse_event_t::object_start) {
                if (keys_by_depth.size() <= level + 1) keys_by_depth.resize(level + 2);
                keys_by_depth[level + 1].clear();
            }
        } else if (event == json::parse_event_t::key && duplicate.empty()) {
            if (keys_by_depth.size() <= level) keys_by_depth.resize(level + 1);
            auto& seen = keys_by_depth[level];
            const std::string key = value.get<std::string>();
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) duplicate = key;
            else seen.push_back(key);
        }
        return true;
    };
    // A pointer range, as the catalog's text is parsed: one instantiation of the parser in the module.
    json parsed = json::parse(text.data(), text.data() + text.size(), watch, false);
    if (too_deep)
        return InputError{name, ErrorCode::out_of_range,
                          "the " + name + " nests objects or arrays more than " + std::to_string(max_json_depth) + " deep"};
    if (parsed.is_discarded()) return InputError{name, ErrorCode::malformed_json, "the " + name + " is not valid JSON"};
    if (!duplicate.empty()) {
        const std::string shown = format_excerpt(duplicate);
        return InputError{shown, ErrorCode::malformed_json, "\"" + shown + "\" is given twice; give each field once"};
    }
    return parsed;
}

}  // namespace kv
