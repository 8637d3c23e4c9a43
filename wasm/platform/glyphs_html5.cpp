// The browser's 2D canvas draws the glyphs (glyphs_html5.hpp). Each glyph gets a cell in a strip
// 1,024 pixels wide, sized from its ink box (measureText's actualBoundingBox*, widened by a pixel on
// every side for anti-aliasing), and the strip's alpha channel is the coverage ImGui samples.
#include "platform/glyphs_html5.hpp"

#include <emscripten/emscripten.h>

// Lays the glyphs out: writes 7 numbers a glyph into `out` (advance, left, top, width, height, strip
// x, strip y) and returns the strip's height (its width is 1,024); the font and the boxes wait in
// Module.kvGlyphs for kv_glyphs_draw. Without the web font (KvPanels.mount waits up to 3 s for it; a
// sandboxed frame without CORS never gets it) the canvas uses the page's fallback faces
// (site/css/lesson.css: local fonts scaled to Inter's widths) and reports their own metrics.
EM_JS(int, kv_glyphs_layout, (int mono, int weight, float css_px, const uint32_t* codepoints, int count, float* out), {
    var canvas = Module.kvGlyphCanvas || (Module.kvGlyphCanvas = document.createElement('canvas'));
    var ctx = canvas.getContext('2d', {willReadFrequently : true});
    var font = weight + ' ' + css_px + 'px ' +
               (mono ? '"JetBrains Mono", monospace' : 'Inter, "Inter fallback", "Inter fallback DejaVu", sans-serif');
    ctx.font = font;
    var x = 0, y = 0, row = 0, boxes = [];
    for (var i = 0; i < count; i++) {
        var ch = String.fromCodePoint(HEAPU32[(codepoints >> 2) + i]);
        var m = ctx.measureText(ch);
        var left = Math.floor(-m.actualBoundingBoxLeft) - 1, right = Math.ceil(m.actualBoundingBoxRight) + 1;
        var top = Math.floor(-m.actualBoundingBoxAscent) - 1, bottom = Math.ceil(m.actualBoundingBoxDescent) + 1;
        var w = right - left > 2 ? right - left : 0, h = w ? bottom - top : 0;
        if (x + w + 1 > 1024) {
            x = 0;
            y += row + 1;
            row = 0;
        }
        boxes.push([ ch, m.width, left, top, w, h, x, y ]);
        for (var k = 1; k < 8; k++) HEAPF32[(out >> 2) + i * 7 + k - 1] = boxes[i][k];
        x += w + 1;
        row = Math.max(row, h);
    }
    Module.kvGlyphs = {font : font, boxes : boxes};
    return Math.max(1, y + row);
});

// Draws the laid-out glyphs in white on a clear strip 1,024 x `height` and copies its alpha channel
// (their coverage) into `coverage`.
EM_JS(void, kv_glyphs_draw, (uint8_t * coverage, int height), {
    var canvas = Module.kvGlyphCanvas, ctx = canvas.getContext('2d', {willReadFrequently : true});
    canvas.width = 1024;
    canvas.height = height;  // resizing clears the canvas and its state
    ctx.font = Module.kvGlyphs.font;
    ctx.fillStyle = '#fff';
    ctx.textBaseline = 'alphabetic';
    Module.kvGlyphs.boxes.forEach(function(b) {
        if (b[4]) ctx.fillText(b[0], b[6] - b[2], b[7] - b[3]);
    });
    var pixels = ctx.getImageData(0, 0, 1024, height).data;
    for (var i = 0; i < 1024 * height; i++) HEAPU8[coverage + i] = pixels[4 * i + 3];
    Module.kvGlyphs = null;
});

namespace kvui::platform {
namespace {

constexpr int kStripWidth = 1024;
constexpr int kNumbersPerGlyph = 7;

}  // namespace

Face rasterise(Family family, int weight, float css_px, const std::vector<uint32_t>& codepoints) {
    const int count = static_cast<int>(codepoints.size());
    std::vector<float> numbers(static_cast<size_t>(count) * kNumbersPerGlyph);
    Face face;
    face.strip_width = kStripWidth;
    face.strip_height = kv_glyphs_layout(family == Family::mono, weight, css_px, codepoints.data(), count, numbers.data());
    face.coverage.resize(static_cast<size_t>(face.strip_width) * static_cast<size_t>(face.strip_height));
    kv_glyphs_draw(face.coverage.data(), face.strip_height);
    face.glyphs.reserve(codepoints.size());
    for (int i = 0; i < count; ++i) {
        const float* n = &numbers[static_cast<size_t>(i) * kNumbersPerGlyph];
        face.glyphs.push_back({codepoints[static_cast<size_t>(i)], n[0], static_cast<int>(n[1]), static_cast<int>(n[2]),
                               static_cast<int>(n[3]), static_cast<int>(n[4]), static_cast<int>(n[5]), static_cast<int>(n[6])});
    }
    return face;
}

}  // namespace kvui::platform
