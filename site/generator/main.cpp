// kvsite: renders the lesson (content/lesson/*.md with its scenarios and facts) into a static site.
// Exits non-zero, naming each binding by file:line:column and its error code (errors.hpp), when a
// figure cannot be computed; exits 2 on a bad command line (bad_arguments).
//   kvsite --content content/lesson --site site --wasm build/wasm/kvcache.js
//          --fonts build/native/site/fonts --out build/site --manifest build/site-manifest.json
//          --validation tests/validation
#include <iostream>
#include <string>

#include "errors.hpp"
#include "page/site.hpp"

namespace {

// "kvsite: bad_arguments: ...", on a line of its own.
std::string usage_error(const std::string& message) {
    return site::file_error("kvsite", site::ErrorCode::bad_arguments, message).str() + "\n";
}

}  // namespace

int main(int argc, char** argv) {
    site::SitePaths paths{"content/lesson", "site", "build/wasm/kvcache.js", "", "build/site", "", "tests/validation"};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) {
            std::cerr << usage_error(arg + " wants a value");
            return 2;
        }
        const std::string value = argv[++i];
        if (arg == "--content") paths.content = value;
        else if (arg == "--site") paths.site = value;
        else if (arg == "--wasm") paths.wasm = value;
        else if (arg == "--fonts") paths.fonts = value;
        else if (arg == "--out") paths.out = value;
        else if (arg == "--manifest") paths.manifest = value;
        else if (arg == "--validation") paths.validation = value;
        else {
            std::cerr << usage_error(
                "usage: kvsite [--content DIR] [--site DIR] [--wasm FILE] [--fonts DIR] [--out DIR] [--manifest FILE] [--validation DIR]");
            return 2;
        }
    }
    if (paths.fonts.empty()) {
        std::cerr << usage_error("--fonts DIR is required (the page's subset fonts, build/native/site/fonts)");
        return 2;
    }
    return site::build_site(paths, std::cout, std::cerr) == 0 ? 0 : 1;
}
