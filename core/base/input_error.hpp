// Bad input, reported as data: which field, an enumerated id that tests match on, and a message
// for people that names the field and the allowed range. Nothing in core/ throws past evaluate().
#pragma once
#include <string>

namespace kv {

enum class ErrorCode {
    malformed_json,       // the text is not JSON at all
    wrong_type,           // a field has the wrong JSON type
    unknown_field,        // a scenario field this model does not know
    unknown_value,        // a model/GPU id or dtype that is not in the catalog
    out_of_range,         // a number outside its allowed range
    missing_field,        // a required config.json field is absent
    inconsistent_config,  // config.json values that contradict each other
    internal_error,       // not the input: the page's module stopped (memory ran out); kvpanels.js says it
};

const char* error_code_name(ErrorCode code);

struct InputError {
    std::string field;  // scenario field, or "model_config.<key>" for config.json
    ErrorCode code = ErrorCode::out_of_range;
    std::string message;
};

}  // namespace kv
