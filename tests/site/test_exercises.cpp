// The {{exercise}} directive: parsing, the errors an author meets (each with file:line), the HTML
// that works without JavaScript, and an answer that is the core's own value for the scenario.
#include <catch2/catch.hpp>
#include <cstdio>

#include "result/evaluate.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "page/article.hpp"

using namespace site;
using nlohmann::json;

namespace {

const LessonData& lesson() {
    static const LessonData data = [] {
        json base = kv::scenario_to_json(kv::Scenario{});
        json scenarios = {{"base", base},
                          {"scenarios",
                           {{"start", {{"about", "the defaults"}, {"set", json::object()}}},
                            {"mha", {{"about", "multi-head attention"}, {"set", {{"force_mha", true}}}}}}}};
        json facts = {{"facts", json::object()}};
        return std::get<LessonData>(LessonData::load(scenarios, facts));
    }();
    return data;
}

RenderedArticle render(const std::string& md) {
    RenderInput in;
    in.files = {{"x.md", md}};
    in.data = &lesson();
    in.fragments = {"<figure id=\"panel-@@KIND@@\">@@CAPTION@@</figure>", "<figure>@@CODE@@</figure>"};
    return render_article(in);
}

const std::string head = "# T\n\n{{scenario start}}\n\n{{panel admission start}}\n\nText {{start.running | count}}.\n\n";

const std::string exercise =
    "{{exercise gqa-mha mha}}\n"
    "With {{mha.model.num_key_value_heads | count}} KV heads, how many sequences fit?\n"
    "{{answer mha.max_resident_sequences | count}}\n"
    "Bytes per token grow with the KV heads.\n"
    "{{end exercise}}\n";

std::string first_error(const std::string& md) {
    RenderedArticle a = render(md);
    return a.errors.empty() ? "" : a.errors.front().str();
}

ErrorCode code_of(const std::string& inner) {
    auto parsed = parse_extension(inner);
    REQUIRE(std::holds_alternative<Error>(parsed));
    return std::get<Error>(parsed).code;
}

}  // namespace

TEST_CASE("exercise directives parse, and their mistakes are refused") {
    auto start = parse_extension("exercise gqa-mha mha");
    REQUIRE(std::holds_alternative<Item>(start));
    CHECK(std::get<ExerciseStart>(std::get<Item>(start)).id == "gqa-mha");
    CHECK(std::get<ExerciseStart>(std::get<Item>(start)).scenario == "mha");
    auto answer = parse_extension("answer mha.max_resident_sequences | count");
    REQUIRE(std::holds_alternative<Item>(answer));
    CHECK(std::get<ExerciseAnswer>(std::get<Item>(answer)).figure.refs.front().str() == "mha.max_resident_sequences");
    CHECK(std::holds_alternative<ExerciseEnd>(std::get<Item>(parse_extension("end exercise"))));

    CHECK(code_of("exercise gqa-mha") == ErrorCode::bad_directive);
    CHECK(code_of("exercise gqa mha extra") == ErrorCode::bad_directive);
    CHECK(code_of("exercise 9x mha") == ErrorCode::bad_exercise_id);
    CHECK(code_of("exercise x fact") == ErrorCode::bad_scenario_name);
    CHECK(code_of("answer mha.model.label | text") == ErrorCode::text_answer);
    CHECK(code_of("answer mha.running") == ErrorCode::missing_format);  // the figure's own code
    CHECK(code_of("answer exercise a b") == ErrorCode::missing_format);
    CHECK(code_of("end") == ErrorCode::bad_directive);
    CHECK(code_of("end panel") == ErrorCode::bad_directive);
    // A figure whose scenario happens to be called "answer" or "end" is still a figure.
    CHECK(std::holds_alternative<FigureBinding>(std::get<Item>(parse_extension("answer.running | count"))));
}

TEST_CASE("an exercise renders as a question and an answer behind a disclosure, the answer the core's value") {
    RenderedArticle a = render(head + exercise);
    REQUIRE(a.errors.empty());
    const int64_t sequences = std::get<kv::Result>(kv::evaluate([] {
                                  kv::Scenario s;
                                  s.force_mha = true;
                                  return s;
                              }()))
                                  .admission.max_resident_sequences;
    REQUIRE(a.figures.size() == 3);  // the answer is a bound figure like any other
    const FigureRecord& answer = a.figures.back();
    CHECK(answer.value.number == Approx(static_cast<double>(sequences)));
    CHECK(answer.value.formatted == kv::format_count(sequences));
    const std::string& html = a.body_html;
    CHECK_THAT(html, Catch::Contains("<section class=\"kv-exercise\" id=\"exercise-gqa-mha\" data-exercise=\"gqa-mha\""));
    CHECK_THAT(html,
               Catch::Contains("<form class=\"kv-exercise__check\" data-answer=\"" + std::to_string(sequences) + "\" data-unit=\"\""));
    CHECK_THAT(html, Catch::Contains("<details class=\"kv-exercise__answer\">\n<summary>Show the answer</summary>"));
    CHECK_THAT(html, Catch::Contains("<p>Bytes per token grow with the KV heads.\n</p>\n</details>\n</section>"));
    // The question stays a paragraph of its own before the form; nothing is left unclosed.
    CHECK_THAT(html, Catch::Contains("KV heads, how many sequences fit?\n</p>\n<form"));
    CHECK(html.find("<p></p>") == std::string::npos);
    REQUIRE(a.exercises.size() == 1);
    CHECK(a.exercises[0].first == "gqa-mha");
    CHECK(a.exercises[0].second.rfind("<section", 0) == 0);
    CHECK(a.exercises[0].second.size() > 10);
    CHECK(a.exercises[0].second.substr(a.exercises[0].second.size() - 10) == "</section>");
}

TEST_CASE("an answer's unit is the one its format prints, so the reader predicts in it") {
    RenderedArticle a = render(head + "{{exercise kib start}}\nQ?\n{{answer start.kv_bytes_per_token | kib}}\nA.\n{{end exercise}}\n");
    REQUIRE(a.errors.empty());
    const std::string shown = kv::format_named(a.figures.back().value.number, "kib").value();
    const std::string number = shown.substr(0, shown.find(' '));
    CHECK_THAT(a.body_html, Catch::Contains("data-answer=\"" + number + "\" data-unit=\"KiB\""));
    CHECK_THAT(a.body_html, Catch::Contains("Your prediction (KiB)"));
}

TEST_CASE("exercise errors name the file and line") {
    CHECK_THAT(first_error(head + "{{exercise a nope}}\nQ\n{{answer start.running | count}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:9:1: unknown_scenario: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{end exercise}}\n"), Catch::StartsWith("x.md:9:1: exercise_without_answer: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer start.running | count}}\nA\n"),
               Catch::StartsWith("x.md:9:1: exercise_not_closed: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n\n{{exercise b start}}\n"), Catch::StartsWith("x.md:12:1: nested_exercise: "));
    CHECK_THAT(first_error(head + exercise + "\n" + exercise), Catch::StartsWith("x.md:15:1: duplicate_exercise: "));
    CHECK_THAT(first_error(head + exercise + "\n" + exercise), Catch::Contains("x.md:9:1"));  // where the first stands
    CHECK_THAT(first_error(head + "{{answer start.running | count}}\n"), Catch::StartsWith("x.md:9:1: answer_outside_exercise: "));
    CHECK_THAT(first_error(head + "{{end exercise}}\n"), Catch::StartsWith("x.md:9:1: end_without_exercise: "));
    CHECK_THAT(
        first_error(head +
                    "{{exercise a start}}\nQ\n{{answer start.running | count}}\n{{answer start.running | count}}\n{{end exercise}}\n"),
        Catch::StartsWith("x.md:12:1: second_answer: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer mha.running | count}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:11:1: answer_off_scenario: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n\n{{scenario mha}}\n\n{{answer start.running | count}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:12:1: directive_in_exercise: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n\n## H\n\n{{answer start.running | count}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:9:1: heading_in_exercise: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer start.running | count}}\n{{end exercise}} and more\n"),
               Catch::StartsWith("x.md:12:1: exercise_not_in_paragraph: "));
    // An exercise left open at the end of one file is reported there, not in the next file.
    RenderInput in;
    in.files = {{"a.md", head + "{{exercise a start}}\nQ\n{{answer start.running | count}}\n"}, {"b.md", "More.\n"}};
    in.data = &lesson();
    in.fragments = {"<figure>@@CAPTION@@</figure>", "<figure>@@CODE@@</figure>"};
    RenderedArticle a = render_article(in);
    REQUIRE_FALSE(a.errors.empty());
    CHECK_THAT(a.errors.front().str(), Catch::StartsWith("a.md:9:1: exercise_not_closed: "));
}

TEST_CASE("a question that asks for a change bakes its starting value, in the answer's unit") {
    RenderedArticle a =
        render(head +
               "{{exercise gqa-mha mha}}\nQ?\n{{answer mha.max_resident_sequences | count unchanged start.max_resident_sequences}}\n"
               "A.\n{{end exercise}}\n");
    REQUIRE(a.errors.empty());
    const std::string start =
        kv::format_named(static_cast<double>(std::get<kv::Result>(kv::evaluate(kv::Scenario{})).admission.max_resident_sequences), "count")
            .value();
    CHECK_THAT(a.body_html, Catch::Contains("data-unchanged=\"" + start + "\" data-unchanged-text=\"" + start + "\""));
    // A factor starts from 1; a duration shown in seconds is scaled to an answer shown in ms.
    CHECK_THAT(
        render(head + "{{exercise f mha}}\nQ?\n{{answer start.max_resident_sequences / mha.max_resident_sequences | x1 unchanged 1}}\n"
                      "A.\n{{end exercise}}\n")
            .body_html,
        Catch::Contains("data-unchanged=\"1.0\" data-unchanged-text=\"1.0×\""));
    RenderedArticle t = render(head +
                               "{{exercise t mha}}\nQ?\n{{answer mha.decode_step_s | duration unchanged mha.decode_step_s * 1000}}\n"
                               "A.\n{{end exercise}}\n");
    REQUIRE(t.errors.empty());
    const double answer_s = t.figures.back().value.number;
    const std::string answer_shown = kv::format_named(answer_s, "duration").value();
    REQUIRE_THAT(answer_shown, Catch::EndsWith(" ms"));
    const double shown_ms = std::stod(answer_shown);
    char scaled[32];
    std::snprintf(scaled, sizeof scaled, "%.4g", answer_s * 1000 * shown_ms / answer_s);
    CHECK_THAT(t.body_html, Catch::Contains("data-unchanged=\"" + std::string(scaled) + "\""));
    // Without a starting value (a question computed from scratch) there is none to bake.
    CHECK(render(head + exercise).body_html.find("data-unchanged") == std::string::npos);
}

TEST_CASE("a starting value the change does not move, or one that does not parse, is refused") {
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer start.running | count unchanged start.running}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:11:1: unchanged_is_answer: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer start.running | count unchanged start.}}\n{{end exercise}}\n"),
               Catch::Contains("answer: unchanged: "));
    CHECK_THAT(first_error(head + "{{exercise a start}}\nQ\n{{answer start.running | count unchanged nope.running}}\n{{end exercise}}\n"),
               Catch::StartsWith("x.md:11:1: unknown_scenario: "));
}
