// The charts of ui/plot.hpp: axes mapped linearly or by decades, the frame, grid, tick labels and
// titles drawn when a plot begins, then lines (solid or dashed, clipped to the plot), markers and
// points over them.
#include "ui/plot.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "ui/style.hpp"

namespace kvui {
namespace {

double axis_fraction(const Axis& a, double v) {
    if (a.log) {
        const double lo = std::log10(a.min), hi = std::log10(a.max);
        return (std::log10(std::max(v, 1e-300)) - lo) / (hi - lo);
    }
    return (v - a.min) / (a.max - a.min);
}

}  // namespace

float Plot::sx(double v) const { return min.x + static_cast<float>(axis_fraction(x, v)) * (max.x - min.x); }
float Plot::sy(double v) const { return max.y - static_cast<float>(axis_fraction(y, v)) * (max.y - min.y); }

double Plot::x_at(float screen_x) const {
    const double f = (screen_x - min.x) / (max.x - min.x);
    if (x.log) return std::pow(10.0, std::log10(x.min) + f * (std::log10(x.max) - std::log10(x.min)));
    return x.min + f * (x.max - x.min);
}

namespace {

float widest_label(const Axis& axis) {
    float w = 0;
    for (const auto& t : axis.ticks) w = std::max(w, ImGui::CalcTextSize(t.second.c_str()).x);
    return w;
}

ImU32 grid_colour() { return colour(Colour::border, 0.7f); }
ImU32 label_colour() { return colour(Colour::text_muted); }

// The x axis's grid lines and tick labels under the plot; a label that would overlap the previous
// one is left out. `origin` and `width`: the reserved rectangle, which labels stay inside.
void draw_x_axis(const Plot& plot, ImVec2 origin, float width) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float label_end = -FLT_MAX;
    for (const auto& [v, text] : plot.x.ticks) {
        const float sx = plot.sx(v);
        if (sx < plot.min.x - 0.5f || sx > plot.max.x + 0.5f) continue;
        draw->AddLine(ImVec2(sx, plot.min.y), ImVec2(sx, plot.max.y), grid_colour());
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        const float tx = std::clamp(sx - size.x * 0.5f, origin.x, origin.x + width - size.x);
        if (tx < label_end + 8) continue;
        draw->AddText(ImVec2(tx, plot.max.y + 4), label_colour(), text.c_str());
        label_end = tx + size.x;
    }
}

// The y axis's grid lines and tick labels, right-aligned left of the plot.
void draw_y_axis(const Plot& plot) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (const auto& [v, text] : plot.y.ticks) {
        const float sy = plot.sy(v);
        if (sy < plot.min.y - 0.5f || sy > plot.max.y + 0.5f) continue;
        draw->AddLine(ImVec2(plot.min.x, sy), ImVec2(plot.max.x, sy), grid_colour());
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        draw->AddText(ImVec2(plot.min.x - 6 - size.x, sy - size.y * 0.5f), label_colour(), text.c_str());
    }
}

// A second y scale: tick labels right of the plot (no grid of its own) and its title top right.
void draw_right_axis(const Plot& plot, const Axis& right, ImVec2 origin, float width) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (const auto& [v, text] : right.ticks) {
        const float sy = plot.max.y - static_cast<float>(axis_fraction(right, v)) * (plot.max.y - plot.min.y);
        if (sy < plot.min.y - 0.5f || sy > plot.max.y + 0.5f) continue;
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        draw->AddText(ImVec2(plot.max.x + 6, sy - size.y * 0.5f), label_colour(), text.c_str());
    }
    if (!right.title.empty()) {
        const ImVec2 size = ImGui::CalcTextSize(right.title.c_str());
        draw->AddText(ImVec2(origin.x + width - size.x, origin.y), label_colour(), right.title.c_str());
    }
}

// The y title top left, the x title centred under the tick labels.
void draw_titles(const Plot& plot, ImVec2 origin) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (!plot.y.title.empty()) draw->AddText(ImVec2(origin.x, origin.y), label_colour(), plot.y.title.c_str());
    if (!plot.x.title.empty()) {
        const ImVec2 size = ImGui::CalcTextSize(plot.x.title.c_str());
        const float line = ImGui::GetTextLineHeight();
        draw->AddText(ImVec2((plot.min.x + plot.max.x - size.x) * 0.5f, plot.max.y + line + 8), label_colour(), plot.x.title.c_str());
    }
}

}  // namespace

Plot begin_plot(const char* id, float height, Axis x, Axis y, const Axis* right_axis) {
    const float line = ImGui::GetTextLineHeight();
    const float left_margin = widest_label(y) + 8;
    const float right_margin = right_axis ? widest_label(*right_axis) + 8 : 8;
    const float title_height = y.title.empty() && (!right_axis || right_axis->title.empty()) ? 0 : line + 6;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::InvisibleButton(id, ImVec2(width, height));

    Plot plot;
    plot.x = std::move(x);
    plot.y = std::move(y);
    plot.min = ImVec2(origin.x + left_margin, origin.y + title_height + line * 0.5f);
    plot.max = ImVec2(origin.x + width - right_margin, origin.y + height - (line + 6) - (plot.x.title.empty() ? 0 : line + 4));

    ImGui::GetWindowDrawList()->AddRectFilled(plot.min, plot.max, colour(Colour::surface, 0.6f), 3.0f);
    draw_x_axis(plot, origin, width);
    draw_y_axis(plot);
    if (right_axis) draw_right_axis(plot, *right_axis, origin, width);
    draw_titles(plot, origin);
    return plot;
}

void plot_line(const Plot& plot, const std::vector<ImVec2>& points, ImU32 c, float thickness, bool dashed) {
    if (points.size() < 2) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(plot.min, plot.max, true);
    if (!dashed) {
        draw->AddPolyline(points.data(), static_cast<int>(points.size()), c, ImDrawFlags_None, thickness);
    } else {
        const float on = 6.0f, off = 4.0f;
        float phase = 0;
        for (size_t i = 1; i < points.size(); ++i) {
            const ImVec2 a = points[i - 1], b = points[i];
            const float length = std::hypot(b.x - a.x, b.y - a.y);
            float t = 0;
            while (t < length) {
                const float span = (phase < on) ? on - phase : on + off - phase;
                const float step = std::min(span, length - t);
                if (phase < on) {
                    const ImVec2 p0(a.x + (b.x - a.x) * t / length, a.y + (b.y - a.y) * t / length);
                    const ImVec2 p1(a.x + (b.x - a.x) * (t + step) / length, a.y + (b.y - a.y) * (t + step) / length);
                    draw->AddLine(p0, p1, c, thickness);
                }
                t += step;
                phase = std::fmod(phase + step, on + off);
            }
        }
    }
    draw->PopClipRect();
}

void plot_marker_x(const Plot& plot, double x, ImU32 c, const std::string& label, bool label_right) {
    const float sx = plot.sx(x);
    if (sx < plot.min.x || sx > plot.max.x) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddLine(ImVec2(sx, plot.min.y), ImVec2(sx, plot.max.y), c, 1.5f);
    if (label.empty()) return;
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    float tx = label_right ? sx + 5 : sx - 5 - size.x;
    tx = std::clamp(tx, plot.min.x + 2, plot.max.x - size.x - 2);
    draw->AddText(ImVec2(tx, plot.min.y + 3), c, label.c_str());
}

void plot_point(const Plot& plot, ImVec2 p, ImU32 c, const std::string& label) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddCircleFilled(p, 5.5f, colour(Colour::background));
    draw->AddCircleFilled(p, 4.5f, c);
    if (label.empty()) return;
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    float tx = p.x + 9;
    if (tx + size.x > plot.max.x) tx = p.x - 9 - size.x;
    // Below the point where above would reach the band along the top that markers label.
    float ty = p.y - size.y - 4;
    if (ty < plot.min.y + size.y + 3) ty = p.y + 6;
    draw->AddText(ImVec2(tx, ty), c, label.c_str());
}

std::vector<std::pair<double, std::string>> decade_ticks(double min, double max, std::string (*format)(double)) {
    std::vector<std::pair<double, std::string>> ticks;
    for (int e = static_cast<int>(std::floor(std::log10(min))); e <= static_cast<int>(std::ceil(std::log10(max))); ++e) {
        const double v = std::pow(10.0, e);
        if (v >= min * 0.999 && v <= max * 1.001) ticks.emplace_back(v, format(v));
    }
    return ticks;
}

std::vector<std::pair<double, std::string>> linear_ticks(double min, double max, int target, std::string (*format)(double)) {
    std::vector<std::pair<double, std::string>> ticks;
    if (!(max > min) || target < 1) return ticks;
    const double raw = (max - min) / target;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    for (double v = std::ceil(min / step) * step; v <= max + step * 1e-6; v += step)
        ticks.emplace_back(v, format(std::fabs(v) < step * 1e-6 ? 0.0 : v));
    return ticks;
}

}  // namespace kvui
