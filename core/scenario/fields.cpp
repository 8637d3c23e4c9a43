#include "scenario/fields.hpp"

#include <cmath>

#include "base/format.hpp"
#include "engine/engine_rules.hpp"
#include "model/catalog.hpp"

namespace kv {

const char* field_type_name(FieldType type) {
    static const char* const names[] = {"integer", "number", "boolean", "choice", "text", "object"};
    return names[static_cast<int>(type)];
}

std::string accepted_words(const FieldSpec& spec) {
    switch (spec.type) {
        case FieldType::integer:
            return "a whole number from " + format_count(static_cast<int64_t>(spec.lo)) + " to " +
                   format_count(static_cast<int64_t>(spec.hi));
        case FieldType::number:
            return "a number from " + format_fixed(spec.lo, spec.decimals) + " to " + format_fixed(spec.hi, spec.decimals);
        case FieldType::boolean:
            return "true or false";
        case FieldType::choice:
            return spec.choice_words;
        case FieldType::text:
            if (spec.rule == TextRule::model_id) return "one of " + model_ids();
            if (spec.rule == TextRule::gpu_id) return "one of " + gpu_ids();
            break;
        case FieldType::object:
            break;
    }
    return spec.choice_words;
}

InputError out_of_range(const FieldSpec& spec, const std::string& field, const std::string& shown) {
    return {field, ErrorCode::out_of_range, field + " is " + shown + "; it must be " + accepted_words(spec)};
}

InputError wrong_type(const FieldSpec& spec, const std::string& field) {
    return {field, ErrorCode::wrong_type, field + " must be " + accepted_words(spec)};
}

InputError unknown_choice(const FieldSpec& spec, const std::string& field) {
    return {field, ErrorCode::unknown_value, field + " must be " + accepted_words(spec)};
}

std::optional<size_t> choice_index(const FieldSpec& spec, std::string_view value) {
    if (*spec.alias && value == spec.alias) return 0;
    for (size_t i = 0; i < spec.choices.size(); ++i)
        if (value == spec.choices[i].value) return i;
    return std::nullopt;
}

std::optional<InputError> check_text(const FieldSpec& spec, const std::string& field, const std::string& value) {
    switch (spec.rule) {
        case TextRule::model_id:
            if (!find_model(value))
                return InputError{field, ErrorCode::unknown_value,
                                  field + " \"" + format_excerpt(value) + "\" is not known; use one of " + model_ids()};
            break;
        case TextRule::gpu_id:
            if (!find_gpu(value))
                return InputError{field, ErrorCode::unknown_value,
                                  field + " \"" + format_excerpt(value) + "\" is not known; use one of " + gpu_ids()};
            break;
        case TextRule::vllm_version: {
            const auto v = parse_engine_version(value);
            if (!v) return InputError{field, ErrorCode::unknown_value, field + " must be " + spec.choice_words};
            if (*v < oldest_modelled_version) return InputError{field, ErrorCode::out_of_range, field + " must be " + spec.choice_words};
            break;
        }
        case TextRule::none:
            break;
    }
    return std::nullopt;
}

std::optional<InputError> check_integer(const FieldSpec& spec, const std::string& field, int64_t value) {
    if (static_cast<double>(value) < spec.lo || static_cast<double>(value) > spec.hi)
        return out_of_range(spec, field, std::to_string(value));
    return std::nullopt;
}

std::optional<InputError> check_number(const FieldSpec& spec, const std::string& field, double value) {
    if (!std::isfinite(value) || value < spec.lo || value > spec.hi) return out_of_range(spec, field, format_significant(value, 6));
    return std::nullopt;
}

std::string stop_text(const FieldSpec& spec, double value) {
    if (value == 0 && *spec.zero_text) return spec.zero_text;
    const std::string number = spec.type == FieldType::integer ? format_count(static_cast<int64_t>(value)) : format_significant(value, 3);
    return number + spec.stop_suffix;
}

}  // namespace kv
