#include "fonts.hpp"

namespace kvui {
namespace {

struct Face {
    const unsigned char* data;
    const unsigned int* size;
    float css_px;
};

// In Font order.
const Face faces[] = {
    {kv_font_text, &kv_font_text_size, 15.0f},     // text: Inter Regular
    {kv_font_strong, &kv_font_strong_size, 16.5f}, // heading: Inter SemiBold
    {kv_font_strong, &kv_font_strong_size, 15.0f}, // strong: Inter SemiBold at text size
    {kv_font_strong, &kv_font_strong_size, 22.0f}, // figure: the big numbers
    {kv_font_mono, &kv_font_mono_size, 13.0f},     // mono: JetBrains Mono Regular
};
static_assert(sizeof faces / sizeof faces[0] == static_cast<int>(Font::count));

}  // namespace

void build_fonts(float pixel_ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    for (const Face& face : faces) {
        ImFontConfig config;
        config.FontDataOwnedByAtlas = false;   // static arrays, never freed
        config.OversampleH = 2;                // sub-pixel horizontal positions at small sizes
        config.OversampleV = 1;
        config.PixelSnapH = false;
        // ImGui takes a non-const pointer but does not write through it when it does not own it.
        io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(face.data), static_cast<int>(*face.size),
                                       face.css_px * pixel_ratio, &config, kv_font_glyph_ranges);
    }
    io.Fonts->Build();
    io.FontGlobalScale = 1.0f / pixel_ratio;   // laid out in CSS pixels, drawn 1:1 on device pixels
    io.FontDefault = io.Fonts->Fonts[0];
}

ImFont* font(Font role) { return ImGui::GetIO().Fonts->Fonts[static_cast<int>(role)]; }

}  // namespace kvui
