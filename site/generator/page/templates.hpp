// The pages from site/templates/: index.html (the article), embed.html (one panel, for a course's
// own pages), the <head> both share, and the fragments the article fills (panel.html, snippet.html,
// host-snippet.html). Page data lives in attributes: the CSP allows no inline script, and file://
// allows no fetch.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "figures/lesson_data.hpp"
#include "page/article.hpp"

namespace site {

struct Templates {
    std::string head;  // head.html: the one place the pages' CSP, stylesheets and shared scripts are written
    std::string index, embed, panel, snippet;
    std::string host_snippet;  // the course author's snippet, documented in site/README.md; the lesson shows this same file
};

// site/templates/'s files, or nullopt having said which are needed on `errors`.
std::optional<Templates> read_templates(const std::filesystem::path& site, std::ostream& errors);

// Fills @@NAME@@ holes, in the order given.
std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& holes);

// A code block holding only @@HOST_SNIPPET@@ shows templates/host-snippet.html, so the lesson's copy
// and the documented one are the same text.
void insert_host_snippet(std::string& body_html, const std::string& host_snippet);

// index.html: the article, every scenario, the core's defaults and the lesson's starting point
// (`base`, every field: each panel's header names what differs from it). `catalog` is kv::catalog_to_json();
// `prices`, content/data/gpu_prices.json's entries (checked by check_prices), the planner's price examples.
std::string index_page(const Templates& templates, const RenderedArticle& article, const LessonData& data, const nlohmann::json& base,
                       const nlohmann::json& catalog, const nlohmann::json& prices);

// content/data/gpu_prices.json: every entry names a catalog GPU, a price above 0, a provider, a
// date (YYYY-MM-DD) and a source; the message names the first that does not.
std::optional<std::string> check_prices(const nlohmann::json& file);

// embed.html: the lesson's exercises (hidden until ?exercises= asks), the defaults, each field's
// allowed values and the formats a host page may name.
std::string embed_page(const Templates& templates, const RenderedArticle& article, const LessonData& data, const nlohmann::json& catalog);

}  // namespace site
