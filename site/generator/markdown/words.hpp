// The words a binding is made of: names (scenarios, formats, exercise ids), anchor ids and the
// space-separated words of a directive. Shared by the expression parser, the directives and the scanner.
#pragma once
#include <string_view>
#include <vector>

namespace site {

std::string_view trim(std::string_view s);

// A name: a letter or '_', then letters, digits, '_' and '-'.
bool is_ident_start(char c);
bool is_identifier(std::string_view s);

// A reference's characters: no '-', so that "a.x-b.y" reads as a subtraction.
bool is_ref_char(char c);

// An anchor id: lower-case letters, digits and inner hyphens.
bool is_anchor_id(std::string_view s);

// The words of `s`, split at white space.
std::vector<std::string_view> words(std::string_view s);

}  // namespace site
