// The panels' ImGui style in the light or dark theme (ui/palette.hpp's colours), and the linked
// reading's bookkeeping: where each concept was drawn this frame, and the emphasis of the one the
// page points at.
#include "ui/style.hpp"

#include <utility>

namespace kvui {
namespace {

bool dark_theme = false;

// The frame being drawn's linked-reading state (begin_concepts .. end_concepts).
std::string highlighted;
ConceptRects drawn;

ImVec4 to_vec(uint32_t rgb_value, float alpha) {
    return ImVec4(static_cast<float>((rgb_value >> 16) & 0xFF) / 255.0f, static_cast<float>((rgb_value >> 8) & 0xFF) / 255.0f,
                  static_cast<float>(rgb_value & 0xFF) / 255.0f, alpha);
}

}  // namespace

ImVec4 colour_vec(Colour c, float alpha) { return to_vec(rgb(c, dark_theme), alpha); }
ImU32 colour(Colour c, float alpha) { return ImGui::GetColorU32(colour_vec(c, alpha)); }

namespace {

// Spacing, borders and rounding, in CSS pixels: the same in both themes.
void set_metrics(ImGuiStyle& style) {
    style.WindowPadding = ImVec2(18, 16);
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(10, 8);
    style.ItemInnerSpacing = ImVec2(8, 6);
    style.CellPadding = ImVec2(8, 5);
    style.WindowBorderSize = 0;
    style.FrameBorderSize = 1;
    style.PopupBorderSize = 1;
    style.WindowRounding = 0;
    style.FrameRounding = 4;
    style.PopupRounding = 4;
    style.GrabRounding = 3;
    style.GrabMinSize = 10;
    style.TabRounding = 4;
    style.ScrollbarSize = 10;
    style.AntiAliasedLines = true;
    style.AntiAliasedFill = true;
}

// Every ImGui colour from a palette concept, in the theme apply_style() set.
void set_colours(ImVec4* c) {
    const auto v = [](Colour k, float a = 1.0f) { return colour_vec(k, a); };
    c[ImGuiCol_Text] = v(Colour::text);
    c[ImGuiCol_TextDisabled] = v(Colour::text_muted);
    c[ImGuiCol_WindowBg] = v(Colour::background);
    c[ImGuiCol_ChildBg] = v(Colour::background, 0.0f);
    c[ImGuiCol_PopupBg] = v(Colour::background);
    c[ImGuiCol_Border] = v(Colour::border);
    c[ImGuiCol_BorderShadow] = v(Colour::border, 0.0f);
    c[ImGuiCol_FrameBg] = v(Colour::surface);
    c[ImGuiCol_FrameBgHovered] = v(Colour::surface_hover);
    c[ImGuiCol_FrameBgActive] = v(Colour::surface_active);
    c[ImGuiCol_TitleBg] = v(Colour::surface);
    c[ImGuiCol_TitleBgActive] = v(Colour::surface_active);
    c[ImGuiCol_TitleBgCollapsed] = v(Colour::surface);
    c[ImGuiCol_MenuBarBg] = v(Colour::surface);
    c[ImGuiCol_ScrollbarBg] = v(Colour::surface, 0.0f);
    c[ImGuiCol_ScrollbarGrab] = v(Colour::border);
    c[ImGuiCol_ScrollbarGrabHovered] = v(Colour::text_muted);
    c[ImGuiCol_ScrollbarGrabActive] = v(Colour::text);
    c[ImGuiCol_CheckMark] = v(Colour::accent);
    c[ImGuiCol_SliderGrab] = v(Colour::accent, 0.45f);  // light enough to read the value over it
    c[ImGuiCol_SliderGrabActive] = v(Colour::accent, 0.7f);
    c[ImGuiCol_Button] = v(Colour::surface);
    c[ImGuiCol_ButtonHovered] = v(Colour::surface_hover);
    c[ImGuiCol_ButtonActive] = v(Colour::surface_active);
    c[ImGuiCol_Header] = v(Colour::surface_active);
    c[ImGuiCol_HeaderHovered] = v(Colour::surface_hover);
    c[ImGuiCol_HeaderActive] = v(Colour::surface_active);
    c[ImGuiCol_Separator] = v(Colour::border);
    c[ImGuiCol_SeparatorHovered] = v(Colour::border);
    c[ImGuiCol_SeparatorActive] = v(Colour::border);
    c[ImGuiCol_ResizeGrip] = v(Colour::border, 0.0f);
    c[ImGuiCol_ResizeGripHovered] = v(Colour::border, 0.0f);
    c[ImGuiCol_ResizeGripActive] = v(Colour::border, 0.0f);
    c[ImGuiCol_Tab] = v(Colour::surface);
    c[ImGuiCol_TabHovered] = v(Colour::surface_hover);
    c[ImGuiCol_TabActive] = v(Colour::surface_active);
    c[ImGuiCol_TabUnfocused] = v(Colour::surface);
    c[ImGuiCol_TabUnfocusedActive] = v(Colour::surface_active);
    c[ImGuiCol_PlotLines] = v(Colour::text);
    c[ImGuiCol_PlotLinesHovered] = v(Colour::accent);
    c[ImGuiCol_PlotHistogram] = v(Colour::text);
    c[ImGuiCol_PlotHistogramHovered] = v(Colour::accent);
    c[ImGuiCol_TableHeaderBg] = v(Colour::surface);
    c[ImGuiCol_TableBorderStrong] = v(Colour::border);
    c[ImGuiCol_TableBorderLight] = v(Colour::border, 0.6f);
    c[ImGuiCol_TableRowBg] = v(Colour::surface, 0.0f);
    c[ImGuiCol_TableRowBgAlt] = v(Colour::surface, 0.5f);
    c[ImGuiCol_TextSelectedBg] = v(Colour::accent, 0.3f);
    c[ImGuiCol_DragDropTarget] = v(Colour::accent);
    c[ImGuiCol_NavHighlight] = v(Colour::accent);
    c[ImGuiCol_NavWindowingHighlight] = v(Colour::accent);
    c[ImGuiCol_NavWindowingDimBg] = v(Colour::text, 0.2f);
    c[ImGuiCol_ModalWindowDimBg] = v(Colour::text, 0.2f);
}

}  // namespace

void apply_style(bool dark) {
    dark_theme = dark;
    ImGuiStyle& style = ImGui::GetStyle();
    set_metrics(style);
    set_colours(style.Colors);
}

//-----------------------------------------------------------------------------
// [SECTION] Linked reading
//-----------------------------------------------------------------------------

std::optional<Colour> concept_from_name(const std::string& name) {
    for (int i = 0; i <= static_cast<int>(Colour::communication); ++i)
        if (name == palette[i].name) return static_cast<Colour>(i);
    return std::nullopt;
}

void begin_concepts(const std::string& highlight, const ConceptRects& last_frame) {
    highlighted = last_frame.contains(highlight) ? highlight : "";
    drawn.clear();
}

ConceptRects end_concepts() {
    highlighted.clear();
    return std::exchange(drawn, {});
}

void concept_region(Colour c, ImVec2 min, ImVec2 max) {
    if (c > Colour::communication || max.x <= min.x || max.y <= min.y) return;
    const char* name = palette[static_cast<int>(c)].name;
    drawn[name].push_back({min.x, min.y, max.x - min.x, max.y - min.y});
    if (highlighted.empty()) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (highlighted == name) {
        draw->AddRect(ImVec2(min.x - 3, min.y - 3), ImVec2(max.x + 3, max.y + 3), colour(Colour::text), 4.0f, 0, 2.5f);
    } else {
        draw->AddRectFilled(min, max, colour(Colour::background, 0.65f));  // dimmed, still legible
    }
}

std::string concept_at(const ConceptRects& rects, ImVec2 point) {
    for (const auto& [name, list] : rects)
        for (const auto& r : list)
            if (point.x >= r[0] && point.x < r[0] + r[2] && point.y >= r[1] && point.y < r[1] + r[3]) return name;
    return "";
}

}  // namespace kvui
