// The generator's file system: reading the lesson's text and JSON (a JSON error named by
// line:column), writing pages, copying a folder's assets.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "errors.hpp"

namespace site {

// Writes `e` on its own line: "where: code: message".
void report(std::ostream& errors, const BuildError& e);

std::optional<std::string> read_text(const std::filesystem::path& path);

// The parsed file, or nullopt having said why on `errors` ("path:line:column: malformed_json: not valid JSON").
std::optional<nlohmann::json> read_json(const std::filesystem::path& path, std::ostream& errors);

// Writes `text`, making the folders above it. False when it cannot.
bool write_text(const std::filesystem::path& path, const std::string& text);

// Copies every file of `from` ending in `extension` into `to`; the number copied, 0 when `from` is
// not a folder, -1 when the copy fails (a folder that cannot be made or written).
int copy_matching(const std::filesystem::path& from, const std::string& extension, const std::filesystem::path& to);
// The page scripts as a browser gets them: the full-line comments (the files' documentation, a
// third of their gzip bytes) left in the sources, every line of code kept as it is. A file with a
// template literal spanning lines is shipped unchanged.
std::string shipped_script(const std::string& source);
int copy_scripts(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace site
