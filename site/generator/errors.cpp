// The codes' names, where and what, written for people: "file:line:column: code: ...".
#include "errors.hpp"

#include <iterator>

namespace site {

namespace {

// One name per code, in the enum's order (tests/site/test_errors.cpp reads the enum to check).
constexpr const char* code_names[] = {
    "unclosed_binding",
    "empty_binding",
    "bad_directive",
    "unknown_panel_kind",
    "bad_scenario_name",
    "bad_exercise_id",
    "missing_format",
    "bad_format_name",
    "bad_expression",
    "expression_too_complex",
    "no_reference",
    "text_needs_one_field",
    "text_answer",
    "bad_concept_span",
    "bad_anchor",
    "bad_knob",
    "unknown_scenario",
    "unknown_fact",
    "unknown_field",
    "bad_index",
    "not_a_value",
    "failed_scenario_field",
    "grows_with_run",
    "not_a_number",
    "number_as_text",
    "division_by_zero",
    "not_finite",
    "negative_value",
    "unknown_format",
    "bad_scenarios_file",
    "incomplete_base",
    "reserved_name",
    "scenario_rejected",
    "workload_rejected",
    "simulation_failed",
    "bad_facts_file",
    "bad_prices_file",
    "bad_fact",
    "unknown_picture",
    "picture_not_drawable",
    "unknown_concept",
    "duplicate_anchor",
    "unknown_anchor",
    "binding_lost",
    "directive_not_alone",
    "two_panels_in_section",
    "marker_not_alone",
    "marker_without_panel",
    "setup_without_panel",
    "section_without_scenario",
    "section_scenario_unquoted",
    "exercise_without_answer",
    "exercise_not_closed",
    "nested_exercise",
    "duplicate_exercise",
    "answer_outside_exercise",
    "second_answer",
    "answer_off_scenario",
    "unchanged_is_answer",
    "end_without_exercise",
    "directive_in_exercise",
    "heading_in_exercise",
    "exercise_not_in_paragraph",
    "unreadable_file",
    "malformed_json",
    "missing_templates",
    "no_markdown",
    "missing_module",
    "missing_fonts",
    "write_failed",
    "bad_arguments",
};
static_assert(std::size(code_names) == static_cast<size_t>(ErrorCode::bad_arguments) + 1, "a name for every code");

}  // namespace

const char* error_code_name(ErrorCode code) { return code_names[static_cast<size_t>(code)]; }

std::string SourceLocation::str() const {
    if (line == 0) return file;
    return file + ":" + std::to_string(line) + (column == 0 ? "" : ":" + std::to_string(column));
}

BuildError file_error(std::string path, ErrorCode code, std::string message) {
    BuildError e{SourceLocation{std::move(path)}, code, "", std::move(message)};
    return e;
}

std::string BuildError::str() const {
    return where.str() + ": " + error_code_name(code) + ": " + (snippet.empty() ? "" : snippet + ": ") + message;
}

}  // namespace site
