// The cell grid of ui/grid.hpp. A cell narrows the window's work rectangle to its column, the way
// ImGui's own table cells do (imgui_tables.cpp, TableBeginCell), so the widgets inside size and wrap
// to the cell; the grid puts everything back when it ends.
//
// A cell is clipped only when what it drew runs past its column: a clip rectangle per cell would cost
// a draw call per cell (about 50 a frame in the admission panel, against 2 with ImGui's tables, which
// merge the cells that fit). So the cell draws unclipped and, if it overflowed, the draw commands it
// added are given its rectangle afterwards.
#include "ui/grid.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

namespace kvui {

Grid::Grid(const std::vector<GridColumn>& columns, unsigned flags) : flags_(flags) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    saved_ = {window->DC.CursorMaxPos,         window->WorkRect.Min.x,     window->WorkRect.Max.x,
              window->ContentRegionRect.Max.x, window->DC.ColumnsOffset.x, window->DC.ItemWidth};
    origin_ = window->DC.CursorPos;
    width_ = std::max(0.0f, ImGui::GetContentRegionAvail().x);
    // Columns are CellPadding.x * 2 apart and the outer edges have no padding, as a table with
    // ImGuiTableFlags_NoPadOuterX lays them out.
    const float gap_px = 2.0f * ImGui::GetStyle().CellPadding.x;
    float fixed_px = 0, weights = 0;
    for (const GridColumn& c : columns) {
        if (c.fixed_width > 0) fixed_px += c.fixed_width;
        else weights += c.weight;
    }
    const float gaps_px = gap_px * static_cast<float>(std::max<size_t>(columns.size(), 1) - 1);
    const float shared_px = std::max(0.0f, width_ - fixed_px - gaps_px);
    float x = origin_.x;
    for (const GridColumn& c : columns) {
        const float w = c.fixed_width > 0 ? c.fixed_width : weights > 0 ? std::floor(shared_px * c.weight / weights) : 0.0f;
        columns_.push_back({x, x + w, c.header});
        x += w + gap_px;
    }
    if (!columns.empty() && columns.back().fixed_width <= 0) columns_.back().right_x = std::max(columns_.back().left_x, origin_.x + width_);
    row_bottom_ = origin_.y;
    if (flags_ & grid_ruled) {  // shading goes under the cells, drawn once a row's height is known
        window->DrawList->ChannelsSplit(2);
        window->DrawList->ChannelsSetCurrent(1);
    }
}

void Grid::headers() {
    begin_row(true, 0);
    for (int c = 0; c < static_cast<int>(columns_.size()); ++c) {
        if (c > 0) end_cell();
        begin_cell(c);
        ImGui::TextUnformatted(columns_[static_cast<size_t>(c)].header);
    }
    end_row();
}

void Grid::next_row(ImU32 highlight) { begin_row(false, highlight); }

void Grid::next_cell() {
    if (!in_row_ || column_ + 1 >= static_cast<int>(columns_.size())) begin_row(false, 0);
    else if (column_ >= 0) end_cell();
    begin_cell(column_ + 1);
}

void Grid::end() {
    if (in_row_) end_row();
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (flags_ & grid_ruled) window->DrawList->ChannelsMerge();
    window->WorkRect.Min.x = saved_.work_min_x;
    window->WorkRect.Max.x = saved_.work_max_x;
    window->ContentRegionRect.Max.x = saved_.content_max_x;
    window->DC.ColumnsOffset.x = saved_.columns_offset_x;
    window->DC.ItemWidth = saved_.item_width;
    window->DC.CursorMaxPos = saved_.cursor_max;
    ImGui::SetCursorScreenPos(origin_);
    ImGui::Dummy(ImVec2(width_, row_bottom_ - origin_.y));
}

void Grid::begin_row(bool header, ImU32 highlight) {
    if (in_row_) end_row();
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    in_row_ = true;
    header_row_ = header;
    highlight_ = highlight;
    column_ = -1;
    row_top_ = row_bottom_;
    row_baseline_ = 0;
    window->DC.PrevLineTextBaseOffset = 0;
    window->DC.CursorMaxPos.y = row_top_;
}

void Grid::end_row() {
    if (column_ >= 0) end_cell();
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (flags_ & grid_ruled) {
        ImDrawList* draw = window->DrawList;
        draw->ChannelsSetCurrent(0);
        const ImVec2 top_left(origin_.x, row_top_), bottom_right(origin_.x + width_, row_bottom_);
        const ImU32 shade = ImGui::GetColorU32(header_row_               ? ImGuiCol_TableHeaderBg
                                               : (shaded_rows_ & 1) != 0 ? ImGuiCol_TableRowBgAlt
                                                                         : ImGuiCol_TableRowBg);
        if ((shade & IM_COL32_A_MASK) != 0) draw->AddRectFilled(top_left, bottom_right, shade);
        if (highlight_ != 0) draw->AddRectFilled(top_left, bottom_right, highlight_);
        if (row_top_ > origin_.y)  // the rule above every row but the first: strong under the headers
            draw->AddLine(top_left, ImVec2(bottom_right.x, row_top_),
                          ImGui::GetColorU32(last_was_header_ ? ImGuiCol_TableBorderStrong : ImGuiCol_TableBorderLight));
        draw->ChannelsSetCurrent(1);
    }
    if (!header_row_) ++shaded_rows_;
    last_was_header_ = header_row_;
    in_row_ = false;
    column_ = -1;
    window->DC.CursorPos.y = row_bottom_;
}

void Grid::begin_cell(int column) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const ImVec2 padding = ImGui::GetStyle().CellPadding;
    const Placed& placed = columns_[static_cast<size_t>(column)];
    const float left = placed.left_x, right = placed.right_x;
    column_ = column;
    window->DC.CursorPos = ImVec2(left, row_top_ + padding.y);
    window->DC.ColumnsOffset.x = left - window->Pos.x - window->DC.Indent.x;  // later lines start at the cell's left
    window->DC.CurrLineTextBaseOffset = row_baseline_;                        // text lines up with a frame earlier in the row
    window->WorkRect.Min.x = left;
    window->WorkRect.Max.x = right;
    window->ContentRegionRect.Max.x = right;
    window->DC.ItemWidth = std::floor((right - left) * 0.65f);  // ImGui's default item width, of the cell
    window->DC.CursorMaxPos.x = left;                           // what the cell's items reach, for end_cell()
    cell_first_command_ = window->DrawList->CmdBuffer.Size - 1;
    cell_first_element_ = window->DrawList->CmdBuffer.back().ElemCount;
}

void Grid::end_cell() {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    row_bottom_ = std::max(row_bottom_, window->DC.CursorMaxPos.y + ImGui::GetStyle().CellPadding.y);
    row_baseline_ = std::max(row_baseline_, window->DC.PrevLineTextBaseOffset);
    const Placed& placed = columns_[static_cast<size_t>(column_)];
    const float padding_x = ImGui::GetStyle().CellPadding.x;
    const float right = placed.right_x + padding_x;
    if ((flags_ & grid_no_clip) == 0 && window->DC.CursorMaxPos.x > right)
        clip_cell(ImVec4(placed.left_x - padding_x, window->ClipRect.Min.y, right, window->ClipRect.Max.y));
}

// The cell's vertices are already in the draw list: split the command the cell began in at the
// cell's first element, narrow the clip of every command from there on, and start a fresh command
// for whatever comes next (ImDrawList appends to its last command without looking at its clip).
void Grid::clip_cell(ImVec4 rect) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    int first = cell_first_command_;
    if (cell_first_element_ > 0) {
        ImDrawCmd before = draw->CmdBuffer[first];
        ImDrawCmd& cell = draw->CmdBuffer[first];
        cell.IdxOffset += cell_first_element_;
        cell.ElemCount -= cell_first_element_;
        before.ElemCount = cell_first_element_;
        draw->CmdBuffer.insert(draw->CmdBuffer.Data + first, before);
        ++first;
    }
    for (int i = first; i < draw->CmdBuffer.Size; ++i) {
        ImVec4& clip = draw->CmdBuffer[i].ClipRect;
        clip = ImVec4(std::max(clip.x, rect.x), std::max(clip.y, rect.y), std::min(clip.z, rect.z), std::min(clip.w, rect.w));
    }
    draw->AddDrawCmd();
}

}  // namespace kvui
