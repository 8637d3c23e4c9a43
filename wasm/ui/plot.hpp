// Charts the panels draw their curves in: a plot rectangle with linear or log axes, grid, tick
// labels and titles, and the lines, markers and points drawn in it. Ticks carry text already
// formatted by core/base/format.hpp; nothing here computes a lesson number.
#pragma once
#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace kvui {

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

}  // namespace kvui
