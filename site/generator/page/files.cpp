// Reading and writing the generator's files.
#include "page/files.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace site {

namespace fs = std::filesystem;
using nlohmann::json;

void report(std::ostream& errors, const BuildError& e) { errors << e.str() << "\n"; }

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::optional<json> read_json(const fs::path& path, std::ostream& errors) {
    auto text = read_text(path);
    if (!text) {
        report(errors, file_error(path.string(), ErrorCode::unreadable_file, "cannot read it"));
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
        report(errors,
               {{path.string(), static_cast<int>(line), static_cast<int>(column)}, ErrorCode::malformed_json, "", "not valid JSON"});
        return std::nullopt;
    }
    return parsed;
}

bool write_text(const fs::path& path, const std::string& text) {
    std::error_code ec;
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path(), ec);  // a bare name has none
    if (ec) return false;
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

namespace {

// Every regular file of `from` with that extension, put into `to` by `put(source, target)`: the
// count, or -1 at the first failure; 0 when `from` is not a folder.
template <typename Put>
int copy_each(const fs::path& from, const std::string& extension, const fs::path& to, Put put) {
    int copied = 0;
    std::error_code ec;
    if (!fs::is_directory(from, ec)) return 0;
    fs::create_directories(to, ec);
    if (ec) return -1;
    for (const auto& entry : fs::directory_iterator(from, ec)) {
        if (!entry.is_regular_file() || entry.path().extension() != extension) continue;
        if (!put(entry.path(), to / entry.path().filename())) return -1;
        ++copied;
    }
    return copied;
}

}  // namespace

int copy_matching(const fs::path& from, const std::string& extension, const fs::path& to) {
    return copy_each(from, extension, to, [](const fs::path& source, const fs::path& target) {
        std::error_code ec;
        fs::copy_file(source, target, fs::copy_options::overwrite_existing, ec);
        return !ec;
    });
}

std::string shipped_script(const std::string& source) {
    std::vector<std::string> lines;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) {
        if (std::count(line.begin(), line.end(), '`') % 2 != 0) return source;  // a template literal spans lines
        lines.push_back(line);
    }
    // Comment lines, blank lines and indentation go: the reader's copy is for running, the
    // source for reading (a line continued by a backslash would keep its indentation).
    std::string out;
    bool continued = false;
    for (const std::string& line : lines) {
        const size_t first = line.find_first_not_of(" \t");
        const bool keep_as_is = continued;
        continued = !line.empty() && line.back() == '\\';
        if (keep_as_is) {
            out += line + "\n";
            continue;
        }
        if (first == std::string::npos || line.compare(first, 2, "//") == 0) continue;
        out += line.substr(first) + "\n";
    }
    return out;
}

int copy_scripts(const fs::path& from, const fs::path& to) {
    return copy_each(from, ".js", to, [](const fs::path& source, const fs::path& target) {
        const auto text = read_text(source);
        return text && write_text(target, shipped_script(*text));
    });
}

}  // namespace site
