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

// How closely `entries` name `read`: the length of the longest entry covering it, plus one (0: none).
size_t closeness(const std::vector<std::string_view>& entries, const std::string& read) {
    size_t best = 0;
    for (std::string_view e : entries)
        if (covers(e, read)) best = std::max(best, e.size() + 1);
    return best;
}

// Selects the parts that name `read` most closely; false when none names it.
bool choose_closest(const std::vector<Part>& parts, const std::string& read, std::vector<bool>& chosen) {
    size_t best = 0;
    for (const Part& part : parts) best = std::max(best, closeness(part.reads, read));
    for (size_t i = 0; i < parts.size(); ++i)
        if (best > 0 && closeness(parts[i].reads, read) == best) chosen[i] = true;
    return best > 0;
}

// The parts the section reads. Reads some part shows `also` wait until the others have chosen: one
// that a chosen part already shows draws nothing more.
std::vector<bool> parts_read(const std::vector<Part>& parts, const kvapp::Panel::Focus& focus) {
    std::vector<bool> chosen(parts.size());
    for (size_t i = 0; i < parts.size(); ++i) chosen[i] = parts[i].always;
    const auto shown_also = [&](const std::string& read, bool only_chosen) {
        for (size_t i = 0; i < parts.size(); ++i)
            if ((!only_chosen || chosen[i]) && closeness(parts[i].also, read) > 0) return true;
        return false;
    };
    std::vector<const std::string*> waiting;
    for (const std::string& read : focus.reads) {
        if (shown_also(read, false)) waiting.push_back(&read);
        else choose_closest(parts, read, chosen);
    }
    for (const std::string* read : waiting) {
        bool shown = shown_also(*read, true);
        for (size_t i = 0; i < parts.size() && !shown; ++i) shown = chosen[i] && closeness(parts[i].reads, *read) > 0;
        if (shown || choose_closest(parts, *read, chosen)) continue;
        for (size_t i = 0; i < parts.size(); ++i) chosen[i] = chosen[i] || closeness(parts[i].also, *read) > 0;
    }
    return chosen;
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
    const std::vector<bool> chosen = parts_read(parts, panel.focus);
    for (size_t i = 0; i < parts.size(); ++i) {
        if (chosen[i]) parts[i].draw();
        else later.push_back(&parts[i]);
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
