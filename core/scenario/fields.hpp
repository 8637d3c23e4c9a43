// The field-table machinery: one row per field of an input struct (a scenario, a workload, a plan
// target) naming the field, its type, its range or choices, the knob's stops, unit, flag and help.
// The JSON reader and writer (io/fields_json.hpp), --catalog, the panels' knobs and the page
// scripts all read the rows, so a field's range and default are written once. No JSON here.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/input_error.hpp"
#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

enum class FieldType { integer, number, boolean, choice, text, object };
const char* field_type_name(FieldType type);

// What a text field must name; its choices are then suggestions for pickers, not a constraint.
enum class TextRule { none, model_id, gpu_id, vllm_version };

struct Choice {
    const char* value;      // as JSON writes it
    const char* label;      // the panels' text
    const char* note = "";  // what it changes, for pickers
};

// Powers of two and their quarter steps (x1, x1.25, x1.5, x1.75, rounded to whole numbers) from lo
// to hi, both included, worked out by the compiler so a row's stops are constant data.
struct LogStops {
    double values[128] = {};
    size_t count = 0;
    constexpr std::span<const double> span() const { return {values, count}; }
};
constexpr LogStops log_stops(int64_t lo, int64_t hi) {
    LogStops out;
    auto add = [&out](int64_t v) {
        size_t at = 0;
        while (at < out.count && out.values[at] < static_cast<double>(v)) ++at;
        if (at < out.count && out.values[at] == static_cast<double>(v)) return;
        for (size_t k = out.count; k > at; --k) out.values[k] = out.values[k - 1];
        out.values[at] = static_cast<double>(v);
        ++out.count;
    };
    add(lo);
    add(hi);
    for (int e = 0; e < 40; ++e)
        for (int64_t quarters = 4; quarters <= 7; ++quarters) {
            const int64_t v = ((quarters << e) + 2) / 4;  // round(quarters / 4 x 2^e), halves up
            if (v >= lo && v <= hi) add(v);
        }
    return out;
}

struct FieldSpec {
    const char* name = "";
    FieldType type = FieldType::integer;
    double lo = 0, hi = 0;  // integers and numbers: the inclusive range the readers accept
    int decimals = 0;       // numbers: how messages and knobs print them
    bool nullable = false;  // null (or unset): the engine's default, or no such object
    TextRule rule = TextRule::none;
    std::span<const Choice> choices = {};  // choice fields: the allowed values in enum order; text fields: suggestions
    const char* alias = "";                // a choice field: another word the reader takes for the first choice ("auto")
    const char* choice_words = "";         // how a message lists the choices
    // The knob: its positions (log-spaced or round numbers), or a plain range when empty.
    std::span<const double> stops = {};
    double knob_lo = 0, knob_hi = 0;  // a plain-range knob narrower than the accepted range (0, 0: the range)
    const char* stop_suffix = "";     // after a stop's number ("tokens")
    const char* zero_text = "";       // a stop at 0 that means something else ("burst (all at once)")
    const char* unit = "";
    const char* flag = "";   // vLLM's engine argument ("--max-num-seqs"); "" when the field is not one
    const char* label = "";  // the panels' label; a row without one has no knob
    const char* help = "";   // the panels' (?) tooltip, in vLLM's terms
};

// Where a field lives in its struct. std::monostate: a field the struct's own reader handles (a
// workload's explicit request list).
template <typename S>
using FieldMember =
    std::variant<std::monostate, int64_t S::*, std::optional<int64_t> S::*, uint64_t S::*, double S::*, std::optional<double> S::*,
                 bool S::*, std::string S::*, DType S::*, Entry S::*, std::optional<ModelSpec> S::*, std::optional<GpuSpec> S::*>;

template <typename S>
struct Field {
    const FieldSpec* spec;
    FieldMember<S> member;
};

template <typename S>
const Field<S>* find_field(const std::vector<Field<S>>& fields, std::string_view name) {
    for (const Field<S>& f : fields)
        if (name == f.spec->name) return &f;
    return nullptr;
}

// "a whole number from 1 to 1,048,576", "a number from 0.05 to 1.00", "true or false", ...: what
// the field takes, in the words every message uses.
std::string accepted_words(const FieldSpec& spec);
// The message for a value outside the field's range: "<field> is <shown>; it must be <accepted>".
InputError out_of_range(const FieldSpec& spec, const std::string& field, const std::string& shown);
InputError wrong_type(const FieldSpec& spec, const std::string& field);
// A text that is not one of a choice field's values (ErrorCode::unknown_value).
InputError unknown_choice(const FieldSpec& spec, const std::string& field);
// A text field's value checked against its rule (a catalog id, a modelled vLLM release).
std::optional<InputError> check_text(const FieldSpec& spec, const std::string& field, const std::string& value);
// The index of `value` among a choice field's choices (its alias counts as the first), if any.
std::optional<size_t> choice_index(const FieldSpec& spec, std::string_view value);

// Every field of a struct built in C++ checked against its row, as the JSON reader would.
template <typename S>
std::optional<InputError> check_fields(const std::vector<Field<S>>& fields, const S& s);

// A stop as a knob shows it: "4,096", "2,000 tokens", "8 requests/s", "burst (all at once)".
std::string stop_text(const FieldSpec& spec, double value);

// One value range-checked: an integer in [lo, hi], a finite number in [lo, hi].
std::optional<InputError> check_integer(const FieldSpec& spec, const std::string& field, int64_t value);
std::optional<InputError> check_number(const FieldSpec& spec, const std::string& field, double value);

// A field's value read and written through its row, as the knobs and their page twins do:
// numbers (an unset optional reads as nullopt, and nullopt unsets it), flags, and text (a choice
// field's value as JSON writes it, or a text field's text).
template <typename S>
std::optional<double> field_number(const Field<S>& f, const S& s) {
    if (auto* m = std::get_if<int64_t S::*>(&f.member)) return static_cast<double>(s.**m);
    if (auto* um = std::get_if<uint64_t S::*>(&f.member)) return static_cast<double>(s.**um);
    if (auto* dm = std::get_if<double S::*>(&f.member)) return s.**dm;
    if (auto* om = std::get_if<std::optional<int64_t> S::*>(&f.member))
        return (s.**om) ? std::optional<double>(static_cast<double>(*(s.**om))) : std::nullopt;
    if (auto* odm = std::get_if<std::optional<double> S::*>(&f.member)) return s.**odm;
    return std::nullopt;
}
// A number into an integer member with no undefined behaviour: NaN reads 0 and a value past the
// type's ends stops there (the row's check then refuses it; clang's UBSan caught -1 into a seed).
template <typename I>
I saturating_integer(double v) {
    if (std::isnan(v)) return 0;
    if (v <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (v >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(v);
}
template <typename S>
void set_field_number(const Field<S>& f, S& s, std::optional<double> v) {
    if (auto* m = std::get_if<int64_t S::*>(&f.member)) s.** m = saturating_integer<int64_t>(v.value_or(0));
    else if (auto* um = std::get_if<uint64_t S::*>(&f.member)) s.** um = saturating_integer<uint64_t>(v.value_or(0));
    else if (auto* dm = std::get_if<double S::*>(&f.member)) s.** dm = v.value_or(0);
    else if (auto* om = std::get_if<std::optional<int64_t> S::*>(&f.member))
        s.** om = v ? std::optional<int64_t>(saturating_integer<int64_t>(*v)) : std::nullopt;
    else if (auto* odm = std::get_if<std::optional<double> S::*>(&f.member)) s.** odm = v;
}
template <typename S>
bool field_flag(const Field<S>& f, const S& s) {
    auto* m = std::get_if<bool S::*>(&f.member);
    return m && s.**m;
}
template <typename S>
void set_field_flag(const Field<S>& f, S& s, bool v) {
    if (auto* m = std::get_if<bool S::*>(&f.member)) s.** m = v;
}
template <typename S>
std::string field_text(const Field<S>& f, const S& s) {
    if (auto* m = std::get_if<std::string S::*>(&f.member)) return s.**m;
    if (auto* dm = std::get_if<DType S::*>(&f.member)) return f.spec->choices[static_cast<size_t>(s.**dm)].value;
    if (auto* em = std::get_if<Entry S::*>(&f.member)) return f.spec->choices[static_cast<size_t>(s.**em)].value;
    return "";
}
template <typename S>
void set_field_text(const Field<S>& f, S& s, const std::string& v) {
    const size_t index = choice_index(*f.spec, v).value_or(0);
    if (auto* m = std::get_if<std::string S::*>(&f.member)) s.** m = v;
    else if (auto* dm = std::get_if<DType S::*>(&f.member)) s.** dm = static_cast<DType>(index);
    else if (auto* em = std::get_if<Entry S::*>(&f.member)) s.** em = static_cast<Entry>(index);
}

template <typename S>
std::optional<InputError> check_fields(const std::vector<Field<S>>& fields, const S& s) {
    for (const Field<S>& f : fields) {
        const FieldSpec& spec = *f.spec;
        std::optional<InputError> error;
        if (auto* m = std::get_if<int64_t S::*>(&f.member)) error = check_integer(spec, spec.name, s.**m);
        else if (auto* om = std::get_if<std::optional<int64_t> S::*>(&f.member)) {
            if ((s.**om).has_value()) error = check_integer(spec, spec.name, *(s.**om));
        } else if (auto* um = std::get_if<uint64_t S::*>(&f.member)) error = check_number(spec, spec.name, static_cast<double>(s.**um));
        else if (auto* dm = std::get_if<double S::*>(&f.member)) error = check_number(spec, spec.name, s.**dm);
        else if (auto* odm = std::get_if<std::optional<double> S::*>(&f.member)) {
            if ((s.**odm).has_value()) error = check_number(spec, spec.name, *(s.**odm));
        } else if (auto* tm = std::get_if<std::string S::*>(&f.member)) {
            if (spec.type == FieldType::choice && !choice_index(spec, s.**tm)) error = unknown_choice(spec, spec.name);
            else if (spec.type == FieldType::text) error = check_text(spec, spec.name, s.**tm);
        }
        if (error) return error;
    }
    return std::nullopt;
}

}  // namespace kv
