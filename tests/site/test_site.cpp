// The whole generator run: a good lesson writes the site; a bad binding fails it, naming
// file:line, and writes nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "page.hpp"

namespace fs = std::filesystem;

namespace {
site::SitePaths paths_for(const fs::path& content, const fs::path& out) {
    const fs::path source = KV_SOURCE_DIR;
    return {content, source / "site", source / "build/wasm/kvcache.js", "", out, out / "manifest.json"};
}
}  // namespace

TEST_CASE("the real lesson builds, with every figure in the manifest") {
    const fs::path out = fs::temp_directory_path() / "kvsite-test-good";
    fs::remove_all(out);
    std::ostringstream log, errors;
    REQUIRE(site::build_site(paths_for(fs::path(KV_SOURCE_DIR) / "content/lesson", out), log, errors) == 0);
    CHECK(errors.str().empty());
    CHECK(fs::exists(out / "index.html"));
    CHECK(fs::exists(out / "embed.html"));
    CHECK(fs::exists(out / "js/lesson.js"));
    CHECK(fs::exists(out / "css/lesson.css"));
    CHECK_THAT(log.str(), Catch::Contains("bound figures, 3 panels"));
    fs::remove_all(out);
}

TEST_CASE("a binding that cannot be computed fails the build with file:line and writes nothing") {
    const fs::path out = fs::temp_directory_path() / "kvsite-test-bad";
    fs::remove_all(out);
    std::ostringstream log, errors;
    const fs::path content = fs::path(KV_SOURCE_DIR) / "tests/site/bad_lesson";
    CHECK(site::build_site(paths_for(content, out), log, errors) == 1);
    CHECK_THAT(errors.str(), Catch::Contains((content / "01-bad.md").string() + ":5:50: {{start.ttft | ms0}}: unknown field \"ttft\""));
    CHECK_THAT(errors.str(), Catch::Contains("1 binding error(s); the site was not written"));
    CHECK_FALSE(fs::exists(out / "index.html"));
}
