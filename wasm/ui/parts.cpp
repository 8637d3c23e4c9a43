#include "ui/parts.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "panels/panels.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

// A read names a path; a part's entry covers it and everything under it.
bool covers(std::string_view part_read, const std::string& read) {
    return read == part_read ||
           (read.size() > part_read.size() && read.compare(0, part_read.size(), part_read) == 0 && read[part_read.size()] == '.');
}

bool part_is_read(const Part& part, const kvapp::Panel::Focus& focus) {
    if (part.always) return true;
    return std::any_of(part.reads.begin(), part.reads.end(), [&](std::string_view r) {
        return std::any_of(focus.reads.begin(), focus.reads.end(), [&](const std::string& read) { return covers(r, read); });
    });
}

// The knobs the section names, drags in its sentences or sets with its set-up buttons.
bool knob_in_focus(std::string_view field, const kvapp::Panel::Focus& focus) {
    return std::any_of(focus.knobs.begin(), focus.knobs.end(), [&](const std::string& name) { return name == field; });
}

float cursor_bottom() { return ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y; }

}  // namespace

void draw_parts(kvapp::Panel& panel, const std::vector<std::string_view>& knob_fields, const std::vector<Part>& parts,
                const char* knobs_heading) {
    panel.knobs_drawn.clear();
    if (panel.focus.empty()) {
        if (knobs_heading) heading(knobs_heading);
        knobs(panel, knob_fields);
        for (const Part& part : parts) part.draw();
        panel.focus_bottom_px = cursor_bottom();
        return;
    }
    std::vector<std::string_view> first, rest;
    for (std::string_view field : knob_fields) (knob_in_focus(field, panel.focus) ? first : rest).push_back(field);
    if (!first.empty()) {
        if (knobs_heading) heading(knobs_heading);
        knobs(panel, first);
    }
    std::vector<const Part*> later;
    for (const Part& part : parts) {
        if (part_is_read(part, panel.focus)) part.draw();
        else later.push_back(&part);
    }
    panel.focus_bottom_px = cursor_bottom();
    if (rest.empty() && later.empty()) return;
    ImGui::Spacing();
    if (ImGui::CollapsingHeader("All controls and results")) {
        if (!rest.empty()) knobs(panel, rest);
        for (const Part* part : later) part->draw();
    }
    // The twin and the page offer every knob of the panel, opened or not.
    panel.knobs_drawn.clear();
    for (std::string_view field : knob_fields) panel.knobs_drawn.emplace_back(field);
}

}  // namespace kvui
