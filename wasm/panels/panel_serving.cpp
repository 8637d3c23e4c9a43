// Panel 4, serving over time: the run kvapp keeps for the panel (kv::simulate of its workload on
// its evaluated scenario, core/serving/simulate.hpp), played back frame by frame. The block pool
// as a grid, running / waiting / KV cache usage over simulated time with the preemptions marked,
// the run's latency percentiles and throughput, and the engine's periodic stats lines up to the
// moment shown. Times are simulated seconds; blocks are block_size tokens of every layer of one
// rank. Nothing here is computed beyond picking the frame shown and thinning the steps to the
// plot's pixels; the playback position moves only through kvapp::play / step / seek.
//
// Index of this file: section, the function that draws it; every section serves the lesson's
// 07-serving-over-time.md#serving-over-time-pages-preemption-and-a-shared-prompt, and the stats
// lines also 09-real-system.md#checking-the-arithmetic-on-a-real-system.
// [SECTION] Title                  title()
// [SECTION] Transport              transport()
// [SECTION] The block pool         serving::block_pool() (panel_serving_pool.cpp)
// [SECTION] Timeline               timeline()
// [SECTION] Latency and throughput latency()
// [SECTION] The engine's stats     stats_lines()
// [SECTION] Panel                  panel_serving()
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "base/format.hpp"
#include "panels/panel_serving.hpp"
#include "panels/panels.hpp"
#include "ui/parts.hpp"
#include "ui/plot.hpp"
#include "ui/grid.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

using serving::Moment;

Moment moment(const kvapp::Panel& panel) {
    const kv::Simulation& sim = panel.simulation;
    Moment m;
    if (sim.frames.empty() || sim.steps.empty()) return m;
    const size_t f = static_cast<size_t>(std::clamp(panel.playback.frame, 0, static_cast<int>(sim.frames.size()) - 1));
    m.frame = &sim.frames[f];
    m.step = &sim.steps[std::min(static_cast<size_t>(std::max(m.frame->step, 0)), sim.steps.size() - 1)];
    m.now_s = m.step->start_s;
    return m;
}

double run_end_s(const kv::Simulation& sim) { return sim.steps.empty() ? 0.0 : sim.steps.back().start_s + sim.steps.back().step_s; }

std::string time_tick(double v) { return v == 0 ? kv::format_count(0) : kv::format_duration(v); }
std::string count_tick(double v) { return kv::format_count(static_cast<int64_t>(std::llround(v))); }
std::string percent_tick(double v) { return kv::format_percent(v, 0); }

void record_rect(kvapp::Panel& panel, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    panel.knob_rects[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

//-----------------------------------------------------------------------------
// [SECTION] Title: title()
//-----------------------------------------------------------------------------

void title(const kvapp::Panel& panel) {
    const kv::Workload& w = panel.workload;
    const std::string arrivals = w.rate_per_s > 0 ? " at " + kv::format_significant(w.rate_per_s, 3) + " requests/s" : ", all at once";
    panel_title("Serving over time", model_label(panel.result) + " on " + panel.result.gpu.label + ": " + kv::format_count(w.requests) +
                                         " " + w.name + " requests" + arrivals);
}

//-----------------------------------------------------------------------------
// [SECTION] Transport, play, pause, step, scrub: transport()
// The first controls in the panel, so Tab lands on Play: Space plays and pauses.
//-----------------------------------------------------------------------------

const char* const help_transport =
    "Plays the recorded run: each frame is the block pool after one scheduler step, evenly spread over the run. "
    "Step pauses and moves one frame; the slider (Space to take it, arrow keys to move) goes anywhere in the run.";

void transport(kvapp::Panel& panel, const Moment& now) {
    const kv::Simulation& sim = panel.simulation;
    const bool playing = panel.playback.playing;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button = ImGui::CalcTextSize("Pause").x + 2 * style.FramePadding.x;
    // "###play": one id whatever the label says, so keyboard focus stays on the button.
    if (ImGui::Button(playing ? "Pause###play" : "Play###play", ImVec2(button, 0))) kvapp::play(panel, !playing);
    record_rect(panel, "play");
    help_tooltip_on_focus(help_transport);
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    if (ImGui::Button("Step###step", ImVec2(button, 0))) kvapp::step(panel, 1);
    record_rect(panel, "step");
    help_tooltip_on_focus(help_transport);
    ImGui::SameLine(0, style.ItemSpacing.x);
    int frame = panel.playback.frame;
    const int last = std::max(0, static_cast<int>(sim.frames.size()) - 1);
    std::string shown = kv::format_duration(now.now_s) + " of " + kv::format_duration(run_end_s(sim));
    if (ImGui::GetContentRegionAvail().x > 300)  // phones keep the time only
        shown += "  (frame " + kv::format_count(frame + 1) + " of " + kv::format_count(last + 1) + ")";
    shown = escape_format(shown);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::SliderInt("##scrub", &frame, 0, last, shown.c_str(), ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
        frame != panel.playback.frame)
        kvapp::seek(panel, frame);
    record_rect(panel, "scrub");
    help_tooltip_on_focus(help_transport);
}

//-----------------------------------------------------------------------------
// [SECTION] Timeline, running, waiting, KV cache usage, preemptions: timeline()
// One value per pixel column: the largest of the steps that fall in it, so no spike is lost.
//-----------------------------------------------------------------------------

// The frame shown at simulated time `t`: the last one taken at or before it.
int frame_at(const kv::Simulation& sim, double t) {
    int best = 0;
    for (size_t f = 0; f < sim.frames.size(); ++f) {
        const size_t step = static_cast<size_t>(sim.frames[f].step);
        if (step < sim.steps.size() && sim.steps[step].start_s <= t) best = static_cast<int>(f);
    }
    return best;
}

// The steps thinned to the plot's pixel columns: in each, the most running, waiting and KV cache
// usage of the steps that start in it (running -1: none starts there) and the preemptions made.
struct Columns {
    std::vector<int32_t> running, waiting, preempted;
    std::vector<double> used;
};

Columns thin_to_columns(const kv::Simulation& sim, int columns, double end) {
    Columns c;
    c.running.assign(static_cast<size_t>(columns), -1);
    c.waiting.assign(static_cast<size_t>(columns), 0);
    c.used.assign(static_cast<size_t>(columns), 0);
    c.preempted.assign(static_cast<size_t>(columns), 0);
    int32_t preemptions_before = 0;
    for (const kv::SimStep& s : sim.steps) {
        const size_t i = static_cast<size_t>(std::clamp(static_cast<int>(s.start_s / end * columns), 0, columns - 1));
        c.running[i] = std::max(c.running[i], s.running);
        c.waiting[i] = std::max(c.waiting[i], s.waiting);
        c.used[i] = std::max(c.used[i], static_cast<double>(s.kv_cache_usage));
        c.preempted[i] += s.preemptions_total - preemptions_before;
        preemptions_before = s.preemptions_total;
    }
    return c;
}

// KV cache usage as a filled area under its line (on the right scale), running and waiting as lines
// over it, a tick at the top for each column with a preemption, and the moment shown.
void draw_timeline(const Plot& plot, const Columns& c, double usage_scale, double now_s) {
    const int columns = static_cast<int>(c.running.size());
    std::vector<ImVec2> running_line, waiting_line, used_line;
    int32_t last_running = 0, last_waiting = 0;
    double last_used = 0;
    for (int col = 0; col < columns; ++col) {
        const size_t i = static_cast<size_t>(col);
        if (c.running[i] >= 0) {  // a column no step starts in carries the previous values on
            last_running = c.running[i];
            last_waiting = c.waiting[i];
            last_used = c.used[i];
        }
        const float px = plot.min.x + static_cast<float>(col) + 0.5f;
        running_line.emplace_back(px, plot.sy(last_running));
        waiting_line.emplace_back(px, plot.sy(last_waiting));
        used_line.emplace_back(px, plot.sy(last_used * usage_scale));
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (size_t i = 0; i < used_line.size(); ++i)
        draw->AddLine(ImVec2(used_line[i].x, plot.max.y), used_line[i], colour(Colour::kv_used, 0.22f), 1.0f);
    plot_line(plot, used_line, colour(Colour::kv_used), 1.5f);
    plot_line(plot, waiting_line, colour(Colour::text), 1.5f, true);
    plot_line(plot, running_line, colour(Colour::decode), 2.0f);
    for (int col = 0; col < columns; ++col)
        if (c.preempted[static_cast<size_t>(col)] > 0) {
            const float px = plot.min.x + static_cast<float>(col) + 0.5f;
            draw->AddLine(ImVec2(px, plot.min.y), ImVec2(px, plot.min.y + 10), colour(Colour::failure), 2.0f);
        }
    const float cursor = plot.sx(now_s);
    draw->AddLine(ImVec2(cursor, plot.min.y - 4), ImVec2(cursor, plot.max.y), colour(Colour::accent), 2.0f);
}

// Under the pointer: a line at its column and that column's figures.
void timeline_tooltip(const Plot& plot, const Columns& c) {
    const int columns = static_cast<int>(c.running.size());
    const float mx = std::clamp(ImGui::GetIO().MousePos.x, plot.min.x, plot.max.x - 1);
    const double t = plot.x_at(mx);
    const size_t i = static_cast<size_t>(std::clamp(static_cast<int>(mx - plot.min.x), 0, columns - 1));
    ImGui::GetWindowDrawList()->AddLine(ImVec2(mx, plot.min.y), ImVec2(mx, plot.max.y), colour(Colour::text_muted, 0.6f));
    ImGui::BeginTooltip();
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted(kv::format_duration(t).c_str());
    ImGui::PopFont();
    const int32_t r = c.running[i] >= 0 ? c.running[i] : 0;
    swatch(Colour::decode);
    ImGui::TextUnformatted(("running " + kv::format_count(r)).c_str());
    swatch(Colour::text);
    ImGui::TextUnformatted(("waiting " + kv::format_count(c.waiting[i])).c_str());
    swatch(Colour::kv_used);
    ImGui::TextUnformatted(("KV cache usage " + kv::format_percent(c.used[i], 1)).c_str());
    if (c.preempted[i] > 0) text_in(Colour::failure, kv::format_count(c.preempted[i]) + " preempted");
    text_muted("click to go there");
    ImGui::EndTooltip();
}

void timeline(kvapp::Panel& panel, const Moment& now) {
    const kv::Simulation& sim = panel.simulation;
    heading("Running, waiting and KV cache usage over the run");
    const double end = std::max(run_end_s(sim), 1e-3);
    int32_t most = 1;
    for (const kv::SimStep& s : sim.steps) most = std::max({most, s.running, s.waiting});
    Axis x;
    x.max = end;
    x.ticks = linear_ticks(0, end, 6, time_tick);
    x.title = "simulated time";
    Axis y;
    y.max = most * 1.1;
    y.ticks = linear_ticks(0, y.max, 4, count_tick);
    y.title = "requests";
    Axis right;
    right.max = 1.1;
    right.ticks = {{0, percent_tick(0)}, {0.5, percent_tick(0.5)}, {1.0, percent_tick(1.0)}};
    right.title = "KV cache usage";
    const Plot plot = begin_plot("##timeline", 210.0f, x, y, &right);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();

    const Columns columns = thin_to_columns(sim, std::max(1, static_cast<int>(plot.max.x - plot.min.x)), end);
    draw_timeline(plot, columns, y.max / right.max, now.now_s);
    if (hovered) timeline_tooltip(plot, columns);
    if (clicked) kvapp::seek(panel, frame_at(sim, plot.x_at(ImGui::GetIO().MousePos.x)));
    legend({
        {Colour::decode, 0, "", "running", nullptr},
        {Colour::text, 0, "", "waiting, dashed", nullptr},
        {Colour::kv_used, 0, "", "KV cache usage (right scale)", nullptr},
        {Colour::failure, 0, "", "preemption",
         "A tick at the top for each pixel of time in which the scheduler preempted a request to free blocks."},
        {Colour::accent, 0, "", "the moment shown", nullptr},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Latency and throughput: latency()
// The whole run, as a Prometheus scrape at its end would report it.
//-----------------------------------------------------------------------------

// The run's cost at the reader's GPU-hour price (drawn only when one is set: the knob says "none").
Figure cost_figure(const kvapp::Panel& panel) {
    const kv::RunCost& c = panel.simulation.summary.cost;
    const char* help =
        "The engine's GPUs for the run's duration at the GPU-hour price, split as its steps spend their time: decodes "
        "costed alone to the output tokens, what prompt chunks add to the prompt tokens computed. A prompt token found in "
        "the prefix cache takes no GPU time of its own (cached: 0 here); a provider's lower price for it pays for the "
        "blocks that hold it.";
    return {"cost per million output", kv::format_significant(c.per_million_output_tokens, 2),
            "prompt tokens: " + kv::format_significant(c.per_million_prompt_tokens, 2) + " per million computed", Colour::decode, help};
}

void latency(const kvapp::Panel& panel) {
    const kv::SimSummary& s = panel.simulation.summary;
    heading("Latency and throughput over the whole run");
    if (const std::string note = kv::load_note(s); !note.empty()) text_wrapped(note, Colour::failure);
    {
        Grid grid({{.weight = 1.6f}, {.header = "p50"}, {.header = "p90"}, {.header = "p99"}, {.header = "mean"}}, grid_ruled);
        grid.headers();
        const auto row = [&grid](const char* name, const char* help, const kv::Percentiles& p, Colour c) {
            grid.next_row();
            grid.next_cell();
            swatch(c);
            ImGui::TextUnformatted(name);
            if (help) help_marker(help);
            for (double v : {p.p50, p.p90, p.p99, p.mean}) {
                grid.next_cell();
                ImGui::TextUnformatted(p.count > 0 ? kv::format_duration(v).c_str() : "none");
            }
        };
        row("time to first token",
            "vllm:time_to_first_token_seconds: arrival to first token, queueing and prefill "
            "chunks included.",
            s.ttft_s, Colour::prefill);
        row("inter-token latency",
            "vllm:inter_token_latency_seconds: the gap between a request's tokens, one decode "
            "step, longer when prefill chunks ride along.",
            s.itl_s, Colour::decode);
        row("end to end", "Arrival to last token.", s.e2e_s, Colour::text);
        grid.end();
    }
    std::vector<Figure> figures = {
        {"generation", kv::format_tokens_per_s(s.generation_tokens_per_s), "output tokens over the run", Colour::decode, nullptr},
        {"prompt", kv::format_tokens_per_s(s.prompt_tokens_per_s), "prefill, recomputation included", Colour::prefill,
         "Prompt tokens computed per second: a prefix cache hit is not computed, a preempted request's prompt is "
         "computed again."},
        {"preemptions", kv::format_count(s.preemptions), "requests recomputed", s.preemptions > 0 ? Colour::failure : Colour::text,
         "vllm:num_preemptions_total at the end of the run: each time a running request gave its blocks back "
         "and went back to the queue, to be computed again from its first token."},
        {"prefix hit rate", kv::format_percent(s.prefix_hit_rate, 1), "of the prompt tokens looked up", Colour::prefill,
         "Tokens found in the prefix cache over prompt tokens queried, as the stats line's \"Prefix cache hit rate\"."},
        {"peak KV usage", kv::format_percent(s.peak_kv_cache_usage, 1), "of the pool, held at once", Colour::kv_used, nullptr},
        {"finished", kv::format_count(s.finished),
         s.rejected > 0 ? kv::format_count(s.rejected) + " rejected (longer than max_model_len)"
                        : "in " + kv::format_duration(s.duration_s),
         s.rejected > 0 ? Colour::failure : Colour::text, nullptr},
    };
    if (panel.workload.gpu_hour_price > 0) figures.push_back(cost_figure(panel));
    figure_row(figures);
}

//-----------------------------------------------------------------------------
// [SECTION] The engine's stats lines: stats_lines()
// vLLM prints one every 10 s of its time; those printed by the moment shown, the last few.
// Lesson: 09-real-system.md#checking-the-arithmetic-on-a-real-system reads one.
//-----------------------------------------------------------------------------

void stats_lines(const kvapp::Panel& panel, const Moment& now) {
    const kv::Simulation& sim = panel.simulation;
    heading("The engine's stats lines");
    size_t printed = 0;  // the simulation times every line it prints (stats_line_s)
    while (printed < sim.stats_lines.size() && sim.stats_line_s[printed] <= now.now_s) ++printed;
    log_tail(sim.stats_lines, printed, 5, "None yet: the engine prints one every 10 s.");
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Panel: panel_serving()
//-----------------------------------------------------------------------------

void panel_serving(kvapp::Panel& panel) {
    if (panel.focus.empty()) title(panel);  // beside the text, the header above names the scenario
    const Moment now = moment(panel);
    const bool refused = panel.result.status == kv::Status::engine_refused;
    const bool ran = !refused && !panel.simulation_error && now.frame;
    const auto if_ran = [&](auto draw) {
        return [&, draw] {
            if (ran) draw();
        };
    };
    // Play first, then the knobs, the failing states under the knobs that fix them, then the run.
    // Drawn while the first run is under way too, so Play is the first item keyboard focus finds.
    if (ran || panel.pending) transport(panel, now);
    std::vector<std::string_view> which = {"model",
                                           "gpu",
                                           "gpu_memory_utilization",
                                           "kv_cache_dtype",
                                           "max_num_seqs",
                                           "max_num_batched_tokens",
                                           "workload",
                                           "rate_per_s",
                                           "requests",
                                           "shared_prefix_tokens",
                                           "prefix_caching",
                                           "kv_offloading_size_gib",
                                           "gpu_hour_price",
                                           "seed"};
    if (panel.workload.name == "fixed") which.insert(which.begin() + 2, {"prompt_tokens", "output_tokens"});
    const std::vector<Part> parts = {
        {{},
         [&] {
             rejected_input_banner(panel);
             if (refused) failure_banner(panel.result);
             else if (panel.simulation_error) text_wrapped("The run did not start: " + panel.simulation_error->message, Colour::failure);
             else if (!now.frame) text_muted(panel.pending ? "Simulating the run..." : "The run recorded no steps.");
             if (!panel.simulation.note.empty()) text_wrapped(panel.simulation.note, Colour::text_muted);
         },
         true},
        // The pool is drawn first for what it measures; a shared prefix's length is its knob's to show.
        {{"simulation.peak_kv_cache_usage", "simulation.prefix_hit_rate", "simulation.pool_blocks"},
         if_ran([&] { serving::block_pool(panel, now); })},
        {{"simulation.mean_running", "simulation.peak_kv_cache_usage", "simulation.duration_s"}, if_ran([&] { timeline(panel, now); })},
        {{"simulation.ttft_s", "simulation.itl_s", "simulation.e2e_s", "simulation.tpot_s", "simulation.generation_tokens_per_s",
          "simulation.prompt_tokens_per_s", "simulation.preemptions", "simulation.prefix_hit_rate", "simulation.finished",
          "simulation.rejected", "simulation.sustained_rate_per_s", "simulation.offered_rate_per_s", "simulation.load", "simulation.cost"},
         if_ran([&] { latency(panel); })},
        {{"simulation.stats_lines", "simulation.metrics"}, if_ran([&] { stats_lines(panel, now); })},
    };
    draw_parts(panel, which, parts, "Engine and workload");
    keyboard_hint();
    if (ran) text_wrapped("Play is the panel's first control: Space plays and pauses, Step moves one frame.", Colour::text_muted);
}

}  // namespace kvui
