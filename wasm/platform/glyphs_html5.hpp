// Glyphs drawn by the browser: the panels' text is rasterised with the page's own web fonts (the
// Inter and JetBrains Mono the lesson's stylesheet loads) through a 2D canvas, so the module carries
// no font files and no TrueType rasteriser. ui/fonts.cpp packs what this returns into ImGui's atlas.
#pragma once
#include <cstdint>
#include <vector>

namespace kvui::platform {

enum class Family { text, mono };  // Inter, JetBrains Mono (site/css/lesson.css's @font-face)

// One glyph's bitmap, where it sits in the face's strip, and where it is drawn: `left` and `top` are
// the bitmap's corner from the pen on the baseline, in pixels (top is negative above the baseline).
struct Glyph {
    uint32_t codepoint = 0;
    float advance_x = 0;
    int left = 0, top = 0, width = 0, height = 0;  // width 0: nothing to draw (a space)
    int strip_x = 0, strip_y = 0;
};

// Every glyph of a face at one size, and their bitmaps in one strip of 8-bit coverage.
struct Face {
    std::vector<Glyph> glyphs;
    int strip_width = 0, strip_height = 0;
    std::vector<uint8_t> coverage;  // strip_width x strip_height
};

// Draws `codepoints` in `family` at weight `weight` (400, 600) and a CSS size of `css_px` pixels.
Face rasterise(Family family, int weight, float css_px, const std::vector<uint32_t>& codepoints);

}  // namespace kvui::platform
