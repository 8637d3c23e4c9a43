// The arithmetic inside a figure binding: + - * / and parentheses over numbers and references
// (`scenario.path`, `fact.id`), parsed by recursive descent into an Expr tree (markdown/bindings.hpp).
#include <cctype>
#include <charconv>
#include <optional>

#include "markdown/bindings.hpp"
#include "markdown/words.hpp"

namespace site {
namespace {

// Recursive descent over: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*;
// factor := number | ref | '(' expr ')'; ref := ident ('.' (ident | digits))+.
class ExprParser {
public:
    explicit ExprParser(std::string_view text) : text_(text) {}

    std::variant<Expr, Error> parse() {
        Expr e = expression();
        skip_space();
        if (!error_ && pos_ != text_.size()) fail(ErrorCode::bad_expression, "unexpected \"" + std::string(text_.substr(pos_)) + "\"");
        if (error_) return *error_;
        return e;
    }

private:
    // A figure is a short expression: bounding its depth and length keeps the recursive parser,
    // the evaluation and the tree's destruction off the end of the stack (fuzz_bindings found one).
    static constexpr int max_depth = 16;
    static constexpr int max_operators = 32;

    std::string_view text_;
    size_t pos_ = 0;
    std::optional<Error> error_;
    int depth_ = 0;
    int operators_ = 0;

    void fail(ErrorCode code, std::string message) {
        if (!error_) error_ = Error{code, std::move(message)};
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
        fail(ErrorCode::expression_too_complex, "more than 32 operators in one figure; compute it in fewer steps");
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
        while (!error_ && (peek('+') || peek('-')) && count_operator()) {
            char op = text_[pos_++];
            left = binary(op, std::move(left), term());
        }
        return left;
    }

    Expr term() {
        Expr left = factor();
        while (!error_ && (peek('*') || peek('/')) && count_operator()) {
            char op = text_[pos_++];
            left = binary(op, std::move(left), factor());
        }
        return left;
    }

    Expr factor() {
        skip_space();
        Expr e;
        if (pos_ >= text_.size()) {
            fail(ErrorCode::bad_expression, "the expression ends where a value was expected");
            return e;
        }
        const char c = text_[pos_];
        if (c == '(') {
            if (depth_ == max_depth) {
                fail(ErrorCode::expression_too_complex, "parentheses nested more than 16 deep");
                return e;
            }
            ++pos_;
            ++depth_;
            e = expression();
            --depth_;
            if (!peek(')')) fail(ErrorCode::bad_expression, "missing \")\"");
            else ++pos_;
            return e;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = text_.data() + pos_;
            const char* end = text_.data() + text_.size();
            auto [ptr, ec] = std::from_chars(begin, end, e.number);
            if (ec != std::errc()) {
                fail(ErrorCode::bad_expression, "\"" + std::string(text_.substr(pos_)) + "\" is not a number");
                return e;
            }
            pos_ += static_cast<size_t>(ptr - begin);
            e.kind = Expr::Kind::number;
            return e;
        }
        if (!is_ident_start(c)) {
            fail(ErrorCode::bad_expression, std::string("unexpected \"") + c + "\"");
            return e;
        }
        size_t start = pos_;
        while (pos_ < text_.size() && (is_ref_char(text_[pos_]))) ++pos_;
        std::string_view word = text_.substr(start, pos_ - start);
        const size_t dot = word.find('.');
        if (dot == std::string_view::npos || dot + 1 >= word.size() || word.back() == '.' || word.find("..") != std::string_view::npos) {
            fail(ErrorCode::bad_expression, "\"" + std::string(word) + "\" is not a reference; write <scenario>.<field> or fact.<id>");
            return e;
        }
        e.kind = Expr::Kind::ref;
        e.ref.source = std::string(word.substr(0, dot));
        e.ref.path = std::string(word.substr(dot + 1));
        if (!is_identifier(e.ref.source) || e.ref.source.find('-') != std::string::npos)
            fail(ErrorCode::bad_scenario_name, "\"" + e.ref.source + "\" is not a scenario name");
        return e;
    }
};

}  // namespace

void Expr::collect_refs(std::vector<Ref>& out) const {
    if (kind == Kind::ref) out.push_back(ref);
    if (left) left->collect_refs(out);
    if (right) right->collect_refs(out);
}

std::variant<Expr, Error> parse_expression(std::string_view text) { return ExprParser(text).parse(); }

}  // namespace site
