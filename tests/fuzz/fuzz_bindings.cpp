// The lesson's Markdown extensions ({{figure | format}}, {{panel kind scenario}}, [text]{.concept}):
// any text in; every extension either becomes a token or an error with a location inside the
// text, and the tokens left in the Markdown are exactly the items found.
#include <cstdlib>
#include <string>
#include <string_view>

#include "markdown/scan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const site::ScanResult scan = site::scan_markdown(text, "fuzz.md", 7);
    for (size_t i = 0; i < scan.items.size(); ++i) {
        if (scan.items[i].token != site::token_for(7 + i)) std::abort();
        if (scan.markdown.find(scan.items[i].token) == std::string::npos) std::abort();
    }
    for (const site::BuildError& e : scan.errors)
        if (e.where.line < 1 || e.message.empty()) std::abort();
    (void)site::parse_expression(text);
    return 0;
}
