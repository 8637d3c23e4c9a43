// The serving panel's block pool (panel_serving.cpp has the rest of the panel): the pool as a
// grid of cells at the moment shown, each a block or, on a large pool, a few blocks; a shade per
// request, the shared prefix and the cached prefix in the prefill colour, and a tooltip per cell.
// Lesson: 07-serving-over-time.md#serving-over-time-pages-preemption-and-a-shared-prompt (blocks
// handed out block_size tokens at a time, the pool running dry, a shared prefix hit).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "panels/panel_serving.hpp"
#include "panels/panels.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui::serving {
namespace {

constexpr int request_shades = 5;

// A request's blocks: the kv-used colour in one of a few shades, cycling by request index, so
// neighbouring requests stay apart while "held by a request" stays one concept.
ImU32 request_colour(uint16_t owner) {
    static const float toward_text[request_shades] = {0.0f, 0.32f, 0.0f, 0.16f, 0.0f};
    static const float toward_background[request_shades] = {0.0f, 0.0f, 0.3f, 0.0f, 0.15f};
    const int k = owner % request_shades;
    const ImVec4 base = colour_vec(Colour::kv_used), text = colour_vec(Colour::text), bg = colour_vec(Colour::background);
    ImVec4 c = base;
    const float t = toward_text[k], b = toward_background[k];
    c.x = base.x + (text.x - base.x) * t + (bg.x - base.x) * b;
    c.y = base.y + (text.y - base.y) * t + (bg.y - base.y) * b;
    c.z = base.z + (text.z - base.z) * t + (bg.z - base.z) * b;
    return ImGui::ColorConvertFloat4ToU32(c);
}

// One cell: free, a cached prefix block nobody holds (free, still hit-able), the shared prefix
// while requests hold it, or a request's blocks; `fill` is the part of the cell in use.
void draw_cell(ImDrawList* draw, ImVec2 a, ImVec2 b, uint16_t owner, uint8_t fill) {
    draw->AddRectFilled(a, b, colour(Colour::kv_free));
    if (owner == kv::PoolFrame::free_cell) return;
    if (owner == kv::PoolFrame::cached_prefix) {
        const float inset = std::max(1.0f, (b.x - a.x) * 0.22f);
        draw->AddRectFilled(ImVec2(a.x + inset, a.y + inset), ImVec2(b.x - inset, b.y - inset), colour(Colour::prefill, 0.55f));
        return;
    }
    const ImU32 c = owner == kv::PoolFrame::shared_prefix ? colour(Colour::prefill) : request_colour(owner);
    const float top = b.y - (b.y - a.y) * (fill == 0 ? 1.0f : static_cast<float>(fill) / 255.0f);
    draw->AddRectFilled(ImVec2(a.x, top), b, c);
}

void cell_legend() {
    struct Entry {
        uint16_t owner;
        const char* text;
        const char* help;
    };
    const Entry entries[] = {
        {0, "a request's blocks (a shade per request)",
         "Each running request holds ceil(tokens / block_size) blocks, taken one at a time as it grows. A cell "
         "partly filled holds fewer blocks than it stands for."},
        {kv::PoolFrame::shared_prefix, "shared prefix, held",
         "The system prompt's full blocks, computed once and held by every running request that starts with it."},
        {kv::PoolFrame::cached_prefix, "cached prefix, free but hit-able",
         "Prefix blocks no running request holds: they count as free (KV cache usage leaves them out) and a new "
         "request with the same prefix reuses them, until an allocation evicts them."},
        {kv::PoolFrame::free_cell, "free", nullptr},
    };
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const float size = ImGui::GetTextLineHeight() * 0.8f;
    bool first = true;
    for (const Entry& e : entries) {
        const float w = size + 6 + ImGui::CalcTextSize(e.text).x;
        if (!first) {
            ImGui::SameLine(0, 18);
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        first = false;
        ImGui::BeginGroup();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetTextLineHeight() - size) * 0.5f;
        draw_cell(ImGui::GetWindowDrawList(), ImVec2(p.x, y), ImVec2(p.x + size, y + size), e.owner, 255);
        ImGui::Dummy(ImVec2(size, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, 6);
        ImGui::TextUnformatted(e.text);
        ImGui::EndGroup();
        if (e.help && ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
            ImGui::TextUnformatted(e.help);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
}

void cell_tooltip(const kv::Simulation& sim, const kv::PoolFrame& frame, size_t cell) {
    const int64_t first = static_cast<int64_t>(cell) * sim.blocks_per_cell;
    const int64_t last = std::min(sim.pool_blocks, first + sim.blocks_per_cell) - 1;
    const uint16_t owner = frame.owner[cell];
    ImGui::BeginTooltip();
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted(
        (last > first ? "blocks " + kv::format_count(first) + " to " + kv::format_count(last) : "block " + kv::format_count(first))
            .c_str());
    ImGui::PopFont();
    if (owner == kv::PoolFrame::free_cell) {
        text_muted("free");
    } else if (owner == kv::PoolFrame::cached_prefix) {
        text_muted("cached prefix: free, hit-able until evicted");
    } else if (owner == kv::PoolFrame::shared_prefix) {
        text_muted("shared prefix, held by the running requests");
    } else if (owner < sim.requests.size()) {
        const kv::SimRequest& r = sim.requests[owner];
        ImGui::TextUnformatted(("request " + kv::format_count(owner) + ": " + kv::format_count(r.spec.prompt_tokens) + " prompt, " +
                                kv::format_count(r.spec.output_tokens) + " output tokens")
                                   .c_str());
        text_muted("arrived at " + kv::format_duration(r.spec.arrival_s) +
                   (r.preemptions > 0 ? ", preempted " + kv::format_count(r.preemptions) + "×" : std::string()));
    } else {
        text_muted("a request's blocks");
    }
    if (sim.blocks_per_cell > 1 && frame.fill.size() > cell)
        text_muted(kv::format_percent(frame.fill[cell] / 255.0, 0) + " of the cell in use");
    ImGui::EndTooltip();
}

}  // namespace

void block_pool(const kvapp::Panel& panel, const Moment& now) {
    const kv::Simulation& sim = panel.simulation;
    heading("The block pool");
    const kv::SimStep& s = *now.step;
    figure_row({
        {"running", kv::format_count(s.running), "requests in this step", Colour::decode, nullptr},
        {"waiting", kv::format_count(s.waiting), "queued, not admitted", Colour::text,
         "Arrived but not running: max_num_seqs, the token budget or the pool keeps them out (vLLM's \"Waiting: N reqs\")."},
        // The pool's size is the line below: a note of one short line keeps the row's height as the count grows.
        {"KV cache usage", kv::format_percent(s.kv_cache_usage, 1), kv::format_count(s.blocks_used) + " blocks held", Colour::kv_used,
         "vllm:kv_cache_usage_perc: blocks held by running requests over the pool. Cached prefix blocks nobody "
         "holds count as free."},
        {"preemptions", kv::format_count(s.preemptions_total), "so far", s.preemptions_total > 0 ? Colour::failure : Colour::text,
         "vllm:num_preemptions_total. When a running request needs a block and none is free, the scheduler "
         "preempts the most recently admitted request: its blocks are freed and it is recomputed from scratch later."},
    });
    text_muted(kv::format_count(sim.pool_blocks) + " blocks of " + kv::format_count(sim.block_size) + " tokens" +
               (sim.blocks_per_cell > 1 ? ", one cell per " + kv::format_count(sim.blocks_per_cell) + " blocks" : ", one cell per block"));
    const kv::PoolFrame& frame = *now.frame;
    const size_t cells = frame.owner.size();
    if (cells == 0) return;
    const float width = ImGui::GetContentRegionAvail().x;
    const float max_height = 220.0f;
    const float ideal = std::sqrt(width * max_height / static_cast<float>(cells));
    const int columns = std::max(1, static_cast<int>(width / std::clamp(ideal, 4.0f, 18.0f)));
    const float cell = std::floor(width / static_cast<float>(columns) * 4.0f) / 4.0f;
    const int rows = static_cast<int>((cells + static_cast<size_t>(columns) - 1) / static_cast<size_t>(columns));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##pool", ImVec2(width, cell * static_cast<float>(rows)));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float gap = cell >= 6.0f ? 1.0f : 0.0f;
    for (size_t i = 0; i < cells; ++i) {
        const float x = origin.x + static_cast<float>(i % static_cast<size_t>(columns)) * cell;
        const float y = origin.y + static_cast<float>(i / static_cast<size_t>(columns)) * cell;
        draw_cell(draw, ImVec2(x, y), ImVec2(x + cell - gap, y + cell - gap), frame.owner[i], i < frame.fill.size() ? frame.fill[i] : 255);
    }
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const int cx = static_cast<int>((m.x - origin.x) / cell), cy = static_cast<int>((m.y - origin.y) / cell);
        const size_t i = static_cast<size_t>(cy) * static_cast<size_t>(columns) + static_cast<size_t>(cx);
        if (cx >= 0 && cx < columns && cy >= 0 && i < cells) {
            const float x = origin.x + static_cast<float>(cx) * cell, y = origin.y + static_cast<float>(cy) * cell;
            draw->AddRect(ImVec2(x - 1, y - 1), ImVec2(x + cell, y + cell), colour(Colour::text), 0, 0, 1.5f);
            cell_tooltip(sim, frame, i);
        }
    }
    cell_legend();
}

}  // namespace kvui::serving
