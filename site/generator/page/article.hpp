// Markdown to the article's HTML: cmark renders the tokenised text, then every token becomes its
// element (page/elements.hpp, page/exercises.hpp, pictures/pictures.hpp), headings get ids, and the
// article is cut into chapters (page/chapters.hpp): each chapter holds one panel, which sits beside
// the chapter's text on a wide screen and follows its paragraph on a narrow one. A figure belongs to
// its chapter's panel.
#pragma once
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "errors.hpp"
#include "markdown/scan.hpp"
#include "figures/lesson_data.hpp"

namespace site {

// Small HTML pieces kept as data (site/templates/panel.html and snippet.html), with @@NAME@@ holes.
struct Fragments {
    std::string panel;
    std::string snippet;
};

struct FigureRecord {
    int id = 0;
    SourceLocation where;
    FigureBinding binding;
    FigureValue value;
    std::string panel;  // the chapter's panel id, or "" when the article has none
};

struct RenderedArticle {
    std::string title_html;  // the first level-1 heading's content
    std::string title_text;  // the same without tags, for <title>
    std::string body_html;   // everything else, in chapters
    std::vector<FigureRecord> figures;
    std::vector<std::string> panels;                             // panel ids in order
    std::vector<std::pair<std::string, std::string>> exercises;  // (id, the exercise's HTML), in order
    std::vector<BuildError> errors;
};

struct RenderInput {
    std::vector<std::pair<std::string, std::string>> files;  // (display name, Markdown text), in order
    const LessonData* data = nullptr;
    Fragments fragments;
    std::set<std::string> concepts;  // allowed concept names; empty allows any
};

RenderedArticle render_article(const RenderInput& input);

}  // namespace site
