#include "io/fields_json.hpp"

#include <cmath>

#include "base/format.hpp"

namespace kv {

using nlohmann::json;

namespace {
InputError fail(std::string field, ErrorCode code, std::string message) { return InputError{std::move(field), code, std::move(message)}; }
}  // namespace

// A whole number within [lo, hi]; JSON floats such as 4096.0 count, 1e30 and 4.5 do not.
std::variant<int64_t, InputError> read_integer(const json& value, const std::string& field, int64_t lo, int64_t hi) {
    const std::string range = "a whole number from " + format_count(lo) + " to " + format_count(hi);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
        return fail(field, ErrorCode::out_of_range, field + " is " + value.dump() + "; it must be " + range);
    return static_cast<int64_t>(v);
}

std::variant<double, InputError> read_number(const json& value, const std::string& field, double lo, double hi, int decimals) {
    const std::string range = "a number from " + format_fixed(lo, decimals) + " to " + format_fixed(hi, decimals);
    if (!value.is_number()) return fail(field, ErrorCode::wrong_type, field + " must be " + range);
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        return fail(field, ErrorCode::out_of_range, field + " is " + value.dump() + "; it must be " + range);
    return v;
}

InputError unknown_key(const std::string& key, const char* what, const std::string& names) {
    const std::string shown = format_excerpt(key);
    const std::string message = "\"" + shown + "\" is not a " + what + " field";
    return fail(shown, ErrorCode::unknown_field, names.size() <= 120 ? message + "; use " + names : message);
}

namespace fields_json_detail {

namespace {
template <typename T, typename Out>
std::optional<InputError> take(std::variant<T, InputError> parsed, Out& out) {
    if (auto* error = std::get_if<InputError>(&parsed)) return *error;
    out = static_cast<Out>(std::get<T>(parsed));
    return std::nullopt;
}
}  // namespace

std::optional<InputError> read_value(const FieldSpec& spec, const json& value, int64_t& out) {
    return take(read_integer(value, spec.name, static_cast<int64_t>(spec.lo), static_cast<int64_t>(spec.hi)), out);
}
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, uint64_t& out) {
    return take(read_integer(value, spec.name, static_cast<int64_t>(spec.lo), static_cast<int64_t>(spec.hi)), out);
}
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, double& out) {
    return take(read_number(value, spec.name, spec.lo, spec.hi, spec.decimals), out);
}
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, bool& out) {
    if (!value.is_boolean()) return wrong_type(spec, spec.name);
    out = value.get<bool>();
    return std::nullopt;
}
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, std::string& out) {
    if (!value.is_string()) return wrong_type(spec, spec.name);
    const std::string text = value.get<std::string>();
    if (spec.type == FieldType::choice && !choice_index(spec, text)) return unknown_choice(spec, spec.name);
    if (auto error = check_text(spec, spec.name, text)) return error;
    out = text;
    return std::nullopt;
}

namespace {
template <typename Enum>
std::optional<InputError> read_enum(const FieldSpec& spec, const json& value, Enum& out) {
    if (!value.is_string()) return wrong_type(spec, spec.name);
    const auto index = choice_index(spec, value.get<std::string>());
    if (!index) return unknown_choice(spec, spec.name);
    out = static_cast<Enum>(*index);
    return std::nullopt;
}
}  // namespace

std::optional<InputError> read_value(const FieldSpec& spec, const json& value, DType& out) { return read_enum(spec, value, out); }
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, Entry& out) { return read_enum(spec, value, out); }
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, ModelSpec& out) {
    return take(model_from_config(value, spec.name), out);
}
std::optional<InputError> read_value(const FieldSpec& spec, const json& value, GpuSpec& out) {
    return take(gpu_from_json(value, spec.name), out);
}

json write_value(const FieldSpec& spec, DType v) { return spec.choices[static_cast<size_t>(v)].value; }
json write_value(const FieldSpec& spec, Entry v) { return spec.choices[static_cast<size_t>(v)].value; }

}  // namespace fields_json_detail

json field_spec_json(const FieldSpec& spec) {
    json row = {{"type", field_type_name(spec.type)}, {"nullable", spec.nullable}, {"label", spec.label}, {"help", spec.help}};
    if (spec.type == FieldType::integer || spec.type == FieldType::number) {
        row["min"] = spec.lo;
        row["max"] = spec.hi;
        row["decimals"] = spec.decimals;
        if (spec.knob_hi > spec.knob_lo) row["knob_range"] = {spec.knob_lo, spec.knob_hi};
    }
    if (!spec.choices.empty()) {
        json choices = json::array();
        for (const Choice& c : spec.choices) choices.push_back({{"value", c.value}, {"label", c.label}, {"note", c.note}});
        row["choices"] = choices;
    }
    if (*spec.alias) row["alias"] = spec.alias;
    if (!spec.stops.empty()) {
        json stops = json::array();
        for (double v : spec.stops) stops.push_back({{"value", v}, {"text", stop_text(spec, v)}});
        row["stops"] = stops;
    }
    if (*spec.unit) row["unit"] = spec.unit;
    if (*spec.flag) row["flag"] = spec.flag;
    return row;
}

}  // namespace kv
