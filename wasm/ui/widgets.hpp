// Drawing helpers the panels share: headings, (?) tooltips, figure cards, the stacked bar, meters
// and the engine log (the charts are ui/plot.hpp). They take already-formatted text
// (core/base/format.hpp) and concept colours (ui/palette.hpp); none computes a lesson number.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "result/evaluate.hpp"
#include "ui/fonts.hpp"
#include "ui/palette.hpp"

namespace kvui {

// [Text]
void panel_title(const char* title, const std::string& subtitle);  // subtitle beside it, or under it when narrow
void heading(const char* title);                                   // a section title with a rule under it
void help_marker(const char* text);                                // "(?)" on the same line; tooltip on hover
void help_tooltip_on_focus(const char* text);                      // the same text while keyboard focus is in the last item
void text_in(Colour colour, const std::string& text);
void text_muted(const std::string& text);
void text_wrapped(const std::string& text, Colour colour = Colour::text);  // breaks at spaces only
void swatch(Colour colour);                                                // a small square, inline, before a label
std::string escape_format(const std::string& text);                        // '%' doubled: safe as an ImGui format string

// The model's name for titles: the catalog id, or "your config.json (mixtral)" for the reader's own
// (the core names a config.json by the field it came in).
std::string model_label(const kv::Result& result);

// [Figures] A caption over a big number and a note under it, in a table cell; as many per row as
// fit at about 150 pixels each.
struct Figure {
    const char* caption;
    std::string value;
    std::string note;
    Colour colour = Colour::text;
    const char* help = nullptr;
};
void figure_row(const std::vector<Figure>& figures);

// [Bars] A horizontal stacked bar; segments are drawn in order, labelled inside when they fit.
struct Segment {
    Colour colour;
    double value;
    std::string label;   // inside the bar (e.g. "15.3 GiB")
    std::string legend;  // the legend entry (e.g. "weights")
    const char* help = nullptr;
};
// `total` is the full width; a marker line is drawn at `marker` when it is > 0.
void stacked_bar(const char* id, const std::vector<Segment>& segments, double total, float height, double marker = 0,
                 const std::string& marker_label = "");
void legend(const std::vector<Segment>& segments);

// A thin meter from 0 to 1 with its label and value, e.g. DCGM_FI_PROF_DRAM_ACTIVE 93%.
void meter(const char* label, double fraction, const std::string& value, Colour colour, const char* help);

// [Log] vLLM's lines (text colour), the lesson's (accent), warnings and failures (their own
// colours, with a bar in the margin), in the mono font.
void engine_log(const kv::Result& result);

// A box of monospaced lines on the surface colour (the engine log, the stats lines): draw the lines
// between log_box_begin() and log_box_end().
struct LogBox {
    ImDrawList* draw;
    ImVec2 start;
    float width;
    float pad;
};
LogBox log_box_begin();
void log_box_end(const LogBox& box);
// The last `shown` of a log's first `printed` lines in a box, under a count of the earlier ones (or
// `none_yet` while none is printed). As `printed` grows the section keeps the height of its tallest
// moment, the lines ending at the box's foot as a log's tail does: a panel that grew as lines came
// would resize its canvas, and a WebGL canvas reallocates its drawing buffer on every resize (30-95
// ms each on a software renderer, a long task each time a line arrives).
void log_tail(const std::vector<std::string>& lines, size_t printed, size_t shown, const char* none_yet);

// [Footer] How to drive the panel from the keyboard.
void keyboard_hint();

}  // namespace kvui
