#include "markdown/bindings.hpp"

#include <cctype>
#include <charconv>
#include <iterator>
#include <optional>

namespace site {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// References use no '-', so that "a.x-b.y" reads as a subtraction.
bool is_ref_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

bool is_identifier(std::string_view s) {
    if (s.empty() || !is_ident_start(s[0])) return false;
    for (char c : s)
        if (!is_ident_char(c)) return false;
    return true;
}

bool is_anchor_id(std::string_view s) {
    if (s.empty() || s.front() == '-' || s.back() == '-') return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-')) return false;
    return true;
}

// Recursive descent over: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*;
// factor := number | ref | '(' expr ')'; ref := ident ('.' (ident | digits))+.
class ExprParser {
public:
    explicit ExprParser(std::string_view text) : text_(text) {}

    std::variant<Expr, std::string> parse() {
        Expr e = expression();
        skip_space();
        if (error_.empty() && pos_ != text_.size()) fail("unexpected \"" + std::string(text_.substr(pos_)) + "\"");
        if (!error_.empty()) return error_;
        return e;
    }

private:
    // A figure is a short expression: bounding its depth and length keeps the recursive parser,
    // the evaluation and the tree's destruction off the end of the stack (fuzz_bindings found one).
    static constexpr int max_depth = 16;
    static constexpr int max_operators = 32;

    std::string_view text_;
    size_t pos_ = 0;
    std::string error_;
    int depth_ = 0;
    int operators_ = 0;

    void fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
    }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool peek(char c) {
        skip_space();
        return pos_ < text_.size() && text_[pos_] == c;
    }

    bool count_operator() {
        if (++operators_ <= max_operators) return true;
        fail("more than 32 operators in one figure; compute it in fewer steps");
        return false;
    }

    static Expr binary(char op, Expr left, Expr right) {
        Expr e;
        e.kind = Expr::Kind::binary;
        e.op = op;
        e.left = std::make_shared<const Expr>(std::move(left));
        e.right = std::make_shared<const Expr>(std::move(right));
        return e;
    }

    Expr expression() {
        Expr left = term();
        while (error_.empty() && (peek('+') || peek('-')) && count_operator()) {
            char op = text_[pos_++];
            left = binary(op, std::move(left), term());
        }
        return left;
    }

    Expr term() {
        Expr left = factor();
        while (error_.empty() && (peek('*') || peek('/')) && count_operator()) {
            char op = text_[pos_++];
            left = binary(op, std::move(left), factor());
        }
        return left;
    }

    Expr factor() {
        skip_space();
        Expr e;
        if (pos_ >= text_.size()) {
            fail("the expression ends where a value was expected");
            return e;
        }
        const char c = text_[pos_];
        if (c == '(') {
            if (depth_ == max_depth) {
                fail("parentheses nested more than 16 deep");
                return e;
            }
            ++pos_;
            ++depth_;
            e = expression();
            --depth_;
            if (!peek(')')) fail("missing \")\"");
            else ++pos_;
            return e;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = text_.data() + pos_;
            const char* end = text_.data() + text_.size();
            auto [ptr, ec] = std::from_chars(begin, end, e.number);
            if (ec != std::errc()) {
                fail("\"" + std::string(text_.substr(pos_)) + "\" is not a number");
                return e;
            }
            pos_ += static_cast<size_t>(ptr - begin);
            e.kind = Expr::Kind::number;
            return e;
        }
        if (!is_ident_start(c)) {
            fail(std::string("unexpected \"") + c + "\"");
            return e;
        }
        size_t start = pos_;
        while (pos_ < text_.size() && (is_ref_char(text_[pos_]))) ++pos_;
        std::string_view word = text_.substr(start, pos_ - start);
        const size_t dot = word.find('.');
        if (dot == std::string_view::npos || dot + 1 >= word.size() || word.back() == '.' || word.find("..") != std::string_view::npos) {
            fail("\"" + std::string(word) + "\" is not a reference; write <scenario>.<field> or fact.<id>");
            return e;
        }
        e.kind = Expr::Kind::ref;
        e.ref.source = std::string(word.substr(0, dot));
        e.ref.path = std::string(word.substr(dot + 1));
        if (!is_identifier(e.ref.source) || e.ref.source.find('-') != std::string::npos)
            fail("\"" + e.ref.source + "\" is not a scenario name");
        return e;
    }
};

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        size_t start = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

template <typename Directive>
std::variant<Item, std::string> parse_directive(std::string_view keyword, std::string_view rest) {
    auto w = words(rest);
    if (w.size() != 2) return std::string(keyword) + " wants a panel kind and a scenario: {{" + std::string(keyword) + " admission start}}";
    if (!is_panel_kind(w[0])) {
        std::string kinds;  // "admission, phases, batching or serving", from panel_kinds
        const size_t n = std::size(panel_kinds);
        for (size_t i = 0; i < n; ++i) kinds += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(panel_kinds[i]);
        return "\"" + std::string(w[0]) + "\" is not a panel; use " + kinds;
    }
    if (!is_identifier(w[1]) || is_reserved_name(w[1])) return "\"" + std::string(w[1]) + "\" is not a scenario name";
    return Item(Directive{std::string(w[0]), std::string(w[1])});
}

// A figure: an expression, "|", a format name.
std::variant<Item, std::string> parse_figure(std::string_view inner) {
    const size_t bar = inner.rfind('|');
    if (bar == std::string_view::npos) return std::string("a figure needs a format after \"|\": {{scenario.field | format}}");
    FigureBinding b;
    b.source_text = std::string(inner);
    b.format = std::string(trim(inner.substr(bar + 1)));
    if (!is_identifier(b.format)) return "\"" + b.format + "\" is not a format name";
    auto expr = parse_expression(inner.substr(0, bar));
    if (auto* message = std::get_if<std::string>(&expr)) return *message;
    b.expr = std::get<Expr>(std::move(expr));
    b.expr.collect_refs(b.refs);
    if (b.refs.empty()) return std::string("a figure must refer to at least one scenario field or fact");
    if (b.format == "text" && b.expr.kind != Expr::Kind::ref) return std::string("the text format takes a single field, not arithmetic");
    return Item(std::move(b));
}

// {{exercise ID SCENARIO}}, {{answer FIGURE}} and {{end exercise}}; nullopt when `first` is none of them.
std::optional<std::variant<Item, std::string>> parse_exercise(std::string_view first, std::string_view rest) {
    if (first == "exercise") {
        auto w = words(rest);
        if (w.size() != 2) return std::string("exercise wants an id and a scenario: {{exercise gqa-mha mha}}");
        if (!is_identifier(w[0])) return "\"" + std::string(w[0]) + "\" is not an exercise id; use letters, digits and '-'";
        if (!is_identifier(w[1]) || is_reserved_name(w[1])) return "\"" + std::string(w[1]) + "\" is not a scenario name";
        return Item(ExerciseStart{std::string(w[0]), std::string(w[1])});
    }
    if (first == "answer") {
        auto figure = parse_figure(trim(rest));
        if (auto* message = std::get_if<std::string>(&figure)) return "answer: " + *message;
        auto* b = std::get_if<FigureBinding>(&std::get<Item>(figure));
        if (b->format == "text") return std::string("an answer is a number the reader can predict, not text");
        return Item(ExerciseAnswer{std::move(*b)});
    }
    if (first == "end") {
        if (words(rest).size() != 1 || trim(rest) != "exercise") return std::string("write {{end exercise}}");
        return Item(ExerciseEnd{});
    }
    return std::nullopt;
}

}  // namespace

std::string SourceLocation::str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }

std::string ScanError::str() const { return where.str() + ": " + (snippet.empty() ? "" : snippet + ": ") + message; }

void Expr::collect_refs(std::vector<Ref>& out) const {
    if (kind == Kind::ref) out.push_back(ref);
    if (left) left->collect_refs(out);
    if (right) right->collect_refs(out);
}

bool is_panel_kind(std::string_view kind) {
    for (const char* k : panel_kinds)
        if (kind == k) return true;
    return false;
}

bool is_reserved_name(std::string_view name) { return name == "fact" || name == "panel" || name == "embed" || name == "picture"; }

std::variant<Expr, std::string> parse_expression(std::string_view text) { return ExprParser(text).parse(); }

std::variant<Item, std::string> parse_extension(std::string_view inner) {
    inner = trim(inner);
    if (inner.empty()) return std::string("empty binding");
    const auto first_word_end = inner.find_first_of(" \t");
    const std::string_view first = inner.substr(0, first_word_end);
    if (first == "panel" && first_word_end != std::string_view::npos)
        return parse_directive<PanelDirective>("panel", inner.substr(first_word_end));
    if (first == "embed" && first_word_end != std::string_view::npos)
        return parse_directive<EmbedDirective>("embed", inner.substr(first_word_end));
    if (first == "picture") {
        // The name is checked against pictures/pictures.hpp's list when the article is rendered.
        auto w = words(first_word_end == std::string_view::npos ? std::string_view() : inner.substr(first_word_end));
        if (w.size() != 2) return std::string("picture wants a picture name and a scenario: {{picture roofline start}}");
        if (!is_identifier(w[1]) || is_reserved_name(w[1])) return "\"" + std::string(w[1]) + "\" is not a scenario name";
        return Item(PictureDirective{std::string(w[0]), std::string(w[1])});
    }
    if (auto exercise = parse_exercise(first, first_word_end == std::string_view::npos ? std::string_view() : inner.substr(first_word_end)))
        return *exercise;
    if (first == "scenario") {
        auto w = words(first_word_end == std::string_view::npos ? std::string_view() : inner.substr(first_word_end));
        if (w.size() != 1) return std::string("scenario wants one scenario name: {{scenario start}}");
        if (!is_identifier(w[0]) || is_reserved_name(w[0])) return "\"" + std::string(w[0]) + "\" is not a scenario name";
        return Item(ScenarioMarker{std::string(w[0])});
    }

    return parse_figure(inner);
}

std::string token_for(size_t index) { return "kvtok" + std::to_string(index) + "x"; }

ScanResult scan_markdown(std::string_view text, const std::string& file, size_t first_index) {
    ScanResult out;
    out.markdown.reserve(text.size());
    size_t index = first_index;
    int line = 1;
    size_t line_start = 0;
    size_t i = 0;
    auto where_at = [&](size_t pos) { return SourceLocation{file, line, static_cast<int>(pos - line_start) + 1}; };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            out.markdown += c;
            ++i;
            ++line;
            line_start = i;
            continue;
        }
        const size_t line_end = std::min(text.find('\n', i), text.size());
        if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
            const size_t close = text.find("}}", i + 2);
            if (close == std::string_view::npos || close > line_end) {
                out.errors.push_back({where_at(i), std::string(text.substr(i, std::min<size_t>(line_end - i, 40))),
                                      "\"{{\" is not closed on the same line"});
                out.markdown += text.substr(i, line_end - i);
                i = line_end;
                continue;
            }
            const std::string_view snippet = text.substr(i, close + 2 - i);
            auto parsed = parse_extension(text.substr(i + 2, close - i - 2));
            if (auto* message = std::get_if<std::string>(&parsed)) {
                out.errors.push_back({where_at(i), std::string(snippet), *message});
            } else {
                std::string token = token_for(index++);
                out.items.push_back({token, std::get<Item>(std::move(parsed)), where_at(i)});
                out.markdown += token;
            }
            i = close + 2;
            continue;
        }
        if (c == ']' && text.substr(i, 3) == "](#") {
            // A link inside the page; those to a term or a reference are checked against the anchors.
            const size_t end = text.find(')', i + 3);
            if (end != std::string_view::npos && end < line_end) {
                const std::string_view target = text.substr(i + 3, end - i - 3);
                if (target.rfind("term-", 0) == 0 || target.rfind("ref-", 0) == 0) out.links.push_back({where_at(i), std::string(target)});
            }
        }
        if (c == '[') {
            // A span: [text]{.concept}, [text]{dfn=ID} or [text]{ref=ID}, no brackets inside, all on one line.
            const size_t close = text.find(']', i + 1);
            const size_t open_again = text.find('[', i + 1);
            if (close != std::string_view::npos && close < line_end && (open_again > close) && text.substr(close, 2) == "]{") {
                const size_t brace = text.find('}', close + 2);
                const std::string_view attr = brace < line_end ? text.substr(close + 2, brace - close - 2) : std::string_view();
                const std::string_view inner = text.substr(i + 1, close - i - 1);
                if (!attr.empty() && attr[0] == '.') {
                    const std::string_view name = attr.substr(1);
                    if (!is_identifier(name) || trim(inner).empty()) {
                        out.errors.push_back({where_at(i), std::string(text.substr(i, brace + 1 - i)),
                                              "a concept span is [text]{.concept} with a non-empty text"});
                    } else {
                        std::string token = token_for(index++);
                        out.items.push_back({token, ConceptSpan{std::string(name), std::string(inner)}, where_at(i)});
                        out.markdown += token;
                    }
                    i = brace + 1;
                    continue;
                }
                if (attr.rfind("dfn=", 0) == 0 || attr.rfind("ref=", 0) == 0) {
                    const std::string_view id = attr.substr(4);
                    if (!is_anchor_id(id) || trim(inner).empty()) {
                        out.errors.push_back({where_at(i), std::string(text.substr(i, brace + 1 - i)),
                                              "an anchor is [text]{dfn=ID} or [text]{ref=ID}: a non-empty text and an ID of lower-case "
                                              "letters, digits and hyphens"});
                    } else {
                        std::string token = token_for(index++);
                        const Anchor::Kind kind = attr[0] == 'd' ? Anchor::Kind::term : Anchor::Kind::ref;
                        out.items.push_back({token, Anchor{kind, std::string(id), std::string(inner)}, where_at(i)});
                        out.markdown += token;
                    }
                    i = brace + 1;
                    continue;
                }
            }
        }
        out.markdown += c;
        ++i;
    }
    return out;
}

}  // namespace site
