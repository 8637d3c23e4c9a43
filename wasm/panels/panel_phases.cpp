// Panel 2, two phases: prefill against decode for the current scenario. Times are per step of one
// rank; the roofline's operating points are (arithmetic intensity, FLOPs / step time) of
// kv::Result's prefill and decode; the achieved slope and roof are that result's achieved rates,
// the data-sheet ones its GPU's peaks. The chunked-prefill curve is kv::sweep_chunk's, which
// kvapp keeps with the panel.
//
// Index of this file: section, the function that draws it, the lesson anchors it serves
// (content/lesson/FILE.md#ID: the id the site gives that chapter's heading).
// [SECTION] Title                  title()
// [SECTION] TTFT and ITL           phases()           03-two-phases.md#two-phases-opposite-bottlenecks
// [SECTION] Roofline               roofline()         03-two-phases.md#two-phases-opposite-bottlenecks
// [SECTION] Chunked prefill        chunked_prefill()  04-chunked-prefill.md#chunked-prefill-and-speculative-decoding
// [SECTION] Simulated DCGM         dcgm_readout()     09-real-system.md#checking-the-arithmetic-on-a-real-system
//                                  (shared with the admission panel)
// [SECTION] Panel                  panel_phases()
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

void title(const kv::Result& r) { panel_title("Two phases", model_label(r) + " on " + r.gpu.label); }

//-----------------------------------------------------------------------------
// [SECTION] TTFT and ITL, compute time against memory time: phases()
// Lesson: 03-two-phases.md#two-phases-opposite-bottlenecks (TTFT follows FLOPs, ITL follows bandwidth).
//-----------------------------------------------------------------------------

const char* bound_words(kv::Bound b) { return b == kv::Bound::compute ? "compute-bound" : "memory-bound"; }

// A time bar scaled to `scale` seconds.
void time_bar(const char* label, double seconds, double scale, Colour c) {
    const float label_width = ImGui::CalcTextSize("all-reduce").x + 12;
    const float value_width = ImGui::CalcTextSize("000 ms").x + 14;
    text_muted(label);
    ImGui::SameLine(label_width);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float width = std::max(10.0f, ImGui::GetContentRegionAvail().x - value_width);
    const float h = 12.0f, y = p.y + (ImGui::GetTextLineHeight() - h) * 0.5f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, y + h), colour(Colour::surface), 3.0f);
    const float filled = scale > 0 ? static_cast<float>(std::clamp(seconds / scale, 0.0, 1.0)) * width : 0.0f;
    if (filled > 0.5f) draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + filled, y + h), colour(c), 3.0f);
    concept_region(c, ImVec2(p.x, y), ImVec2(p.x + width, y + h));
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 8);
    ImGui::TextUnformatted(kv::format_duration(seconds).c_str());
}

void phase_block(const char* name, const char* what, const kv::PhaseTiming& p, Colour phase_colour, const char* help) {
    ImGui::BeginGroup();
    swatch(phase_colour);
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted(name);
    ImGui::PopFont();
    help_marker(help);
    ImGui::PushFont(font(Font::figure));
    text_in(phase_colour, kv::format_duration(p.total_s));
    ImGui::PopFont();
    ImGui::EndGroup();
    concept_region(phase_colour, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SameLine(0, 10);
    ImGui::AlignTextToFramePadding();
    text_in(p.bound == kv::Bound::compute ? Colour::compute : Colour::memory, bound_words(p.bound));
    text_wrapped(what, Colour::text_muted);
    const double scale = std::max({p.compute_s, p.memory_s, p.communication_s});
    time_bar("compute", p.compute_s, scale, Colour::compute);
    time_bar("memory", p.memory_s, scale, Colour::memory);
    if (p.communication_s > 0) time_bar("all-reduce", p.communication_s, scale, Colour::communication);
    text_wrapped("arithmetic intensity " + kv::format_intensity(p.arithmetic_intensity) + ", " + kv::format_bytes(p.bytes) + " read",
                 Colour::text_muted);
}

void phases(const kv::Result& r) {
    heading("Time to first token and inter-token latency");
    const int columns = ImGui::GetContentRegionAvail().x >= 560 ? 2 : 1;
    Grid grid(std::vector<GridColumn>(static_cast<size_t>(columns)));
    grid.next_cell();
    phase_block("Prefill: TTFT", ("one " + kv::format_count(r.scenario.prompt_tokens) + "-token prompt in one pass").c_str(),
                r.steps.prefill, Colour::prefill,
                "Time to first token: the whole prompt goes through every matmul at once, so the weights are read "
                "once and used prompt-length times. More FLOPs help here.");
    grid.next_cell();
    phase_block("Decode: ITL", ("one token for each of " + kv::format_count(r.admission.running) + " running sequences").c_str(),
                r.steps.decode, Colour::decode,
                "Inter-token latency: every step reads the weights and every running sequence's whole cache for one "
                "token per sequence. More bandwidth helps here.");
    grid.end();
    text_wrapped("Step time = max(compute, memory) + all-reduce: the longer of the two bars sets it.", Colour::text_muted);
}

//-----------------------------------------------------------------------------
// [SECTION] Roofline: roofline()
// Lesson: 03-two-phases.md#two-phases-opposite-bottlenecks (a bound is a ratio of work to bytes, not a phase).
//-----------------------------------------------------------------------------

std::string intensity_tick(double v) { return kv::format_significant(v, 1); }
std::string flops_tick(double v) { return kv::format_flops_per_s(v); }

void roofline(const kv::Result& r) {
    heading("Roofline");
    const double peak_flops = r.steps.peak_flops_per_s;
    const bool fp8 = peak_flops != r.gpu.bf16_flops_per_s;
    const double peak_bw = r.gpu.hbm_bytes_per_s;
    const double bw = r.steps.achieved_bytes_per_s, flops = r.steps.achieved_flops_per_s, ridge = r.steps.ridge_flops_per_byte;
    const double ai_prefill = r.steps.prefill.arithmetic_intensity, ai_decode = r.steps.decode.arithmetic_intensity;
    const double perf_prefill = r.steps.prefill.total_s > 0 ? r.steps.prefill.flops / r.steps.prefill.total_s : 0;
    const double perf_decode = r.steps.decode.total_s > 0 ? r.steps.decode.flops / r.steps.decode.total_s : 0;

    Axis x;
    x.log = true;
    x.min = std::pow(10.0, std::floor(std::log10(std::max(1e-3, std::min({ai_decode, ai_prefill, ridge}) / 2))));
    x.max = std::pow(10.0, std::ceil(std::log10(std::max({ai_decode, ai_prefill, ridge}) * 2)));
    x.ticks = decade_ticks(x.min, x.max, intensity_tick);
    x.title = "arithmetic intensity, FLOP/byte";
    Axis y;
    y.log = true;
    y.max = std::pow(10.0, std::ceil(std::log10(peak_flops * 1.5)));
    y.min = std::pow(10.0, std::floor(std::log10(std::max(1.0, std::min({bw * x.min, perf_decode, perf_prefill}) * 0.8))));
    y.ticks = decade_ticks(y.min, y.max, flops_tick);
    y.title = "FLOP/s per GPU";

    const Plot plot = begin_plot("##roofline", 260.0f, x, y);
    const bool hovered = ImGui::IsItemHovered();
    const auto roof = [&](double slope, double top, ImU32 slope_colour, ImU32 top_colour, float thickness, bool dashed) {
        const double knee = top / slope;
        plot_line(plot, {plot.at(plot.x.min, slope * plot.x.min), plot.at(knee, top)}, slope_colour, thickness, dashed);
        plot_line(plot, {plot.at(knee, top), plot.at(plot.x.max, top)}, top_colour, thickness, dashed);
    };
    roof(peak_bw, peak_flops, colour(Colour::text_muted, 0.8f), colour(Colour::text_muted, 0.8f), 1.0f, true);
    roof(bw, flops, colour(Colour::memory), colour(Colour::compute), 2.5f, false);
    plot_marker_x(plot, ridge, colour(Colour::text_muted), "ridge " + kv::format_intensity(ridge), false);
    plot_point(plot, plot.at(ai_prefill, perf_prefill), colour(Colour::prefill), "prefill");
    plot_point(plot, plot.at(ai_decode, perf_decode), colour(Colour::decode), "decode");
    if (hovered) {
        const double at = plot.x_at(ImGui::GetIO().MousePos.x);
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(
            ("at " + kv::format_intensity(at) + " the GPU attains " + kv::format_flops_per_s(std::min(flops, bw * at))).c_str());
        text_muted(at < ridge ? "left of the ridge: bandwidth sets the pace" : "right of the ridge: tensor cores set the pace");
        ImGui::EndTooltip();
    }
    legend({
        {Colour::memory, bw, kv::format_bandwidth(bw), "HBM slope",
         "Achieved bandwidth: the step model's bytes / memory time (a fraction of the data-sheet peak)."},
        {Colour::compute, flops, kv::format_flops_per_s(flops), fp8 ? "FP8 tensor roof" : "BF16 tensor roof",
         "Achieved tensor throughput: the step model's FLOPs / compute time."},
        {Colour::text_muted, peak_bw, kv::format_bandwidth(peak_bw) + ", " + kv::format_flops_per_s(peak_flops), "data sheet (dashed)",
         nullptr},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Chunked prefill: chunked_prefill()
// Lesson: 04-chunked-prefill.md#chunked-prefill-and-speculative-decoding.
//-----------------------------------------------------------------------------

std::string tokens_tick(double v) { return kv::format_count(static_cast<int64_t>(std::llround(v))); }
std::string duration_tick(double v) { return kv::format_duration(v); }

void chunk_figures(const kv::Result& r, const kv::ChunkSweep& sweep) {
    figure_row({
        {"rides free", kv::format_count(r.steps.free_prefill_tokens) + " tokens",
         "prefill folded into each step for at most a tenth more time", Colour::prefill,
         "Prompt tokens a decode step can carry while it grows by at most a tenth: they ride on the weight read "
         "the step pays anyway, and its tensor cores are mostly idle while it reads."},
        {"chunk budget", kv::format_count(r.steps.chunk_budget_tokens) + " tokens",
         "max_num_batched_tokens " + kv::format_count(*r.scenario.max_num_batched_tokens) + " − " + kv::format_count(r.admission.running) +
             " decode tokens",
         Colour::text, "What max_num_batched_tokens leaves for prefill after one token per running sequence."},
        {"step with a full chunk", kv::format_duration(r.steps.step_with_full_chunk_s),
         "+" + kv::format_duration(sweep.added_itl_s) + " on every stream's ITL", Colour::decode, nullptr},
    });
}

// The step against the prefill tokens folded into it (kvapp keeps kv::sweep_chunk's curve), with
// where they stop riding free and where the budget ends; the tooltip reads the core at the pointer.
void chunked_prefill(const kv::Result& r, const kv::ChunkSweep& sweep) {
    heading("Chunked prefill");
    chunk_figures(r, sweep);
    if (sweep.points.empty()) return;
    const double x_max = static_cast<double>(sweep.max_prefill_tokens);
    double y_max = r.steps.decode.total_s;
    for (const kv::ChunkPoint& p : sweep.points) y_max = std::max(y_max, p.step_s);
    Axis x;
    x.min = 0;
    x.max = x_max;
    x.ticks = linear_ticks(0, x_max, 6, tokens_tick);
    x.title = "prefill tokens folded into one decode step";
    Axis y;
    y.min = 0;
    y.max = y_max * 1.15;
    y.ticks = linear_ticks(0, y.max, 4, duration_tick);
    y.title = "decode step";
    const Plot plot = begin_plot("##chunk", 190.0f, x, y);
    const bool hovered = ImGui::IsItemHovered();
    std::vector<ImVec2> line;
    for (const kv::ChunkPoint& p : sweep.points) line.push_back(plot.at(p.prefill_tokens, p.step_s));
    plot_line(plot, line, colour(Colour::decode), 2.5f);
    plot_marker_x(plot, static_cast<double>(r.steps.free_prefill_tokens), colour(Colour::prefill),
                  "free up to " + kv::format_count(r.steps.free_prefill_tokens), false);
    plot_marker_x(plot, static_cast<double>(r.steps.chunk_budget_tokens), colour(Colour::text_muted), "budget", true);
    if (hovered) {
        const int64_t chunk = std::clamp<int64_t>(std::llround(plot.x_at(ImGui::GetIO().MousePos.x)), 0, sweep.max_prefill_tokens);
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(
            (kv::format_count(chunk) + " prefill tokens: step " + kv::format_duration(kv::chunk_step_s(r, chunk))).c_str());
        ImGui::EndTooltip();
    }
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Simulated DCGM readout: dcgm_readout()
// Lesson: 09-real-system.md#checking-the-arithmetic-on-a-real-system (the DCGM fields during
// steady-state decode). Shared with the admission panel, which sits beside that section
// (panels/panels.hpp).
//-----------------------------------------------------------------------------

void dcgm_readout(const kv::Result& r) {
    heading("What DCGM would show during decode (simulated)");
    const int columns = ImGui::GetContentRegionAvail().x >= 600 ? 3 : 1;
    Grid grid(std::vector<GridColumn>(static_cast<size_t>(columns)));
    grid.next_cell();
    ImGui::BeginGroup();
    meter("DRAM_ACTIVE", r.steps.dram_active, kv::format_percent(r.steps.dram_active, 0), Colour::memory,
          "DCGM_FI_PROF_DRAM_ACTIVE: the fraction of time the HBM interface is moving data.");
    ImGui::EndGroup();
    concept_region(Colour::memory, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    grid.next_cell();
    ImGui::BeginGroup();
    meter("PIPE_TENSOR_ACTIVE", r.steps.tensor_active, kv::format_percent(r.steps.tensor_active, 1), Colour::compute,
          "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE: the fraction of time the tensor cores are busy.");
    ImGui::EndGroup();
    concept_region(Colour::compute, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    grid.next_cell();
    meter("nvidia-smi utilization", r.steps.gpu_utilization, kv::format_percent(r.steps.gpu_utilization, 0), Colour::text_muted,
          "nvidia-smi's utilization.gpu only says a kernel was resident; it reads near 100% whatever the kernel waits on.");
    grid.end();
}

//-----------------------------------------------------------------------------
// [SECTION] Panel: panel_phases()
//-----------------------------------------------------------------------------

void panel_phases(kvapp::Panel& panel) {
    if (panel.focus.empty()) title(panel.result);  // beside the text, the header above names the scenario
    const kv::Result& r = panel.result;
    const bool failed = r.status != kv::Status::ok;
    const auto unless_failed = [&](auto draw) {
        return [&, draw] {
            if (!failed) draw();
        };
    };
    const std::vector<Part> parts = {
        {{}, [&] { rejected_input_banner(panel); }, true},
        {{}, [&] { failure_banner(r); }, failed},
        {{"ttft_s", "itl_s", "prefill", "decode", "decode_step_s", "prefill_bound", "decode_bound", "decode_memory_s", "decode_compute_s"},
         unless_failed([&] { phases(r); })},
        {{"ridge_flops_per_byte", "achieved_bytes_per_s", "achieved_flops_per_s", "peak_flops_per_s", "prefill.arithmetic_intensity",
          "decode.arithmetic_intensity"},
         unless_failed([&] { roofline(r); })},
        {{"dram_active", "tensor_active", "gpu_utilization"}, unless_failed([&] { dcgm_readout(r); })},
        {{"free_prefill_tokens", "chunk_budget_tokens", "step_with_full_chunk_s"},
         unless_failed([&] { chunked_prefill(r, panel.chunk_sweep); })},
    };
    draw_parts(panel,
               {"model", "gpu", "prompt_tokens", "output_tokens", "concurrent_requests", "gpu_memory_utilization", "weight_dtype",
                "kv_cache_dtype", "max_num_batched_tokens", "max_model_len"},
               parts);
    keyboard_hint();
}

}  // namespace kvui
