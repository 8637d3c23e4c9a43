// The drawing helpers of ui/widgets.hpp: text that wraps at spaces only, figure cards, stacked
// bars and meters, and the engine log's monospaced box. Each takes text core/ already
// formatted; the concept colours come from ui/style.hpp.
//
// Index of this file:
// [SECTION] Text
// [SECTION] Figures
// [SECTION] Bars and meters
// [SECTION] Engine log
#include "ui/widgets.hpp"

#include <imgui_internal.h>

#include <algorithm>

#include "base/format.hpp"
#include "logs/engine_log.hpp"
#include "ui/grid.hpp"
#include "ui/style.hpp"

namespace kvui {
namespace {

// Near-black or white, whichever reads on `background`.
ImU32 text_on(Colour background) {
    const ImVec4 c = colour_vec(background);
    const float luminance = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
    return luminance > 0.55f ? IM_COL32(20, 22, 26, 255) : IM_COL32(255, 255, 255, 255);
}

// The end of the longest start of text[start, word_end) that fits `width`, one character at least
// (whole UTF-8 sequences): where a word wider than the line (a URL on a phone) is cut.
size_t cut_to_width(const std::string& text, size_t start, size_t word_end, float width) {
    const char* fits = text.data() + start;  // ImGui's measure stops before the first character past the width
    ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), width, 0.0f, fits, text.data() + word_end, &fits);
    size_t end = static_cast<size_t>(fits - text.data());
    if (end > start) return end;
    do ++end;  // one character at least
    while (end < word_end && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80);
    return end;
}

// Word wrap that breaks at spaces only (ImGui's own wrap also breaks after commas, which would
// split "40,960" across two lines), and inside a word only when it alone is wider than the line.
// The lines as [start, end) offsets into the text.
std::vector<std::pair<size_t, size_t>> lines_at_spaces(const std::string& text, float width) {
    std::vector<std::pair<size_t, size_t>> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t fit = std::string::npos, pos = start;
        while (true) {
            const size_t space = text.find(' ', pos);
            const size_t word_end = space == std::string::npos ? text.size() : space;
            const float w = ImGui::CalcTextSize(text.data() + start, text.data() + word_end).x;
            if (w > width && fit != std::string::npos) break;
            fit = w > width ? cut_to_width(text, start, word_end, width) : word_end;  // a word alone too wide is cut
            if (word_end == text.size() || w > width) break;
            pos = word_end + 1;
        }
        lines.emplace_back(start, fit);
        start = fit;
        while (start < text.size() && text[start] == ' ') ++start;
    }
    return lines;
}

// Lines of one paragraph sit closer than separate items.
constexpr float paragraph_line_spacing = 2.0f;

void wrap_at_spaces(const std::string& text, float width) {
    const std::vector<std::pair<size_t, size_t>> lines = lines_at_spaces(text, width);
    const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
    for (size_t i = 0; i < lines.size(); ++i) {
        const bool last = i + 1 == lines.size();
        if (!last) ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(spacing.x, paragraph_line_spacing));
        ImGui::TextUnformatted(text.data() + lines[i].first, text.data() + lines[i].second);
        if (!last) ImGui::PopStyleVar();
    }
}

// The height wrap_at_spaces() takes here, in the current font, the spacing below it included.
float text_wrapped_height(const std::string& text) {
    const auto lines = static_cast<float>(lines_at_spaces(text, ImGui::GetContentRegionAvail().x).size());
    if (lines == 0) return 0.0f;
    return lines * ImGui::GetTextLineHeight() + (lines - 1.0f) * paragraph_line_spacing + ImGui::GetStyle().ItemSpacing.y;
}

// Space of exactly `height` above the items that follow (an ImGui::Dummy would add the item
// spacing too, and as the last item it would also move the bottom its container measures).
void keep_room(float height) {
    if (height <= 0.5f) return;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
    ImGui::Dummy(ImVec2(0, height));
    ImGui::PopStyleVar();
}

void tooltip_text(const char* text) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Text
//-----------------------------------------------------------------------------

void panel_title(const char* title, const std::string& subtitle) {
    ImGui::PushFont(font(Font::heading));
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    ImGui::SameLine(0, 12);
    if (ImGui::CalcTextSize(subtitle.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    text_wrapped(subtitle, Colour::text_muted);
    ImGui::Dummy(ImVec2(0, 2));
}

void heading(const char* title) {
    if (ImGui::GetCursorPosY() > ImGui::GetStyle().WindowPadding.y + 1.0f) ImGui::Dummy(ImVec2(0, 10));
    ImGui::PushFont(font(Font::heading));
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y - 3), ImVec2(p.x + width, p.y - 3), colour(Colour::border), 1.0f);
    ImGui::Dummy(ImVec2(0, 2));
}

void help_marker(const char* text) {
    ImGui::SameLine(0, 5);
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) tooltip_text(text);
}

void help_tooltip_on_focus(const char* text) {
    // The last item may be a group (radio buttons): any keyboard focus inside its rectangle counts.
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (g.NavDisableHighlight || g.NavWindow != window || g.NavId == 0 || g.ActiveId != 0) return;
    const ImRect nav = ImGui::WindowRectRelToAbs(window, window->NavRectRel[0]);
    const ImRect item(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (item.Contains(nav.GetCenter())) tooltip_text(text);
}

void text_in(Colour c, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(c));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

void text_muted(const std::string& text) { text_in(Colour::text_muted, text); }

void text_wrapped(const std::string& text, Colour c) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(c));
    wrap_at_spaces(text, ImGui::GetContentRegionAvail().x);
    ImGui::PopStyleColor();
}

void swatch(Colour c) {
    const float size = ImGui::GetTextLineHeight() * 0.7f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - size) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + size, y + size), colour(c), 2.0f);
    ImGui::Dummy(ImVec2(size, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 6);
}

std::string model_label(const kv::Result& r) {
    if (!r.scenario.model_config) return r.model.name;
    return "your config.json" + (r.model.model_type.empty() ? std::string() : " (" + r.model.model_type + ")");
}

std::string escape_format(const std::string& text) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == '%') out += '%';
    }
    return out;
}

//-----------------------------------------------------------------------------
// [SECTION] Figures
//-----------------------------------------------------------------------------

void figure_row(const std::vector<Figure>& figures) {
    if (figures.empty()) return;
    const int fit = static_cast<int>(ImGui::GetContentRegionAvail().x / 150.0f);
    const int columns = std::clamp(fit, 1, static_cast<int>(figures.size()));
    Grid grid(std::vector<GridColumn>(static_cast<size_t>(columns)));
    for (const Figure& f : figures) {
        grid.next_cell();
        ImGui::BeginGroup();
        text_muted(f.caption);
        if (f.help) help_marker(f.help);
        ImGui::PushFont(font(Font::figure));
        text_in(f.colour, f.value);
        ImGui::PopFont();
        if (!f.note.empty()) text_wrapped(f.note, Colour::text_muted);
        ImGui::EndGroup();
        concept_region(f.colour, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // linked reading (ui/style.hpp)
    }
    grid.end();
}

//-----------------------------------------------------------------------------
// [SECTION] Bars and meters
//-----------------------------------------------------------------------------

void stacked_bar(const char* id, const std::vector<Segment>& segments, double total, float height, double marker,
                 const std::string& marker_label) {
    double sum = 0;
    for (const Segment& s : segments) sum += std::max(0.0, s.value);
    const double scale_total = std::max(total, sum);
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), colour(Colour::surface), 4.0f);
    double at = 0;
    for (const Segment& s : segments) {
        if (s.value <= 0 || scale_total <= 0) continue;
        const float x0 = origin.x + static_cast<float>(at / scale_total) * width;
        at += s.value;
        const float x1 = origin.x + static_cast<float>(at / scale_total) * width;
        const ImVec2 a(x0, origin.y), b(x1, origin.y + height);
        draw->AddRectFilled(a, b, colour(s.colour));
        if (x1 - x0 > 1.5f) draw->AddLine(ImVec2(x1, origin.y), ImVec2(x1, origin.y + height), colour(Colour::background), 1.0f);
        const ImVec2 text_size = ImGui::CalcTextSize(s.label.c_str());
        if (!s.label.empty() && text_size.x + 10 < x1 - x0)
            draw->AddText(ImVec2((x0 + x1 - text_size.x) * 0.5f, origin.y + (height - text_size.y) * 0.5f), text_on(s.colour),
                          s.label.c_str());
        concept_region(s.colour, a, b);
        if (hovered && ImGui::GetIO().MousePos.x >= x0 && ImGui::GetIO().MousePos.x < x1) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
            swatch(s.colour);
            ImGui::TextUnformatted((s.legend + ": " + s.label).c_str());
            if (s.help) text_muted(s.help);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    if (marker > 0 && scale_total > 0) {
        const float x = origin.x + static_cast<float>(marker / scale_total) * width;
        if (x < origin.x + width - 1)  // what lies past the marker does not fit: tint it
            draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(origin.x + width, origin.y + height), colour(Colour::failure, 0.45f));
        draw->AddLine(ImVec2(x, origin.y - 4), ImVec2(x, origin.y + height + 4), colour(Colour::failure), 2.0f);
        if (!marker_label.empty()) {
            const ImVec2 size = ImGui::CalcTextSize(marker_label.c_str());
            const float tx = std::min(x + 4, origin.x + width - size.x);
            ImGui::Dummy(ImVec2(0, 0));
            draw->AddText(ImVec2(tx, origin.y + height + 4), colour(Colour::failure), marker_label.c_str());
            ImGui::Dummy(ImVec2(0, size.y));
        }
    }
}

void legend(const std::vector<Segment>& segments) {
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    bool first = true;
    for (const Segment& s : segments) {
        const std::string text = s.legend + "  " + s.label;
        const float w = ImGui::GetTextLineHeight() * 0.7f + 6 + ImGui::CalcTextSize(text.c_str()).x;
        if (!first) {
            ImGui::SameLine(0, 18);
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        first = false;
        ImGui::BeginGroup();
        swatch(s.colour);
        ImGui::TextUnformatted(s.legend.c_str());
        ImGui::SameLine(0, 6);
        text_muted(s.label);
        ImGui::EndGroup();
        if (s.help && ImGui::IsItemHovered()) tooltip_text(s.help);
    }
}

void meter(const char* label, double fraction, const std::string& value, Colour c, const char* help) {
    text_muted(label);
    if (help) help_marker(help);
    const float height = 12.0f;
    const float value_width = ImGui::CalcTextSize("100.0%").x + 10;
    const float width = std::max(20.0f, ImGui::GetContentRegionAvail().x - value_width);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - height) * 0.5f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, y + height), colour(Colour::surface), 3.0f);
    const float filled = static_cast<float>(std::clamp(fraction, 0.0, 1.0)) * width;
    if (filled > 0.5f) draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + filled, y + height), colour(c), 3.0f);
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 10);
    ImGui::TextUnformatted(value.c_str());
}

//-----------------------------------------------------------------------------
// [SECTION] Engine log
//-----------------------------------------------------------------------------

// Inside the box: the text is indented by the padding and set in the monospaced font.
constexpr float log_box_pad = 10.0f;

LogBox log_box_begin() {
    LogBox box{ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x, log_box_pad};
    box.draw->ChannelsSplit(2);  // the text on top, its background drawn under it once its height is known
    box.draw->ChannelsSetCurrent(1);
    ImGui::PushFont(font(Font::mono));
    ImGui::Dummy(ImVec2(0, box.pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::Indent(box.pad);
    return box;
}

void log_tail(const std::vector<std::string>& lines, size_t printed, size_t shown, const char* none_yet) {
    const size_t first = printed > shown ? printed - shown : 0;
    // Each line's height in the box, then the section's at every count printed: the tallest and now.
    ImGui::PushFont(font(Font::mono));
    ImGui::Indent(log_box_pad);
    std::vector<float> heights;
    for (const std::string& line : lines) heights.push_back(text_wrapped_height(line));
    const float none_yet_height = text_wrapped_height(none_yet);
    ImGui::Unindent(log_box_pad);
    ImGui::PopFont();
    float tallest = none_yet_height, now = none_yet_height, window = 0;
    for (size_t count = 1; count <= lines.size(); ++count) {
        window += heights[count - 1] - (count > shown ? heights[count - 1 - shown] : 0.0f);
        const float section = (count > shown ? ImGui::GetTextLineHeightWithSpacing() : 0.0f) + window;
        tallest = std::max(tallest, section);
        if (count == printed) now = section;
    }
    if (first > 0) text_muted(kv::format_count(static_cast<int64_t>(first)) + " earlier lines");
    const LogBox box = log_box_begin();
    keep_room(tallest - now);
    if (printed == 0) text_wrapped(none_yet, Colour::text_muted);
    for (size_t i = first; i < printed; ++i) text_wrapped(lines[i]);
    log_box_end(box);
}

void log_box_end(const LogBox& box) {
    ImGui::Unindent(box.pad);
    ImGui::Dummy(ImVec2(0, box.pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::PopFont();
    const float end_y = ImGui::GetItemRectMax().y;
    box.draw->ChannelsSetCurrent(0);
    box.draw->AddRectFilled(box.start, ImVec2(box.start.x + box.width, end_y), colour(Colour::surface), 4.0f);
    box.draw->ChannelsMerge();
}

void engine_log(const kv::Result& result) {
    const LogBox box = log_box_begin();
    ImDrawList* draw = box.draw;
    const float pad = box.pad, width = box.width;
    const ImVec2 start = box.start;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 5.0f));
    for (const kv::LogLine& line : kv::engine_log(result)) {
        Colour c = Colour::text;
        switch (line.kind) {
            case kv::LogKind::info:
                c = Colour::text;
                break;  // vLLM's own lines
            case kv::LogKind::warning:
                c = Colour::warning;
                break;
            case kv::LogKind::failure:
                c = Colour::failure;
                break;
            case kv::LogKind::lesson:
                c = Colour::accent;
                break;  // what the numbers mean
        }
        const ImVec2 line_start = ImGui::GetCursorScreenPos();
        ImGui::BeginGroup();
        ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(c));
        wrap_at_spaces(line.text, width - 2 * pad);
        ImGui::PopStyleColor();
        ImGui::EndGroup();
        if (line.kind == kv::LogKind::failure || line.kind == kv::LogKind::warning) {
            const float bottom = ImGui::GetItemRectMax().y;
            draw->AddRectFilled(ImVec2(start.x + 3, line_start.y), ImVec2(start.x + 6, bottom), colour(c));
        }
    }
    ImGui::PopStyleVar();
    log_box_end(box);
}

void keyboard_hint() {
    ImGui::Dummy(ImVec2(0, 4));
    text_wrapped(
        "Keyboard: Tab into the panel, arrow keys to move, Space to take a slider, "
        "← → to change it, Space or Esc to let go.",
        Colour::text_muted);
}

}  // namespace kvui
