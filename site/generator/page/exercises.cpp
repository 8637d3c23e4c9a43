// The exercises' checks (their structure, across the lesson's files) and their HTML.
#include "page/exercises.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include "markdown/words.hpp"
#include "page/elements.hpp"
#include "page/html.hpp"

namespace site {
namespace {

// The answer as shown, cut into its number and its unit: "144 KiB" is {"144", "KiB"}, "93" is {"93", ""}.
std::pair<std::string, std::string> shown_number_and_unit(const std::string& formatted) {
    size_t end = 0;
    while (end < formatted.size() && (std::isdigit(static_cast<unsigned char>(formatted[end])) || formatted[end] == '.' ||
                                      formatted[end] == ',' || formatted[end] == '-'))
        ++end;
    std::string number;
    for (char c : formatted.substr(0, end))
        if (c != ',') number += c;
    return {number, std::string(trim(std::string_view(formatted).substr(end)))};
}

}  // namespace

void check_exercises(const std::vector<ScannedItem>& items, const LessonData& data, std::vector<BuildError>& errors) {
    const ScannedItem* open = nullptr;
    bool answered = false;
    std::map<std::string, SourceLocation> ids;
    auto name = [](const ScannedItem* s) { return "exercise \"" + std::get<ExerciseStart>(s->item).id + "\""; };
    auto close = [&](const SourceLocation& at) {
        if (open && !answered)
            errors.push_back({open->where, ErrorCode::exercise_without_answer, "", name(open) + " has no {{answer ...}}"});
        if (open && at.file != open->where.file)
            errors.push_back(
                {open->where, ErrorCode::exercise_not_closed, "", name(open) + " is not closed with {{end exercise}} in its file"});
        open = nullptr;
    };
    for (const ScannedItem& s : items) {
        auto error = [&](ErrorCode code, std::string message) { errors.push_back({s.where, code, "", std::move(message)}); };
        if (open && s.where.file != open->where.file) close(s.where);
        if (const auto* start = std::get_if<ExerciseStart>(&s.item)) {
            if (open)
                error(ErrorCode::nested_exercise,
                      "an exercise cannot start inside " + name(open) + " (" + open->where.str() + "); end that one first");
            if (!data.find_scenario(start->scenario))
                error(ErrorCode::unknown_scenario,
                      "exercise: unknown scenario \"" + start->scenario + "\" (scenarios.json has: " + data.scenario_names() + ")");
            if (auto [first, fresh] = ids.emplace(start->id, s.where); !fresh)
                error(ErrorCode::duplicate_exercise,
                      "exercise id \"" + start->id + "\" is used twice (first at " + first->second.str() + ")");
            open = &s;
            answered = false;
        } else if (const auto* answer = std::get_if<ExerciseAnswer>(&s.item)) {
            if (!open)
                error(ErrorCode::answer_outside_exercise,
                      "an answer outside an exercise: put it between {{exercise ...}} and {{end exercise}}");
            else if (answered) error(ErrorCode::second_answer, name(open) + " has two answers");
            else {
                answered = true;
                const std::string& scenario = std::get<ExerciseStart>(open->item).scenario;
                const auto& refs = answer->figure.refs;
                if (std::none_of(refs.begin(), refs.end(), [&](const Ref& r) { return r.source == scenario; }))
                    error(ErrorCode::answer_off_scenario,
                          "the answer reads no field of \"" + scenario + "\", the scenario " + name(open) + " names");
            }
        } else if (std::holds_alternative<ExerciseEnd>(s.item)) {
            if (!open) error(ErrorCode::end_without_exercise, "{{end exercise}} without an {{exercise ...}} before it");
            else close(s.where);
        } else if (open && !std::holds_alternative<FigureBinding>(s.item) && !std::holds_alternative<ConceptSpan>(s.item)) {
            error(ErrorCode::directive_in_exercise, "a panel, snippet or scenario marker cannot stand inside " + name(open));
        }
    }
    if (open) close(SourceLocation{});
}

void check_exercise_headings(const std::string& html, const std::vector<Located>& located, std::vector<BuildError>& errors) {
    const Located* start = nullptr;
    for (const Located& l : located) {
        if (std::holds_alternative<ExerciseStart>(l.item->item)) start = &l;
        if (!std::holds_alternative<ExerciseEnd>(l.item->item) || !start) continue;
        for (const char* h : {"<h1>", "<h2>", "<h3>", "<h4>"})
            if (html.find(h, start->position) < l.position) {
                errors.push_back({start->item->where, ErrorCode::heading_in_exercise, "",
                                  "an exercise cannot hold a heading; end it before the next section"});
                break;
            }
        start = nullptr;
    }
}

std::string exercise_opening(const ExerciseStart& e) {
    const std::string id = "exercise-" + escape_html(e.id);
    return "<section class=\"kv-exercise\" id=\"" + id + "\" data-exercise=\"" + escape_html(e.id) + "\" data-scenario-name=\"" +
           escape_html(e.scenario) + "\" aria-labelledby=\"" + id + "-title\">\n<p class=\"kv-exercise__title\" id=\"" + id +
           "-title\">Predict, then check</p>\n";
}

// The form kvexercise.js shows (hidden until it runs), then the answer behind a disclosure.
std::string exercise_answer(const FigureRecord& f, const LessonData& data, const std::optional<FigureValue>& unchanged) {
    const auto [number, unit] = shown_number_and_unit(f.value.formatted);
    std::string start;
    if (unchanged) {
        // In the answer's unit, which the reader predicts in: as shown when the units agree, else
        // scaled as the answer's shown number is ("1.97 s" is 1971 beside an answer in ms).
        auto [shown, shown_unit] = shown_number_and_unit(unchanged->formatted);
        if (shown_unit != unit) {
            const double shown_per_value = f.value.number != 0 ? std::stod(number) / f.value.number : 1;
            char scaled[32];
            std::snprintf(scaled, sizeof scaled, "%.4g", unchanged->number * shown_per_value);
            shown = scaled;
        }
        start = " data-unchanged=\"" + escape_html(shown) + "\" data-unchanged-text=\"" + escape_html(unchanged->formatted) + "\"";
    }
    return "<form class=\"kv-exercise__check\" data-answer=\"" + escape_html(number) + "\" data-unit=\"" + escape_html(unit) + "\"" +
           start + " novalidate>\n<label>Your prediction" + (unit.empty() ? std::string() : " (" + escape_html(unit) + ")") +
           " <input type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\"></label>\n"
           "<button type=\"submit\">Check</button>\n<p class=\"kv-exercise__verdict\" role=\"status\" aria-live=\"polite\"></p>\n</form>\n"
           "<details class=\"kv-exercise__answer\">\n<summary>Show the answer</summary>\n<p class=\"kv-exercise__value\">The model&rsquo;s answer: " +
           figure_html(f, data) + "</p>\n";
}

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

}  // namespace site
