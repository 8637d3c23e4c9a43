// The SVG writer and the chart axes' mapping from values to coordinates.
#include "pictures/svg.hpp"

#include <cmath>
#include <cstdio>

#include "base/format.hpp"
#include "page/html.hpp"
#include "pictures/pictures.hpp"

namespace site {

double Axis::at(double value) const {
    const double f = log ? (std::log10(value) - std::log10(min)) / (std::log10(max) - std::log10(min)) : (value - min) / (max - min);
    return from + f * (to - from);
}

namespace drawing {

std::string Svg::num(double v) {
    if (!std::isfinite(v)) {
        bad_ = true;
        return "0";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    std::string s = buffer;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s == "-0" ? "0" : s;
}

void Svg::rect(double x, double y, double w, double h, const std::string& cls) {
    body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" class=\"" + cls + "\"/>";
}

void Svg::line(double x1, double y1, double x2, double y2, const std::string& cls) {
    body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" class=\"" + cls + "\"/>";
}

void Svg::circle(double x, double y, double r, const std::string& cls) {
    body_ += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\" class=\"" + cls + "\"/>";
}

std::string Svg::box(double x, double y, double w, double h) {
    return "M" + num(x) + " " + num(y) + "h" + num(w) + "v" + num(h) + "h" + num(-w) + "z";
}

std::string Svg::segment(double x1, double y1, double x2, double y2) {
    return "M" + num(x1) + " " + num(y1) + "L" + num(x2) + " " + num(y2);
}

void Svg::path(const std::string& d, const std::string& cls) { body_ += "<path d=\"" + d + "\" class=\"" + cls + "\"/>"; }

void Svg::polyline(const std::vector<std::pair<double, double>>& points, const std::string& cls) {
    std::string p;
    for (const auto& [x, y] : points) p += (p.empty() ? "" : " ") + num(x) + "," + num(y);
    body_ += "<polyline points=\"" + p + "\" class=\"" + cls + "\"/>";
}

void Svg::text(double x, double y, const std::string& s, const std::string& anchor, const std::string& cls) {
    body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (anchor == "start" ? "" : " text-anchor=\"" + anchor + "\"") +
             (cls.empty() ? "" : " class=\"" + cls + "\"") + ">" + escape_html(s) + "</text>";
}

std::string Svg::finish(double height, const std::string& id, const std::string& title, const std::string& desc) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"kv-picture__svg\" viewBox=\"0 0 " + num(width) + " " +
           num(height) + "\" aria-labelledby=\"" + id + "-t " + id + "-d\"><title id=\"" + id + "-t\">" + escape_html(title) +
           "</title><desc id=\"" + id + "-d\">" + escape_html(desc) + "</desc>" + body_ + "</svg>";
}

std::string count(double v) { return kv::format_count(static_cast<int64_t>(std::llround(v))); }

}  // namespace drawing
}  // namespace site
