// Where and what, written for people: "file:line:column: ...".
#include "errors.hpp"

namespace site {

std::string SourceLocation::str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }

std::string ScanError::str() const { return where.str() + ": " + (snippet.empty() ? "" : snippet + ": ") + message; }

}  // namespace site
