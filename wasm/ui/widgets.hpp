// Drawing helpers the three panels share: headings, (?) tooltips, figure cards, the stacked bar,
// chart axes and the engine log. They take already-formatted text (core/base/format.hpp) and concept
// colours (ui/palette.hpp); none of them computes a lesson number.
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
void figure_row(const char* id, const std::vector<Figure>& figures);

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

// [Charts] A plot rectangle with linear or log axes, grid and tick labels.
struct Axis {
    double min = 0, max = 1;
    bool log = false;
    std::vector<std::pair<double, std::string>> ticks;  // value, formatted label
    std::string title;
};
struct Plot {
    ImVec2 min, max;  // plot area in screen coordinates
    Axis x, y;
    float sx(double v) const;
    float sy(double v) const;
    ImVec2 at(double x_value, double y_value) const { return ImVec2(sx(x_value), sy(y_value)); }
    bool contains(ImVec2 p) const { return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y; }
    double x_at(float screen_x) const;
};
// Reserves `height` pixels of the window's width and draws the frame, grid and labels.
// `right_axis`, when given, labels the right edge with a second y scale.
Plot begin_plot(const char* id, float height, Axis x, Axis y, const Axis* right_axis = nullptr);
void plot_line(const Plot& plot, const std::vector<ImVec2>& points, ImU32 colour, float thickness, bool dashed = false);
void plot_marker_x(const Plot& plot, double x, ImU32 colour, const std::string& label, bool label_right = true);
void plot_point(const Plot& plot, ImVec2 p, ImU32 colour, const std::string& label);
// Powers of ten between min and max, labelled by `format`.
std::vector<std::pair<double, std::string>> decade_ticks(double min, double max, std::string (*format)(double));

// About `target` round steps (1, 2, 5 x 10^k) from min to max, labelled by `format`.
std::vector<std::pair<double, std::string>> linear_ticks(double min, double max, int target, std::string (*format)(double));

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

// [Footer] How to drive the panel from the keyboard.
void keyboard_hint();

}  // namespace kvui
