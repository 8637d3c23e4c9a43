// The charts, log-log over numbers the core computes: the roofline (attainable FLOP/s against
// arithmetic intensity), a decode step's two intensities against the batch, and the sequences
// the KV pool holds against the prompt length (the scenario re-run through evaluate).
#include <algorithm>
#include <cmath>
#include <vector>

#include "base/format.hpp"
#include "pictures/drawings.hpp"
#include "time/step_time.hpp"

namespace site::drawing {
namespace {

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

// Axis lines, decade ticks and their labels for a log-log chart.
template <typename XLabel, typename YLabel>
void log_axes(Svg& svg, const Axis& x, const Axis& y, const XLabel& x_label, const YLabel& y_label, double x_step = 10) {
    svg.line(x.from, y.from, x.to, y.from, "p-axis");
    svg.line(x.from, y.from, x.from, y.to, "p-axis");
    // Over more than four steps every other tick is labelled, so a phone's labels do not meet.
    const int every = std::log(x.max / x.min) / std::log(x_step) > 4.01 ? 2 : 1;
    int tick = 0;
    for (double v = x.min; v <= x.max * 1.0001; v *= x_step, ++tick) {
        svg.line(x.at(v), y.from, x.at(v), y.from + 4, "p-axis");
        if (tick % every != 0) continue;
        // The first label starts at its tick (clear of the y axis's labels), the last ends at its
        // tick (inside the picture), however narrow the picture is drawn.
        const bool first = tick == 0, last = v * x_step > x.max * 1.0001;
        svg.text(x.at(v), y.from + 16, x_label(v), first ? "start" : last ? "end" : "middle", "p-small");
    }
    for (double v = y.min; v <= y.max * 1.0001; v *= 10) {
        svg.line(x.from - 4, y.at(v), x.from, y.at(v), "p-axis");
        svg.line(x.from, y.at(v), x.to, y.at(v), "p-grid");
        svg.text(x.from - 6, y.at(v) + 4, y_label(v), "end", "p-small");
    }
}

// The rate a phase runs at: its FLOPs over the time its compute or memory sets.
double attained_flops_per_s(const kv::PhaseTiming& phase) { return phase.flops / std::max(phase.compute_s, phase.memory_s); }

// The ridge moves with the matmuls' precision (FP8 doubles the FLOP/s): a picture says which it drew.
std::string precision_note(const kv::Result& r) { return r.scenario.weight_dtype == kv::DType::fp8 ? " (FP8 matmuls)" : ""; }
std::string ridge_label(const kv::Result& r, double ridge) { return "ridge " + kv::format_intensity(ridge) + precision_note(r); }

}  // namespace

std::variant<Picture, std::string> roofline(const kv::Result& r, const std::string& id, Svg& svg) {
    if (r.admission.running == 0) return std::string("the roofline needs a scenario whose engine starts and runs a batch");
    const kv::StepTimes& t = r.steps;
    const double sheet_bytes = r.gpu.hbm_bytes_per_s, sheet_flops = t.peak_flops_per_s;
    const double decode_rate = attained_flops_per_s(t.decode), prefill_rate = attained_flops_per_s(t.prefill);
    Picture p;
    p.x = {decade_below(std::min(t.decode.arithmetic_intensity, t.ridge_flops_per_byte) / 2),
           decade_above(std::max(t.prefill.arithmetic_intensity, t.ridge_flops_per_byte) * 2), 70, width - 12, true};
    p.y = {decade_below(std::min(decode_rate, p.x.min * t.achieved_bytes_per_s)), decade_above(sheet_flops * 1.2), 224, 12, true};
    const Axis &x = p.x, &y = p.y;
    log_axes(
        svg, x, y, [](double v) { return kv::format_significant(v, 1); }, [](double v) { return kv::format_significant(v / 1e12, 1); });
    svg.text(x.from + 6, y.to + 8, "TFLOP/s", "start", "p-small p-muted");
    svg.text((x.from + x.to) / 2, 256, "arithmetic intensity (FLOP per byte moved)", "middle", "p-muted");
    const double sheet_ridge = sheet_flops / sheet_bytes;
    svg.polyline({{x.at(x.min), y.at(x.min * sheet_bytes)}, {x.at(sheet_ridge), y.at(sheet_flops)}, {x.to, y.at(sheet_flops)}},
                 "p-roof-sheet");
    svg.polyline({{x.at(x.min), y.at(x.min * t.achieved_bytes_per_s)},
                  {x.at(t.ridge_flops_per_byte), y.at(t.achieved_flops_per_s)},
                  {x.to, y.at(t.achieved_flops_per_s)}},
                 "p-roof");
    svg.line(x.at(t.ridge_flops_per_byte), y.from, x.at(t.ridge_flops_per_byte), y.at(t.achieved_flops_per_s), "pic-ridge p-dotted");
    svg.text(x.at(t.ridge_flops_per_byte) + 4, y.from - 6, ridge_label(r, t.ridge_flops_per_byte), "start", "p-small");
    // The legend sits in the empty corner above the sloped roof.
    svg.line(x.from + 10, y.to + 22, x.from + 30, y.to + 22, "p-roof-sheet");
    svg.text(x.from + 36, y.to + 26, "data sheet: " + kv::format_flops_per_s(sheet_flops) + ", " + kv::format_bandwidth(sheet_bytes),
             "start", "p-small");
    svg.line(x.from + 10, y.to + 37, x.from + 30, y.to + 37, "p-roof");
    svg.text(x.from + 36, y.to + 41,
             "achieved: " + kv::format_flops_per_s(t.achieved_flops_per_s) + ", " + kv::format_bandwidth(t.achieved_bytes_per_s), "start",
             "p-small");
    svg.circle(x.at(t.decode.arithmetic_intensity), y.at(decode_rate), 5, "c-decode");
    // Above and left of the point, over the sloped roof, where nothing else is drawn.
    svg.text(x.at(t.decode.arithmetic_intensity) - 8, y.at(decode_rate) - 8,
             "decode, batch " + count(static_cast<double>(r.admission.running)), "end");
    svg.circle(x.at(t.prefill.arithmetic_intensity), y.at(prefill_rate), 5, "c-prefill");
    svg.text(x.at(t.prefill.arithmetic_intensity), y.at(prefill_rate) + 20, "prefill", "middle");
    p.title = "The roofline of the " + r.gpu.name + ", and where decode and prefill sit";
    p.desc = "Attainable FLOP/s against arithmetic intensity, both on log scales. The data sheet's roof is " +
             kv::format_flops_per_s(sheet_flops) + " and " + kv::format_bandwidth(sheet_bytes) +
             "; the achieved roof the step times use is " + kv::format_flops_per_s(t.achieved_flops_per_s) + " and " +
             kv::format_bandwidth(t.achieved_bytes_per_s) + ", so its ridge point is at " + kv::format_intensity(t.ridge_flops_per_byte) +
             precision_note(r) + ". A decode step of " + count(static_cast<double>(r.admission.running)) + " sequences does " +
             kv::format_intensity(t.decode.arithmetic_intensity) + " (" + kv::format_flops_per_s(decode_rate) + ", " +
             kv::bound_name(t.decode.bound) + "-bound); the prefill of one " + count(static_cast<double>(r.scenario.prompt_tokens)) +
             "-token prompt does " + kv::format_intensity(t.prefill.arithmetic_intensity) + " (" + kv::format_flops_per_s(prefill_rate) +
             ", " + kv::bound_name(t.prefill.bound) + "-bound).";
    p.svg = svg.finish(264, id, p.title, p.desc);
    return p;
}

std::variant<Picture, std::string> intensity(const kv::Result& r, const std::string& id, Svg& svg) {
    const int64_t context = r.scenario.prompt_tokens + r.scenario.output_tokens;
    const double ridge = r.steps.ridge_flops_per_byte;
    std::vector<int64_t> batches;
    for (int64_t b = 1; b <= 1024; b *= 2) batches.push_back(b);
    std::vector<kv::DecodeIntensities> points;
    points.reserve(batches.size());
    for (int64_t b : batches) points.push_back(kv::decode_intensities(kv::step_engine(r), b, context));
    const double kv_level = points.front().kv_flops_per_byte;
    if (kv_level <= 0) return std::string("the intensity picture needs a model with a KV cache");
    Picture p;
    p.x = {1, 1024, 60, width - 12, true};
    p.y = {decade_below(std::min(kv_level, points.front().weight_flops_per_byte)),
           decade_above(std::max(ridge, points.back().weight_flops_per_byte) * 1.2), 214, 12, true};
    const Axis &x = p.x, &y = p.y;
    log_axes(
        svg, x, y, [](double v) { return count(v); }, [](double v) { return kv::format_significant(v, 1); }, 4);
    svg.text((x.from + x.to) / 2, 246, "sequences in the decode step (batch)", "middle", "p-muted");
    svg.text(x.from + 6, y.to + 8, "FLOP per byte read", "start", "p-small p-muted");
    std::vector<std::pair<double, double>> weight_line, kv_line;
    for (size_t i = 0; i < batches.size(); ++i) {
        weight_line.push_back({x.at(static_cast<double>(batches[i])), y.at(points[i].weight_flops_per_byte)});
        kv_line.push_back({x.at(static_cast<double>(batches[i])), y.at(points[i].kv_flops_per_byte)});
    }
    svg.line(x.from, y.at(ridge), x.to, y.at(ridge), "p-dotted");
    svg.text(x.from + 4, y.at(ridge) - 5, ridge_label(r, ridge), "start", "p-small");
    svg.polyline(weight_line, "c-weights p-series");
    svg.polyline(kv_line, "c-kv-used p-series");
    // Above and left of the rising line, where the chart is empty.
    svg.text(x.at(64) - 8, y.at(points[6].weight_flops_per_byte) - 8, "weight read", "end");
    svg.text(x.to, y.at(kv_level) - 6, "KV-cache read", "end");
    const double here = static_cast<double>(std::clamp<int64_t>(r.admission.running, 1, 1024));
    const kv::DecodeIntensities at_here = kv::decode_intensities(kv::step_engine(r), static_cast<int64_t>(here), context);
    svg.circle(x.at(here), y.at(at_here.weight_flops_per_byte), 4, "c-weights");
    svg.circle(x.at(here), y.at(at_here.kv_flops_per_byte), 4, "c-kv-used");
    const std::string group = kv::format_count(r.model.num_attention_heads / std::max<int64_t>(1, r.model.num_key_value_heads));
    p.title = "A decode step's two arithmetic intensities against the batch";
    p.desc = "Reading the weights does " + kv::format_intensity(points.front().weight_flops_per_byte) + " for one sequence and " +
             kv::format_intensity(points.back().weight_flops_per_byte) +
             " for 1,024: every sequence in the batch reuses the same bytes. Reading the KV cache stays at " +
             kv::format_intensity(kv_level) + " whatever the batch (" + group + " query heads per KV head" +
             (r.scenario.kv_cache_dtype == kv::DType::fp8 ? ", on one-byte FP8 values" : "") +
             "), because each sequence reads only its own cache. The ridge point is " + kv::format_intensity(ridge) + precision_note(r) +
             "; this scenario decodes " + count(static_cast<double>(r.admission.running)) + " sequences.";
    p.svg = svg.finish(254, id, p.title, p.desc);
    return p;
}

std::variant<Picture, std::string> resident(const kv::Result& r, const std::string& id, Svg& svg) {
    std::vector<std::pair<double, double>> points;  // (prompt tokens, sequences the pool holds)
    for (int64_t prompt = 512; prompt + r.scenario.output_tokens <= r.memory.limits.max_model_len; prompt *= 2) {
        kv::Scenario s = r.scenario;
        s.prompt_tokens = prompt;
        auto outcome = kv::evaluate(s);
        if (auto* e = std::get_if<kv::Result>(&outcome); e && e->status == kv::Status::ok)
            points.push_back({static_cast<double>(prompt), static_cast<double>(e->admission.max_resident_sequences)});
    }
    if (points.size() < 2 || points.back().second <= 0)
        return std::string("the resident picture needs an engine that starts and holds sequences");
    Picture p;
    p.x = {decade_below(points.front().first), decade_above(points.back().first), 60, width - 12, true};
    p.y = {1, decade_above(std::max(points.front().second, static_cast<double>(r.scenario.concurrent_requests)) * 1.2), 204, 12, true};
    const Axis &x = p.x, &y = p.y;
    log_axes(
        svg, x, y, [](double v) { return count(v); }, [](double v) { return count(v); });
    svg.text((x.from + x.to) / 2, 236, "prompt tokens per request", "middle", "p-muted");
    svg.text(x.from + 6, y.to + 8, "sequences the pool holds", "start", "p-small p-muted");
    const double requests = static_cast<double>(r.scenario.concurrent_requests);
    svg.line(x.from, y.at(requests), x.to, y.at(requests), "p-dotted");
    svg.text(x.to, y.at(requests) - 5, count(requests) + " requests", "end", "p-small");
    std::vector<std::pair<double, double>> line;
    line.reserve(points.size());
    for (const auto& [prompt, held] : points) line.push_back({x.at(prompt), y.at(std::max(1.0, held))});
    svg.polyline(line, "c-kv-used p-series");
    for (const auto& [px, py] : line) svg.circle(px, py, 2.5, "c-kv-used");
    svg.circle(x.at(static_cast<double>(r.scenario.prompt_tokens)),
               y.at(std::max<double>(1, static_cast<double>(r.admission.max_resident_sequences))), 5, "c-decode");
    p.title = "Sequences the KV pool holds against the prompt length (" + r.model.name + ", " + r.gpu.name + ")";
    p.desc = "With " + count(static_cast<double>(r.scenario.output_tokens)) + " output tokens each, the pool holds " +
             count(points.front().second) + " sequences of " + count(points.front().first) + "-token prompts and " +
             count(points.back().second) + " of " + count(points.back().first) + "-token prompts; at " +
             count(static_cast<double>(r.scenario.prompt_tokens)) + " tokens it holds " +
             count(static_cast<double>(r.admission.max_resident_sequences)) + ", against " + count(requests) + " concurrent requests.";
    p.svg = svg.finish(244, id, p.title, p.desc);
    return p;
}

}  // namespace site::drawing
