#include "page/article.hpp"

#include "io/json_io.hpp"
#include "pictures/pictures.hpp"

#include <cmark.h>

#include <cctype>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

namespace site {
namespace {

using nlohmann::json;

std::string replace_all(std::string text, std::string_view what, std::string_view with) {
    size_t pos = 0;
    while ((pos = text.find(what, pos)) != std::string::npos) {
        text.replace(pos, what.size(), with);
        pos += with.size();
    }
    return text;
}

std::string fill(std::string fragment, const std::map<std::string, std::string>& holes) {
    for (const auto& [name, value] : holes) fragment = replace_all(std::move(fragment), "@@" + name + "@@", value);
    return fragment;
}

std::string strip_tags(std::string_view html) {
    std::string out;
    bool in_tag = false;
    for (char c : html) {
        if (c == '<') in_tag = true;
        else if (c == '>') in_tag = false;
        else if (!in_tag) out += c;
    }
    // The few entities cmark writes.
    out = replace_all(out, "&amp;", "&");
    out = replace_all(out, "&quot;", "\"");
    out = replace_all(out, "&lt;", "<");
    return replace_all(out, "&gt;", ">");
}

std::string trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return std::string(s);
}

std::string percent_encode(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string url_value(const json& v) {
    if (v.is_string()) return percent_encode(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    return percent_encode(v.dump());
}

// Gives every <h2> and <h3> an id from its text, unique within the page.
std::string add_heading_ids(const std::string& html) {
    std::string out;
    std::map<std::string, int> used;
    size_t pos = 0;
    while (true) {
        size_t h = html.find("<h", pos);
        if (h == std::string::npos || h + 3 >= html.size()) break;
        const char level = html[h + 2];
        if ((level != '2' && level != '3') || html[h + 3] != '>') {
            out += html.substr(pos, h + 2 - pos);
            pos = h + 2;
            continue;
        }
        const std::string close = std::string("</h") + level + ">";
        const size_t end = html.find(close, h);
        if (end == std::string::npos) break;
        std::string slug = slugify(strip_tags(html.substr(h + 4, end - h - 4)));
        if (int n = used[slug]++; n > 0) slug += "-" + std::to_string(n + 1);
        out += html.substr(pos, h - pos);
        out += std::string("<h") + level + " id=\"" + slug + "\">";
        pos = h + 4;
    }
    return out + html.substr(pos);
}

struct Located {
    size_t position;  // of the token in the rendered HTML
    const ScannedItem* item;
};

std::string figure_html(const FigureRecord& f, const LessonData& data) {
    const Ref& first = f.binding.refs.front();
    json refs = json::array();
    for (const RefValue& r : f.value.refs) refs.push_back(r.ref.str());
    std::string attrs = " data-fig=\"" + std::to_string(f.id) + "\"" + " data-field=\"" +
                        escape_html(first.is_fact() ? first.str() : first.path) + "\"" + " data-format=\"" + escape_html(f.binding.format) +
                        "\"" + " data-expr=\"" + escape_html(trim(f.binding.source_text.substr(0, f.binding.source_text.rfind('|')))) +
                        "\"" + " data-refs=\"" + escape_html(refs.dump()) + "\"" + " data-source=\"" +
                        escape_html(f.where.file + ":" + std::to_string(f.where.line)) + "\"";
    // The first scenario the figure reads is the one a click loads; the others are one more click away.
    const Ref* scenario_ref = nullptr;
    for (const Ref& r : f.binding.refs)
        if (!r.is_fact()) {
            scenario_ref = &r;
            break;
        }
    if (!scenario_ref) {
        const Fact* fact = data.find_fact(first.path);
        return "<span class=\"kv-fig kv-fig--fact\"" + attrs + " title=\"" +
               escape_html(fact ? fact->about + " Source: " + fact->source : "") + "\">" + escape_html(f.value.formatted) + "</span>";
    }
    json names = json::array();
    for (const Ref& r : f.binding.refs)
        if (!r.is_fact() && std::find(names.begin(), names.end(), r.source) == names.end()) names.push_back(r.source);
    const EvaluatedScenario* s = data.find_scenario(scenario_ref->source);
    attrs += " data-scenario-name=\"" + escape_html(scenario_ref->source) + "\"" + " data-scenario=\"" + escape_html(s->scenario.dump()) +
             "\"" + " data-scenario-names=\"" + escape_html(names.dump()) + "\"";
    if (!f.panel.empty()) attrs += " data-panel=\"" + escape_html(f.panel) + "\"";
    const std::string href = f.panel.empty() ? "" : " href=\"#panel-" + escape_html(f.panel) + "\"";
    return "<a class=\"kv-fig\"" + href + attrs + " title=\"" + escape_html(s->about) + "\">" + escape_html(f.value.formatted) + "</a>";
}

// Reading sections: a `{{scenario NAME}}` marker starts one, the next marker or ## heading ends
// it. In a chapter with a panel, every figure that reads a scenario must stand in a section that
// names one, and a section must quote at least one figure of the scenario it names, so the panel
// beside the text never shows a scenario the text does not describe.
template <typename ChapterOf>
void check_sections(const std::string& html, const std::vector<Located>& located, const ChapterOf& chapter_of,
                    std::vector<ScanError>& errors) {
    std::vector<size_t> h2s;
    for (size_t at = html.find("<h2>"); at != std::string::npos; at = html.find("<h2>", at + 1)) h2s.push_back(at);
    size_t next_h2 = 0;
    const ScannedItem* marker = nullptr;
    std::set<std::string> quoted;
    bool missing_reported = false;
    auto close = [&] {
        if (marker) {
            const std::string& name = std::get<ScenarioMarker>(marker->item).scenario;
            if (!quoted.count(name)) {
                std::string names;
                for (const std::string& n : quoted) names += (names.empty() ? "" : ", ") + n;
                errors.push_back({marker->where, "{{scenario " + name + "}}",
                                  "the section quotes no figure of \"" + name + "\"" +
                                      (names.empty() ? std::string(" (it quotes none)") : " (it quotes " + names + ")")});
            }
        }
        marker = nullptr;
        quoted.clear();
    };
    for (const Located& l : located) {
        while (next_h2 < h2s.size() && h2s[next_h2] < l.position) {
            close();
            missing_reported = false;
            ++next_h2;
        }
        if (std::holds_alternative<ScenarioMarker>(l.item->item)) {
            close();
            marker = l.item;
            if (chapter_of(l.position).empty())
                errors.push_back({l.item->where, "",
                                  "a scenario marker needs a panel beside it: put it after the first {{panel ...}}'s chapter starts"});
            continue;
        }
        const auto* b = std::get_if<FigureBinding>(&l.item->item);
        if (!b || chapter_of(l.position).empty()) continue;
        bool reads_scenario = false;
        for (const Ref& r : b->refs)
            if (!r.is_fact()) {
                reads_scenario = true;
                quoted.insert(r.source);
            }
        if (reads_scenario && !marker && !missing_reported) {
            errors.push_back({l.item->where, "{{" + b->source_text + "}}",
                              "this section names no scenario: start it with {{scenario NAME}}, the scenario its text describes"});
            missing_reported = true;
        }
    }
    close();
}

// [SECTION] Exercises: {{exercise ID SCENARIO}} question {{answer FIGURE}} explanation {{end exercise}}.
// Without JavaScript an exercise reads as its question and a <details> holding the core's answer and
// the explanation; kvexercise.js shows the form that checks a prediction against that answer.

// Each exercise has one answer, reading its own scenario, and an end in the same file; ids are unique;
// no panel, snippet or scenario marker stands inside one.
void check_exercises(const std::vector<ScannedItem>& items, const LessonData& data, std::vector<ScanError>& errors) {
    const ScannedItem* open = nullptr;
    bool answered = false;
    std::map<std::string, SourceLocation> ids;
    auto name = [](const ScannedItem* s) { return "exercise \"" + std::get<ExerciseStart>(s->item).id + "\""; };
    auto close = [&](const SourceLocation& at) {
        if (open && !answered) errors.push_back({open->where, "", name(open) + " has no {{answer ...}}"});
        if (open && at.file != open->where.file)
            errors.push_back({open->where, "", name(open) + " is not closed with {{end exercise}} in its file"});
        open = nullptr;
    };
    for (const ScannedItem& s : items) {
        auto error = [&](std::string message) { errors.push_back({s.where, "", std::move(message)}); };
        if (open && s.where.file != open->where.file) close(s.where);
        if (const auto* start = std::get_if<ExerciseStart>(&s.item)) {
            if (open) error("an exercise cannot start inside " + name(open) + " (" + open->where.str() + "); end that one first");
            if (!data.find_scenario(start->scenario))
                error("exercise: unknown scenario \"" + start->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
            if (auto [first, fresh] = ids.emplace(start->id, s.where); !fresh)
                error("exercise id \"" + start->id + "\" is used twice (first at " + first->second.str() + ")");
            open = &s;
            answered = false;
        } else if (const auto* answer = std::get_if<ExerciseAnswer>(&s.item)) {
            if (!open) error("an answer outside an exercise: put it between {{exercise ...}} and {{end exercise}}");
            else if (answered) error(name(open) + " has two answers");
            else {
                answered = true;
                const std::string& scenario = std::get<ExerciseStart>(open->item).scenario;
                const auto& refs = answer->figure.refs;
                if (std::none_of(refs.begin(), refs.end(), [&](const Ref& r) { return r.source == scenario; }))
                    error("the answer reads no field of \"" + scenario + "\", the scenario " + name(open) + " names");
            }
        } else if (std::holds_alternative<ExerciseEnd>(s.item)) {
            if (!open) error("{{end exercise}} without an {{exercise ...}} before it");
            else close(s.where);
        } else if (open && !std::holds_alternative<FigureBinding>(s.item) && !std::holds_alternative<ConceptSpan>(s.item)) {
            error("a panel, snippet or scenario marker cannot stand inside " + name(open));
        }
    }
    if (open) close(SourceLocation{});
}

// An exercise holds no heading: it belongs to the section it ends.
void check_exercise_headings(const std::string& html, const std::vector<Located>& located, std::vector<ScanError>& errors) {
    const Located* start = nullptr;
    for (const Located& l : located) {
        if (std::holds_alternative<ExerciseStart>(l.item->item)) start = &l;
        if (!std::holds_alternative<ExerciseEnd>(l.item->item) || !start) continue;
        for (const char* h : {"<h1>", "<h2>", "<h3>", "<h4>"})
            if (html.find(h, start->position) < l.position) {
                errors.push_back({start->item->where, "", "an exercise cannot hold a heading; end it before the next section"});
                break;
            }
        start = nullptr;
    }
}

// The answer as shown, cut into its number and its unit: "144 KiB" is {"144", "KiB"}, "93" is {"93", ""}.
std::pair<std::string, std::string> shown_number_and_unit(const std::string& formatted) {
    size_t end = 0;
    while (end < formatted.size() && (std::isdigit(static_cast<unsigned char>(formatted[end])) || formatted[end] == '.' ||
                                      formatted[end] == ',' || formatted[end] == '-'))
        ++end;
    std::string number;
    for (char c : formatted.substr(0, end))
        if (c != ',') number += c;
    return {number, trim(formatted.substr(end))};
}

std::string exercise_opening(const ExerciseStart& e) {
    const std::string id = "exercise-" + escape_html(e.id);
    return "<section class=\"kv-exercise\" id=\"" + id + "\" data-exercise=\"" + escape_html(e.id) + "\" data-scenario-name=\"" +
           escape_html(e.scenario) + "\" aria-labelledby=\"" + id + "-title\">\n<p class=\"kv-exercise__title\" id=\"" + id +
           "-title\">Predict, then check</p>\n";
}

// The form kvexercise.js shows (hidden until it runs), then the answer behind a disclosure.
std::string exercise_answer(const FigureRecord& f, const LessonData& data) {
    const auto [number, unit] = shown_number_and_unit(f.value.formatted);
    return "<form class=\"kv-exercise__check\" data-answer=\"" + escape_html(number) + "\" data-unit=\"" + escape_html(unit) +
           "\" novalidate>\n<label>Your prediction" + (unit.empty() ? std::string() : " (" + escape_html(unit) + ")") +
           " <input type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\"></label>\n"
           "<button type=\"submit\">Check</button>\n<p class=\"kv-exercise__verdict\" role=\"status\" aria-live=\"polite\"></p>\n</form>\n"
           "<details class=\"kv-exercise__answer\">\n<summary>Show the answer</summary>\n<p class=\"kv-exercise__value\">The model&rsquo;s answer: " +
           figure_html(f, data) + "</p>\n";
}

// Where an exercise token's replacement goes: (erase from, erase length, replacement). A block
// (an opening, an answer) cuts its paragraph in two around itself, so a question or an explanation
// may run on from the directive's line; an end closes the paragraph it ends. nullopt for a token
// outside a paragraph (in a list, a quote) or an end before a paragraph's end.
std::optional<std::tuple<size_t, size_t, std::string>> exercise_span(const std::string& html, size_t at, size_t length,
                                                                     const std::string& block) {
    const bool starts = at >= 3 && html.compare(at - 3, 3, "<p>") == 0;
    const bool ends = html.compare(at + length, 4, "</p>") == 0;
    const size_t open = html.rfind("<p>", at), closed = html.rfind("</p>", at);
    if (open == std::string::npos || (closed != std::string::npos && closed > open)) return std::nullopt;  // not in a paragraph
    const size_t from = starts ? at - 3 : at;
    const std::string before = starts ? "" : "</p>\n";
    if (block.empty()) {  // the end: close what the opening and the answer left open
        if (!ends) return std::nullopt;
        return std::tuple{from, at + length + 4 - from, before + "</details>\n</section>"};
    }
    if (ends) return std::tuple{from, at + length + 4 - from, before + block};
    size_t rest = at + length;
    while (rest < html.size() && std::isspace(static_cast<unsigned char>(html[rest]))) ++rest;
    return std::tuple{from, rest - from, before + block + "<p>"};
}

// Every rendered exercise, by id, for embed.html.
std::vector<std::pair<std::string, std::string>> exercise_blocks(const std::string& html) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string open = "<section class=\"kv-exercise\"", id_attr = "data-exercise=\"";
    for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
        const size_t end = html.find("</section>", at) + 10;
        const size_t id = html.find(id_attr, at) + id_attr.size();
        out.emplace_back(html.substr(id, html.find('"', id) - id), html.substr(at, end - at));
    }
    return out;
}

}  // namespace

std::string escape_html(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string slugify(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "section" : out;
}

std::string markdown_to_html(const std::string& markdown) {
    char* html = cmark_markdown_to_html(markdown.data(), markdown.size(), CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8);
    std::string out(html);
    std::free(html);
    return out;
}

std::string embed_query(const std::string& kind, const json& scenario, const json& defaults) {
    std::string query = "panel=" + percent_encode(kind);
    for (const auto& [key, value] : scenario.items()) {
        if (defaults.contains(key) && defaults[key] == value) continue;
        if (value.is_null()) continue;
        query += "&" + key + "=" + url_value(value);
    }
    return query;
}

RenderedArticle render_article(const RenderInput& input) {
    RenderedArticle out;
    const LessonData& data = *input.data;

    // 1. Scan every file; tokens are numbered across files so one document can be rendered.
    std::string markdown;
    std::vector<ScannedItem> items;
    std::vector<AnchorLink> links;
    for (const auto& [name, text] : input.files) {
        ScanResult scanned = scan_markdown(text, name, items.size());
        for (ScanError& e : scanned.errors) out.errors.push_back(std::move(e));
        for (ScannedItem& item : scanned.items) items.push_back(std::move(item));
        for (AnchorLink& link : scanned.links) links.push_back(std::move(link));
        markdown += scanned.markdown;
        markdown += "\n\n";
    }

    // 2. Compute every figure and check every directive before rendering anything.
    const json defaults = kv::scenario_to_json(kv::Scenario{});
    std::map<std::string, FigureRecord> figures;                      // by token
    std::map<std::string, SourceLocation> anchors;                    // by html id
    std::map<std::string, std::pair<std::string, Picture>> pictures;  // by token: (element id, picture)
    std::map<std::string, int> picture_count;
    int next_id = 1;
    for (const ScannedItem& s : items) {
        auto error = [&](std::string message) { out.errors.push_back({s.where, "", std::move(message)}); };
        const auto* answer = std::get_if<ExerciseAnswer>(&s.item);
        if (const auto* b = answer ? &answer->figure : std::get_if<FigureBinding>(&s.item)) {
            auto value = data.compute(*b);
            if (auto* message = std::get_if<std::string>(&value)) {
                out.errors.push_back({s.where, "{{" + b->source_text + "}}", *message});
                continue;
            }
            figures[s.token] = FigureRecord{next_id++, s.where, *b, std::get<FigureValue>(std::move(value)), ""};
        } else if (const auto* p = std::get_if<PanelDirective>(&s.item)) {
            if (!data.find_scenario(p->scenario))
                error("panel: unknown scenario \"" + p->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
        } else if (const auto* pic = std::get_if<PictureDirective>(&s.item)) {
            const EvaluatedScenario* sc = data.find_scenario(pic->scenario);
            if (!sc) {
                error("picture: unknown scenario \"" + pic->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
                continue;
            }
            const int n = ++picture_count[pic->name];
            const std::string id = "picture-" + pic->name + (n == 1 ? "" : "-" + std::to_string(n));
            auto drawn = draw_picture(pic->name, sc->evaluated, id);
            if (auto* message = std::get_if<std::string>(&drawn)) error("picture " + pic->name + " " + pic->scenario + ": " + *message);
            else pictures[s.token] = {id, std::get<Picture>(std::move(drawn))};
        } else if (const auto* m = std::get_if<ScenarioMarker>(&s.item)) {
            if (!data.find_scenario(m->scenario))
                error("scenario: unknown scenario \"" + m->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
        } else if (const auto* e = std::get_if<EmbedDirective>(&s.item)) {
            if (!data.find_scenario(e->scenario))
                error("embed: unknown scenario \"" + e->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
        } else if (const auto* c = std::get_if<ConceptSpan>(&s.item)) {
            if (!input.concepts.empty() && !input.concepts.count(c->concept_name)) {
                std::string names;
                for (const std::string& n : input.concepts) names += (names.empty() ? "" : ", ") + n;
                error("unknown concept \"" + c->concept_name + "\" (palette.css defines: " + names + ")");
            }
        } else if (const auto* a = std::get_if<Anchor>(&s.item)) {
            if (auto [it, added] = anchors.emplace(a->html_id(), s.where); !added)
                error("\"" + a->html_id() + "\" is already defined at " + it->second.str() + "; define each term or reference once");
        }
    }
    for (const AnchorLink& link : links)
        if (!anchors.count(link.target))
            out.errors.push_back({link.where, "(#" + link.target + ")",
                                  "no anchor has this id: mark the term's first use [text]{dfn=ID} or the reference [text]{ref=ID}"});
    check_exercises(items, data, out.errors);
    if (!out.errors.empty()) return out;

    // 3. Render, then cut into chapters at the heading before each panel after the first.
    std::string html = markdown_to_html(markdown);
    if (size_t h1 = html.find("<h1>"); h1 != std::string::npos) {
        const size_t end = html.find("</h1>", h1);
        out.title_html = html.substr(h1 + 4, end - h1 - 4);
        html.erase(h1, end + 5 - h1);
    }
    std::vector<Located> located;
    for (const ScannedItem& s : items) {
        const size_t pos = html.find(s.token);
        if (pos == std::string::npos) {
            out.errors.push_back({s.where, "", "the rendered Markdown lost this binding (is it inside raw HTML?)"});
            continue;
        }
        located.push_back({pos, &s});
    }
    check_exercise_headings(html, located, out.errors);
    // A kind's first panel is named by its kind (#panel-admission); a later one of the same kind
    // gets a number (#panel-admission-2), so a section far from the first can have its own.
    struct Chapter {
        size_t start;
        std::string panel;
        size_t heading_ordinal = 0;
    };
    std::vector<Chapter> chapters{{0, "", 0}};
    std::map<std::string, int> kind_count;
    std::map<std::string, std::string> panel_id_of;  // by token
    for (const Located& l : located) {
        const auto* p = std::get_if<PanelDirective>(&l.item->item);
        if (!p) continue;
        const int n = ++kind_count[p->kind];
        const std::string id = n == 1 ? p->kind : p->kind + "-" + std::to_string(n);
        panel_id_of[l.item->token] = id;
        const std::string opening = "<p>" + l.item->token;
        if (html.compare(l.position - 3, opening.size(), opening) != 0) {
            out.errors.push_back({l.item->where, "", "a panel must start a paragraph of its own; its caption may follow it"});
            continue;
        }
        if (chapters.back().panel.empty()) {
            chapters.back().panel = id;
        } else {
            const size_t heading = html.rfind("<h2>", l.position);
            if (heading == std::string::npos || heading <= chapters.back().start)
                out.errors.push_back({l.item->where, "", "two panels in one section; start a new ## section for this one"});
            else {
                size_t ordinal = 0;
                for (size_t at = html.find("<h2>"); at < heading; at = html.find("<h2>", at + 1)) ++ordinal;
                chapters.push_back({heading, id, ordinal});
            }
        }
        out.panels.push_back(id);
    }
    if (!out.errors.empty()) return out;
    auto chapter_of = [&](size_t position) {
        const Chapter* found = &chapters.front();
        for (const Chapter& c : chapters)
            if (c.start <= position) found = &c;
        return found->panel;
    };
    check_sections(html, located, chapter_of, out.errors);
    if (!out.errors.empty()) return out;

    // 4. Replace tokens, last first, so earlier positions stay valid.
    for (auto it = located.rbegin(); it != located.rend(); ++it) {
        const ScannedItem& s = *it->item;
        std::string replacement;
        size_t erase_from = it->position, erase_len = s.token.size();
        if (std::holds_alternative<FigureBinding>(s.item)) {
            FigureRecord& f = figures.at(s.token);
            f.panel = chapter_of(it->position);
            replacement = figure_html(f, data);
        } else if (std::holds_alternative<ExerciseStart>(s.item) || std::holds_alternative<ExerciseAnswer>(s.item) ||
                   std::holds_alternative<ExerciseEnd>(s.item)) {
            std::string block;
            if (const auto* start = std::get_if<ExerciseStart>(&s.item)) block = exercise_opening(*start);
            else if (std::holds_alternative<ExerciseAnswer>(s.item)) {
                FigureRecord& f = figures.at(s.token);
                f.panel = chapter_of(it->position);
                block = exercise_answer(f, data);
            }
            if (auto span = exercise_span(html, it->position, s.token.size(), block)) std::tie(erase_from, erase_len, replacement) = *span;
            else {
                out.errors.push_back({s.where, "", "an exercise directive stands in a paragraph, and {{end exercise}} ends one"});
                continue;
            }
        } else if (const auto* c = std::get_if<ConceptSpan>(&s.item)) {
            replacement =
                "<span class=\"kv-concept\" data-concept=\"" + escape_html(c->concept_name) + "\">" + escape_html(c->text) + "</span>";
        } else if (const auto* a = std::get_if<Anchor>(&s.item)) {
            const bool term = a->kind == Anchor::Kind::term;
            replacement = std::string(term ? "<dfn" : "<span") + " id=\"" + escape_html(a->html_id()) + "\" class=\"" +
                          (term ? "kv-dfn" : "kv-ref") + "\">" + escape_html(a->text) + (term ? "</dfn>" : "</span>");
        } else if (const auto* m = std::get_if<ScenarioMarker>(&s.item)) {
            // A marker is a paragraph of its own, replaced by an empty element that starts the section.
            const size_t p_open = html.rfind("<p>", it->position);
            const size_t p_close = html.find("</p>", it->position);
            if (p_open == std::string::npos || html.compare(p_open, 3 + s.token.size(), "<p>" + s.token) != 0 ||
                p_close != it->position + s.token.size()) {
                out.errors.push_back({s.where, "", "a scenario marker stands alone in a paragraph of its own"});
                continue;
            }
            erase_from = p_open;
            erase_len = p_close + 4 - p_open;
            replacement = "<div class=\"kv-section-mark\" data-section-scenario=\"" + escape_html(m->scenario) + "\" data-panel=\"" +
                          escape_html(chapter_of(it->position)) + "\" hidden></div>";
        } else {
            // Panels and snippets replace their whole paragraph; the rest of it is the caption.
            const size_t p_open = html.rfind("<p>", it->position);
            const size_t p_close = html.find("</p>", it->position);
            const std::string caption = trim(html.substr(it->position + s.token.size(), p_close - it->position - s.token.size()));
            if (p_open == std::string::npos || html.compare(p_open, 3 + s.token.size(), "<p>" + s.token) != 0) {
                out.errors.push_back({s.where, "", "a directive must start a paragraph of its own"});
                continue;
            }
            erase_from = p_open;
            erase_len = p_close + 4 - p_open;
            if (const auto* p = std::get_if<PanelDirective>(&s.item)) {
                const EvaluatedScenario* sc = data.find_scenario(p->scenario);
                replacement = fill(input.fragments.panel, {{"ID", escape_html(panel_id_of.at(s.token))},
                                                           {"KIND", escape_html(p->kind)},
                                                           {"SCENARIO_NAME", escape_html(p->scenario)},
                                                           {"STATE", escape_html(sc->scenario.dump())},
                                                           {"CAPTION", caption}});
            } else if (std::holds_alternative<PictureDirective>(s.item)) {
                const auto& [id, picture] = pictures.at(s.token);
                replacement = picture_figure_html(picture, id, caption);
            } else {
                const auto* e = std::get_if<EmbedDirective>(&s.item);
                const EvaluatedScenario* sc = data.find_scenario(e->scenario);
                // No height: kvembed-host.js sizes the frame to the panel (site/js/lesson.js's
                // snippetCode writes the same text as the reader changes the panel).
                const std::string src = "kv/embed.html?" + embed_query(e->kind, sc->scenario, defaults);
                const std::string code = "<iframe data-kv-embed src=\"" + src +
                                         "\" title=\"KV cache panel\" "
                                         "style=\"width:100%;border:0\"></iframe>\n"
                                         "<script src=\"kv/js/kvembed-host.js\"></script>";
                replacement = fill(input.fragments.snippet, {{"KIND", escape_html(e->kind)},
                                                             {"STATE", escape_html(sc->scenario.dump())},
                                                             {"CODE", escape_html(code)},
                                                             {"CAPTION", caption}});
            }
        }
        html.replace(erase_from, erase_len, replacement);
    }

    // 5. Wrap chapters. Replacement moved positions but added and removed no <h2>, so each chapter
    //    is found again by the ordinal of its heading.
    std::vector<size_t> h2s;
    for (size_t at = html.find("<h2>"); at != std::string::npos; at = html.find("<h2>", at + 1)) h2s.push_back(at);
    std::string body;
    size_t previous = 0;
    for (size_t c = 0; c < chapters.size(); ++c) {
        if (c > 0) {
            const size_t start = h2s.at(chapters[c].heading_ordinal);
            body += html.substr(previous, start - previous) + "</div>\n";
            previous = start;
        }
        body +=
            "<div class=\"kv-chapter\"" + (chapters[c].panel.empty() ? std::string() : " data-panel=\"" + chapters[c].panel + "\"") + ">\n";
    }
    body += html.substr(previous) + "</div>\n";
    if (!out.errors.empty()) return out;
    out.body_html = add_heading_ids(body);
    out.exercises = exercise_blocks(out.body_html);
    out.title_text = strip_tags(out.title_html);
    for (auto& [token, f] : figures) out.figures.push_back(std::move(f));
    std::sort(out.figures.begin(), out.figures.end(), [](const FigureRecord& a, const FigureRecord& b) { return a.id < b.id; });
    return out;
}

}  // namespace site
