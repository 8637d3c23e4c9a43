// Pictures of the mechanisms, baked into the page as inline SVG at build time so that they show
// without JavaScript, in print and in feed readers. Each is drawn from one evaluated scenario:
// every plotted number comes from the core (evaluate, step_time, sweeps re-run through evaluate),
// every number written comes from core/base/format.hpp. Colours are CSS classes (site/css/lesson.css maps
// them onto palette.css), so light and dark themes both apply; no inline styles (the page's CSP).
//   kv-tensor  the K and V of one token: layers x KV heads x head_dim, bytes per element, total
//   gqa        query heads grouped onto shared KV heads, beside what multi-head attention needs
//   budget     the memory CUDA reports, split in the engine's start-up order
//   roofline   attainable FLOP/s against arithmetic intensity, data-sheet and achieved roofs
//   intensity  a decode step's weight read and cache read: FLOP/B against the batch
//   resident   sequences the KV pool holds against the prompt length
// The first three are pictures/diagrams.cpp's, the charts pictures/charts.cpp's; pictures/svg.hpp writes them.
#pragma once
#include <string>
#include <string_view>
#include <variant>

#include "errors.hpp"
#include "result/evaluate.hpp"

namespace site {

inline constexpr const char* picture_names[] = {"kv-tensor", "gqa", "budget", "roofline", "intensity", "resident"};
std::string picture_names_list();  // "kv-tensor, gqa, ..." for messages

// A chart's mapping from a value to an SVG coordinate (log10 when `log`).
struct Axis {
    double min = 0, max = 1;  // the values at the two ends
    double from = 0, to = 1;  // their coordinates
    bool log = false;
    double at(double value) const;
};

struct Picture {
    std::string title;
    std::string desc;  // the numbers the picture shows, in words
    std::string svg;   // <svg role="img" ...>...</svg>
    Axis x, y;         // charts only (roofline, intensity, resident)
};

// Draws picture `name` for `result`; `id` makes the title and desc ids unique in the page.
// The error is unknown_picture, or picture_not_drawable for a scenario the picture cannot show.
std::variant<Picture, Error> draw_picture(std::string_view name, const kv::Result& result, const std::string& id);

// The picture in its <figure class="kv-picture"> with the caption (HTML) below it.
std::string picture_figure_html(const Picture& picture, const std::string& id, const std::string& caption_html);

}  // namespace site
