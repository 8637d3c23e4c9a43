// Scanning one Markdown file: every extension (markdown/bindings.hpp) is found, parsed and replaced by
// an opaque token (letters and digits only, so cmark passes it through untouched), with where it
// stood; links to a term or a reference are collected to be checked once every file is scanned.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "markdown/bindings.hpp"

namespace site {

// A Markdown link to an anchor, `](#term-ID)` or `](#ref-ID)`, checked once every file is scanned.
struct AnchorLink {
    SourceLocation where;
    std::string target;  // "term-ID" or "ref-ID"
};

struct ScannedItem {
    std::string token;  // what stands in the Markdown for cmark
    Item item;
    SourceLocation where;
};

struct ScanResult {
    std::string markdown;  // the input with every extension replaced by its token
    std::vector<ScannedItem> items;
    std::vector<AnchorLink> links;
    std::vector<BuildError> errors;
};

// Finds and replaces every extension in one Markdown file. Tokens are numbered from
// `first_index` so that several files can be scanned into one document.
ScanResult scan_markdown(std::string_view text, const std::string& file, size_t first_index);

// The token standing for item number `index`.
std::string token_for(size_t index);

}  // namespace site
