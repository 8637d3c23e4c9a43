// The Markdown extensions: figure bindings, directives and concept spans, and where errors point.
#include <catch2/catch.hpp>

#include "markdown/scan.hpp"

using namespace site;

namespace {
FigureBinding figure(const std::string& inner) {
    auto parsed = parse_extension(inner);
    REQUIRE(std::holds_alternative<Item>(parsed));
    REQUIRE(std::holds_alternative<FigureBinding>(std::get<Item>(parsed)));
    return std::get<FigureBinding>(std::get<Item>(parsed));
}
ErrorCode code_of(const std::string& inner) {
    auto parsed = parse_extension(inner);
    REQUIRE(std::holds_alternative<Error>(parsed));
    return std::get<Error>(parsed).code;
}
}  // namespace

TEST_CASE("a figure names a scenario, a result field and a format") {
    FigureBinding b = figure(" start.max_resident_sequences | count ");
    CHECK(b.format == "count");
    REQUIRE(b.refs.size() == 1);
    CHECK(b.refs[0].source == "start");
    CHECK(b.refs[0].path == "max_resident_sequences");
    CHECK(b.source_text == "start.max_resident_sequences | count");
}

TEST_CASE("paths walk into nested result objects and lists") {
    FigureBinding b = figure("rag.decode.flops | sig3");
    CHECK(b.refs[0].path == "decode.flops");
    CHECK(figure("start.log.2 | text").refs[0].path == "log.2");
}

TEST_CASE("ratios and differences read across scenarios, in precedence order") {
    FigureBinding ratio = figure("a100.ttft_s / h100.ttft_s | x2");
    REQUIRE(ratio.refs.size() == 2);
    CHECK(ratio.refs[0].str() == "a100.ttft_s");
    CHECK(ratio.refs[1].str() == "h100.ttft_s");
    CHECK(ratio.expr.op == '/');

    FigureBinding growth = figure("(mha.params - start.params) / start.params | percent");
    CHECK(growth.expr.op == '/');
    CHECK(growth.expr.left->op == '-');
    CHECK(growth.refs.size() == 3);

    FigureBinding precedence = figure("a.x + b.y * 2 | fixed1");
    CHECK(precedence.expr.op == '+');
    CHECK(precedence.expr.right->op == '*');
    CHECK(precedence.expr.right->right->number == 2);

    // No '-' inside a reference: this is a subtraction.
    CHECK(figure("a.x-b.y | count").expr.op == '-');
}

TEST_CASE("facts are references too") {
    FigureBinding b = figure("fact.h100_cuda_total | gib1");
    CHECK(b.refs[0].is_fact());
    CHECK(b.refs[0].path == "h100_cuda_total");
}

TEST_CASE("directives name a panel kind and a scenario") {
    auto panel = parse_extension("panel admission start");
    REQUIRE(std::holds_alternative<Item>(panel));
    const auto& p = std::get<PanelDirective>(std::get<Item>(panel));
    CHECK(p.kind == "admission");
    CHECK(p.scenario == "start");
    auto embed = parse_extension("embed phases rag");
    CHECK(std::get<EmbedDirective>(std::get<Item>(embed)).kind == "phases");
    CHECK(code_of("panel roofline start") == ErrorCode::unknown_panel_kind);
    CHECK(code_of("panel admission") == ErrorCode::bad_directive);
    CHECK(code_of("panel admission fact") == ErrorCode::bad_scenario_name);
    CHECK(code_of("scenario") == ErrorCode::bad_directive);
    CHECK(code_of("picture roofline") == ErrorCode::bad_directive);
}

TEST_CASE("malformed figures say what is wrong") {
    CHECK(code_of("start.ttft_s") == ErrorCode::missing_format);
    CHECK(code_of("start | ms0") == ErrorCode::bad_expression);
    CHECK(code_of("(a.x / b.y | x2") == ErrorCode::bad_expression);
    CHECK(code_of("a.x / | x2") == ErrorCode::bad_expression);
    CHECK(code_of("a.x ) | x2") == ErrorCode::bad_expression);
    CHECK(code_of("2 * 3 | count") == ErrorCode::no_reference);
    CHECK(code_of("a.x / b.y | text") == ErrorCode::text_needs_one_field);
    CHECK(code_of("a.x | 3d") == ErrorCode::bad_format_name);
    CHECK(code_of("") == ErrorCode::empty_binding);
}

TEST_CASE("scanning replaces extensions by tokens and keeps the rest byte for byte") {
    const std::string md =
        "# Title\n\nThe pool holds {{start.max_resident_sequences | count}} sequences,\n"
        "[the weights]{.weights} take {{start.weight_bytes | gib1}}; a [link](x) stays.\n";
    ScanResult r = scan_markdown(md, "lesson.md", 10);
    REQUIRE(r.errors.empty());
    REQUIRE(r.items.size() == 3);
    CHECK(r.items[0].token == "kvtok10x");
    CHECK(r.items[0].where.line == 3);
    CHECK(r.items[0].where.column == 16);
    CHECK(std::get<ConceptSpan>(r.items[1].item).concept_name == "weights");
    CHECK(std::get<ConceptSpan>(r.items[1].item).text == "the weights");
    CHECK(r.items[2].where.line == 4);
    CHECK(r.markdown == "# Title\n\nThe pool holds kvtok10x sequences,\nkvtok11x take kvtok12x; a [link](x) stays.\n");
}

TEST_CASE("scan errors carry file, line and column") {
    ScanResult r = scan_markdown("one\ntwo {{start.ttft_s}} and {{unclosed\n", "02-phases.md", 0);
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0].where.str() == "02-phases.md:2:5");
    CHECK(r.errors[0].code == ErrorCode::missing_format);
    CHECK_THAT(r.errors[0].str(), Catch::StartsWith("02-phases.md:2:5: missing_format: {{start.ttft_s}}: "));
    CHECK(r.errors[1].code == ErrorCode::unclosed_binding);
    CHECK(r.errors[1].where.str() == "02-phases.md:2:26");
}

TEST_CASE("a figure is bounded: parentheses at most 16 deep, at most 32 operators") {
    // fuzz_bindings found thousands of nested parentheses overflowing the parser's stack.
    const std::string deep = std::string(5000, '(') + "a.b" + std::string(5000, ')') + " | count";
    CHECK(code_of(deep) == ErrorCode::expression_too_complex);
    std::string chain = "a.b";
    for (int i = 0; i < 40; ++i) chain += " + a.b";
    CHECK(code_of(chain + " | count") == ErrorCode::expression_too_complex);
    std::string fine = std::string(16, '(') + "a.b" + std::string(16, ')');
    for (int i = 0; i < 31; ++i) fine += " + a.b";
    CHECK(figure(fine + " | count").refs.size() == 32);
}

TEST_CASE("concept spans and anchors that cannot be read are errors with their code") {
    ScanResult r = scan_markdown("a [ ]{.weights} and [KV]{dfn=KV_Head}\n", "x.md", 0);
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0].code == ErrorCode::bad_concept_span);
    CHECK(r.errors[0].where.str() == "x.md:1:3");
    CHECK(r.errors[1].code == ErrorCode::bad_anchor);
    CHECK(r.errors[1].where.str() == "x.md:1:21");
}

TEST_CASE("a set-up button takes one scenario name, and setup names no scenario") {
    auto item = parse_extension("setup rag");
    REQUIRE(std::holds_alternative<Item>(item));
    CHECK(std::get<SetupControl>(std::get<Item>(item)).scenario == "rag");
    CHECK(code_of("setup") == ErrorCode::bad_directive);
    CHECK(code_of("setup rag start") == ErrorCode::bad_directive);
    CHECK(code_of("setup fact") == ErrorCode::bad_scenario_name);
    CHECK(code_of("scenario setup") == ErrorCode::bad_scenario_name);
}

TEST_CASE("a knob is one field of a scenario's own settings") {
    FigureBinding knob = figure("rag.scenario.prompt_tokens | count knob");
    CHECK(knob.format == "count");
    CHECK(knob.knob == "prompt_tokens");
    CHECK(figure("rag.scenario.prompt_tokens | count").knob.empty());
    CHECK(code_of("rag.scenario.prompt_tokens * 2 | count knob") == ErrorCode::bad_knob);  // arithmetic
    CHECK(code_of("rag.max_resident_sequences | count knob") == ErrorCode::bad_knob);      // a result, not a setting
    CHECK(code_of("fact.blocks | count knob") == ErrorCode::bad_knob);
    CHECK(code_of("rag.scenario.prompt_tokens | count dial") == ErrorCode::bad_format_name);
}
