// The generator's error codes (site/generator/errors.hpp): each code's name is its enumerator's, and
// an error prints as "where: code: snippet: message", where is file:line:column, file:line or file.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "errors.hpp"

using namespace site;

TEST_CASE("every error code is named as its enumerator, in the enum's order") {
    std::ifstream in(std::string(KV_SOURCE_DIR) + "/site/generator/errors.hpp");
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    const size_t begin = source.find("enum class ErrorCode {");
    REQUIRE(begin != std::string::npos);
    const std::string body = source.substr(begin, source.find("};", begin) - begin);
    std::vector<std::string> names;
    const std::regex enumerator(R"(\n\s+([a-z_]+),)");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), enumerator); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    REQUIRE(names.size() == static_cast<size_t>(ErrorCode::bad_arguments) + 1);
    for (size_t i = 0; i < names.size(); ++i) CHECK(error_code_name(static_cast<ErrorCode>(i)) == names[i]);
}

TEST_CASE("an error names where it stands, its code, the extension and what is wrong") {
    BuildError figure;
    figure.where = {"01-bad.md", 5, 50};
    figure.code = ErrorCode::unknown_field;
    figure.snippet = "{{start.ttft | ms0}}";
    figure.message = "unknown field \"ttft\"";
    CHECK(figure.str() == "01-bad.md:5:50: unknown_field: {{start.ttft | ms0}}: unknown field \"ttft\"");
    figure.snippet.clear();
    CHECK(figure.str() == "01-bad.md:5:50: unknown_field: unknown field \"ttft\"");
    CHECK(file_error("content/lesson", ErrorCode::no_markdown, "no .md files").str() == "content/lesson: no_markdown: no .md files");
    const SourceLocation line_only{"a.json", 3, 0};
    CHECK(line_only.str() == "a.json:3");
}
