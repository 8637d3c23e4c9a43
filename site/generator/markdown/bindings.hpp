// The lesson's Markdown extensions and the items they parse into. markdown/scan.hpp finds them
// before cmark sees the text and puts a token in each one's place; page/article.hpp renders them after.
//
//   {{start.max_resident_sequences | count}}        a figure: a named scenario, a result field
//   {{a100.ttft_s / h100.ttft_s | x2}}              arithmetic over fields of several scenarios
//   {{fact.vllm_block_tokens | count}}               a sourced fact (content/lesson/facts.json)
//   {{start.prefill_bound | text}}                  a text field of the result, printed as is
//   {{long.scenario.prompt_tokens | count knob}}    a scenario field the reader can drag in the
//                                                   sentence; its paragraph's figures of that
//                                                   scenario are computed again as it moves
//   {{panel admission start}}                       a panel, mounted in that scenario; the rest of
//                                                   its paragraph becomes the caption
//   {{embed phases rag}}                            a copyable iframe snippet for the embed page
//   {{picture roofline rag}}                        an SVG picture baked from a scenario (pictures/pictures.hpp);
//                                                   the rest of its paragraph becomes the caption
//   {{setup tiny_requests}}                         a "set this up" button in an instruction's
//                                                   sentence: it shows that scenario in the
//                                                   chapter's panel as the reader's own
//   {{scenario rag}}                                the scenario the following paragraphs describe,
//                                                   up to the next marker or heading: the panel
//                                                   beside them moves to it as they are read
//   [the weights]{.weights}                         prose in the colour of a figure's concept
//   [KV heads]{dfn=kv-heads}                        a term's defining use, <dfn id="term-kv-heads">;
//                                                   the glossary links to it as (#term-kv-heads)
//   [Shazeer (2019) ...]{ref=mqa}                   a reference entry, id "ref-mqa"; the text cites
//                                                   it as (#ref-mqa)
//   {{exercise gqa-mha mha}}                        a predict-then-check exercise on a scenario:
//   Question (Markdown, figures allowed).           the question, then its answer (a figure that
//   {{answer mha.max_resident_sequences | count}}   reads the exercise's scenario), then a worked
//   Worked explanation (Markdown).                  explanation shown on request; an id's first
//   {{end exercise}}                                word (gqa) names its set for embed.html.
//   {{answer B | count unchanged A}}                the answer of a question that asks for a change
//                                                   from A's value: a guess nearer A is never right
//
// Expressions: + - * / and parentheses over numbers and references `<scenario>.<path>`, where the
// path walks the result JSON (`decode.flops`, `model.head_dim`, `log.2`). `fact`, `panel`,
// `embed`, `picture` and `setup` are reserved and cannot name scenarios. A binding does not span lines.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "errors.hpp"

namespace site {

// A reference to one value: a result field of a named scenario, a fact, or the model's measured
// accuracy (`accuracy.time.holdout_median`, computed from tests/validation when the site is built).
struct Ref {
    std::string source;  // scenario name, "fact" or "accuracy"
    std::string path;    // dotted path into the result JSON, the fact's id, or into the accuracy
    bool is_fact() const { return source == "fact"; }
    bool is_accuracy() const { return source == "accuracy"; }
    bool names_scenario() const { return !is_fact() && !is_accuracy(); }
    std::string str() const { return source + "." + path; }
};

struct Expr {
    enum class Kind { number, ref, binary };
    Kind kind = Kind::number;
    double number = 0;
    Ref ref;
    char op = 0;  // + - * /
    std::shared_ptr<const Expr> left, right;
    // Every reference in evaluation order (left to right).
    void collect_refs(std::vector<Ref>& out) const;
};

struct FigureBinding {
    std::string source_text;  // what the author wrote between the braces, trimmed
    Expr expr;
    std::string format;     // a core named format, or "text"
    std::vector<Ref> refs;  // all references, first one first
    // `| count knob` on a scenario's own field (`long_prompt.scenario.prompt_tokens`): the field a
    // reader sets by dragging the number in the sentence; the paragraph's figures follow. Else "".
    std::string knob;
};

struct PanelDirective {
    std::string kind;  // admission | phases | batching | serving
    std::string scenario;
};

struct EmbedDirective {
    std::string kind;
    std::string scenario;
};

// A picture of a mechanism, drawn at build time from a scenario's numbers (pictures/pictures.hpp).
struct PictureDirective {
    std::string name;
    std::string scenario;
};

// Starts a reading section: the paragraphs up to the next marker or ## heading describe this
// scenario, and the chapter's panel shows it while they are read.
struct ScenarioMarker {
    std::string scenario;
};

// A button in an instruction's sentence that puts the chapter's panel in the state the sentence
// asks for (the scenario), so a reader can follow it literally in one click.
struct SetupControl {
    std::string scenario;
};

struct ConceptSpan {
    std::string concept_name;  // a palette concept: weights, kv-used, prefill ...
    std::string text;          // plain text, HTML-escaped on output
};

// A link target in the text: a glossary term's definition or a reference entry. IDs are lower-case
// letters, digits and hyphens; each is defined once and every (#term-ID) or (#ref-ID) link must
// name one that is.
struct Anchor {
    enum class Kind { term, ref };
    Kind kind = Kind::term;
    std::string id;
    std::string text;  // plain text, HTML-escaped on output
    std::string html_id() const { return (kind == Kind::term ? "term-" : "ref-") + id; }
};

// A predict-then-check exercise: {{exercise ID SCENARIO}}, {{answer FIGURE}}, {{end exercise}}.
struct ExerciseStart {
    std::string id;  // letters, digits and '-'; unique in the lesson
    std::string scenario;
};
struct ExerciseAnswer {
    FigureBinding figure;  // a number (not `text`) the core computes
    // `{{answer FIGURE unchanged EXPR}}`: the value the question starts from, when it asks for a
    // change (the figure before it; a number for a factor). A prediction nearer it than the answer
    // is never right. Formatted as the answer is.
    std::optional<FigureBinding> unchanged;
};
struct ExerciseEnd {};

using Item = std::variant<FigureBinding, PanelDirective, EmbedDirective, PictureDirective, ScenarioMarker, SetupControl, ConceptSpan,
                          Anchor, ExerciseStart, ExerciseAnswer, ExerciseEnd>;

inline constexpr const char* panel_kinds[] = {"admission", "phases", "batching", "serving"};
bool is_panel_kind(std::string_view kind);
bool is_reserved_name(std::string_view name);

// Parses what stands between `{{` and `}}` (markdown/bindings.cpp), and a figure's arithmetic
// (markdown/expression.cpp). The error has no location: the scanner adds it.
std::variant<Item, Error> parse_extension(std::string_view inner);
std::variant<Expr, Error> parse_expression(std::string_view text);

}  // namespace site
