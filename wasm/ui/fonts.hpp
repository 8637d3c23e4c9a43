// The panels' type: Inter (text, headings, figures) and JetBrains Mono (the engine log), from
// Debian's fonts-inter and fonts-jetbrains-mono, subset at build time by scripts/fonts to the
// characters our sources and core/'s formats can produce (fonts_data.cpp in the build directory).
// Sizes are CSS pixels; the atlas is rasterised at devicePixelRatio times that, so text is crisp.
#pragma once
#include <imgui.h>

namespace kvui {

// Generated (scripts/fonts).
extern const unsigned char kv_font_text[];
extern const unsigned int kv_font_text_size;
extern const unsigned char kv_font_strong[];
extern const unsigned int kv_font_strong_size;
extern const unsigned char kv_font_mono[];
extern const unsigned int kv_font_mono_size;
extern const ImWchar kv_font_glyph_ranges[];

enum class Font { text, heading, strong, figure, mono, count };

// The atlas for `pixel_ratio`, rasterised once and shared by every panel's ImGui context (each
// WebGL context still uploads its own texture of it). Lives as long as the module.
ImFontAtlas* shared_atlas(float pixel_ratio);

// Points the current context at the shared atlas for `pixel_ratio` (call with no frame in progress).
void use_fonts(float pixel_ratio);

ImFont* font(Font role);

}  // namespace kvui
