// The field tables are the one description of every input field: the JSON readers and writers,
// --catalog and the in-memory checks all agree with each row (the knobs and the page scripts are
// checked against the same rows by tests/node/fields.test.mjs and tests/browser/twin.test.mjs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "io/json_io.hpp"
#include "io/plan_json.hpp"
#include "io/simulate_json.hpp"
#include "plan/plan_fields.hpp"
#include "scenario/scenario_fields.hpp"
#include "serving/workload_fields.hpp"

using nlohmann::json;
using namespace kv;

namespace {

// Reads `in` with the struct's own reader: the field and code of its error, or "" when accepted.
template <typename S>
std::pair<std::string, ErrorCode> read_as(const json& in);
template <>
std::pair<std::string, ErrorCode> read_as<Scenario>(const json& in) {
    auto r = scenario_from_json(in);
    if (auto* e = std::get_if<InputError>(&r)) return {e->field, e->code};
    return {"", ErrorCode::malformed_json};
}
template <>
std::pair<std::string, ErrorCode> read_as<Workload>(const json& in) {
    auto r = workload_from_json(in);
    if (auto* e = std::get_if<InputError>(&r)) return {e->field, e->code};
    return {"", ErrorCode::malformed_json};
}
template <>
std::pair<std::string, ErrorCode> read_as<PlanTarget>(const json& in) {
    auto r = plan_target_from_json(in);
    if (auto* e = std::get_if<InputError>(&r)) return {e->field, e->code};
    return {"", ErrorCode::malformed_json};
}

// Every row: the writer writes its default, the reader takes that value back, refuses a value
// just outside its range (or of the wrong type) naming the field, and takes null only when the row
// is nullable; check_fields refuses the same value set in C++.
template <typename S>
void check_table(const std::vector<Field<S>>& fields, const json& written) {
    for (const Field<S>& f : fields) {
        const FieldSpec& spec = *f.spec;
        INFO(spec.name);
        if (std::holds_alternative<std::monostate>(f.member)) continue;  // the struct's own reader's
        REQUIRE(written.contains(spec.name));
        CHECK(read_as<S>({{spec.name, written[spec.name]}}).first.empty());
        CHECK(read_as<S>({{spec.name, nullptr}}).first.empty() == spec.nullable);
        if (spec.type == FieldType::integer || spec.type == FieldType::number) {
            for (double outside : {spec.lo - 1, spec.hi + std::max(1.0, spec.hi * 1e-9)}) {  // past 2^53 a +1 is lost
                const auto [field, code] = read_as<S>({{spec.name, outside}});
                CHECK(field == spec.name);
                CHECK(code == ErrorCode::out_of_range);
                // An unsigned member cannot hold a value below zero: nothing to check in C++.
                if (outside < 0 && std::holds_alternative<uint64_t S::*>(f.member)) continue;
                S s{};
                set_field_number(f, s, outside);
                const auto error = check_fields(fields, s);
                REQUIRE(error);
                CHECK(error->field == spec.name);
            }
            CHECK(read_as<S>({{spec.name, "12"}}).second == ErrorCode::wrong_type);
        }
        if (spec.type == FieldType::boolean) CHECK(read_as<S>({{spec.name, 1}}).first == spec.name);
        if (spec.type == FieldType::choice) {
            CHECK(read_as<S>({{spec.name, "no-such-choice"}}).second == ErrorCode::unknown_value);
            for (const Choice& c : spec.choices) CHECK(read_as<S>({{spec.name, c.value}}).first.empty());
        }
    }
    CHECK(check_fields(fields, S{}) == std::nullopt);
    CHECK(read_as<S>({{"no_such_field", 1}}).second == ErrorCode::unknown_field);
}

}  // namespace

TEST_CASE("every row of the scenario, workload and plan-target tables is read, written and checked as it says") {
    check_table(scenario_fields(), scenario_to_json(Scenario{}));
    check_table(workload_fields(), workload_to_json(Workload{}));
    json plan_defaults = json::object();
    for (const Field<PlanTarget>& f : plan_target_fields()) {
        if (auto v = field_number(f, PlanTarget{})) plan_defaults[f.spec->name] = *v;
        else if (f.spec->type == FieldType::text) plan_defaults[f.spec->name] = field_text(f, PlanTarget{});
        else plan_defaults[f.spec->name] = nullptr;
    }
    check_table(plan_target_fields(), plan_defaults);
}

TEST_CASE("the catalog (kvcache --catalog) exports every row with its range, choices, stops and default") {
    const json catalog = catalog_to_json();
    for (const auto& [table, defaults] :
         {std::pair{"fields", scenario_to_json(Scenario{})}, {"workload_fields", workload_to_json(Workload{})}}) {
        const json& rows = catalog[table];
        size_t count = 0;
        for (const auto& [name, row] : rows.items()) {
            INFO(name);
            const FieldSpec* spec = nullptr;
            for (const auto& f : scenario_fields())
                if (name == f.spec->name) spec = f.spec;
            for (const auto& f : workload_fields())
                if (name == f.spec->name) spec = f.spec;
            REQUIRE(spec);
            CHECK(row["type"] == field_type_name(spec->type));
            CHECK(row["nullable"] == spec->nullable);
            if (spec->type == FieldType::integer || spec->type == FieldType::number) {
                CHECK(row["min"] == spec->lo);
                CHECK(row["max"] == spec->hi);
            }
            CHECK(row.value("stops", json::array()).size() == spec->stops.size());
            CHECK(row.value("choices", json::array()).size() == spec->choices.size());
            if (defaults.contains(name)) CHECK(row["default"] == defaults[name]);
            ++count;
        }
        CHECK(count == (std::string(table) == "fields" ? scenario_fields().size() : workload_fields().size()));
    }
}

TEST_CASE("each part of the catalog alone is the catalog's own key, and an unknown part is null") {
    const json catalog = catalog_to_json();
    CHECK(catalog.size() == 7);
    for (const auto& [name, part] : catalog.items()) {
        INFO(name);
        CHECK(catalog_part_json(name) == part);
    }
    CHECK(catalog_part_json("fields")["prompt_tokens"]["default"] == 4096);
    CHECK(catalog_part_json("defaults") == scenario_to_json(Scenario{}));
    CHECK(catalog_part_json("everything").is_null());
    CHECK(catalog_part_json("").is_null());
}

TEST_CASE("the tensor-parallel sizes and the default release are written once") {
    CHECK(deployed_tensor_parallel_sizes() == std::vector<int64_t>{1, 2, 4, 8});
    CHECK(Scenario{}.vllm_version == default_vllm_version);
    CHECK(PlanTarget{}.vllm_version == default_vllm_version);
    // The knob's stops are the lesson's exact values.
    const auto& prompt = scenario_field("prompt_tokens").stops;
    for (double v : {128.0, 4096.0, 32768.0}) CHECK(std::find(prompt.begin(), prompt.end(), v) != prompt.end());
}

TEST_CASE("a number set into an integer field stops at the type's ends instead of overflowing") {
    CHECK(saturating_integer<int64_t>(1e30) == std::numeric_limits<int64_t>::max());
    CHECK(saturating_integer<int64_t>(-1e30) == std::numeric_limits<int64_t>::min());
    CHECK(saturating_integer<uint64_t>(-1) == 0);
    CHECK(saturating_integer<uint64_t>(std::nan("")) == 0);
    CHECK(saturating_integer<int64_t>(4096.9) == 4096);
    // 1e30 tokens from a knob's twin reaches the row's check as the largest integer, and is refused.
    const auto& fields = scenario_fields();
    const auto row = std::find_if(fields.begin(), fields.end(),
                                  [](const Field<Scenario>& f) { return std::string_view(f.spec->name) == "prompt_tokens"; });
    REQUIRE(row != fields.end());
    Scenario s{};
    set_field_number(*row, s, 1e30);
    const auto error = check_fields(fields, s);
    REQUIRE(error);
    CHECK(error->field == "prompt_tokens");
}
