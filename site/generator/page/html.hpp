// HTML as text: escaping, heading ids, @@NAME@@ holes, CommonMark through cmark, and embed.html's
// query for a panel in a scenario. Shared by the article, the pictures and the site.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace site {

std::string escape_html(std::string_view text);

// JSON as the value of an attribute the page writes in single quotes (data-fields='{"...": ...}'):
// & < > and ' escaped, its double quotes as they are. Each was a six-byte &quot; in double quotes,
// 2,246 of them on the lesson, 336 bytes of its gzip.
std::string json_attribute(const nlohmann::json& value);

// The text of some HTML: tags dropped, the few entities cmark writes decoded.
std::string strip_tags(std::string_view html);

// A heading's id: lower-case letters and digits, runs of anything else as one '-'.
std::string slugify(std::string_view text);

// Gives every <h2> and <h3> an id from its text, unique within the page.
std::string add_heading_ids(const std::string& html);

// Fills a fragment's @@NAME@@ holes, in the map's order.
std::string fill(std::string fragment, const std::map<std::string, std::string>& holes);

// CommonMark to HTML (typographic quotes and dashes on; raw HTML in the Markdown is dropped).
std::string markdown_to_html(const std::string& markdown);

// embed.html's query for a panel in a scenario: `panel=<kind>` then every field that differs from
// `defaults`, in the defaults' order (the page scripts build the same string).
std::string embed_query(const std::string& kind, const nlohmann::json& scenario, const nlohmann::json& defaults);

}  // namespace site
