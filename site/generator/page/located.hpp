// An item of the lesson found again in the rendered HTML: where its token stands. The article's
// checks and replacements work over these, in page order.
#pragma once
#include <cstddef>

#include "markdown/scan.hpp"

namespace site {

struct Located {
    size_t position;  // of the token in the rendered HTML
    const ScannedItem* item;
};

}  // namespace site
