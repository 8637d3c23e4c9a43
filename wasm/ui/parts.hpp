// A panel as its parts: each a heading and what it draws, with the result paths it shows, so the
// panel can put the parts the section beside it reads first (kvapp::Panel::focus).
#pragma once
#include <functional>
#include <string_view>
#include <vector>

#include "app/app.hpp"

namespace kvui {

struct Part {
    std::vector<std::string_view> reads;  // result paths it shows ("decode" covers "decode.total_s")
    std::function<void()> draw;
    bool always = false;  // drawn in the focused part whatever the section reads (the serving panel's run)
    // Paths it also shows, beside another part's (the tensor-parallel table's tokens/s): a section
    // that reads one of these and already draws this part draws no other for it.
    std::vector<std::string_view> also = {};
};

// The knob grid and the parts. With no focus: every knob, then every part, in order. With one: the
// knobs the section names and the parts it reads, then the rest under "All controls and results",
// closed until the reader opens it. A read goes to the parts that name it most closely
// ("prefill.arithmetic_intensity" to the roofline, not to every part showing "prefill"). Records where the focused part ends (Panel::focus_bottom_px) and every knob as drawn.
// `knobs_heading`, when given, titles the knobs the panel shows first.
void draw_parts(kvapp::Panel& panel, const std::vector<std::string_view>& knob_fields, const std::vector<Part>& parts,
                const char* knobs_heading = nullptr);

}  // namespace kvui
