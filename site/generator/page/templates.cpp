// Filling the page templates with the article and the data the page scripts read from attributes.
#include <algorithm>
#include "page/templates.hpp"

#include "model/catalog.hpp"

#include "base/format.hpp"
#include "io/json_io.hpp"
#include "page/files.hpp"
#include "page/html.hpp"

namespace site {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Every exercise of the lesson, hidden: embed.html?exercises=SET shows the set's (site/js/embed.js).
// A figure's link names a panel of the lesson, which embed.html has not: it opens the lesson there
// (a new tab, no script), where embed.js's click loads the figure's scenario into its own panel.
std::string embed_exercises(const RenderedArticle& article) {
    std::string html;
    for (const auto& [id, block] : article.exercises) html += block + "\n";
    for (size_t at = 0; (at = html.find(" href=\"#panel-", at)) != std::string::npos;) html.insert(at += 7, "index.html");
    return html.empty() ? "" : "<div class=\"kv-embed__exercises\" hidden>\n" + html + "</div>";
}

// What each field of embed.html's address may be: the catalog's ranges, ids and choices.
// Every input field, in its table's order, as the page scripts need it: [name, type, nullable].
// Scenario fields first, then the serving panel's workload fields (core/scenario/fields.hpp).
json page_fields(const json& catalog) {
    json out = json::array();
    for (const char* table : {"fields", "workload_fields"}) {
        std::vector<std::pair<int, json>> rows;
        for (const auto& [name, row] : catalog[table].items())
            rows.push_back({row["order"].get<int>(), {name, row["type"], row["nullable"]}});
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [order, row] : rows) out.push_back(std::move(row));
    }
    return out;
}

}  // namespace

std::optional<Templates> read_templates(const fs::path& site, std::ostream& errors) {
    const auto head = read_text(site / "templates/head.html");
    const auto index = read_text(site / "templates/index.html");
    const auto embed = read_text(site / "templates/embed.html");
    const auto panel = read_text(site / "templates/panel.html");
    const auto snippet = read_text(site / "templates/snippet.html");
    const auto host_snippet = read_text(site / "templates/host-snippet.html");
    if (!head || !index || !embed || !panel || !snippet || !host_snippet) {
        report(errors, file_error((site / "templates").string(), ErrorCode::missing_templates,
                                  "head.html, index.html, embed.html, panel.html, snippet.html and host-snippet.html are needed"));
        return std::nullopt;
    }
    return Templates{*head, *index, *embed, *panel, *snippet, *host_snippet};
}

std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& holes) {
    for (const auto& [name, value] : holes) {
        const std::string key = "@@" + name + "@@";
        for (size_t pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + value.size()))
            text.replace(pos, key.size(), value);
    }
    return text;
}

void insert_host_snippet(std::string& body_html, const std::string& host_snippet) {
    std::string snippet_text = host_snippet;
    while (!snippet_text.empty() && (snippet_text.back() == '\n' || snippet_text.back() == '\r')) snippet_text.pop_back();
    for (size_t at = body_html.find("@@HOST_SNIPPET@@"); at != std::string::npos; at = body_html.find("@@HOST_SNIPPET@@", at))
        body_html.replace(at, 16, escape_html(snippet_text));
}

namespace {

// The lesson marks itself scripted and fetches its web fonts as it starts (js/kvhead.js, in
// head.html before the stylesheets), so that its deferred scripts do not restyle the whole page and
// a face arriving after the first layout cannot re-wrap its prose. The panel page has no prose to
// shift and its panel waits for the fonts before drawing; there a preload made the restored-context
// test (tests/browser/hostile.test.mjs) see the panel's top strip a few pixels off in about half
// the runs, so it goes without.
const char* const lesson_head_script =
    "<script src=\"js/kvhead.js\" data-fonts=\"fonts/inter-regular.woff2 fonts/inter-semibold.woff2 "
    "fonts/jetbrains-mono.woff2\"></script>\n";

// Every named scenario: the figures name theirs (data-scenario-name) and a click loads it. Each is
// written as the fields where it differs from the page's defaults (data-defaults), which the page's
// scripts put back (lesson.js, embed.js); whole, the 39 of them repeated every default field.
std::string scenarios_attribute(const LessonData& data, const json& defaults) {
    json scenarios = json::object();
    for (const auto& [name, s] : data.scenarios()) {
        json differences = json::object();
        for (const auto& [field, value] : s.scenario.items())
            if (!defaults.contains(field) || defaults[field] != value) differences[field] = value;
        scenarios[name] = std::move(differences);
    }
    return json_attribute(scenarios);
}

// The prices as the page reads them (site/js/kvcustom-plan.js's price note): the source address and
// the quoted line stay in content/data/gpu_prices.json, where a reader of the data checks them.
json page_prices(const json& prices) {
    json out = json::array();
    for (const json& e : prices["prices"]) {
        json kept = json::object();
        for (const char* key : {"gpu", "usd_per_gpu_hour", "provider", "terms", "date"})
            if (e.contains(key)) kept[key] = e[key];
        out.push_back(std::move(kept));
    }
    return out;
}

// The validation summaries as the page reads them (site/js/kvtwin.js's error bands): each kind's
// held-out median; the bound figures that quote the rest were computed when the page was built.
json page_accuracy(const json& accuracy) {
    json out = json::object();
    for (const auto& [kind, summary] : accuracy.items()) out[kind] = {{"holdout_median", summary["holdout_median"]}};
    return out;
}

}  // namespace

std::optional<std::string> check_prices(const json& file) {
    if (!file.is_object() || !file.contains("prices") || !file["prices"].is_array()) return "wants {\"prices\": [...]}";
    const auto text = [](const json& e, const char* key) {
        return e.contains(key) && e[key].is_string() && !e[key].get<std::string>().empty();
    };
    for (size_t i = 0; i < file["prices"].size(); ++i) {
        const json& e = file["prices"][i];
        const std::string at = "prices[" + std::to_string(i) + "]";
        if (!e.is_object() || !text(e, "gpu") || !kv::find_gpu(e["gpu"].get<std::string>())) return at + ": gpu must name a catalog GPU";
        if (!e.contains("usd_per_gpu_hour") || !e["usd_per_gpu_hour"].is_number() || !(e["usd_per_gpu_hour"].get<double>() > 0))
            return at + ": usd_per_gpu_hour must be a price above 0";
        for (const char* key : {"provider", "terms", "source", "quote"})
            if (!text(e, key)) return at + ": " + key + " is missing";
        const std::string date = text(e, "date") ? e["date"].get<std::string>() : "";
        if (date.size() != 10 || date[4] != '-' || date[7] != '-') return at + ": date must be YYYY-MM-DD";
    }
    return std::nullopt;
}

std::string index_page(const Templates& templates, const RenderedArticle& article, const LessonData& data, const json& base,
                       const json& catalog, const json& prices) {
    json full_base = base;
    if (auto parsed = kv::scenario_from_json(base); std::holds_alternative<kv::Scenario>(parsed))
        full_base = kv::scenario_to_json(std::get<kv::Scenario>(parsed));
    return fill_template(templates.index, {{"HEAD", templates.head},
                                           {"HEAD_SCRIPT", lesson_head_script},
                                           {"BASE", json_attribute(full_base)},
                                           {"TITLE_TEXT", escape_html(article.title_text)},
                                           {"TITLE", article.title_html},
                                           {"BODY", article.body_html},
                                           {"DEFAULTS", json_attribute(catalog["defaults"])},
                                           {"FIELDS", json_attribute(page_fields(catalog))},
                                           {"SCENARIOS", scenarios_attribute(data, catalog["defaults"])},
                                           {"FIGURE_COUNT", std::to_string(article.figures.size())},
                                           {"INPUT_LIMITS", json_attribute(catalog["input_limits"])},
                                           {"PRICES", json_attribute(page_prices(prices))},
                                           {"ACCURACY", json_attribute(page_accuracy(data.accuracy()))}});
}

std::string embed_page(const Templates& templates, const RenderedArticle& article, const LessonData& data, const json& catalog) {
    // The names a host page may give data-kv-format: core/base/format.hpp's, and `text` for text fields.
    json formats = kv::named_formats();
    formats.push_back("text");
    return fill_template(templates.embed, {{"HEAD", templates.head},
                                           {"HEAD_SCRIPT", ""},
                                           {"EXERCISES", embed_exercises(article)},
                                           {"DEFAULTS", json_attribute(catalog["defaults"])},
                                           {"FIELDS", json_attribute(page_fields(catalog))},
                                           {"LIMITS", json_attribute(catalog["limits"])},
                                           {"FORMATS", json_attribute(formats)},
                                           {"SCENARIOS", scenarios_attribute(data, catalog["defaults"])},
                                           {"INPUT_LIMITS", json_attribute(catalog["input_limits"])},
                                           {"ACCURACY", json_attribute(page_accuracy(data.accuracy()))},
                                           {"TITLE_TEXT", escape_html(article.title_text)}});
}

}  // namespace site
