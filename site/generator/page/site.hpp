// Page assembly: the rendered article into site/templates/index.html, the embed page, the copied
// assets (scripts, styles, fonts, the wasm module) and the figure manifest the browser test
// cross-checks against the native CLI. Every path written into a page is relative.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "figures/lesson_data.hpp"
#include "page/article.hpp"

namespace site {

struct SitePaths {
    std::filesystem::path content;   // content/lesson: *.md, scenarios.json, facts.json
    std::filesystem::path site;      // site/: templates/, js/, css/
    std::filesystem::path wasm;      // build/wasm/kvcache.js (must exist)
    std::filesystem::path fonts;     // subset .woff2 files (empty: a site without its fonts, for tests)
    std::filesystem::path out;       // build/site
    std::filesystem::path manifest;  // build/site-manifest.json
};

// Fills @@NAME@@ holes.
std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& holes);

// The figure manifest: every figure with its source location, binding, references and value.
nlohmann::json figure_manifest(const RenderedArticle& article, const LessonData& data);

// Reads the lesson, renders it and writes the site. Returns the number of errors (each printed
// to `errors` as "file:line:col: ..."); nothing is written when there is one.
int build_site(const SitePaths& paths, std::ostream& log, std::ostream& errors);

}  // namespace site
