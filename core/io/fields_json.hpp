// JSON over a field table (scenario/fields.hpp): one reader and one writer for every input struct
// (scenario, workload, plan target), and the table itself as data for --catalog and the page.
// A missing field keeps the base's value; null resets a nullable one; every rejection names the
// field and what it takes.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/input_error.hpp"
#include "scenario/fields.hpp"

namespace kv {

// One JSON number for `field` within [lo, hi] (whole for read_integer), or an InputError naming the range.
std::variant<int64_t, InputError> read_integer(const nlohmann::json& value, const std::string& field, int64_t lo, int64_t hi);
std::variant<double, InputError> read_number(const nlohmann::json& value, const std::string& field, double lo, double hi, int decimals = 2);

// A config.json as published (config_json.cpp) and a GPU description (gpu_json.cpp).
std::variant<ModelSpec, InputError> model_from_config(const nlohmann::json& config, const std::string& field_prefix);
std::variant<GpuSpec, InputError> gpu_from_json(const nlohmann::json& entry, const std::string& field_prefix);
nlohmann::json model_to_config(const ModelSpec& model);  // reads back to the same ModelSpec
nlohmann::json gpu_to_json(const GpuSpec& gpu);

// A key no row names: at most 60 characters of it are echoed, and the field names when they are few.
InputError unknown_key(const std::string& key, const char* what, const std::string& names);
template <typename S>
std::string field_names(const std::vector<Field<S>>& fields) {
    std::string out;
    for (const Field<S>& f : fields) out += (out.empty() ? "" : ", ") + std::string(f.spec->name);
    return out;
}

namespace fields_json_detail {

std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, int64_t& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, uint64_t& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, double& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, bool& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, std::string& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, DType& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, Entry& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, ModelSpec& out);
std::optional<InputError> read_value(const FieldSpec& spec, const nlohmann::json& value, GpuSpec& out);

inline nlohmann::json write_value(const FieldSpec&, int64_t v) { return v; }
inline nlohmann::json write_value(const FieldSpec&, uint64_t v) { return v; }
inline nlohmann::json write_value(const FieldSpec&, double v) { return v; }
inline nlohmann::json write_value(const FieldSpec&, bool v) { return v; }
inline nlohmann::json write_value(const FieldSpec&, const std::string& v) { return v; }
nlohmann::json write_value(const FieldSpec& spec, DType v);
nlohmann::json write_value(const FieldSpec& spec, Entry v);
inline nlohmann::json write_value(const FieldSpec&, const ModelSpec& v) { return model_to_config(v); }
inline nlohmann::json write_value(const FieldSpec&, const GpuSpec& v) { return gpu_to_json(v); }

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

}  // namespace fields_json_detail

// One field's JSON value into `s` (null resets a nullable field).
template <typename S>
std::optional<InputError> read_field(const Field<S>& field, const nlohmann::json& value, S& s) {
    using namespace fields_json_detail;
    return std::visit(
        [&](auto member) -> std::optional<InputError> {
            using Member = decltype(member);
            if constexpr (std::is_same_v<Member, std::monostate>) {
                return std::nullopt;  // the struct's own reader handles it
            } else {
                auto& target = s.*member;
                using T = std::remove_reference_t<decltype(target)>;
                if constexpr (IsOptional<T>::value) {
                    if (value.is_null() && field.spec->nullable) {
                        target.reset();
                        return std::nullopt;
                    }
                    typename T::value_type parsed{};
                    if (auto error = read_value(*field.spec, value, parsed)) return error;
                    target = std::move(parsed);
                    return std::nullopt;
                } else {
                    T parsed{};
                    if (auto error = read_value(*field.spec, value, parsed)) return error;
                    target = std::move(parsed);
                    return std::nullopt;
                }
            }
        },
        field.member);
}

// Every key of `in` through its row, in the text's order; a key whose row has no member goes to
// `own` (the struct's own reader), one with no row is refused as not a `what` field. `subject`
// names the whole object in errors ("scenario", "plan").
struct NoOwnKeys {
    std::optional<InputError> operator()(const std::string&, const nlohmann::json&) const { return std::nullopt; }
};
template <typename S, typename Own = NoOwnKeys>
std::optional<InputError> read_fields(const std::vector<Field<S>>& fields, const nlohmann::json& in, S& s, const char* subject,
                                      const char* what, const Own& own = {}) {
    if (!in.is_object()) return InputError{subject, ErrorCode::wrong_type, std::string("the ") + what + " must be a JSON object"};
    for (const auto& [key, value] : in.items()) {
        const Field<S>* field = find_field(fields, key);
        std::optional<InputError> error;
        if (field && !std::holds_alternative<std::monostate>(field->member)) error = read_field(*field, value, s);
        else if (field) error = own(key, value);
        else error = unknown_key(key, what, field_names(fields));
        if (error) return error;
    }
    return std::nullopt;
}

// Every field of `s` as JSON (an unset optional as null).
template <typename S>
nlohmann::json write_fields(const std::vector<Field<S>>& fields, const S& s) {
    using namespace fields_json_detail;
    nlohmann::json out = nlohmann::json::object();
    for (const Field<S>& field : fields)
        std::visit(
            [&](auto member) {
                if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
                    const auto& v = s.*member;
                    using T = std::remove_cv_t<std::remove_reference_t<decltype(v)>>;
                    if constexpr (IsOptional<T>::value) out[field.spec->name] = v ? write_value(*field.spec, *v) : nlohmann::json(nullptr);
                    else out[field.spec->name] = write_value(*field.spec, v);
                }
            },
            field.member);
    return out;
}

// The rows as data: {name: {type, min, max, decimals, nullable, choices, stops, unit, flag, label,
// help, default}} with `defaults` giving each field's default.
nlohmann::json field_spec_json(const FieldSpec& spec);
template <typename S>
nlohmann::json fields_table_json(const std::vector<Field<S>>& fields, const S& defaults) {
    nlohmann::json out = nlohmann::json::object();
    const nlohmann::json values = write_fields(fields, defaults);
    int order = 0;
    for (const Field<S>& f : fields) {
        nlohmann::json row = field_spec_json(*f.spec);
        row["order"] = order++;
        row["default"] = values.contains(f.spec->name) ? values[f.spec->name] : nlohmann::json(nullptr);
        out[f.spec->name] = row;
    }
    return out;
}

}  // namespace kv
