// The pictures' drawing vocabulary: an SVG writer whose coordinates are checked (a non-finite one
// fails the picture instead of writing NaN), the picture's width in user units, and whole counts
// as the core formats them. Internal to pictures/.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace site::drawing {

// The SVG's user units: 400 wide, so 12-unit text is about 11 px on a phone and 16 px at the
// reading column's width (lesson.css caps the picture there).
constexpr double width = 400;

// Collects SVG elements; a non-finite coordinate marks the picture as failed instead of writing NaN.
class Svg {
public:
    std::string num(double v);  // one decimal at most, "-0" as "0"
    void rect(double x, double y, double w, double h, const std::string& cls);
    void line(double x1, double y1, double x2, double y2, const std::string& cls);
    void circle(double x, double y, double r, const std::string& cls);
    // Many rectangles of one class as one path: a picture of dozens of heads stays small.
    std::string box(double x, double y, double w, double h);
    std::string segment(double x1, double y1, double x2, double y2);
    void path(const std::string& d, const std::string& cls);
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& cls);
    // anchor: start, middle or end.
    void text(double x, double y, const std::string& s, const std::string& anchor = "start", const std::string& cls = "");
    bool bad() const { return bad_; }
    std::string finish(double height, const std::string& id, const std::string& title, const std::string& desc);

private:
    std::string body_;
    bool bad_ = false;
};

// A whole count, rounded, as core/base/format.hpp writes it ("1,024").
std::string count(double v);

}  // namespace site::drawing
