// The site: the rendered article into site/templates/index.html, the embed page, the copied assets
// (scripts, styles, fonts, the two wasm modules) and the figure manifest the browser test cross-checks
// against the native CLI. Every path written into a page is relative.
#pragma once
#include <filesystem>
#include <ostream>

namespace site {

struct SitePaths {
    std::filesystem::path content;     // content/lesson: *.md, scenarios.json, facts.json
    std::filesystem::path site;        // site/: templates/, js/, css/
    std::filesystem::path wasm;        // build/wasm/kvcache.js (must exist, kvtools.js beside it)
    std::filesystem::path fonts;       // subset .woff2 files (empty: a site without its fonts, for tests)
    std::filesystem::path out;         // build/site
    std::filesystem::path manifest;    // build/site-manifest.json
    std::filesystem::path validation;  // tests/validation: the model against real engines (empty: no accuracy figures)
};

// Reads the lesson, renders it and writes the site. Returns the number of errors (each printed
// to `errors` as "file:line:col: code: ...", errors.hpp); nothing is written when there is one.
int build_site(const SitePaths& paths, std::ostream& log, std::ostream& errors);

}  // namespace site
