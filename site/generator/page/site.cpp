#include "page/site.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "base/format.hpp"
#include "io/json_io.hpp"

namespace site {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool write_text(const fs::path& path, const std::string& text) {
    std::error_code ec;
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path(), ec);  // a bare name has none
    if (ec) return false;
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

// Copies every file of `from` ending in `extension` into `to`.
// -1 when the copy fails (a folder that cannot be made or written).
int copy_matching(const fs::path& from, const std::string& extension, const fs::path& to) {
    int copied = 0;
    std::error_code ec;
    if (!fs::is_directory(from, ec)) return 0;
    fs::create_directories(to, ec);
    if (ec) return -1;
    for (const auto& entry : fs::directory_iterator(from, ec)) {
        if (!entry.is_regular_file() || entry.path().extension() != extension) continue;
        fs::copy_file(entry.path(), to / entry.path().filename(), fs::copy_options::overwrite_existing, ec);
        if (ec) return -1;
        ++copied;
    }
    return copied;
}

// Concept names defined by the panels' palette (--kv-<name>: in palette.css).
std::set<std::string> palette_concepts(const std::string& css) {
    std::set<std::string> names;
    static const std::regex property("--kv-([a-z0-9-]+)\\s*:");
    for (auto it = std::sregex_iterator(css.begin(), css.end(), property); it != std::sregex_iterator(); ++it) names.insert((*it)[1]);
    return names;
}

std::optional<json> read_json(const fs::path& path, std::ostream& errors) {
    auto text = read_text(path);
    if (!text) {
        errors << path.string() << ": cannot read it\n";
        return std::nullopt;
    }
    json parsed = json::parse(*text, nullptr, false);
    if (parsed.is_discarded()) {
        // Where: the parser's byte offset as line:column.
        size_t line = 1, column = 1;
        try {
            const json retry = json::parse(*text);
            (void)retry;
        } catch (const json::parse_error& e) {
            for (size_t i = 0; i + 1 < e.byte && i < text->size(); ++i) {
                if ((*text)[i] == '\n') {
                    ++line;
                    column = 1;
                } else ++column;
            }
        }
        errors << path.string() << ":" << line << ":" << column << ": not valid JSON\n";
        return std::nullopt;
    }
    return parsed;
}

// Every exercise of the lesson, hidden: embed.html?exercises=SET shows the set's (site/js/embed.js).
std::string embed_exercises(const RenderedArticle& article) {
    std::string html;
    for (const auto& [id, block] : article.exercises) html += block + "\n";
    return html.empty() ? "" : "<div class=\"kv-embed__exercises\" hidden>\n" + html + "</div>";
}

}  // namespace

std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& holes) {
    for (const auto& [name, value] : holes) {
        const std::string key = "@@" + name + "@@";
        for (size_t pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + value.size()))
            text.replace(pos, key.size(), value);
    }
    return text;
}

json figure_manifest(const RenderedArticle& article, const LessonData& data) {
    json figures = json::array();
    std::set<std::string> used;
    for (const FigureRecord& f : article.figures) {
        json refs = json::array();
        for (const RefValue& r : f.value.refs) {
            refs.push_back({{"ref", r.ref.str()}, {"value", r.value}});
            if (!r.ref.is_fact()) used.insert(r.ref.source);
        }
        figures.push_back({{"id", f.id},
                           {"source", f.where.str()},
                           {"binding", f.binding.source_text},
                           {"format", f.binding.format},
                           {"text", f.value.formatted},
                           {"value", f.value.is_text ? json(nullptr) : json(f.value.number)},
                           {"panel", f.panel},
                           {"refs", refs}});
    }
    json scenarios = json::object();
    for (const auto& [name, s] : data.scenarios()) scenarios[name] = s.scenario;
    json facts = json::object();
    for (const auto& [id, f] : data.facts()) facts[id] = {{"value", f.value}, {"source", f.source}};
    json unused = json::array();
    for (const auto& [name, s] : data.scenarios())
        if (!used.count(name)) unused.push_back(name);
    return {{"figures", figures}, {"scenarios", scenarios}, {"facts", facts}, {"panels", article.panels}, {"unused_scenarios", unused}};
}

int build_site(const SitePaths& paths, std::ostream& log, std::ostream& errors) {
    // Inputs.
    auto scenarios_file = read_json(paths.content / "scenarios.json", errors);
    auto facts_file = read_json(paths.content / "facts.json", errors);
    // head.html is the one place the pages' CSP, stylesheets and shared scripts are written.
    const auto head_fragment = read_text(paths.site / "templates/head.html");
    const auto index_template = read_text(paths.site / "templates/index.html");
    const auto embed_template = read_text(paths.site / "templates/embed.html");
    const auto panel_fragment = read_text(paths.site / "templates/panel.html");
    const auto snippet_fragment = read_text(paths.site / "templates/snippet.html");
    // The course author's snippet, documented in site/README.md; the lesson shows this same file.
    const auto host_snippet = read_text(paths.site / "templates/host-snippet.html");
    if (!head_fragment || !index_template || !embed_template || !panel_fragment || !snippet_fragment || !host_snippet) {
        errors << (paths.site / "templates").string()
               << ": head.html, index.html, embed.html, panel.html, snippet.html and host-snippet.html are needed\n";
        return 1;
    }
    if (!scenarios_file || !facts_file) return 1;
    auto loaded = LessonData::load(*scenarios_file, *facts_file);
    if (auto* message = std::get_if<std::string>(&loaded)) {
        errors << (paths.content / message->substr(0, message->find(':'))).string() << message->substr(message->find(':')) << "\n";
        return 1;
    }
    const LessonData& data = std::get<LessonData>(loaded);

    std::vector<fs::path> markdown_files;
    for (const auto& entry : fs::directory_iterator(paths.content))
        if (entry.is_regular_file() && entry.path().extension() == ".md") markdown_files.push_back(entry.path());
    std::sort(markdown_files.begin(), markdown_files.end());
    if (markdown_files.empty()) {
        errors << paths.content.string() << ": no .md files\n";
        return 1;
    }

    RenderInput input;
    input.data = &data;
    input.fragments = {*panel_fragment, *snippet_fragment};
    if (auto palette = read_text(paths.site / "css/palette.css")) input.concepts = palette_concepts(*palette);
    for (const fs::path& file : markdown_files)
        input.files.emplace_back((paths.content / file.filename()).string(), read_text(file).value_or(""));

    RenderedArticle article = render_article(input);
    if (!article.errors.empty()) {
        for (const ScanError& e : article.errors) errors << e.str() << "\n";
        errors << article.errors.size() << " binding error(s); the site was not written\n";
        return static_cast<int>(article.errors.size());
    }
    // A code block holding only @@HOST_SNIPPET@@ shows templates/host-snippet.html, so the lesson's
    // copy and the documented one are the same text.
    std::string snippet_text = *host_snippet;
    while (!snippet_text.empty() && (snippet_text.back() == '\n' || snippet_text.back() == '\r')) snippet_text.pop_back();
    for (size_t at = article.body_html.find("@@HOST_SNIPPET@@"); at != std::string::npos;
         at = article.body_html.find("@@HOST_SNIPPET@@", at))
        article.body_html.replace(at, 16, escape_html(snippet_text));

    // Page data lives in attributes: the CSP allows no inline script, and file:// allows no fetch.
    json scenarios = json::object();
    for (const auto& [name, s] : data.scenarios()) scenarios[name] = s.scenario;
    const json catalog = kv::catalog_to_json();
    const std::string defaults = escape_html(catalog["defaults"].dump());
    json limits = catalog["limits"];
    json ids = {{"model", json::array()}, {"gpu", json::array()}};
    for (const json& m : catalog["models"]) ids["model"].push_back(m["id"]);
    for (const json& g : catalog["gpus"]) ids["gpu"].push_back(g["id"]);
    limits["model"] = ids["model"];
    limits["gpu"] = ids["gpu"];
    limits["kv_cache_dtype"] = {"bf16", "fp8"};
    limits["weight_dtype"] = {"bf16", "fp8"};
    limits["force_mha"] = {false, true};
    limits["enforce_eager"] = {false, true};
    limits["entry"] = {"serve", "offline"};
    // The names a host page may give data-kv-format: core/base/format.hpp's, and `text` for text fields.
    json formats = kv::named_formats();
    formats.push_back("text");

    // The lesson's starting point, every field: each panel's header names what differs from it.
    json base = (*scenarios_file)["base"];
    if (auto parsed = kv::scenario_from_json(base); std::holds_alternative<kv::Scenario>(parsed))
        base = kv::scenario_to_json(std::get<kv::Scenario>(parsed));
    const std::string index = fill_template(*index_template, {{"HEAD", *head_fragment},
                                                              {"BASE", escape_html(base.dump())},
                                                              {"TITLE_TEXT", escape_html(article.title_text)},
                                                              {"TITLE", article.title_html},
                                                              {"BODY", article.body_html},
                                                              {"DEFAULTS", defaults},
                                                              {"SCENARIOS", escape_html(scenarios.dump())},
                                                              {"FIGURE_COUNT", std::to_string(article.figures.size())}});
    const std::string embed = fill_template(*embed_template, {{"HEAD", *head_fragment},
                                                              {"EXERCISES", embed_exercises(article)},
                                                              {"DEFAULTS", defaults},
                                                              {"LIMITS", escape_html(limits.dump())},
                                                              {"FORMATS", escape_html(formats.dump())},
                                                              {"TITLE_TEXT", escape_html(article.title_text)}});

    // A site without its module or its fonts is not a site: say so before writing anything.
    // The module is three files: kvcache.js (the loader), kvcache.wasm (streamed over http(s)) and
    // kvcache.wasm.js (the same bytes as a script, for pages opened from disk).
    std::error_code ec;
    fs::path wasm_binary = paths.wasm, wasm_script = paths.wasm;
    wasm_binary.replace_extension(".wasm");
    wasm_script.replace_extension(".wasm.js");
    for (const fs::path& part : {paths.wasm, wasm_binary, wasm_script})
        if (!fs::is_regular_file(part, ec)) {
            errors << part.string() << ": the panels' module is missing (build it first: scripts/build)\n";
            return 1;
        }
    if (!paths.fonts.empty() && !fs::is_directory(paths.fonts, ec)) {
        errors << paths.fonts.string() << ": the fonts folder is missing\n";
        return 1;
    }
    // Output: clear what this generator owns, keep nothing stale.
    for (const char* dir : {"js", "css", "fonts"}) fs::remove_all(paths.out / dir, ec);
    bool ok = write_text(paths.out / "index.html", index) && write_text(paths.out / "embed.html", embed);
    const int scripts = copy_matching(paths.site / "js", ".js", paths.out / "js");
    const int styles = copy_matching(paths.site / "css", ".css", paths.out / "css");
    const int fonts = copy_matching(paths.fonts, ".woff2", paths.out / "fonts");
    ok = ok && scripts > 0 && styles > 0 && fonts >= 0;
    for (const auto& [from, to] :
         {std::pair{paths.wasm, "js/kvcache.js"}, std::pair{wasm_binary, "js/kvcache.wasm"}, std::pair{wasm_script, "js/kvcache.wasm.js"}})
        if (ok) ok = fs::copy_file(from, paths.out / to, fs::copy_options::overwrite_existing, ec) || !ec;
    if (!ok) {
        errors << paths.out.string() << ": cannot write the site\n";
        return 1;
    }
    if (!paths.manifest.empty() && !write_text(paths.manifest, figure_manifest(article, data).dump(1) + "\n")) {
        errors << paths.manifest.string() << ": cannot write the manifest\n";
        return 1;
    }
    log << "kvsite: " << paths.out.string() << ": " << article.figures.size() << " bound figures, " << article.panels.size() << " panels, "
        << scripts << " scripts, " << styles << " stylesheets, " << fonts << " fonts\n";
    return 0;
}

}  // namespace site
