// The panels' type: Inter (text, headings, figures) and JetBrains Mono (the engine log), drawn by
// the browser from the page's web fonts (platform/glyphs_html5.hpp) into one ImGui atlas per device
// pixel ratio. The characters are those our sources and core/'s formats can produce, found at build
// time by scripts/fonts, which also writes each font's vertical metrics (fonts_data.cpp in the build
// directory). Sizes are CSS pixels; the atlas is rasterised at devicePixelRatio times that, so text
// is crisp.
#pragma once
#include <imgui.h>

namespace kvui {

// A font's units per em and its hhea ascent and descent (descent negative), in font units.
struct FontMetrics {
    int units_per_em, ascent, descent;
};

// Generated (scripts/fonts).
extern const FontMetrics kv_font_text;
extern const FontMetrics kv_font_strong;
extern const FontMetrics kv_font_mono;
extern const ImWchar kv_font_glyph_ranges[];

enum class Font { text, heading, strong, figure, mono, count };

// The atlas for `pixel_ratio`, rasterised once and shared by every panel's ImGui context (each
// WebGL context still uploads its own texture of it). Lives as long as the module.
ImFontAtlas* shared_atlas(float pixel_ratio);
// The same atlas a step at a time, so that a page can give each step a task of its own: one face
// drawn by the browser a call (five), then the atlas built. True once it is built.
bool prepare_atlas(float pixel_ratio);

// How many pixel ratios an atlas has been built for (drawStats: tests).
int atlas_count();

// Points the current context at the shared atlas for `pixel_ratio` (call with no frame in progress).
void use_fonts(float pixel_ratio);

ImFont* font(Font role);

}  // namespace kvui
