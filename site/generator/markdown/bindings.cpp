// What stands between `{{` and `}}`: a directive (panel, embed, picture, scenario, the exercise's
// three) or a figure (an expression, `|`, a format name), parsed into an Item (markdown/bindings.hpp).
#include <iterator>
#include <optional>

#include "markdown/bindings.hpp"
#include "markdown/words.hpp"

namespace site {
namespace {

Error not_a_scenario_name(std::string_view word) {
    return Error{ErrorCode::bad_scenario_name, "\"" + std::string(word) + "\" is not a scenario name"};
}

template <typename Directive>
std::variant<Item, Error> parse_directive(std::string_view keyword, std::string_view rest) {
    auto w = words(rest);
    if (w.size() != 2)
        return Error{ErrorCode::bad_directive,
                     std::string(keyword) + " wants a panel kind and a scenario: {{" + std::string(keyword) + " admission start}}"};
    if (!is_panel_kind(w[0])) {
        std::string kinds;  // "admission, phases, batching or serving", from panel_kinds
        const size_t n = std::size(panel_kinds);
        for (size_t i = 0; i < n; ++i) kinds += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(panel_kinds[i]);
        return Error{ErrorCode::unknown_panel_kind, "\"" + std::string(w[0]) + "\" is not a panel; use " + kinds};
    }
    if (!is_identifier(w[1]) || is_reserved_name(w[1])) return not_a_scenario_name(w[1]);
    return Item(Directive{std::string(w[0]), std::string(w[1])});
}

// {{picture NAME SCENARIO}}. The name is checked against pictures/pictures.hpp's list when the
// article is rendered.
std::variant<Item, Error> parse_picture(std::string_view rest) {
    auto w = words(rest);
    if (w.size() != 2) return Error{ErrorCode::bad_directive, "picture wants a picture name and a scenario: {{picture roofline start}}"};
    if (!is_identifier(w[1]) || is_reserved_name(w[1])) return not_a_scenario_name(w[1]);
    return Item(PictureDirective{std::string(w[0]), std::string(w[1])});
}

// {{scenario NAME}}: the scenario of the reading section it starts; {{setup NAME}}: a button that
// shows it in the chapter's panel.
template <typename Named>
std::variant<Item, Error> parse_named(std::string_view keyword, std::string_view rest) {
    auto w = words(rest);
    if (w.size() != 1)
        return Error{ErrorCode::bad_directive, std::string(keyword) + " wants one scenario name: {{" + std::string(keyword) + " start}}"};
    if (!is_identifier(w[0]) || is_reserved_name(w[0])) return not_a_scenario_name(w[0]);
    return Item(Named{std::string(w[0])});
}

// A figure: an expression, "|", a format name.
std::variant<Item, Error> parse_figure(std::string_view inner) {
    const size_t bar = inner.rfind('|');
    if (bar == std::string_view::npos)
        return Error{ErrorCode::missing_format, "a figure needs a format after \"|\": {{scenario.field | format}}"};
    FigureBinding b;
    b.source_text = std::string(inner);
    auto after_bar = words(inner.substr(bar + 1));
    const bool knob = after_bar.size() == 2 && after_bar[1] == "knob";
    b.format = knob ? std::string(after_bar[0]) : std::string(trim(inner.substr(bar + 1)));
    if (!is_identifier(b.format)) return Error{ErrorCode::bad_format_name, "\"" + b.format + "\" is not a format name"};
    auto expr = parse_expression(inner.substr(0, bar));
    if (auto* error = std::get_if<Error>(&expr)) return *error;
    b.expr = std::get<Expr>(std::move(expr));
    b.expr.collect_refs(b.refs);
    if (b.refs.empty()) return Error{ErrorCode::no_reference, "a figure must refer to at least one scenario field or fact"};
    if (b.format == "text" && b.expr.kind != Expr::Kind::ref)
        return Error{ErrorCode::text_needs_one_field, "the text format takes a single field, not arithmetic"};
    if (knob) {
        constexpr std::string_view own = "scenario.";
        if (b.expr.kind != Expr::Kind::ref || !b.expr.ref.names_scenario() || b.expr.ref.path.rfind(own, 0) != 0)
            return Error{ErrorCode::bad_knob,
                         "a knob is one field of a scenario's own settings: {{long.scenario.prompt_tokens | count knob}}"};
        b.knob = b.expr.ref.path.substr(own.size());
    }
    return Item(std::move(b));
}

// {{exercise ID SCENARIO}}, {{answer FIGURE}} and {{end exercise}}; nullopt when `first` is none of them.
std::optional<std::variant<Item, Error>> parse_exercise(std::string_view first, std::string_view rest) {
    if (first == "exercise") {
        auto w = words(rest);
        if (w.size() != 2) return Error{ErrorCode::bad_directive, "exercise wants an id and a scenario: {{exercise gqa-mha mha}}"};
        if (!is_identifier(w[0]))
            return Error{ErrorCode::bad_exercise_id, "\"" + std::string(w[0]) + "\" is not an exercise id; use letters, digits and '-'"};
        if (!is_identifier(w[1]) || is_reserved_name(w[1])) return not_a_scenario_name(w[1]);
        return Item(ExerciseStart{std::string(w[0]), std::string(w[1])});
    }
    if (first == "answer") {
        std::string_view text = trim(rest), start_text;
        if (const size_t at = text.find(" unchanged "); at != std::string_view::npos) {
            start_text = trim(text.substr(at + 11));
            text = trim(text.substr(0, at));
        }
        auto figure = parse_figure(text);
        if (auto* error = std::get_if<Error>(&figure)) return Error{error->code, "answer: " + error->message};
        auto* b = std::get_if<FigureBinding>(&std::get<Item>(figure));
        if (b->format == "text") return Error{ErrorCode::text_answer, "an answer is a number the reader can predict, not text"};
        ExerciseAnswer answer{std::move(*b), std::nullopt};
        if (!start_text.empty()) {
            auto start = parse_expression(start_text);
            if (auto* error = std::get_if<Error>(&start)) return Error{error->code, "answer: unchanged: " + error->message};
            FigureBinding u;
            u.source_text = std::string(start_text) + " | " + answer.figure.format;
            u.expr = std::get<Expr>(std::move(start));
            u.format = answer.figure.format;
            u.expr.collect_refs(u.refs);
            answer.unchanged = std::move(u);
        }
        return Item(std::move(answer));
    }
    if (first == "end") {
        if (words(rest).size() != 1 || trim(rest) != "exercise") return Error{ErrorCode::bad_directive, "write {{end exercise}}"};
        return Item(ExerciseEnd{});
    }
    return std::nullopt;
}

}  // namespace

bool is_panel_kind(std::string_view kind) {
    for (const char* k : panel_kinds)
        if (kind == k) return true;
    return false;
}

bool is_reserved_name(std::string_view name) {
    return name == "fact" || name == "panel" || name == "embed" || name == "picture" || name == "accuracy" || name == "setup";
}

std::variant<Item, Error> parse_extension(std::string_view inner) {
    inner = trim(inner);
    if (inner.empty()) return Error{ErrorCode::empty_binding, "empty binding"};
    const auto first_word_end = inner.find_first_of(" \t");
    const std::string_view first = inner.substr(0, first_word_end);
    const std::string_view rest = first_word_end == std::string_view::npos ? std::string_view() : inner.substr(first_word_end);
    if (first == "panel" && first_word_end != std::string_view::npos) return parse_directive<PanelDirective>("panel", rest);
    if (first == "embed" && first_word_end != std::string_view::npos) return parse_directive<EmbedDirective>("embed", rest);
    if (first == "picture") return parse_picture(rest);
    if (auto exercise = parse_exercise(first, rest)) return *exercise;
    if (first == "scenario") return parse_named<ScenarioMarker>("scenario", rest);
    if (first == "setup") return parse_named<SetupControl>("setup", rest);
    return parse_figure(inner);
}

}  // namespace site
