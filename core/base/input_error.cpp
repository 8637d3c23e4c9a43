#include "base/input_error.hpp"

namespace kv {

const char* error_code_name(ErrorCode code) {
    static const char* const names[] = {"malformed_json", "wrong_type",    "unknown_field",       "unknown_value",
                                        "out_of_range",   "missing_field", "inconsistent_config", "internal_error"};
    return names[static_cast<int>(code)];
}

}  // namespace kv
