// The shared font atlases: Inter and JetBrains Mono, drawn by the browser (platform/glyphs_html5.hpp)
// once per device pixel ratio and shared by every panel's ImGui context. ImGui's atlas is filled by
// a builder of ours (ImFontBuilderIO) in place of stb_truetype, which the module no longer carries.
#include "ui/fonts.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "platform/glyphs_html5.hpp"

namespace kvui {
namespace {

using platform::Family;

struct Role {
    Family family;
    int weight;
    const FontMetrics* metrics;
    float line_px;  // ImGui's size: the line (ascent - descent), in CSS pixels
};

// In Font order.
const Role roles[] = {
    {Family::text, 400, &kv_font_text, 15.0f},    // text: Inter Regular
    {Family::text, 600, &kv_font_strong, 16.5f},  // heading: Inter SemiBold
    {Family::text, 600, &kv_font_strong, 15.0f},  // strong: Inter SemiBold at text size
    {Family::text, 600, &kv_font_strong, 22.0f},  // figure: the big numbers
    {Family::mono, 400, &kv_font_mono, 13.0f},    // mono: JetBrains Mono Regular
};
static_assert(sizeof roles / sizeof roles[0] == static_cast<int>(Font::count));

std::vector<uint32_t> glyph_codepoints() {
    std::vector<uint32_t> out;
    for (const ImWchar* range = kv_font_glyph_ranges; range[0] != 0; range += 2)
        for (uint32_t c = range[0]; c <= range[1]; ++c) out.push_back(c);
    return out;
}

// A rectangle to place in the texture: a glyph's bitmap or one of ImGui's own (cursors, lines).
struct Placement {
    int width, height;
    int x = 0, y = 0;
};

// Shelf packing, in order, with a pixel between rectangles (ImGui's TexGlyphPadding); returns the
// texture's height. A few hundred glyphs: order of arrival packs well enough.
int pack(std::vector<Placement*>& items, int texture_width) {
    int x = 0, y = 0, shelf = 0;
    for (Placement* p : items) {
        if (x + p->width + 1 > texture_width) {
            x = 0;
            y += shelf + 1;
            shelf = 0;
        }
        p->x = x;
        p->y = y;
        x += p->width + 1;
        shelf = std::max(shelf, p->height);
    }
    return y + shelf;
}

// The face drawn for a font config: its FontData is ImGui's copy of a pointer to it (see shared_atlas).
const platform::Face& face_of(const ImFontConfig& config) { return **static_cast<const platform::Face* const*>(config.FontData); }

// ImFontBuilderIO's build: every font of the atlas from the browser's glyphs.
bool build_from_browser_glyphs(ImFontAtlas* atlas) {
    ImFontAtlasBuildInit(atlas);  // ImGui's own rectangles: the mouse cursors, the baked lines
    std::vector<Placement> own;
    for (const ImFontAtlasCustomRect& r : atlas->CustomRects) own.push_back({r.Width, r.Height});
    std::vector<std::vector<Placement>> glyphs(static_cast<size_t>(atlas->ConfigData.Size));
    std::vector<Placement*> order;
    for (Placement& p : own) order.push_back(&p);
    for (int f = 0; f < atlas->ConfigData.Size; ++f) {
        const platform::Face& face = face_of(atlas->ConfigData[f]);
        for (const platform::Glyph& g : face.glyphs) glyphs[static_cast<size_t>(f)].push_back({g.width, g.height});
        for (Placement& p : glyphs[static_cast<size_t>(f)])
            if (p.width > 0) order.push_back(&p);
    }
    atlas->TexWidth = 1024;
    atlas->TexHeight = ImUpperPowerOfTwo(pack(order, atlas->TexWidth));
    atlas->TexUvScale = ImVec2(1.0f / static_cast<float>(atlas->TexWidth), 1.0f / static_cast<float>(atlas->TexHeight));
    atlas->TexPixelsAlpha8 = static_cast<unsigned char*>(IM_ALLOC(static_cast<size_t>(atlas->TexWidth * atlas->TexHeight)));
    std::memset(atlas->TexPixelsAlpha8, 0, static_cast<size_t>(atlas->TexWidth * atlas->TexHeight));
    for (int i = 0; i < atlas->CustomRects.Size; ++i) {
        atlas->CustomRects[i].X = static_cast<unsigned short>(own[static_cast<size_t>(i)].x);
        atlas->CustomRects[i].Y = static_cast<unsigned short>(own[static_cast<size_t>(i)].y);
    }
    for (int f = 0; f < atlas->ConfigData.Size; ++f) {
        ImFontConfig& config = atlas->ConfigData[f];
        const platform::Face& face = face_of(config);
        const FontMetrics& m = *roles[f].metrics;
        const float px_per_unit = config.SizePixels / static_cast<float>(m.ascent - m.descent);
        const float ascent = std::round(static_cast<float>(m.ascent) * px_per_unit);
        ImFontAtlasBuildSetupFont(atlas, config.DstFont, &config, static_cast<float>(m.ascent) * px_per_unit,
                                  static_cast<float>(m.descent) * px_per_unit);
        for (size_t i = 0; i < face.glyphs.size(); ++i) {
            const platform::Glyph& g = face.glyphs[i];
            const Placement& p = glyphs[static_cast<size_t>(f)][i];
            for (int row = 0; row < g.height; ++row)
                std::memcpy(atlas->TexPixelsAlpha8 + (p.y + row) * atlas->TexWidth + p.x,
                            face.coverage.data() + (g.strip_y + row) * face.strip_width + g.strip_x, static_cast<size_t>(g.width));
            const float x0 = static_cast<float>(g.left), y0 = ascent + static_cast<float>(g.top);
            const float u0 = static_cast<float>(p.x) * atlas->TexUvScale.x, v0 = static_cast<float>(p.y) * atlas->TexUvScale.y;
            const float u1 = static_cast<float>(p.x + g.width) * atlas->TexUvScale.x;
            const float v1 = static_cast<float>(p.y + g.height) * atlas->TexUvScale.y;
            config.DstFont->AddGlyph(&config, static_cast<ImWchar>(g.codepoint), x0, y0, x0 + static_cast<float>(g.width),
                                     y0 + static_cast<float>(g.height), u0, v0, u1, v1, g.advance_x);
        }
    }
    ImFontAtlasBuildFinish(atlas);
    return true;
}

const ImFontBuilderIO browser_glyphs = {build_from_browser_glyphs};

// An atlas per pixel ratio, keyed by hundredths (a ratio read from layout, 1.25 or 2, differs by a
// hair between canvases), and the browser's strips of its faces while it is being drawn, in role
// order: needed only until it is built.
struct Shared {
    std::unique_ptr<ImFontAtlas> atlas;
    std::vector<std::unique_ptr<platform::Face>> faces;
};
std::map<int, Shared>& atlases() {
    static std::map<int, Shared> by_hundredths;
    return by_hundredths;
}
Shared& shared(float pixel_ratio) { return atlases()[static_cast<int>(std::lround(pixel_ratio * 100.0f))]; }

// CSS sizes a font by its em, ImGui by its line: the same glyphs, the em being this much smaller.
float line_px(const Role& role, float pixel_ratio) { return role.line_px * pixel_ratio; }

}  // namespace

bool prepare_atlas(float pixel_ratio) {
    auto& [atlas, faces] = shared(pixel_ratio);
    if (atlas) return true;
    if (faces.size() < static_cast<size_t>(Font::count)) {
        static const std::vector<uint32_t> codepoints = glyph_codepoints();
        const Role& role = roles[faces.size()];
        const float em_px = line_px(role, pixel_ratio) * static_cast<float>(role.metrics->units_per_em) /
                            static_cast<float>(role.metrics->ascent - role.metrics->descent);
        faces.push_back(std::make_unique<platform::Face>(platform::rasterise(role.family, role.weight, em_px, codepoints)));
        return false;
    }
    atlas = std::make_unique<ImFontAtlas>();
    atlas->FontBuilderIO = &browser_glyphs;
    for (size_t f = 0; f < faces.size(); ++f) {
        // ImGui copies FontData (here a pointer to the face) and frees its copy; the face stays ours.
        const platform::Face* face = faces[f].get();
        ImFontConfig config;
        config.FontData = &face;
        config.FontDataSize = sizeof face;
        config.FontDataOwnedByAtlas = false;
        config.SizePixels = line_px(roles[f], pixel_ratio);
        atlas->AddFont(&config);
    }
    atlas->Build();
    // The texture and the glyphs are built: the configs and the faces they point at can go (about a
    // megabyte of strips at a device pixel ratio of 2). The atlas is never built again.
    atlas->ClearInputData();
    faces.clear();
    return true;
}

ImFontAtlas* shared_atlas(float pixel_ratio) {
    while (!prepare_atlas(pixel_ratio)) {}  // the steps prepare_atlas has not taken yet, now
    return shared(pixel_ratio).atlas.get();
}

void use_fonts(float pixel_ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts = shared_atlas(pixel_ratio);
    io.FontGlobalScale = 1.0f / pixel_ratio;  // laid out in CSS pixels, drawn 1:1 on device pixels
    io.FontDefault = io.Fonts->Fonts[0];
}

int atlas_count() {
    return static_cast<int>(
        std::count_if(atlases().begin(), atlases().end(), [](const auto& entry) { return entry.second.atlas != nullptr; }));
}

ImFont* font(Font role) { return ImGui::GetIO().Fonts->Fonts[static_cast<int>(role)]; }

}  // namespace kvui
