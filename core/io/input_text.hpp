// Untrusted JSON text, parsed once with the checks every reader needs before it looks at a value:
// a size cap, no NUL bytes, no key given twice in one object (the last would silently win) and no
// nesting deeper than max_json_depth (nothing recursive ever sees an unbounded depth: the copy,
// the writer and the destructor of a parsed tree recurse).
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "base/input_error.hpp"

namespace kv {

inline constexpr size_t max_input_bytes = 1 << 20;  // a scenario, even with a config.json inside, is a few kilobytes
inline constexpr int max_json_depth = 64;           // a config.json nests 3 or 4 deep
// A start-up log is tens of kilobytes; 4 MiB still holds hours of request lines after it.
inline constexpr size_t max_log_bytes = 4 << 20;

// `what` names the text in messages and errors ("scenario", "workload", "plan").
std::variant<nlohmann::json, InputError> parse_input_text(const std::string& text, const char* what, size_t max_bytes = max_input_bytes);

// An answer as JSON text. A string that is not UTF-8 (a log line or model name echoed from a paste)
// is written with U+FFFD in place of its bad bytes: the writer's default throws on it, and the page's
// module is built without exceptions.
inline std::string json_text(const nlohmann::json& value, int indent = -1) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kv
