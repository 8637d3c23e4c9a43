// Rendering: figures become elements with data-field, data-format and data-scenario; panels cut
// the article into chapters; binding errors name file:line and nothing is rendered.
#include <catch2/catch.hpp>

#include "result/evaluate.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "page/article.hpp"
#include "page/html.hpp"

using namespace site;
using nlohmann::json;

namespace {

const LessonData& lesson() {
    static const LessonData data = [] {
        json base = kv::scenario_to_json(kv::Scenario{});
        json scenarios = {{"base", base},
                          {"scenarios",
                           {{"start", {{"about", "the defaults"}, {"set", json::object()}}},
                            {"rag", {{"about", "32k in, 64 out"}, {"set", {{"prompt_tokens", 32768}, {"output_tokens", 64}}}}}}}};
        json facts = {{"facts", {{"blocks", {{"value", 16}, {"unit", "tokens"}, {"source", "vLLM"}}}}}};
        return std::get<LessonData>(LessonData::load(scenarios, facts));
    }();
    return data;
}

RenderInput input(std::vector<std::pair<std::string, std::string>> files) {
    RenderInput in;
    in.files = std::move(files);
    in.data = &lesson();
    in.fragments = {"<figure id=\"panel-@@KIND@@\" data-state='@@STATE@@'>@@CAPTION@@</figure>",
                    "<figure class=\"snippet\"><code>@@CODE@@</code>@@CAPTION@@</figure>"};
    in.concepts = {"weights", "kv-used"};
    return in;
}

const std::string lesson_md =
    "# The KV cache\n\n"
    "{{scenario start}}\n\n"
    "Intro with {{start.max_resident_sequences | count}} sequences.\n\n"
    "{{panel admission start}}\n**Memory.** The first panel.\n\n"
    "## Memory order\n\n{{scenario start}}\n\n[The weights]{.weights} weigh {{start.weight_bytes | gib1}}.\n\n"
    "## Two phases\n\n{{scenario rag}}\n\nTTFT {{rag.ttft_s | duration}}, {{rag.ttft_s / start.ttft_s | x1}} the default; "
    "blocks of {{fact.blocks | count}}.\n\n"
    "{{panel phases rag}}\n\n"
    "{{embed phases rag}}\nCopy this.\n";

}  // namespace

TEST_CASE("figures are baked with their binding as data attributes") {
    RenderedArticle a = render_article(input({{"lesson.md", lesson_md}}));
    REQUIRE(a.errors.empty());
    CHECK(a.title_text == "The KV cache");
    REQUIRE(a.figures.size() == 5);
    // The core's own number (its tests pin the value); the generator only formats it.
    const std::string sequences = kv::format_count(std::get<kv::Result>(kv::evaluate(kv::Scenario{})).admission.max_resident_sequences);
    CHECK(a.figures[0].value.formatted == sequences);
    CHECK(a.figures[0].where.line == 5);
    const std::string& html = a.body_html;
    CHECK_THAT(html, Catch::Contains("class=\"kv-fig\" href=\"#panel-admission\" data-fig=\"1\" data-format=\"count\" "
                                     "data-expr=\"start.max_resident_sequences\""));
    // Its file and line are in the build manifest (manifest.cpp), not in the page: the page carries what its scripts read.
    CHECK(html.find("data-source=") == std::string::npos);
    CHECK_THAT(html, Catch::Contains("data-scenario-name=\"start\""));
    CHECK(html.find("data-scenario=\"") == std::string::npos);  // the scenarios are the page's, not each figure's
    CHECK_THAT(html, Catch::Contains(">" + sequences + "</a> sequences"));
    // A ratio reads both scenarios (lesson-sections.js reads their names from its refs); a click loads the first.
    CHECK_THAT(html, Catch::Contains("data-expr=\"rag.ttft_s / start.ttft_s\" data-refs='[\"rag.ttft_s\",\"start.ttft_s\"]' "
                                     "data-scenario-name=\"rag\""));
    // A fact is not clickable: no scenario to load.
    CHECK_THAT(html, Catch::Contains("<span class=\"kv-fig kv-fig--fact\" data-fig=\"5\" data-format=\""));
    CHECK_THAT(html, Catch::Contains("<span class=\"kv-concept\" data-concept=\"weights\">The weights</span>"));
}

TEST_CASE("a knob is baked as the printed number, marked with its field, and only on a field with stops or choices") {
    RenderedArticle a = render_article(
        input({{"lesson.md",
                "# T\n\n{{panel admission start}}\n\n{{scenario rag}}\n\nStretch to {{rag.scenario.prompt_tokens | count knob}}.\n"}}));
    INFO((a.errors.empty() ? std::string() : a.errors[0].str()));
    REQUIRE(a.errors.empty());
    CHECK_THAT(a.body_html, Catch::Contains("<span class=\"kv-fig kv-knob\" data-knob=\"prompt_tokens\" data-fig=\"1\""));
    CHECK_THAT(a.body_html, Catch::Contains(">32,768</span>."));
    // The model is a text field with no stops: nothing for a knob to step through.
    RenderedArticle bad = render_article(input({{"lesson.md", "# T\n\n{{rag.scenario.model | text knob}}\n"}}));
    REQUIRE(bad.errors.size() == 1);
    CHECK_THAT(bad.errors[0].str(), Catch::StartsWith("lesson.md:3:1: bad_knob: {{rag.scenario.model | text knob}}: \"model\" is not"));
}

TEST_CASE("a set-up button names its scenario and its chapter's panel, hidden until the page script shows it") {
    RenderedArticle a = render_article(input(
        {{"lesson.md",
          "# T\n\n{{panel admission start}}\n\n{{scenario rag}}\n\nGive it {{rag.scenario.prompt_tokens | count}} {{setup rag}}.\n"}}));
    INFO((a.errors.empty() ? std::string() : a.errors[0].str()));
    REQUIRE(a.errors.empty());
    CHECK_THAT(
        a.body_html,
        Catch::Contains(
            "32,768</a> <button type=\"button\" class=\"kv-setup\" data-setup=\"rag\" data-panel=\"admission\" title=\"Shows this in the panel: "));
    CHECK_THAT(a.body_html, Catch::Contains("\" hidden>set this up</button>."));
    // No panel for it to set, or no such scenario: the build names it.
    RenderedArticle early = render_article(input({{"lesson.md", "# T\n\nGive it {{setup rag}}.\n"}}));
    REQUIRE(early.errors.size() == 1);
    CHECK_THAT(early.errors[0].str(), Catch::StartsWith("lesson.md:3:9: setup_without_panel: "));
    RenderedArticle unknown = render_article(input({{"lesson.md", "# T\n\n{{panel admission start}}\n\nGive it {{setup nope}}.\n"}}));
    REQUIRE(unknown.errors.size() == 1);
    CHECK_THAT(unknown.errors[0].str(), Catch::Contains("nope"));
}

TEST_CASE("each panel opens a chapter at its section's heading and owns the chapter's figures") {
    RenderedArticle a = render_article(input({{"lesson.md", lesson_md}}));
    REQUIRE(a.errors.empty());
    REQUIRE(a.panels == std::vector<std::string>{"admission", "phases"});
    CHECK(a.figures[1].panel == "admission");  // "Memory order" still belongs to the first chapter
    CHECK(a.figures[2].panel == "phases");
    const std::string& html = a.body_html;
    const size_t second = html.find("<div class=\"kv-chapter\" data-panel=\"phases\">");
    REQUIRE(second != std::string::npos);
    CHECK(html.find("<h2 id=\"two-phases\">") > second);
    CHECK(html.find("<h2 id=\"memory-order\">") < second);
    CHECK_THAT(html, Catch::Contains("<figure id=\"panel-admission\" data-state='{\"block_size\":null,\"concurrent_requests\""));
    CHECK_THAT(html, Catch::Contains("<strong>Memory.</strong> The first panel.</figure>"));
    // The snippet's iframe carries only what differs from the defaults.
    CHECK_THAT(html, Catch::Contains("embed.html?panel=phases&amp;output_tokens=64&amp;prompt_tokens=32768"));
}

TEST_CASE("binding errors name file and line, and nothing is rendered") {
    RenderedArticle a = render_article(input({
        {"01-intro.md", "# T\n\nfine {{start.ttft_s | duration}}\n"},
        {"02-bad.md", "a\n\n{{start.ttft | ms0}} and {{nope.ttft_s | ms0}}\n\n{{start.ttft_s | ms9}}\n[x]{.colour}\n"},
    }));
    REQUIRE(a.errors.size() == 4);
    CHECK_THAT(a.errors[0].str(), Catch::StartsWith("02-bad.md:3:1: unknown_field: {{start.ttft | ms0}}: "));
    CHECK_THAT(a.errors[1].str(), Catch::StartsWith("02-bad.md:3:26: unknown_scenario: {{nope.ttft_s | ms0}}: "));
    CHECK_THAT(a.errors[2].str(), Catch::StartsWith("02-bad.md:5:1: unknown_format: {{start.ttft_s | ms9}}: "));
    CHECK_THAT(a.errors[3].str(), Catch::StartsWith("02-bad.md:6:1: unknown_concept: "));
    CHECK(a.body_html.empty());
}

TEST_CASE("with section scenarios, each section names one its figures quote, and the panel follows it") {
    const std::string md =
        "# T\n\n{{scenario start}}\n\nIntro {{start.ttft_s | duration}}.\n\n{{panel admission start}}\n\n"
        "## Long\n\n{{scenario rag}}\n\nTTFT {{rag.ttft_s | duration}}.\n\n{{scenario start}}\n\nBack {{start.ttft_s | ms0}}.\n\n"
        "## Later\n\n{{scenario rag}}\n\n{{panel admission rag}}\n\nAgain {{rag.ttft_s | ms0}}.\n";
    RenderedArticle a = render_article(input({{"x.md", md}}));
    REQUIRE(a.errors.empty());
    // A second panel of a kind gets a numbered id, and its chapter's figures drive it.
    REQUIRE(a.panels == std::vector<std::string>{"admission", "admission-2"});
    CHECK(a.figures[3].panel == "admission-2");
    CHECK_THAT(a.body_html,
               Catch::Contains("<div class=\"kv-section-mark\" data-section-scenario=\"rag\" data-panel=\"admission\" hidden></div>"));
    CHECK_THAT(a.body_html,
               Catch::Contains("<div class=\"kv-section-mark\" data-section-scenario=\"rag\" data-panel=\"admission-2\" hidden></div>"));
    CHECK(a.body_html.find("{{scenario") == std::string::npos);

    // A section that names no scenario, or one its figures never quote, or a scenario that does not exist.
    RenderedArticle missing =
        render_article(input({{"x.md", "# T\n\n{{panel admission start}}\n\n## A\n\nTTFT {{rag.ttft_s | duration}}.\n"}}));
    REQUIRE(missing.errors.size() == 1);
    CHECK_THAT(missing.errors[0].str(), Catch::StartsWith("x.md:7:6: section_without_scenario: {{rag.ttft_s | duration}}: "));
    RenderedArticle unquoted = render_article(
        input({{"x.md", "# T\n\n{{panel admission start}}\n\n## A\n\n{{scenario start}}\n\nTTFT {{rag.ttft_s | duration}}.\n"}}));
    REQUIRE(unquoted.errors.size() == 1);
    CHECK_THAT(unquoted.errors[0].str(), Catch::StartsWith("x.md:7:1: section_scenario_unquoted: {{scenario start}}: "));
    RenderedArticle unknown = render_article(input({{"x.md", "# T\n\n{{panel admission start}}\n\n{{scenario nowhere}}\n"}}));
    REQUIRE(unknown.errors.size() == 1);
    CHECK(unknown.errors[0].code == ErrorCode::unknown_scenario);
    RenderedArticle inline_marker =
        render_article(input({{"x.md", "# T\n\n{{panel admission start}}\n\nText {{scenario start}} {{start.ttft_s | ms0}}\n"}}));
    REQUIRE_FALSE(inline_marker.errors.empty());
    CHECK(inline_marker.errors.back().code == ErrorCode::marker_not_alone);
    RenderedArticle no_panel = render_article(input({{"x.md", "# T\n\n{{scenario start}}\n\nText {{start.ttft_s | ms0}}.\n"}}));
    REQUIRE(no_panel.errors.size() == 2);
    CHECK_THAT(no_panel.errors[0].str(), Catch::StartsWith("x.md:3:1: marker_without_panel: "));
    CHECK(no_panel.errors[1].code == ErrorCode::section_scenario_unquoted);
}

TEST_CASE("terms and references are anchors the glossary and citations link to, each defined once") {
    const std::string md =
        "# T\n\nA [KV head]{dfn=kv-head} stores keys ([Shazeer, 2019](#ref-mqa)).\n\n"
        "## Glossary\n\n- [KV head](#term-kv-head): a head of keys and values.\n\n"
        "## References\n\n- [Shazeer, Fast Transformer Decoding]{ref=mqa}\n";
    RenderedArticle a = render_article(input({{"x.md", md}}));
    REQUIRE(a.errors.empty());
    CHECK_THAT(a.body_html, Catch::Contains("<dfn id=\"term-kv-head\" class=\"kv-dfn\">KV head</dfn> stores keys"));
    CHECK_THAT(a.body_html, Catch::Contains("<a href=\"#term-kv-head\">KV head</a>"));
    CHECK_THAT(a.body_html, Catch::Contains("<span id=\"ref-mqa\" class=\"kv-ref\">Shazeer, Fast Transformer Decoding</span>"));

    // Defined twice, across files: the second is named with where the first stands.
    RenderedArticle twice = render_article(input({{"a.md", md}, {"b.md", "Again a [KV head]{dfn=kv-head}.\n"}}));
    REQUIRE(twice.errors.size() == 1);
    CHECK_THAT(twice.errors[0].str(), Catch::StartsWith("b.md:1:9: duplicate_anchor: "));
    CHECK_THAT(twice.errors[0].message, Catch::Contains("a.md:3:3"));  // where the first stands

    // A bad id, and links to anchors nobody defined.
    RenderedArticle bad =
        render_article(input({{"x.md", "# T\n\nA [KV head]{dfn=KV_Head}, a [row](#term-nowhere), [a paper](#ref-none).\n"}}));
    REQUIRE(bad.errors.size() == 3);
    CHECK_THAT(bad.errors[0].str(), Catch::StartsWith("x.md:3:3: bad_anchor: [KV head]{dfn=KV_Head}: "));
    CHECK_THAT(bad.errors[1].str(), Catch::StartsWith("x.md:3:33: unknown_anchor: (#term-nowhere): "));
    CHECK_THAT(bad.errors[2].str(), Catch::StartsWith("x.md:3:59: unknown_anchor: (#ref-none): "));
}

TEST_CASE("directives must stand at the start of their paragraph") {
    RenderedArticle a = render_article(input({{"x.md", "# T\n\ntext {{panel admission start}}\n"}}));
    REQUIRE(a.errors.size() == 1);
    CHECK(a.errors[0].where.str() == "x.md:3:6");
    CHECK(a.errors[0].code == ErrorCode::directive_not_alone);

    RenderedArticle twice = render_article(input({{"x.md", "# T\n\n{{panel admission start}}\n\n{{panel admission rag}}\n"}}));
    REQUIRE(twice.errors.size() == 1);
    CHECK(twice.errors[0].code == ErrorCode::two_panels_in_section);
    CHECK(twice.errors[0].where.str() == "x.md:5:1");

    RenderedArticle unknown = render_article(input({{"x.md", "{{panel admission nowhere}}\n"}}));
    REQUIRE(unknown.errors.size() == 1);
    CHECK_THAT(unknown.errors[0].str(), Catch::StartsWith("x.md:1:1: unknown_scenario: "));

    RenderedArticle snippet = render_article(input({{"x.md", "# T\n\ntext {{embed phases rag}}\n"}}));
    REQUIRE(snippet.errors.size() == 1);
    CHECK_THAT(snippet.errors[0].str(), Catch::StartsWith("x.md:3:6: directive_not_alone: "));
    RenderedArticle raw = render_article(input({{"x.md", "# T\n\n<div>{{start.ttft_s | ms0}}</div>\n"}}));
    REQUIRE(raw.errors.size() == 1);
    CHECK_THAT(raw.errors[0].str(), Catch::StartsWith("x.md:3:6: binding_lost: "));
}

TEST_CASE("helpers") {
    CHECK(slugify("Why the batch stops — where it does") == "why-the-batch-stops-where-it-does");
    CHECK(escape_html("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    // JSON for a single-quoted attribute keeps its double quotes and escapes the rest.
    CHECK(json_attribute(json{{"a", "it's <b> & \"c\""}}) == "{\"a\":\"it&#39;s &lt;b&gt; &amp; \\\"c\\\"\"}");
    json defaults = kv::scenario_to_json(kv::Scenario{});
    json s = defaults;
    s["model"] = "Qwen3-14B";
    s["force_mha"] = true;
    CHECK(embed_query("admission", s, defaults) == "panel=admission&force_mha=true&model=Qwen3-14B");
}
