// The panels' look: ImGui's style set from ui/palette.hpp for the light or the dark theme, and the
// colour of a concept in the theme being drawn. Spacing is in CSS pixels.
// Linked reading: the concept the prose points at is drawn emphasised (its regions outlined, other
// concepts' regions dimmed; nothing extra without one), and every frame records where each concept
// was drawn, so the page can tell which one the pointer is over.
#pragma once
#include <imgui.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ui/palette.hpp"

namespace kvui {

// Sets the current ImGui context's style; every frame, so a theme change needs no bookkeeping.
void apply_style(bool dark);

// A concept's colour in the theme of the frame being drawn.
ImU32 colour(Colour c, float alpha = 1.0f);
ImVec4 colour_vec(Colour c, float alpha = 1.0f);

// [Linked reading] Concepts are the palette's lesson colours (outside-budget ... communication).
std::optional<Colour> concept_from_name(const std::string& name);
// Where each concept was drawn in a frame: {x, y, width, height} in canvas CSS pixels, by name.
using ConceptRects = std::map<std::string, std::vector<std::array<float, 4>>>;
// Brackets a frame: `highlight` ("" for none) is emphasised only when the last frame drew it, so a
// concept this panel lacks dims nothing.
void begin_concepts(const std::string& highlight, const ConceptRects& last_frame);
ConceptRects end_concepts();
// A region drawn in a concept's colour (a bar segment, a figure card, a phase); others are ignored.
void concept_region(Colour c, ImVec2 min, ImVec2 max);
// The concept drawn under `point`, or "".
std::string concept_at(const ConceptRects& rects, ImVec2 point);

}  // namespace kvui
