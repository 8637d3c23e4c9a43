// The panels' look: ImGui's style set from palette.hpp for the light or the dark theme, and the
// colour of a concept in the theme being drawn. Spacing is in CSS pixels.
#pragma once
#include <imgui.h>

#include "palette.hpp"

namespace kvui {

// Sets the current ImGui context's style; every frame, so a theme change needs no bookkeeping.
void apply_style(bool dark);

// A concept's colour in the theme of the frame being drawn.
ImU32 colour(Colour c, float alpha = 1.0f);
ImVec4 colour_vec(Colour c, float alpha = 1.0f);

}  // namespace kvui
