// The generator's errors: an enumerated code that tests match on, a place in the lesson (a Markdown
// file's line and column, or just a file) and a message for the people who write the lesson, which
// says what is wrong and what would be right. Each part of the generator answers with an Error (a
// code and a message); whoever knows where it stands makes a BuildError of it, printed as
//   01-bad.md:5:50: unknown_field: {{start.ttft | ms0}}: unknown field "ttft" in start (fields: ...)
#pragma once
#include <string>

namespace site {

enum class ErrorCode {
    // markdown/: an extension as written
    unclosed_binding,        // "{{" with no "}}" on its line
    empty_binding,           // "{{ }}"
    bad_directive,           // a directive with the wrong words: {{panel admission}}, {{end}}
    unknown_panel_kind,      // {{panel roofline start}}
    bad_scenario_name,       // not a name, or a reserved word (fact, panel, embed, picture)
    bad_exercise_id,         // {{exercise 9x start}}
    missing_format,          // a figure without "| format"
    bad_format_name,         // "| 3d"
    bad_expression,          // arithmetic that does not parse
    expression_too_complex,  // parentheses more than 16 deep, or more than 32 operators
    no_reference,            // a figure that reads no scenario field and no fact
    text_needs_one_field,    // the text format over arithmetic
    text_answer,             // an exercise's answer in the text format
    bad_concept_span,        // [text]{.concept} with no text or a bad name
    bad_anchor,              // [text]{dfn=ID} or {ref=ID} with no text or a bad id
    bad_knob,                // "| count knob" on arithmetic or a result field, or a field with no knob
    // figures/: a figure's value
    unknown_scenario,       // a scenario scenarios.json does not have
    unknown_fact,           // a fact facts.json does not have
    unknown_field,          // a path into the result that names no field
    bad_index,              // a list index out of range, or not a number
    not_a_value,            // a path that ends at an object or a list
    failed_scenario_field,  // a field that is 0 only because the scenario's engine refuses to start
    grows_with_run,         // a latency of a simulated run whose queue grows without bound
    not_a_number,           // arithmetic over a text field
    number_as_text,         // the text format over a number
    division_by_zero,       // the figure divides by 0
    not_finite,             // the figure is infinite or NaN
    negative_value,         // a count or a size below 0: the operands swapped
    unknown_format,         // a format core/base/format.hpp does not have
    // figures/: the lesson's data files
    bad_scenarios_file,  // scenarios.json's shape, or one scenario's
    incomplete_base,     // its base leaves out a scenario field
    reserved_name,       // a scenario named fact, panel, embed or picture
    scenario_rejected,   // the core refuses the scenario
    workload_rejected,   // the core refuses the scenario's workload
    simulation_failed,   // the core cannot run the workload over time
    bad_facts_file,      // facts.json's shape
    bad_prices_file,     // content/data/gpu_prices.json: an entry without its GPU, price, date or source
    bad_fact,            // a fact without a numeric value or a source, or in an unknown unit
    // pictures/
    unknown_picture,       // {{picture pie start}}
    picture_not_drawable,  // a scenario the picture cannot show
    // page/: the article
    unknown_concept,            // a concept palette.css does not define
    duplicate_anchor,           // a term or reference defined twice
    unknown_anchor,             // a link to (#term-ID) or (#ref-ID) that nothing defines
    binding_lost,               // cmark dropped the extension (inside raw HTML)
    directive_not_alone,        // a panel, picture or snippet that does not start its paragraph
    two_panels_in_section,      // a second panel before the next ## heading
    marker_not_alone,           // a scenario marker sharing its paragraph
    marker_without_panel,       // a scenario marker before the first panel's chapter
    setup_without_panel,        // a set-up button in a chapter without a panel
    section_without_scenario,   // a figure in a section that names no scenario
    section_scenario_unquoted,  // a section that quotes no figure of the scenario it names
    // page/: exercises
    exercise_without_answer,    // no {{answer ...}} before its end
    exercise_not_closed,        // no {{end exercise}} in its file
    nested_exercise,            // an exercise started inside another
    duplicate_exercise,         // an exercise id used twice
    answer_outside_exercise,    // {{answer ...}} outside an exercise
    second_answer,              // an exercise with two answers
    answer_off_scenario,        // an answer that reads no field of the exercise's scenario
    unchanged_is_answer,        // an answer equal to the value its question starts from
    end_without_exercise,       // {{end exercise}} with no exercise open
    directive_in_exercise,      // a panel, snippet or scenario marker inside an exercise
    heading_in_exercise,        // a heading inside an exercise
    exercise_not_in_paragraph,  // an exercise directive outside a paragraph, or an end inside one
    // page/: files
    unreadable_file,    // a file that cannot be read
    malformed_json,     // a JSON file that does not parse
    missing_templates,  // site/templates/ lacks a page or a fragment
    no_markdown,        // the content folder holds no .md file
    missing_module,     // the wasm module is not built
    missing_fonts,      // the fonts folder does not exist
    write_failed,       // the site or the manifest cannot be written
    // main.cpp
    bad_arguments,  // kvsite's command line
};

// The code as written in the enum: "unknown_field".
const char* error_code_name(ErrorCode code);

// What is wrong, without where: a part's answer, which its caller places.
struct Error {
    ErrorCode code;
    std::string message;
};

struct SourceLocation {
    std::string file;
    int line = 0;             // 0: the whole file
    int column = 0;           // 0: the whole line
    std::string str() const;  // "file:line:column", "file:line" or "file"
};

struct BuildError {
    SourceLocation where;
    ErrorCode code;
    std::string snippet;  // the extension as written, "{{...}}", or ""
    std::string message;
    std::string str() const;  // "where: code: {{...}}: message"
};

// An error about a whole file (or folder): "path: code: message".
BuildError file_error(std::string path, ErrorCode code, std::string message);

}  // namespace site
