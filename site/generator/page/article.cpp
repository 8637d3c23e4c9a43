// Rendering the article, in stages: scan every file; compute every figure and check every directive
// before rendering anything; render with cmark and find each token again; cut into chapters and
// check the reading sections; replace each token by its element; wrap the chapters.
#include "page/article.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "io/json_io.hpp"
#include "markdown/words.hpp"
#include "page/chapters.hpp"
#include "page/elements.hpp"
#include "page/exercises.hpp"
#include "scenario/scenario_fields.hpp"
#include "page/html.hpp"
#include "pictures/pictures.hpp"

namespace site {
namespace {

using nlohmann::json;

// Where a token's element goes: the bytes it replaces, and the HTML.
struct Edit {
    size_t from, length;
    std::string html;
};

class Article {
public:
    explicit Article(const RenderInput& input) : input_(input), data_(*input.data) {}

    RenderedArticle render() {
        scan();
        check_items();
        check_links();
        check_exercises(items_, data_, out_.errors);
        if (!out_.errors.empty()) return std::move(out_);

        std::string html = markdown_to_html(markdown_);
        take_title(html);
        locate(html);
        check_exercise_headings(html, located_, out_.errors);
        chapters_ = cut_chapters(html, located_, out_.panels, out_.errors);
        if (!out_.errors.empty()) return std::move(out_);
        check_sections(html, located_, chapters_, out_.errors);
        if (!out_.errors.empty()) return std::move(out_);

        // Last first, so earlier positions stay valid.
        for (auto it = located_.rbegin(); it != located_.rend(); ++it)
            if (auto edit = edit_for(*it, html)) html.replace(edit->from, edit->length, edit->html);
        const std::string body = wrap_chapters(html, chapters_);
        if (!out_.errors.empty()) return std::move(out_);
        out_.body_html = add_heading_ids(body);
        out_.exercises = exercise_blocks(out_.body_html);
        out_.title_text = strip_tags(out_.title_html);
        for (auto& [token, f] : figures_) out_.figures.push_back(std::move(f));
        std::sort(out_.figures.begin(), out_.figures.end(), [](const FigureRecord& a, const FigureRecord& b) { return a.id < b.id; });
        return std::move(out_);
    }

private:
    const RenderInput& input_;
    const LessonData& data_;
    const json defaults_ = kv::scenario_to_json(kv::Scenario{});
    RenderedArticle out_;
    std::string markdown_;
    std::vector<ScannedItem> items_;
    std::vector<AnchorLink> links_;
    std::map<std::string, FigureRecord> figures_;                      // by token
    std::map<std::string, FigureValue> unchanged_;                     // by answer token: the value its question starts from
    std::map<std::string, SourceLocation> anchors_;                    // by html id
    std::map<std::string, std::pair<std::string, Picture>> pictures_;  // by token: (element id, picture)
    std::map<std::string, int> picture_count_;
    int next_figure_id_ = 1;
    std::vector<Located> located_;
    Chapters chapters_;

    void error(const ScannedItem& s, ErrorCode code, std::string message) {
        out_.errors.push_back({s.where, code, "", std::move(message)});
    }

    // Every file, tokens numbered across files so one document can be rendered.
    void scan() {
        for (const auto& [name, text] : input_.files) {
            ScanResult scanned = scan_markdown(text, name, items_.size());
            for (BuildError& e : scanned.errors) out_.errors.push_back(std::move(e));
            for (ScannedItem& item : scanned.items) items_.push_back(std::move(item));
            for (AnchorLink& link : scanned.links) links_.push_back(std::move(link));
            markdown_ += scanned.markdown;
            markdown_ += "\n\n";
        }
    }

    void check_items() {
        for (const ScannedItem& s : items_) {
            const auto* answer = std::get_if<ExerciseAnswer>(&s.item);
            if (answer && answer->unchanged) compute_unchanged(s, *answer);
            if (const auto* b = answer ? &answer->figure : std::get_if<FigureBinding>(&s.item)) compute(s, *b);
            else if (const auto* p = std::get_if<PanelDirective>(&s.item)) check_scenario(s, "panel", p->scenario);
            else if (const auto* pic = std::get_if<PictureDirective>(&s.item)) draw(s, *pic);
            else if (const auto* m = std::get_if<ScenarioMarker>(&s.item)) check_scenario(s, "scenario", m->scenario);
            else if (const auto* e = std::get_if<EmbedDirective>(&s.item)) check_scenario(s, "embed", e->scenario);
            else if (const auto* u = std::get_if<SetupControl>(&s.item)) check_scenario(s, "setup", u->scenario);
            else if (const auto* c = std::get_if<ConceptSpan>(&s.item)) check_concept(s, *c);
            else if (const auto* a = std::get_if<Anchor>(&s.item)) check_anchor(s, *a);
        }
    }

    void compute(const ScannedItem& s, const FigureBinding& b) {
        if (!b.knob.empty()) {  // a knob moves as the panel's does: a field with a label and stops or choices
            const auto* field = kv::find_field(kv::scenario_fields(), b.knob);
            if (!field || !*field->spec->label || (field->spec->stops.empty() && field->spec->choices.empty())) {
                out_.errors.push_back({s.where, ErrorCode::bad_knob, "{{" + b.source_text + "}}",
                                       "\"" + b.knob + "\" is not a scenario field with a knob's stops or choices"});
                return;
            }
        }
        auto value = data_.compute(b);
        if (auto* error = std::get_if<Error>(&value)) {
            out_.errors.push_back({s.where, error->code, "{{" + b.source_text + "}}", error->message});
            return;
        }
        figures_[s.token] = FigureRecord{next_figure_id_++, s.where, b, std::get<FigureValue>(std::move(value)), ""};
    }

    // An answer's starting value: a number the core computes, which the change must move (else the
    // question has nothing to predict).
    void compute_unchanged(const ScannedItem& s, const ExerciseAnswer& a) {
        auto unchanged = data_.compute(*a.unchanged), answer = data_.compute(a.figure);
        auto* start = std::get_if<FigureValue>(&unchanged);
        auto* value = std::get_if<FigureValue>(&answer);
        if (!start) {
            const Error& e = std::get<Error>(unchanged);
            out_.errors.push_back({s.where, e.code, "{{" + a.unchanged->source_text + "}}", "unchanged: " + e.message});
        } else if (value && start->formatted == value->formatted) {
            error(s, ErrorCode::unchanged_is_answer,
                  "the answer and the value it starts from are both " + value->formatted +
                      ": the change the question asks for moves nothing");
        } else {
            unchanged_[s.token] = *start;
        }
    }

    const EvaluatedScenario* check_scenario(const ScannedItem& s, const std::string& directive, const std::string& name) {
        const EvaluatedScenario* scenario = data_.find_scenario(name);
        if (!scenario)
            error(s, ErrorCode::unknown_scenario,
                  directive + ": unknown scenario \"" + name + "\" (scenarios.json has: " + data_.scenario_names() + ")");
        return scenario;
    }

    void draw(const ScannedItem& s, const PictureDirective& pic) {
        const EvaluatedScenario* sc = check_scenario(s, "picture", pic.scenario);
        if (!sc) return;
        const int n = ++picture_count_[pic.name];
        const std::string id = "picture-" + pic.name + (n == 1 ? "" : "-" + std::to_string(n));
        auto drawn = draw_picture(pic.name, sc->evaluated, id);
        if (auto* e = std::get_if<Error>(&drawn)) error(s, e->code, "picture " + pic.name + " " + pic.scenario + ": " + e->message);
        else pictures_[s.token] = {id, std::get<Picture>(std::move(drawn))};
    }

    void check_concept(const ScannedItem& s, const ConceptSpan& c) {
        if (input_.concepts.empty() || input_.concepts.count(c.concept_name)) return;
        std::string names;
        for (const std::string& n : input_.concepts) names += (names.empty() ? "" : ", ") + n;
        error(s, ErrorCode::unknown_concept, "unknown concept \"" + c.concept_name + "\" (palette.css defines: " + names + ")");
    }

    void check_anchor(const ScannedItem& s, const Anchor& a) {
        if (auto [it, added] = anchors_.emplace(a.html_id(), s.where); !added)
            error(s, ErrorCode::duplicate_anchor,
                  "\"" + a.html_id() + "\" is already defined at " + it->second.str() + "; define each term or reference once");
    }

    void check_links() {
        for (const AnchorLink& link : links_)
            if (!anchors_.count(link.target))
                out_.errors.push_back({link.where, ErrorCode::unknown_anchor, "(#" + link.target + ")",
                                       "no anchor has this id: mark the term's first use [text]{dfn=ID} or the reference [text]{ref=ID}"});
    }

    // The first level-1 heading is the title, kept apart from the body.
    void take_title(std::string& html) {
        const size_t h1 = html.find("<h1>");
        if (h1 == std::string::npos) return;
        const size_t end = html.find("</h1>", h1);
        out_.title_html = html.substr(h1 + 4, end - h1 - 4);
        html.erase(h1, end + 5 - h1);
    }

    void locate(const std::string& html) {
        for (const ScannedItem& s : items_) {
            const size_t pos = html.find(s.token);
            if (pos == std::string::npos) {
                error(s, ErrorCode::binding_lost, "the rendered Markdown lost this binding (is it inside raw HTML?)");
                continue;
            }
            located_.push_back({pos, &s});
        }
    }

    std::optional<Edit> edit_for(const Located& l, const std::string& html) {
        const ScannedItem& s = *l.item;
        const Item& item = s.item;
        const std::string& panel = chapters_.panel_at(l.position);
        if (std::holds_alternative<FigureBinding>(item)) {
            FigureRecord& f = figures_.at(s.token);
            f.panel = panel;
            return Edit{l.position, s.token.size(), figure_html(f, data_)};
        }
        if (std::holds_alternative<ExerciseStart>(item) || std::holds_alternative<ExerciseAnswer>(item) ||
            std::holds_alternative<ExerciseEnd>(item))
            return exercise_edit(l, html);
        if (const auto* c = std::get_if<ConceptSpan>(&item)) return Edit{l.position, s.token.size(), concept_html(*c)};
        if (const auto* a = std::get_if<Anchor>(&item)) return Edit{l.position, s.token.size(), anchor_html(*a)};
        if (const auto* u = std::get_if<SetupControl>(&item)) {
            if (panel.empty()) {
                error(s, ErrorCode::setup_without_panel, "a set-up button needs its chapter's panel; put it after the chapter's {{panel}}");
                return std::nullopt;
            }
            return Edit{l.position, s.token.size(), setup_html(*u, *data_.find_scenario(u->scenario), panel)};
        }
        if (const auto* m = std::get_if<ScenarioMarker>(&item)) {
            // A marker is a paragraph of its own, replaced by an empty element that starts the section.
            const size_t p_open = html.rfind("<p>", l.position);
            const size_t p_close = html.find("</p>", l.position);
            if (p_open == std::string::npos || html.compare(p_open, 3 + s.token.size(), "<p>" + s.token) != 0 ||
                p_close != l.position + s.token.size()) {
                error(s, ErrorCode::marker_not_alone, "a scenario marker stands alone in a paragraph of its own");
                return std::nullopt;
            }
            return Edit{p_open, p_close + 4 - p_open, section_mark_html(*m, panel)};
        }
        return paragraph_edit(l, html);
    }

    std::optional<Edit> exercise_edit(const Located& l, const std::string& html) {
        const ScannedItem& s = *l.item;
        std::string block;
        if (const auto* start = std::get_if<ExerciseStart>(&s.item)) block = exercise_opening(*start);
        else if (std::holds_alternative<ExerciseAnswer>(s.item)) {
            FigureRecord& f = figures_.at(s.token);
            f.panel = chapters_.panel_at(l.position);
            auto from = unchanged_.find(s.token);
            block = exercise_answer(f, data_, from == unchanged_.end() ? std::nullopt : std::optional<FigureValue>(from->second));
        }
        auto span = exercise_span(html, l.position, s.token.size(), block);
        if (!span) {
            error(s, ErrorCode::exercise_not_in_paragraph, "an exercise directive stands in a paragraph, and {{end exercise}} ends one");
            return std::nullopt;
        }
        const auto& [from, length, text] = *span;
        return Edit{from, length, text};
    }

    // Panels, pictures and snippets replace their whole paragraph; the rest of it is the caption.
    std::optional<Edit> paragraph_edit(const Located& l, const std::string& html) {
        const ScannedItem& s = *l.item;
        const size_t p_open = html.rfind("<p>", l.position);
        const size_t p_close = html.find("</p>", l.position);
        const size_t after = l.position + s.token.size();
        const std::string caption(trim(std::string_view(html).substr(after, p_close - after)));
        if (p_open == std::string::npos || html.compare(p_open, 3 + s.token.size(), "<p>" + s.token) != 0) {
            error(s, ErrorCode::directive_not_alone, "a directive must start a paragraph of its own");
            return std::nullopt;
        }
        Edit edit{p_open, p_close + 4 - p_open, ""};
        if (const auto* p = std::get_if<PanelDirective>(&s.item)) {
            edit.html = panel_html(input_.fragments, *p, chapters_.panel_id_of.at(s.token), *data_.find_scenario(p->scenario), caption);
        } else if (std::holds_alternative<PictureDirective>(s.item)) {
            const auto& [id, picture] = pictures_.at(s.token);
            edit.html = picture_figure_html(picture, id, caption);
        } else {
            const auto& e = std::get<EmbedDirective>(s.item);
            edit.html = snippet_html(input_.fragments, e, *data_.find_scenario(e.scenario), defaults_, caption);
        }
        return edit;
    }
};

}  // namespace

RenderedArticle render_article(const RenderInput& input) { return Article(input).render(); }

}  // namespace site
