// The scanner: one pass over a Markdown file, line by line, that swaps each extension for its token
// and keeps every other byte as written.
#include "markdown/scan.hpp"

#include <algorithm>

#include "markdown/words.hpp"

namespace site {
namespace {

class Scanner {
public:
    Scanner(std::string_view text, const std::string& file, size_t first_index) : text_(text), file_(file), index_(first_index) {
        out_.markdown.reserve(text.size());
    }

    ScanResult run() {
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '\n') {
                out_.markdown += c;
                ++i_;
                ++line_;
                line_start_ = i_;
                continue;
            }
            const size_t line_end = std::min(text_.find('\n', i_), text_.size());
            if (c == '{' && i_ + 1 < text_.size() && text_[i_ + 1] == '{') {
                binding(line_end);
                continue;
            }
            if (c == ']' && text_.substr(i_, 3) == "](#") link(line_end);
            if (c == '[' && span(line_end)) continue;
            out_.markdown += c;
            ++i_;
        }
        return std::move(out_);
    }

private:
    std::string_view text_;
    const std::string& file_;
    size_t index_;
    int line_ = 1;
    size_t line_start_ = 0;
    size_t i_ = 0;
    ScanResult out_;

    SourceLocation where_at(size_t pos) const { return SourceLocation{file_, line_, static_cast<int>(pos - line_start_) + 1}; }

    // The item found at `at` goes into the list, and its token into the Markdown.
    void add(Item item, size_t at) {
        std::string token = token_for(index_++);
        out_.items.push_back({token, std::move(item), where_at(at)});
        out_.markdown += token;
    }

    // At "{{": a binding or a directive, closed on the same line.
    void binding(size_t line_end) {
        const size_t close = text_.find("}}", i_ + 2);
        if (close == std::string_view::npos || close > line_end) {
            out_.errors.push_back({where_at(i_), ErrorCode::unclosed_binding,
                                   std::string(text_.substr(i_, std::min<size_t>(line_end - i_, 40))),
                                   "\"{{\" is not closed on the same line"});
            out_.markdown += text_.substr(i_, line_end - i_);
            i_ = line_end;
            return;
        }
        const std::string_view snippet = text_.substr(i_, close + 2 - i_);
        auto parsed = parse_extension(text_.substr(i_ + 2, close - i_ - 2));
        if (auto* error = std::get_if<Error>(&parsed))
            out_.errors.push_back({where_at(i_), error->code, std::string(snippet), error->message});
        else add(std::get<Item>(std::move(parsed)), i_);
        i_ = close + 2;
    }

    // At "](#": a link inside the page; those to a term or a reference are checked against the anchors.
    void link(size_t line_end) {
        const size_t end = text_.find(')', i_ + 3);
        if (end == std::string_view::npos || end >= line_end) return;
        const std::string_view target = text_.substr(i_ + 3, end - i_ - 3);
        if (target.rfind("term-", 0) == 0 || target.rfind("ref-", 0) == 0) out_.links.push_back({where_at(i_), std::string(target)});
    }

    // At "[": a span, [text]{.concept}, [text]{dfn=ID} or [text]{ref=ID}, no brackets inside, all on
    // one line. False when it is none of them (an ordinary link or bracket).
    bool span(size_t line_end) {
        const size_t close = text_.find(']', i_ + 1);
        const size_t open_again = text_.find('[', i_ + 1);
        if (close == std::string_view::npos || close >= line_end || open_again <= close || text_.substr(close, 2) != "]{") return false;
        const size_t brace = text_.find('}', close + 2);
        const std::string_view attr = brace < line_end ? text_.substr(close + 2, brace - close - 2) : std::string_view();
        const std::string_view inner = text_.substr(i_ + 1, close - i_ - 1);
        auto written = [&] { return std::string(text_.substr(i_, brace + 1 - i_)); };  // the span as written
        if (!attr.empty() && attr[0] == '.') {
            const std::string_view name = attr.substr(1);
            if (!is_identifier(name) || trim(inner).empty())
                out_.errors.push_back(
                    {where_at(i_), ErrorCode::bad_concept_span, written(), "a concept span is [text]{.concept} with a non-empty text"});
            else add(ConceptSpan{std::string(name), std::string(inner)}, i_);
        } else if (attr.rfind("dfn=", 0) == 0 || attr.rfind("ref=", 0) == 0) {
            const std::string_view id = attr.substr(4);
            if (!is_anchor_id(id) || trim(inner).empty())
                out_.errors.push_back({where_at(i_), ErrorCode::bad_anchor, written(),
                                       "an anchor is [text]{dfn=ID} or [text]{ref=ID}: a non-empty text and an ID of lower-case "
                                       "letters, digits and hyphens"});
            else add(Anchor{attr[0] == 'd' ? Anchor::Kind::term : Anchor::Kind::ref, std::string(id), std::string(inner)}, i_);
        } else {
            return false;
        }
        i_ = brace + 1;
        return true;
    }
};

}  // namespace

std::string token_for(size_t index) { return "kvtok" + std::to_string(index) + "x"; }

ScanResult scan_markdown(std::string_view text, const std::string& file, size_t first_index) {
    return Scanner(text, file, first_index).run();
}

}  // namespace site
