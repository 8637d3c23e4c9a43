// Where the lesson went wrong: a place in a Markdown file (or a data file) and what is wrong there,
// for the people who write the lesson. Every part of the generator reports its errors this way.
#pragma once
#include <string>

namespace site {

struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    std::string str() const;  // "file:line:column"
};

struct ScanError {
    SourceLocation where;
    std::string snippet;  // the binding as written, "{{...}}"
    std::string message;
    std::string str() const;  // "file:line:col: {{...}}: message"
};

}  // namespace site
