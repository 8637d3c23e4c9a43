// Building the site: read the lesson and the templates, render the article, then write the pages,
// the scripts, styles, fonts and module, and the manifest. Nothing is written when anything fails.
#include "page/site.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "figures/lesson_data.hpp"
#include "io/json_io.hpp"
#include "page/accuracy.hpp"
#include "page/article.hpp"
#include "page/files.hpp"
#include "page/manifest.hpp"
#include "page/templates.hpp"

namespace site {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Concept names defined by the panels' palette (--kv-<name>: in palette.css).
std::set<std::string> palette_concepts(const std::string& css) {
    std::set<std::string> names;
    static const std::regex property("--kv-([a-z0-9-]+)\\s*:");
    for (auto it = std::sregex_iterator(css.begin(), css.end(), property); it != std::sregex_iterator(); ++it) names.insert((*it)[1]);
    return names;
}
// The article's input: the lesson's Markdown files in file-name order, the fragments it fills and
// the palette's concepts. nullopt, having said so, when the folder holds no Markdown.
std::optional<RenderInput> render_input(const SitePaths& paths, const LessonData& data, const Templates& templates, std::ostream& errors) {
    std::vector<fs::path> markdown_files;
    for (const auto& entry : fs::directory_iterator(paths.content))
        if (entry.is_regular_file() && entry.path().extension() == ".md") markdown_files.push_back(entry.path());
    std::sort(markdown_files.begin(), markdown_files.end());
    if (markdown_files.empty()) {
        report(errors, file_error(paths.content.string(), ErrorCode::no_markdown, "no .md files"));
        return std::nullopt;
    }
    RenderInput input;
    input.data = &data;
    input.fragments = {templates.panel, templates.snippet};
    if (auto palette = read_text(paths.site / "css/palette.css")) input.concepts = palette_concepts(*palette);
    for (const fs::path& file : markdown_files)
        input.files.emplace_back((paths.content / file.filename()).string(), read_text(file).value_or(""));
    return input;
}

// The page's two modules, three files each: NAME.js (the loader), NAME.wasm (streamed over http(s))
// and NAME.wasm.js (the same bytes as a script, for pages opened from disk). The panels' module is
// `loader` (kvcache.js); the tools' module (kvtools.js, the log explainer and the planner, fetched on
// first use) sits beside it. Each pair: where the build wrote it, and its name in the site's js/.
std::array<std::pair<fs::path, std::string>, 6> module_files(const fs::path& loader) {
    std::array<std::pair<fs::path, std::string>, 6> files;
    const fs::path tools = loader.parent_path() / "kvtools.js";
    size_t i = 0;
    for (const auto& [built, name] : {std::pair{loader, std::string("kvcache")}, std::pair{tools, std::string("kvtools")}})
        for (const char* extension : {".js", ".wasm", ".wasm.js"}) {
            fs::path file = built;
            files[i++] = {file.replace_extension(extension), "js/" + name + extension};
        }
    return files;
}

// A site without its module or its fonts is not a site: say so before writing anything.
bool module_and_fonts_present(const SitePaths& paths, std::ostream& errors) {
    std::error_code ec;
    for (const auto& [part, name] : module_files(paths.wasm))
        if (!fs::is_regular_file(part, ec)) {
            report(errors, file_error(part.string(), ErrorCode::missing_module,
                                      "the page's modules are missing (build them first: scripts/build)"));
            return false;
        }
    if (!paths.fonts.empty() && !fs::is_directory(paths.fonts, ec)) {
        report(errors, file_error(paths.fonts.string(), ErrorCode::missing_fonts, "the fonts folder is missing"));
        return false;
    }
    return true;
}

struct Copied {
    int scripts = 0, styles = 0, fonts = 0;
};

// Clears what this generator owns (keeping nothing stale), then writes the pages and copies the assets.
std::optional<Copied> write_site(const SitePaths& paths, const std::string& index, const std::string& embed, std::ostream& errors) {
    std::error_code ec;
    for (const char* dir : {"js", "css", "fonts"}) fs::remove_all(paths.out / dir, ec);
    bool ok = write_text(paths.out / "index.html", index) && write_text(paths.out / "embed.html", embed);
    Copied copied;
    copied.scripts = copy_scripts(paths.site / "js", paths.out / "js");
    copied.styles = copy_matching(paths.site / "css", ".css", paths.out / "css");
    copied.fonts = copy_matching(paths.fonts, ".woff2", paths.out / "fonts");
    ok = ok && copied.scripts > 0 && copied.styles > 0 && copied.fonts >= 0;
    for (const auto& [built, name] : module_files(paths.wasm))
        if (ok) ok = fs::copy_file(built, paths.out / name, fs::copy_options::overwrite_existing, ec) || !ec;
    if (!ok) {
        report(errors, file_error(paths.out.string(), ErrorCode::write_failed, "cannot write the site"));
        return std::nullopt;
    }
    return copied;
}

}  // namespace

int build_site(const SitePaths& paths, std::ostream& log, std::ostream& errors) {
    auto scenarios_file = read_json(paths.content / "scenarios.json", errors);
    auto facts_file = read_json(paths.content / "facts.json", errors);
    // The planner's price examples sit beside the catalog (content/data); a lesson folder without
    // them builds a page without examples.
    const fs::path prices_path = paths.content / ".." / "data" / "gpu_prices.json";
    std::error_code missing;
    auto prices_file =
        fs::exists(prices_path, missing) ? read_json(prices_path, errors) : std::optional<json>(json{{"prices", json::array()}});
    const auto templates = read_templates(paths.site, errors);
    if (!templates) return 1;
    // Before the lesson is computed (seconds): a missing module or font folder is said at once.
    if (!module_and_fonts_present(paths, errors)) return 1;
    if (!scenarios_file || !facts_file || !prices_file) return 1;
    if (auto problem = check_prices(*prices_file)) {
        report(errors, file_error(prices_path.string(), ErrorCode::bad_prices_file, *problem));
        return 1;
    }
    auto loaded = LessonData::load(*scenarios_file, *facts_file);
    if (auto* error = std::get_if<BuildError>(&loaded)) {
        error->where.file = (paths.content / error->where.file).string();
        report(errors, *error);
        return 1;
    }
    LessonData& data = std::get<LessonData>(loaded);
    const auto input = render_input(paths, data, *templates, errors);  // reads the text, computes nothing
    if (!input) return 1;
    if (!paths.validation.empty()) {  // the trust chapter's figures: every real run, seconds of work
        auto accuracy = measure_accuracy(paths.validation, errors);
        if (!accuracy) return 1;
        data.set_accuracy(std::move(*accuracy));
    }

    RenderedArticle article = render_article(*input);
    if (!article.errors.empty()) {
        for (const BuildError& e : article.errors) report(errors, e);
        errors << article.errors.size() << " binding error(s); the site was not written\n";
        return static_cast<int>(article.errors.size());
    }
    insert_host_snippet(article.body_html, templates->host_snippet);
    const json catalog = kv::catalog_to_json();
    const std::string index = index_page(*templates, article, data, (*scenarios_file)["base"], catalog, *prices_file);
    const std::string embed = embed_page(*templates, article, data, catalog);

    const auto copied = write_site(paths, index, embed, errors);
    if (!copied) return 1;
    if (!paths.manifest.empty() && !write_text(paths.manifest, figure_manifest(article, data).dump(1) + "\n")) {
        report(errors, file_error(paths.manifest.string(), ErrorCode::write_failed, "cannot write the manifest"));
        return 1;
    }
    log << "kvsite: " << paths.out.string() << ": " << article.figures.size() << " bound figures, " << article.panels.size() << " panels, "
        << copied->scripts << " scripts, " << copied->styles << " stylesheets, " << copied->fonts << " fonts\n";
    return 0;
}

}  // namespace site
