// The shared font atlases: Inter and JetBrains Mono, subset at build time (scripts/fonts writes the
// byte arrays), rasterised once per device pixel ratio and shared by every panel's ImGui context.
#include "ui/fonts.hpp"

#include <cmath>
#include <map>
#include <memory>

namespace kvui {
namespace {

struct Face {
    const unsigned char* data;
    const unsigned int* size;
    float css_px;
};

// In Font order.
const Face faces[] = {
    {kv_font_text, &kv_font_text_size, 15.0f},      // text: Inter Regular
    {kv_font_strong, &kv_font_strong_size, 16.5f},  // heading: Inter SemiBold
    {kv_font_strong, &kv_font_strong_size, 15.0f},  // strong: Inter SemiBold at text size
    {kv_font_strong, &kv_font_strong_size, 22.0f},  // figure: the big numbers
    {kv_font_mono, &kv_font_mono_size, 13.0f},      // mono: JetBrains Mono Regular
};
static_assert(sizeof faces / sizeof faces[0] == static_cast<int>(Font::count));

}  // namespace

ImFontAtlas* shared_atlas(float pixel_ratio) {
    // Keyed by hundredths: a ratio read from layout (1.25, 2) differs by a hair between canvases.
    static std::map<int, std::unique_ptr<ImFontAtlas>> atlases;
    std::unique_ptr<ImFontAtlas>& atlas = atlases[static_cast<int>(std::lround(pixel_ratio * 100.0f))];
    if (atlas) return atlas.get();
    atlas = std::make_unique<ImFontAtlas>();
    for (const Face& face : faces) {
        ImFontConfig config;
        config.FontDataOwnedByAtlas = false;  // static arrays, never freed
        config.OversampleH = 2;               // sub-pixel horizontal positions at small sizes
        config.OversampleV = 1;
        config.PixelSnapH = false;
        // ImGui takes a non-const pointer but does not write through it when it does not own it.
        atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(face.data), static_cast<int>(*face.size), face.css_px * pixel_ratio, &config,
                                    kv_font_glyph_ranges);
    }
    atlas->Build();
    return atlas.get();
}

void use_fonts(float pixel_ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts = shared_atlas(pixel_ratio);
    io.FontGlobalScale = 1.0f / pixel_ratio;  // laid out in CSS pixels, drawn 1:1 on device pixels
    io.FontDefault = io.Fonts->Fonts[0];
}

ImFont* font(Font role) { return ImGui::GetIO().Fonts->Fonts[static_cast<int>(role)]; }

}  // namespace kvui
