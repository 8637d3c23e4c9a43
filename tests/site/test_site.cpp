// The whole generator run: a good lesson writes the site; a bad binding fails it, naming
// file:line, and writes nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "page/site.hpp"

namespace fs = std::filesystem;

namespace {
// A scratch folder of this process's own: several checkouts may run these tests at once.
fs::path scratch() {
    static const fs::path dir = fs::temp_directory_path() / ("kvsite-tests-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

site::SitePaths paths_for(const fs::path& content, const fs::path& out) {
    const fs::path source = KV_SOURCE_DIR;
    return {content, source / "site", source / "build/wasm/kvcache.js", "", out, out / "manifest.json"};
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
    CHECK_THAT(log.str(), Catch::Contains("bound figures, 6 panels"));
    fs::remove_all(out);
}

TEST_CASE("a binding that cannot be computed fails the build with file:line and writes nothing") {
    const fs::path out = scratch() / "kvsite-test-bad";
    fs::remove_all(out);
    std::ostringstream log, errors;
    const fs::path content = fs::path(KV_SOURCE_DIR) / "tests/site/bad_lesson";
    CHECK(site::build_site(paths_for(content, out), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((content / "01-bad.md").string() + ":5:50: {{start.ttft | ms0}}: unknown field \"ttft\""));
    CHECK_THAT(errors.str(), Catch::Contains("1 binding error(s); the site was not written"));
    CHECK_FALSE(fs::exists(out / "index.html"));
}

TEST_CASE("a site the generator cannot complete is an error, never a crash or a half-site") {
    const fs::path source = KV_SOURCE_DIR;
    const fs::path content = source / "content/lesson";
    std::ostringstream log, errors;
    site::SitePaths no_module{content, source / "site", source / "build/wasm/missing.js", "", scratch() / "kvsite-x", ""};
    CHECK(site::build_site(no_module, log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains("module is missing"));
    site::SitePaths no_fonts = paths_for(content, scratch() / "kvsite-y");
    no_fonts.fonts = source / "no-such-fonts";
    CHECK(site::build_site(no_fonts, log, errors) == 1);
    // An output folder that cannot be made (a file stands where it would go).
    const fs::path blocker = scratch() / "kvsite-blocker";
    { std::ofstream(blocker) << "x"; }
    CHECK(site::build_site(paths_for(content, blocker / "site"), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains("cannot write"));
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
    CHECK_THAT(errors.str(), Catch::Contains("scenarios.json:3:14: not valid JSON"));
    fs::remove_all(content);
}
