// HTML text helpers: escaping, tags stripped, heading ids, fragment holes, cmark, URL queries.
#include "page/html.hpp"

#include <cmark.h>

#include <cctype>
#include <cstdlib>

namespace site {
namespace {

using nlohmann::json;

std::string replace_all(std::string text, std::string_view what, std::string_view with) {
    size_t pos = 0;
    while ((pos = text.find(what, pos)) != std::string::npos) {
        text.replace(pos, what.size(), with);
        pos += with.size();
    }
    return text;
}

std::string percent_encode(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string url_value(const json& v) {
    if (v.is_string()) return percent_encode(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    return percent_encode(v.dump());
}

}  // namespace

std::string escape_html(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string json_attribute(const nlohmann::json& value) { return replace_all(escape_html(value.dump()), "&quot;", "\""); }

std::string strip_tags(std::string_view html) {
    std::string out;
    bool in_tag = false;
    for (char c : html) {
        if (c == '<') in_tag = true;
        else if (c == '>') in_tag = false;
        else if (!in_tag) out += c;
    }
    // The few entities cmark writes.
    out = replace_all(out, "&amp;", "&");
    out = replace_all(out, "&quot;", "\"");
    out = replace_all(out, "&lt;", "<");
    return replace_all(out, "&gt;", ">");
}

std::string slugify(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "section" : out;
}

std::string add_heading_ids(const std::string& html) {
    std::string out;
    std::map<std::string, int> used;
    size_t pos = 0;
    while (true) {
        size_t h = html.find("<h", pos);
        if (h == std::string::npos || h + 3 >= html.size()) break;
        const char level = html[h + 2];
        if ((level != '2' && level != '3') || html[h + 3] != '>') {
            out += html.substr(pos, h + 2 - pos);
            pos = h + 2;
            continue;
        }
        const std::string close = std::string("</h") + level + ">";
        const size_t end = html.find(close, h);
        if (end == std::string::npos) break;
        std::string slug = slugify(strip_tags(html.substr(h + 4, end - h - 4)));
        if (int n = used[slug]++; n > 0) slug += "-" + std::to_string(n + 1);
        out += html.substr(pos, h - pos);
        out += std::string("<h") + level + " id=\"" + slug + "\">";
        pos = h + 4;
    }
    return out + html.substr(pos);
}

std::string fill(std::string fragment, const std::map<std::string, std::string>& holes) {
    for (const auto& [name, value] : holes) fragment = replace_all(std::move(fragment), "@@" + name + "@@", value);
    return fragment;
}

std::string markdown_to_html(const std::string& markdown) {
    char* html = cmark_markdown_to_html(markdown.data(), markdown.size(), CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8);
    std::string out(html);
    std::free(html);
    return out;
}

std::string embed_query(const std::string& kind, const json& scenario, const json& defaults) {
    std::string query = "panel=" + percent_encode(kind);
    for (const auto& [key, value] : scenario.items()) {
        if (defaults.contains(key) && defaults[key] == value) continue;
        if (value.is_null()) continue;
        query += "&" + key + "=" + url_value(value);
    }
    return query;
}

}  // namespace site
