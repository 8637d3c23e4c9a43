// A grid of cells for the panels' few static tables (figure cards, the knobs, the phases, the
// latencies, the tensor-parallel rows). ImGui's tables do this and much more (resizing, sorting,
// scrolling, saved settings) for about 12 KB of the module's gzip bytes; these grids need columns
// of fixed or weighted width, rows as tall as their tallest cell, and a shaded style with headers.
//
//   Grid grid(columns, grid_ruled);
//   grid.headers();
//   for (...) { grid.next_row(); grid.next_cell(); ...; grid.next_cell(); ... }
//   grid.end();
//
// Inside a cell, GetContentRegionAvail(), item widths and text wrapping see the cell's width.
#pragma once
#include <imgui.h>

#include <vector>

namespace kvui {

struct GridColumn {
    float weight = 1.0f;       // share of the width the fixed columns and the gaps leave
    float fixed_width = 0.0f;  // pixels; a column with a fixed width takes no share
    const char* header = "";   // drawn by Grid::headers()
};

enum GridFlags : unsigned {
    grid_plain = 0,
    grid_ruled = 1u << 0,    // a rule between rows, every second row shaded, the header row on the surface colour
    grid_no_clip = 1u << 1,  // a cell's text may run on into the next cells (a refusal's words)
};

class Grid {
public:
    explicit Grid(const std::vector<GridColumn>& columns, unsigned flags = grid_plain);
    void headers();                      // a row of the columns' headers
    void next_row(ImU32 highlight = 0);  // a highlight colour is drawn over the row's shading
    void next_cell();                    // after the last column, the first cell of a new row
    void end();                          // the cursor goes under the grid, as after any item

private:
    void begin_row(bool header, ImU32 highlight);
    void end_row();
    void begin_cell(int column);
    void end_cell();
    void clip_cell(ImVec4 rect);

    struct Saved {
        ImVec2 cursor_max;
        float work_min_x, work_max_x, content_max_x, columns_offset_x, item_width;
    };
    struct Placed {
        float left_x, right_x;  // the column's content, screen pixels
        const char* header;
    };
    unsigned flags_;
    std::vector<Placed> columns_;
    Saved saved_{};
    ImVec2 origin_;
    float width_ = 0;
    int column_ = -1;      // the current cell's column; -1 before a row's first cell
    int shaded_rows_ = 0;  // rows ended, the header row excepted: every second one is shaded
    bool in_row_ = false, header_row_ = false, last_was_header_ = false;
    ImU32 highlight_ = 0;
    float row_top_ = 0, row_bottom_ = 0, row_baseline_ = 0;
    int cell_first_command_ = 0;  // where the current cell's drawing began in the draw list
    unsigned cell_first_element_ = 0;
};

}  // namespace kvui
