// The article's elements, each written from its item and the values the core computed for it.
#include "page/elements.hpp"

#include "base/format.hpp"
#include "markdown/words.hpp"
#include "validation/figure_kind.hpp"
#include "page/html.hpp"

namespace site {

using nlohmann::json;

namespace {

// A figure that is one memory- or time-valued result carries the model's measured error for that
// kind (the held-out median of its validation table): as data-band, and in words in its title.
std::string band_of(const FigureRecord& f, const LessonData& data, std::string& title) {
    if (f.binding.refs.size() != 1 || data.accuracy().is_null()) return "";
    const kv::FigureKind kind = kv::figure_kind(f.binding.refs.front().path);
    if (kind == kv::FigureKind::exact) return "";
    const std::string name = kv::figure_kind_name(kind);
    const std::string band = kv::format_band(data.accuracy()[name].value("holdout_median", 0.0));
    title += std::string(title.empty() ? "" : " ") + "Figures of this kind are typically within " + band + " of real vLLM " +
             (kind == kv::FigureKind::memory ? "start-ups" : "benchmark runs") + " (median error on runs that set nothing).";
    return " data-band=\"" + escape_html(band) + "\" data-band-kind=\"" + name + "\"";
}

}  // namespace

std::string figure_html(const FigureRecord& f, const LessonData& data) {
    const Ref& first = f.binding.refs.front();
    json refs = json::array();
    for (const RefValue& r : f.value.refs) refs.push_back(r.ref.str());
    // What the page's scripts read, nothing they can derive: the scenarios a figure names are its
    // refs' first parts (lesson-sections.js), and its file and line are in the build's manifest.
    std::string attrs = " data-fig=\"" + std::to_string(f.id) + "\"" + " data-format=\"" + escape_html(f.binding.format) + "\"" +
                        " data-expr=\"" +
                        escape_html(trim(std::string_view(f.binding.source_text).substr(0, f.binding.source_text.rfind('|')))) + "\"" +
                        " data-refs='" + json_attribute(refs) + "'";
    // The first scenario the figure reads is the one a click loads; the others are one more click away.
    const Ref* scenario_ref = nullptr;
    for (const Ref& r : f.binding.refs)
        if (r.names_scenario()) {
            scenario_ref = &r;
            break;
        }
    if (!scenario_ref) {
        const Fact* fact = first.is_fact() ? data.find_fact(first.path) : nullptr;
        const std::string title = fact                  ? fact->about + " Source: " + fact->source
                                  : first.is_accuracy() ? "Measured when this page was built: the model run against the real vLLM "
                                                          "start-ups and benchmark runs of tests/validation/."
                                                        : "";
        return "<span class=\"kv-fig kv-fig--fact\"" + attrs + " title=\"" + escape_html(title) + "\">" + escape_html(f.value.formatted) +
               "</span>";
    }
    const EvaluatedScenario* s = data.find_scenario(scenario_ref->source);
    // The scenarios themselves are the page's (main's data-scenarios), not repeated on each figure.
    attrs += " data-scenario-name=\"" + escape_html(scenario_ref->source) + "\"";
    if (!f.panel.empty()) attrs += " data-panel=\"" + escape_html(f.panel) + "\"";
    const std::string href = f.panel.empty() ? "" : " href=\"#panel-" + escape_html(f.panel) + "\"";
    std::string title = s->about;
    attrs += band_of(f, data, title);
    if (!f.binding.knob.empty())  // not a link: lesson-knobs.js makes it a slider
        return "<span class=\"kv-fig kv-knob\" data-knob=\"" + escape_html(f.binding.knob) + "\"" + attrs + " title=\"" +
               escape_html(title) + "\">" + escape_html(f.value.formatted) + "</span>";
    return "<a class=\"kv-fig\"" + href + attrs + " title=\"" + escape_html(title) + "\">" + escape_html(f.value.formatted) + "</a>";
}

std::string concept_html(const ConceptSpan& c) {
    return "<span class=\"kv-concept\" data-concept=\"" + escape_html(c.concept_name) + "\">" + escape_html(c.text) + "</span>";
}

std::string anchor_html(const Anchor& a) {
    const bool term = a.kind == Anchor::Kind::term;
    return std::string(term ? "<dfn" : "<span") + " id=\"" + escape_html(a.html_id()) + "\" class=\"" + (term ? "kv-dfn" : "kv-ref") +
           "\">" + escape_html(a.text) + (term ? "</dfn>" : "</span>");
}

std::string section_mark_html(const ScenarioMarker& m, const std::string& panel) {
    return "<div class=\"kv-section-mark\" data-section-scenario=\"" + escape_html(m.scenario) + "\" data-panel=\"" + escape_html(panel) +
           "\" hidden></div>";
}

std::string setup_html(const SetupControl& u, const EvaluatedScenario& scenario, const std::string& panel) {
    return "<button type=\"button\" class=\"kv-setup\" data-setup=\"" + escape_html(u.scenario) + "\" data-panel=\"" + escape_html(panel) +
           "\" title=\"Shows this in the panel: " + escape_html(scenario.about) + "\" hidden>set this up</button>";
}

std::string panel_html(const Fragments& fragments, const PanelDirective& p, const std::string& id, const EvaluatedScenario& scenario,
                       const std::string& caption) {
    return fill(fragments.panel, {{"ID", escape_html(id)},
                                  {"KIND", escape_html(p.kind)},
                                  {"SCENARIO_NAME", escape_html(p.scenario)},
                                  {"STATE", json_attribute(scenario.scenario)},
                                  {"CAPTION", caption}});
}

std::string snippet_html(const Fragments& fragments, const EmbedDirective& e, const EvaluatedScenario& scenario, const json& defaults,
                         const std::string& caption) {
    // No height: kvembed-host.js sizes the frame to the panel (site/js/lesson.js's snippetCode
    // writes the same text as the reader changes the panel).
    const std::string src = "kv/embed.html?" + embed_query(e.kind, scenario.scenario, defaults);
    const std::string code = "<iframe data-kv-embed src=\"" + src +
                             "\" title=\"KV cache panel\" "
                             "style=\"width:100%;border:0\"></iframe>\n"
                             "<script src=\"kv/js/kvembed-host.js\"></script>";
    return fill(
        fragments.snippet,
        {{"KIND", escape_html(e.kind)}, {"STATE", json_attribute(scenario.scenario)}, {"CODE", escape_html(code)}, {"CAPTION", caption}});
}

}  // namespace site
