// The whole generator run: a good lesson writes the site; a bad binding fails it, naming
// file:line, and writes nothing.
#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "page/files.hpp"
#include "page/site.hpp"
#include "page/templates.hpp"

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {
// A scratch folder of this process's own: several checkouts may run these tests at once.
fs::path scratch() {
    static const fs::path dir = fs::temp_directory_path() / ("kvsite-tests-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

// An attribute's JSON as the page's script reads it: the text between its single quotes
// (page/html.hpp's json_attribute), entities decoded.
nlohmann::json attribute_json(const std::string& html, const std::string& name) {
    const size_t start = html.find(name + "='");
    if (start == std::string::npos) return nullptr;
    const size_t from = start + name.size() + 2;
    std::string text = html.substr(from, html.find('\'', from) - from);
    for (const auto& [entity, c] : {std::pair{"&quot;", "\""}, {"&#39;", "'"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
        for (size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1))
            text.replace(at, std::string(entity).size(), c);
    return nlohmann::json::parse(text);
}

site::SitePaths paths_for(const fs::path& content, const fs::path& out) {
    const fs::path source = KV_SOURCE_DIR;
    return {content, source / "site", source / "build/wasm/kvcache.js", "", out, out / "manifest.json", source / "tests/validation"};
}
}  // namespace

TEST_CASE("the real lesson builds, with every figure in the manifest") {
    const fs::path out = scratch() / "kvsite-test-good";
    fs::remove_all(out);
    std::ostringstream log, errors;
    REQUIRE(site::build_site(paths_for(fs::path(KV_SOURCE_DIR) / "content/lesson", out), log, errors) == 0);
    CHECK(errors.str().empty());
    CHECK(fs::exists(out / "index.html"));
    CHECK(fs::exists(out / "embed.html"));
    CHECK(fs::exists(out / "js/lesson.js"));
    CHECK(fs::exists(out / "css/lesson.css"));
    for (const char* module : {"js/kvcache", "js/kvtools"})  // the panels' module and the tools' (first use)
        for (const char* extension : {".js", ".wasm", ".wasm.js"}) CHECK(fs::exists(out / (std::string(module) + extension)));
    CHECK_THAT(log.str(), Catch::Contains("bound figures, 6 panels"));
    // The page writes each scenario as it differs from its defaults; with them, each is whole again.
    const std::string html = site::read_text(out / "index.html").value_or("");
    const nlohmann::json defaults = attribute_json(html, "data-defaults");
    const nlohmann::json written = attribute_json(html, "data-scenarios");
    const nlohmann::json whole = nlohmann::json::parse(site::read_text(out / "manifest.json").value_or("{}"))["scenarios"];
    CHECK(written.size() == whole.size());
    for (const auto& [name, differences] : written.items()) {
        INFO(name);
        nlohmann::json merged = defaults;
        for (const auto& [field, value] : differences.items()) {
            CHECK((!defaults.contains(field) || value != defaults.at(field)));  // no default written again
            merged[field] = value;
        }
        CHECK(merged == whole[name]);
    }
    // A flag written in prose must be code: typographic punctuation turns its "--" into an en dash,
    // which a reader's shell does not take ("\u2013data-parallel-size").
    for (size_t at = html.find("\u2013"); at != std::string::npos; at = html.find("\u2013", at + 1)) {
        INFO(html.substr(at > 40 ? at - 40 : 0, 80));
        CHECK_FALSE(std::islower(static_cast<unsigned char>(html[at + 3])));
    }
    fs::remove_all(out);
}

TEST_CASE("the planner's price examples each name a catalog GPU, a price, a provider, a date and a source") {
    std::ifstream file(fs::path(KV_SOURCE_DIR) / "content/data/gpu_prices.json");
    const auto prices = nlohmann::json::parse(file);
    CHECK(!site::check_prices(prices));
    CHECK(prices["prices"].size() >= 10);
    auto broken = prices;
    broken["prices"][1]["gpu"] = "V100";
    CHECK(site::check_prices(broken) == std::optional<std::string>("prices[1]: gpu must name a catalog GPU"));
    broken = prices;
    broken["prices"][2]["usd_per_gpu_hour"] = 0;
    CHECK(site::check_prices(broken) == std::optional<std::string>("prices[2]: usd_per_gpu_hour must be a price above 0"));
    broken = prices;
    broken["prices"][0]["date"] = "Sept 2026";
    CHECK(site::check_prices(broken) == std::optional<std::string>("prices[0]: date must be YYYY-MM-DD"));
    broken = prices;
    broken["prices"][0].erase("source");
    CHECK(site::check_prices(broken) == std::optional<std::string>("prices[0]: source is missing"));
}

TEST_CASE("a binding that cannot be computed fails the build with file:line and writes nothing") {
    const fs::path out = scratch() / "kvsite-test-bad";
    fs::remove_all(out);
    std::ostringstream log, errors;
    const fs::path content = fs::path(KV_SOURCE_DIR) / "tests/site/bad_lesson";
    CHECK(site::build_site(paths_for(content, out), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((content / "01-bad.md").string() + ":5:50: unknown_field: {{start.ttft | ms0}}: "));
    CHECK_THAT(errors.str(), Catch::Contains("1 binding error(s); the site was not written"));
    CHECK_FALSE(fs::exists(out / "index.html"));
}

TEST_CASE("a site the generator cannot complete is an error, never a crash or a half-site") {
    const fs::path source = KV_SOURCE_DIR;
    const fs::path content = source / "content/lesson";
    std::ostringstream log, errors;
    site::SitePaths no_module{
        content, source / "site", source / "build/wasm/missing.js", "", scratch() / "kvsite-x", "", source / "tests/validation"};
    CHECK(site::build_site(no_module, log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((source / "build/wasm/missing.js").string() + ": missing_module: "));
    // The panels' module without the tools' module beside it is not a whole site either.
    const fs::path lone = scratch() / "kvsite-lone-module";
    fs::create_directories(lone);
    for (const char* extension : {".js", ".wasm", ".wasm.js"})
        fs::copy_file(source / ("build/wasm/kvcache" + std::string(extension)), lone / ("kvcache" + std::string(extension)),
                      fs::copy_options::overwrite_existing);
    site::SitePaths no_tools = paths_for(content, scratch() / "kvsite-z");
    no_tools.wasm = lone / "kvcache.js";
    CHECK(site::build_site(no_tools, log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((lone / "kvtools.js").string() + ": missing_module: "));
    fs::remove_all(lone);
    site::SitePaths no_fonts = paths_for(content, scratch() / "kvsite-y");
    no_fonts.fonts = source / "no-such-fonts";
    CHECK(site::build_site(no_fonts, log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((source / "no-such-fonts").string() + ": missing_fonts: "));
    // An output folder that cannot be made (a file stands where it would go).
    const fs::path blocker = scratch() / "kvsite-blocker";
    { std::ofstream(blocker) << "x"; }
    CHECK(site::build_site(paths_for(content, blocker / "site"), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((blocker / "site").string() + ": write_failed: "));
    fs::remove(blocker);
    // A bare manifest name is written beside the working directory, not a crash.
    site::SitePaths bare = paths_for(content, scratch() / "kvsite-z");
    bare.manifest = "kvsite-test-manifest.json";
    CHECK(site::build_site(bare, log, errors) == 0);
    CHECK(fs::exists("kvsite-test-manifest.json"));
    fs::remove("kvsite-test-manifest.json");
    fs::remove_all(scratch() / "kvsite-z");
}

TEST_CASE("a broken scenarios.json is named with its line and column") {
    const fs::path content = scratch() / "kvsite-broken-json";
    fs::remove_all(content);
    fs::create_directories(content);
    { std::ofstream(content / "scenarios.json") << "{\n  \"base\": {\n    \"model\": ,\n  }\n}\n"; }
    { std::ofstream(content / "facts.json") << "{\"facts\": {}}\n"; }
    { std::ofstream(content / "01-a.md") << "## A\n\nText.\n"; }
    std::ostringstream log, errors;
    CHECK(site::build_site(paths_for(content, scratch() / "kvsite-broken-out"), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((content / "scenarios.json").string() + ":3:14: malformed_json: "));
    fs::remove_all(content);
}

TEST_CASE("a lesson folder or a site folder the generator cannot use is named with its code") {
    const fs::path source = KV_SOURCE_DIR;
    const fs::path content = scratch() / "kvsite-empty-content";
    fs::remove_all(content);
    fs::create_directories(content);
    { std::ofstream(content / "scenarios.json") << "{\"base\": {}, \"scenarios\": {}}\n"; }
    { std::ofstream(content / "facts.json") << "{\"facts\": {}}\n"; }
    std::ostringstream log, errors;
    // The base must name every field: the data file is named, in its folder, with the code.
    CHECK(site::build_site(paths_for(content, scratch() / "kvsite-empty-out"), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::StartsWith((content / "scenarios.json").string() + ": incomplete_base: "));
    // No Markdown at all.
    const fs::path lesson = source / "content/lesson";
    for (const char* file : {"scenarios.json", "facts.json"})
        fs::copy_file(lesson / file, content / file, fs::copy_options::overwrite_existing);
    errors.str("");
    CHECK(site::build_site(paths_for(content, scratch() / "kvsite-empty-out"), log, errors) == 1);
    CHECK(errors.str() == content.string() + ": no_markdown: no .md files\n");
    // A site folder without its templates.
    site::SitePaths no_templates = paths_for(lesson, scratch() / "kvsite-empty-out");
    no_templates.site = content;
    errors.str("");
    CHECK(site::build_site(no_templates, log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::StartsWith((content / "templates").string() + ": missing_templates: "));
    fs::remove_all(content);
}

TEST_CASE("page scripts ship without full-line comments, blank lines or indentation, every line of code kept") {
    const std::string source =
        "// KvThing: what it does.\n"
        "//   KvThing.go() -> nothing\n"
        "var KvThing = (function () {\n"
        "  'use strict';\n"
        "  // A note on the next line.\n"
        "  var url = 'http://example.org/x';  // a trailing note stays\n"
        "  return { go: function () { return url; } };\n"
        "})();\n";
    CHECK(site::shipped_script(source) ==
          "var KvThing = (function () {\n"
          "'use strict';\n"
          "var url = 'http://example.org/x';  // a trailing note stays\n"
          "return { go: function () { return url; } };\n"
          "})();\n");
    // A string continued by a backslash keeps the next line's indentation; blank lines go.
    CHECK(site::shipped_script("var s = 'a\\\n  b';\n\n  go();\n") == "var s = 'a\\\n  b';\ngo();\n");
    // A template literal over several lines may hold a line that starts with //: shipped as is.
    const std::string literal = "var t = `first\n// not a comment\nlast`;\n";
    CHECK(site::shipped_script(literal) == literal);
}
