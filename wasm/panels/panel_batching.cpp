// Panel 3, the batching ceiling: the decode rate of all streams and per-stream ITL against batch size for the
// current scenario (kv::sweep_batch), and the same scenario at tensor parallel 1, 2, 4 and 8
// (kv::sweep_tensor_parallel), both kept by kvapp with the panel. Figures are per GPU (per rank).
// A tensor-parallel size the engine refuses (heads that do not divide, or memory at that size)
// shows the refusal instead of figures.
//
// Index of this file: section, the function that draws it, the lesson anchors it serves
// (content/lesson/FILE.md#ID: the id the site gives that chapter's heading).
// [SECTION] Title                  title()
// [SECTION] Batch curve            batch_curve()      07-batching-ceiling.md#the-batching-ceiling-and-tensor-parallelism
// [SECTION] Tensor parallel        tensor_parallel()  07-batching-ceiling.md#the-batching-ceiling-and-tensor-parallelism
// [SECTION] Panel                  panel_batching()
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "panels/panels.hpp"
#include "ui/parts.hpp"
#include "ui/plot.hpp"
#include "ui/grid.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Title: title()
//-----------------------------------------------------------------------------

void title(const kv::Result& r) {
    panel_title("The batching ceiling", model_label(r) + " on " + r.gpu.label + ", " +
                                            kv::format_count(r.scenario.prompt_tokens + r.scenario.output_tokens) + "-token sequences");
}

//-----------------------------------------------------------------------------
// [SECTION] Throughput and ITL against batch size: batch_curve()
// Lesson: 07-batching-ceiling.md#the-batching-ceiling-and-tensor-parallelism (batching amortises
// the weight read, up to a ceiling).
//-----------------------------------------------------------------------------

std::string count_tick(double v) { return kv::format_count(static_cast<int64_t>(std::llround(v))); }
std::string rate_tick(double v) { return kv::format_significant(v, 2); }
std::string duration_tick(double v) { return kv::format_duration(v); }

// The figures over the chart: the running batch, what it delivers and what its steps move.
void batch_figures(const kv::Result& r, const kv::BatchSweep& sweep) {
    figure_row({
        {"running batch", kv::format_count(r.admission.running), "of " + kv::format_count(sweep.pool_limit) + " the pool holds",
         Colour::kv_used, nullptr},
        {"decode rate", kv::format_tokens_per_s(r.steps.decode_tokens_per_s), "all streams together", Colour::decode, nullptr},
        {"per-stream ITL", kv::format_duration(r.steps.itl_s), "each reader waits this per token", Colour::text, nullptr},
        {"weight share", kv::format_percent(r.steps.weight_share, 0), "of the bytes each step moves", Colour::weights,
         "While the weight read dominates the step, one more sequence rides along almost free. Once the caches "
         "dominate, every sequence adds its own full cache to every step."},
    });
}

// Under the pointer: the swept batch nearest to it, a line at it and its figures.
void batch_tooltip(const Plot& plot, const kv::BatchSweep& sweep) {
    const double want = plot.x_at(ImGui::GetIO().MousePos.x);
    const kv::BatchPoint* nearest = &sweep.points.front();
    for (const kv::BatchPoint& p : sweep.points)
        if (std::fabs(static_cast<double>(p.batch) - want) < std::fabs(static_cast<double>(nearest->batch) - want)) nearest = &p;
    const float sx = plot.sx(static_cast<double>(nearest->batch));
    ImGui::GetWindowDrawList()->AddLine(ImVec2(sx, plot.min.y), ImVec2(sx, plot.max.y), colour(Colour::text_muted, 0.6f));
    ImGui::BeginTooltip();
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted(("batch " + kv::format_count(nearest->batch)).c_str());
    ImGui::PopFont();
    swatch(Colour::decode);
    ImGui::TextUnformatted(kv::format_tokens_per_s(nearest->tokens_per_s).c_str());
    ImGui::TextUnformatted(
        ("ITL " + kv::format_duration(nearest->step_s) + ", weights " + kv::format_percent(nearest->weight_share, 0) + " of the step")
            .c_str());
    ImGui::EndTooltip();
}

void batch_curve(const kvapp::Panel& panel) {
    const kv::Result& r = panel.result;
    const kv::BatchSweep& sweep = panel.batch_sweep;
    heading("Throughput and latency against batch size");
    if (sweep.points.empty()) return;
    const kv::BatchPoint* current = nullptr;
    for (const kv::BatchPoint& p : sweep.points)
        if (p.batch == r.admission.running) current = &p;
    batch_figures(r, sweep);

    double max_rate = 0, max_step = 0;
    for (const kv::BatchPoint& p : sweep.points) {
        max_rate = std::max(max_rate, p.tokens_per_s);
        max_step = std::max(max_step, p.step_s);
    }
    const double last = static_cast<double>(sweep.points.back().batch);
    Axis x;
    x.log = last > 128;
    x.min = 1;
    x.max = std::max(2.0, last);
    x.ticks = x.log ? decade_ticks(x.min, x.max, count_tick) : linear_ticks(0, x.max, 6, count_tick);
    if (!x.log) x.min = 0;
    x.title = "batch: sequences decoded together";
    Axis y;
    y.max = max_rate * 1.12;
    y.ticks = linear_ticks(0, y.max, 4, rate_tick);
    y.title = "decode rate, tokens/s";
    Axis right;
    right.max = max_step * 1.12;
    right.ticks = linear_ticks(0, right.max, 4, duration_tick);
    right.title = "ITL per stream";

    const Plot plot = begin_plot("##batch", 250.0f, x, y, &right);
    const bool hovered = ImGui::IsItemHovered();
    std::vector<ImVec2> rate_line, itl_line;
    const float step_scale = static_cast<float>(y.max / right.max);
    for (const kv::BatchPoint& p : sweep.points) {
        const double b = static_cast<double>(p.batch);
        rate_line.push_back(plot.at(b, p.tokens_per_s));
        itl_line.push_back(plot.at(b, p.step_s * step_scale));
    }
    plot_marker_x(plot, sweep.amortised_batch, colour(Colour::weights),
                  "weight read = cache read at " + kv::format_significant(sweep.amortised_batch, 2), false);
    plot_marker_x(plot, static_cast<double>(sweep.pool_limit), colour(Colour::kv_used), "pool full", false);
    plot_line(plot, itl_line, colour(Colour::text), 1.5f, true);
    plot_line(plot, rate_line, colour(Colour::decode), 2.5f);
    if (current)
        plot_point(plot, plot.at(static_cast<double>(current->batch), current->tokens_per_s), colour(Colour::decode),
                   "running " + kv::format_count(current->batch));
    if (hovered) batch_tooltip(plot, sweep);
    legend({
        {Colour::decode, 0, "", "decode rate (left scale)", nullptr},
        {Colour::text, 0, "", "ITL per stream, dashed (right scale)", nullptr},
        {Colour::weights, 0, "", "weight read stops being amortised",
         "The batch at which the running sequences' caches weigh as much as the weights: past it, batching buys "
         "little throughput and costs every stream latency."},
        {Colour::kv_used, 0, "", "the KV pool caps the batch", nullptr},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Tensor parallel 1, 2, 4, 8: tensor_parallel()
// Lesson: 07-batching-ceiling.md#the-batching-ceiling-and-tensor-parallelism.
//-----------------------------------------------------------------------------

// A refusal in a few words for a table cell; the engine's full message is the cell's tooltip.
const char* refusal_words(kv::RefusalKind kind) {
    switch (kind) {
        case kv::RefusalKind::tensor_parallel_mismatch:
            return "heads do not divide";
        case kv::RefusalKind::weights_do_not_fit:
            return "weights do not fit";
        case kv::RefusalKind::profile_out_of_memory:
            return "profile run out of memory";
        case kv::RefusalKind::no_kv_cache_memory:
            return "no memory for the cache";
        case kv::RefusalKind::max_model_len_does_not_fit:
            return "max_model_len does not fit";
        case kv::RefusalKind::max_model_len_too_long:
            return "max_model_len too long";
        case kv::RefusalKind::free_memory_below_request:
            return "free memory below the budget";
        case kv::RefusalKind::quantization_mismatch:
            return "quantization mismatch";
        case kv::RefusalKind::pipeline_parallel_mismatch:
        case kv::RefusalKind::out_of_memory_after_sizing:
            break;
    }
    return "engine refuses";
}

void refusal_cell(const kv::Result& t) {
    text_in(Colour::failure,
            std::string("refused: ") + (t.memory.startup_error ? refusal_words(t.memory.startup_error->kind) : "engine refuses"));
    if (t.memory.startup_error && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
        ImGui::TextUnformatted(t.memory.startup_error->message.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// The decode-rate column: a bar scaled to the best size's throughput (wide canvases), then the figure.
void throughput_cell(const kv::Result& t, double best, bool wide) {
    if (wide) {
        const ImVec2 pos = ImGui::GetCursorScreenPos();
        const float room = std::max(0.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("00,000 tokens/s").x - 8);
        const float bar = best > 0 ? static_cast<float>(t.steps.decode_tokens_per_s / best) * room : 0.0f;
        const float h = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(pos.x, pos.y + h * 0.2f), ImVec2(pos.x + bar, pos.y + h * 0.8f),
                                                  colour(Colour::decode), 2.0f);
        ImGui::SetCursorScreenPos(ImVec2(pos.x + bar + 6, pos.y));
    }
    ImGui::TextUnformatted(kv::format_tokens_per_s(t.steps.decode_tokens_per_s).c_str());
}

// One tensor-parallel size's row; a refusal (the heads, the memory) or a rejected request ends it.
void tensor_parallel_row(Grid& grid, const kv::TensorParallelPoint& p, bool current, double best, bool wide) {
    grid.next_row(current ? colour(Colour::accent, 0.12f) : 0);
    grid.next_cell();
    ImGui::TextUnformatted(kv::format_count(p.tensor_parallel_size).c_str());
    const kv::Result& t = p.result;
    if (!p.valid) {  // the engine refuses this size for the model's heads
        grid.next_cell();
        refusal_cell(t);
        return;
    }
    const kv::KvLayout& k = t.memory.layout;
    grid.next_cell();
    if (t.model.attention == kv::AttentionKind::mla) text_muted("MLA latent");
    else if (k.kv_heads_replicated) text_in(Colour::warning, kv::format_count(k.kv_heads_per_rank) + " (replicated)");
    else ImGui::TextUnformatted(kv::format_count(k.kv_heads_per_rank).c_str());
    grid.next_cell();
    ImGui::TextUnformatted(kv::format_gib(std::max(0.0, t.memory.available_kv_bytes), 1).c_str());
    if (wide) {
        grid.next_cell();
        ImGui::TextUnformatted(kv::format_count(t.admission.max_resident_sequences).c_str());
    }
    if (t.status == kv::Status::engine_refused) {
        grid.next_cell();
        refusal_cell(t);
        return;
    }
    if (t.status != kv::Status::ok) {
        grid.next_cell();
        text_in(Colour::failure, "request exceeds max_model_len");
        return;
    }
    grid.next_cell();
    ImGui::TextUnformatted(kv::format_duration(t.steps.itl_s).c_str());
    if (wide) {
        grid.next_cell();
        ImGui::TextUnformatted(kv::format_duration(t.steps.decode.communication_s).c_str());
    }
    grid.next_cell();
    throughput_cell(t, best, wide);
}

void tensor_parallel(const kvapp::Panel& panel) {
    heading("Tensor parallel 1, 2, 4, 8");
    text_wrapped(
        "Each rank reads 1/N of the weights and of every cache, so a step moves less; the pool grows faster "
        "than N because the weights are no longer paid for N times over. The all-reduces are the price, and "
        "the KV heads cannot be split past their count.",
        Colour::text_muted);
    double best = 0;
    for (const kv::TensorParallelPoint& p : panel.tp_sweep)
        if (p.valid) best = std::max(best, p.result.steps.decode_tokens_per_s);
    // Narrow canvases (phones) keep the columns the lesson argues from and drop the bar.
    const bool wide = ImGui::GetContentRegionAvail().x >= 620;
    // NoClip: a refusal's words run on into the empty cells of its row.
    std::vector<GridColumn> columns = {{.weight = 0.7f, .header = "GPUs"},
                                       {.header = wide ? "KV heads / rank" : "KV heads"},
                                       {.header = wide ? "pool per GPU" : "pool/GPU"}};
    if (wide) columns.push_back({.header = "resident"});
    columns.push_back({.header = "step = ITL"});
    if (wide) columns.push_back({.header = "all-reduce"});
    columns.push_back({.weight = wide ? 2.2f : 1.6f, .header = "decode rate"});
    Grid grid(columns, grid_ruled | grid_no_clip);
    grid.headers();
    for (const kv::TensorParallelPoint& p : panel.tp_sweep)
        tensor_parallel_row(grid, p, p.tensor_parallel_size == panel.scenario.tensor_parallel_size, best, wide);
    grid.end();
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Panel: panel_batching()
//-----------------------------------------------------------------------------

void panel_batching(kvapp::Panel& panel) {
    if (panel.focus.empty()) title(panel.result);  // beside the text, the header above names the scenario
    const bool failed = panel.result.status != kv::Status::ok;
    const std::vector<Part> parts = {
        {{}, [&] { rejected_input_banner(panel); }, true},
        {{}, [&] { failure_banner(panel.result); }, failed},
        {{"running", "max_resident_sequences", "decode", "decode_step_s", "decode_tokens_per_s", "itl_s", "weight_share", "decode_bound"},
         [&] {
             if (!failed) batch_curve(panel);
         }},
        // Also when failing: more ranks is one way out.
        {{"decode_communication_s", "tensor_parallel_that_starts", "scenario.tensor_parallel_size"},
         [&] { tensor_parallel(panel); },
         failed,
         {"decode_tokens_per_s", "itl_s"}},
    };
    draw_parts(panel,
               {"model", "gpu", "prompt_tokens", "output_tokens", "concurrent_requests", "gpu_memory_utilization", "kv_cache_dtype",
                "weight_dtype", "max_num_seqs", "max_model_len", "force_mha"},
               parts);
    keyboard_hint();
}

}  // namespace kvui
