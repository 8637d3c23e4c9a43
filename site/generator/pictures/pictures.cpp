#include "pictures/pictures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "base/format.hpp"
#include "page/article.hpp"
#include "time/step_time.hpp"

namespace site {
namespace {

// The SVG's user units: 400 wide, so 12-unit text is about 11 px on a phone and 16 px at the
// reading column's width (lesson.css caps the picture there).
constexpr double width = 400;

// Collects SVG elements; a non-finite coordinate marks the picture as failed instead of writing NaN.
class Svg {
public:
    std::string num(double v) {
        if (!std::isfinite(v)) {
            bad_ = true;
            return "0";
        }
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.1f", v);
        std::string s = buffer;
        if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
        return s == "-0" ? "0" : s;
    }
    void rect(double x, double y, double w, double h, const std::string& cls) {
        body_ +=
            "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" class=\"" + cls + "\"/>";
    }
    void line(double x1, double y1, double x2, double y2, const std::string& cls) {
        body_ +=
            "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" class=\"" + cls + "\"/>";
    }
    void circle(double x, double y, double r, const std::string& cls) {
        body_ += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\" class=\"" + cls + "\"/>";
    }
    // Many rectangles of one class as one path: a picture of dozens of heads stays small.
    std::string box(double x, double y, double w, double h) {
        return "M" + num(x) + " " + num(y) + "h" + num(w) + "v" + num(h) + "h" + num(-w) + "z";
    }
    std::string segment(double x1, double y1, double x2, double y2) {
        return "M" + num(x1) + " " + num(y1) + "L" + num(x2) + " " + num(y2);
    }
    void path(const std::string& d, const std::string& cls) { body_ += "<path d=\"" + d + "\" class=\"" + cls + "\"/>"; }
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& cls) {
        std::string p;
        for (const auto& [x, y] : points) p += (p.empty() ? "" : " ") + num(x) + "," + num(y);
        body_ += "<polyline points=\"" + p + "\" class=\"" + cls + "\"/>";
    }
    // anchor: start, middle or end.
    void text(double x, double y, const std::string& s, const std::string& anchor = "start", const std::string& cls = "") {
        body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (anchor == "start" ? "" : " text-anchor=\"" + anchor + "\"") +
                 (cls.empty() ? "" : " class=\"" + cls + "\"") + ">" + escape_html(s) + "</text>";
    }
    bool bad() const { return bad_; }
    std::string finish(double height, const std::string& id, const std::string& title, const std::string& desc) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"kv-picture__svg\" viewBox=\"0 0 " + num(width) + " " +
               num(height) + "\" aria-labelledby=\"" + id + "-t " + id + "-d\"><title id=\"" + id + "-t\">" + escape_html(title) +
               "</title><desc id=\"" + id + "-d\">" + escape_html(desc) + "</desc>" + body_ + "</svg>";
    }

private:
    std::string body_;
    bool bad_ = false;
};

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

// Axis lines, decade ticks and their labels for a log-log chart.
template <typename XLabel, typename YLabel>
void log_axes(Svg& svg, const Axis& x, const Axis& y, const XLabel& x_label, const YLabel& y_label, double x_step = 10) {
    svg.line(x.from, y.from, x.to, y.from, "p-axis");
    svg.line(x.from, y.from, x.from, y.to, "p-axis");
    for (double v = x.min; v <= x.max * 1.0001; v *= x_step) {
        svg.line(x.at(v), y.from, x.at(v), y.from + 4, "p-axis");
        svg.text(x.at(v), y.from + 16, x_label(v), "middle", "p-small");
    }
    for (double v = y.min; v <= y.max * 1.0001; v *= 10) {
        svg.line(x.from - 4, y.at(v), x.from, y.at(v), "p-axis");
        svg.line(x.from, y.at(v), x.to, y.at(v), "p-grid");
        svg.text(x.from - 6, y.at(v) + 4, y_label(v), "end", "p-small");
    }
}

std::string count(double v) { return kv::format_count(static_cast<int64_t>(std::llround(v))); }

Picture kv_tensor(const kv::Result& r, const std::string& id, Svg& svg) {
    const kv::KvLayout& l = r.memory.layout;
    const int64_t layers = l.layers, heads = l.kv_heads_per_rank, head_dim = r.model.head_dim;
    const int element_bytes = kv::bytes_per_element(r.scenario.kv_cache_dtype);
    const std::string shape = count(static_cast<double>(layers)) + " layers × " + count(static_cast<double>(heads)) + " KV heads × " +
                              count(static_cast<double>(head_dim)) + " values";
    // Two blocks, K and V: a row per layer, a column per KV head; one cell is one head's vector.
    const double top = 28, block_w = 170, block_h = 150, gap = 30, left = (width - 2 * block_w - gap) / 2;
    const double row = block_h / static_cast<double>(layers), col = block_w / static_cast<double>(heads);
    for (int b = 0; b < 2; ++b) {
        const double x0 = left + b * (block_w + gap);
        svg.text(x0 + block_w / 2, top - 8, b == 0 ? "K" : "V", "middle", "p-strong");
        svg.rect(x0, top, block_w, block_h, "c-kv-used p-light");
        std::string d;
        for (int64_t i = 1; i < heads; ++i)
            d += "M" + svg.num(x0 + col * static_cast<double>(i)) + " " + svg.num(top) + "v" + svg.num(block_h);
        for (int64_t i = 1; i < layers; ++i)
            d += "M" + svg.num(x0) + " " + svg.num(top + row * static_cast<double>(i)) + "h" + svg.num(block_w);
        svg.path(d, "p-cells");
        svg.rect(x0, top, col, row, "c-kv-used");
    }
    const double per_head = static_cast<double>(head_dim * element_bytes);
    svg.text(width / 2, top + block_h + 20, "each: " + shape, "middle");
    svg.text(width / 2, top + block_h + 38,
             "one cell: " + count(static_cast<double>(head_dim)) + " values × " + std::to_string(element_bytes) + " bytes (" +
                 kv::dtype_name(r.scenario.kv_cache_dtype) + ") = " + count(per_head) + " bytes",
             "middle", "p-muted");
    svg.text(width / 2, top + block_h + 60, "K + V of one token: " + kv::format_bytes(l.kv_bytes_per_token), "middle", "p-strong");
    Picture p;
    p.title = "The K and V one token leaves in the cache (" + r.model.name + ")";
    p.desc = "For every token the cache keeps a K and a V tensor of " + shape + ", " + std::to_string(element_bytes) + " bytes each (" +
             kv::dtype_name(r.scenario.kv_cache_dtype) + "): " + kv::format_bytes(l.kv_bytes_per_token) + " per token" +
             (r.scenario.tensor_parallel_size > 1 ? " on each GPU." : ".");
    p.svg = svg.finish(top + block_h + 72, id, p.title, p.desc);
    return p;
}

// One row of query heads over one row of KV heads, each query head joined to the KV head it reads.
void head_rows(Svg& svg, double y, int64_t queries, int64_t kv_heads, const std::string& label) {
    const double left = 10, span = width - 20, q_w = span / static_cast<double>(queries), k_w = span / static_cast<double>(kv_heads);
    const int64_t group = queries / kv_heads;
    svg.text(left, y, label);
    std::string query_boxes, links, kv_boxes;
    for (int64_t q = 0; q < queries; ++q) {
        const double qx = left + q_w * static_cast<double>(q);
        const int64_t kv_head = q / group;  // the KV head this query head's group reads
        const double kx = left + k_w * static_cast<double>(kv_head);
        query_boxes += svg.box(qx + 0.5, y + 8, std::max(1.0, q_w - 1), 12);
        links += svg.segment(qx + q_w / 2, y + 20, kx + k_w / 2, y + 44);
    }
    for (int64_t k = 0; k < kv_heads; ++k) kv_boxes += svg.box(left + k_w * static_cast<double>(k) + 1, y + 44, std::max(1.0, k_w - 2), 12);
    svg.path(links, "p-link");
    svg.path(query_boxes, "c-accent p-fill");
    svg.path(kv_boxes, "c-kv-used p-fill");
}

std::variant<Picture, std::string> gqa(const kv::Result& r, const std::string& id, Svg& svg) {
    kv::Scenario mha = r.scenario;
    mha.force_mha = true;
    auto widened = kv::evaluate(mha);
    if (auto* error = std::get_if<kv::InputError>(&widened)) return "its multi-head variant is rejected: " + error->message;
    const kv::Result& m = std::get<kv::Result>(widened);
    const int64_t heads = r.model.num_attention_heads, kv_heads = r.model.num_key_value_heads;
    const std::string h = count(static_cast<double>(heads)), k = count(static_cast<double>(kv_heads));
    head_rows(svg, 16, heads, kv_heads, "Grouped-query: " + h + " query heads share " + k + " KV heads");
    head_rows(svg, 100, heads, heads, "Multi-head: each query head has its own K and V");
    const double gqa_bytes = r.memory.layout.kv_bytes_per_token, mha_bytes = m.memory.layout.kv_bytes_per_token;
    svg.text(10, 180,
             "KV cache per token: " + kv::format_bytes(gqa_bytes) + " grouped, " + kv::format_bytes(mha_bytes) + " multi-head (" +
                 kv::format_factor(mha_bytes / gqa_bytes, 2) + ")",
             "start", "p-strong");
    Picture p;
    p.title = "Grouped-query attention: query heads sharing KV heads (" + r.model.name + ")";
    p.desc = r.model.name + " groups its " + h + " query heads onto " + k + " KV heads, " + kv::format_count(heads / kv_heads) +
             " to each, and caches " + kv::format_bytes(gqa_bytes) +
             " per token; with a K and V head for every query head it would cache " + kv::format_bytes(mha_bytes) + ", " +
             kv::format_factor(mha_bytes / gqa_bytes, 2) + " as much.";
    p.svg = svg.finish(192, id, p.title, p.desc);
    return p;
}

Picture budget(const kv::Result& r, const std::string& id, Svg& svg) {
    const kv::MemoryPlan& m = r.memory;
    struct Part {
        const char* label;
        const char* concept_class;
        double bytes;
    };
    std::vector<Part> parts = {{"Outside the budget", "c-outside-budget", r.admission.outside_budget_bytes},
                               {"Weights", "c-weights", m.weight_bytes},
                               {"Activation peak", "c-activation", m.activation_peak_bytes},
                               {"Non-torch memory", "c-non-torch", m.non_torch_bytes}};
    if (m.cuda_graph_in_budget) parts.push_back({"CUDA graphs", "c-cuda-graphs", m.cuda_graph_bytes});
    parts.push_back({"KV cache pool", "c-kv-used", std::max(0.0, m.available_kv_bytes)});
    const double left = 10, span = width - 20, scale = span / m.visible_bytes;
    double x = left;
    std::string listed;
    for (size_t i = 0; i < parts.size(); ++i) {
        const Part& part = parts[i];
        svg.rect(x, 10, part.bytes * scale, 36, std::string(part.concept_class) + " p-segment");
        x += part.bytes * scale;
        const double y = 64 + 20 * static_cast<double>(i);
        svg.rect(left, y, 12, 12, part.concept_class);
        svg.text(left + 20, y + 10, part.label);
        svg.text(width - 10, y + 10, kv::format_bytes(part.bytes), "end", "p-num");
        listed += std::string(i == 0 ? "" : ", ") + part.label + " " + kv::format_bytes(part.bytes);
    }
    const double bottom = 64 + 20 * static_cast<double>(parts.size()) + 12;
    svg.text(left, bottom,
             "CUDA reports " + kv::format_bytes(m.visible_bytes) + "; the budget is " +
                 kv::format_fixed(m.limits.gpu_memory_utilization, 2) + " of it",
             "start", "p-muted");
    Picture p;
    p.title = "Where the GPU's memory goes, in the engine's order";
    p.desc = "Of the " + kv::format_bytes(m.visible_bytes) + " CUDA reports (" + r.gpu.name + ", " + r.model.name + "): " + listed + ".";
    p.svg = svg.finish(bottom + 8, id, p.title, p.desc);
    return p;
}

// The rate a phase runs at: its FLOPs over the time its compute or memory sets.
double attained_flops_per_s(const kv::PhaseTiming& phase) { return phase.flops / std::max(phase.compute_s, phase.memory_s); }

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
    svg.text(x.at(t.ridge_flops_per_byte) + 4, y.from - 6, "ridge " + kv::format_intensity(t.ridge_flops_per_byte), "start", "p-small");
    // The legend sits in the empty corner above the sloped roof.
    svg.line(x.from + 10, y.to + 22, x.from + 30, y.to + 22, "p-roof-sheet");
    svg.text(x.from + 36, y.to + 26, "data sheet: " + kv::format_flops_per_s(sheet_flops) + ", " + kv::format_bandwidth(sheet_bytes),
             "start", "p-small");
    svg.line(x.from + 10, y.to + 37, x.from + 30, y.to + 37, "p-roof");
    svg.text(x.from + 36, y.to + 41,
             "achieved: " + kv::format_flops_per_s(t.achieved_flops_per_s) + ", " + kv::format_bandwidth(t.achieved_bytes_per_s), "start",
             "p-small");
    svg.circle(x.at(t.decode.arithmetic_intensity), y.at(decode_rate), 5, "c-decode");
    svg.text(x.at(t.decode.arithmetic_intensity) + 8, y.at(decode_rate) + 4, "decode, batch " + count(static_cast<double>(r.admission.running)));
    svg.circle(x.at(t.prefill.arithmetic_intensity), y.at(prefill_rate), 5, "c-prefill");
    svg.text(x.at(t.prefill.arithmetic_intensity), y.at(prefill_rate) + 20, "prefill", "middle");
    p.title = "The roofline of the " + r.gpu.name + ", and where decode and prefill sit";
    p.desc = "Attainable FLOP/s against arithmetic intensity, both on log scales. The data sheet's roof is " +
             kv::format_flops_per_s(sheet_flops) + " and " + kv::format_bandwidth(sheet_bytes) +
             "; the achieved roof the step times use is " + kv::format_flops_per_s(t.achieved_flops_per_s) + " and " +
             kv::format_bandwidth(t.achieved_bytes_per_s) + ", so its ridge point is at " + kv::format_intensity(t.ridge_flops_per_byte) +
             ". A decode step of " + count(static_cast<double>(r.admission.running)) + " sequences does " +
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
    p.x = {1, 1024, 50, width - 12, true};
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
    svg.text(x.from + 4, y.at(ridge) - 5, "ridge " + kv::format_intensity(ridge), "start", "p-small");
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
             kv::format_intensity(kv_level) + " whatever the batch (" + group +
             " query heads per KV head), because each sequence reads only its own cache. The ridge point is " +
             kv::format_intensity(ridge) + "; this scenario decodes " + count(static_cast<double>(r.admission.running)) + " sequences.";
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

}  // namespace

double Axis::at(double value) const {
    const double f = log ? (std::log10(value) - std::log10(min)) / (std::log10(max) - std::log10(min)) : (value - min) / (max - min);
    return from + f * (to - from);
}

std::string picture_names_list() {
    std::string out;
    for (const char* name : picture_names) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

std::variant<Picture, std::string> draw_picture(std::string_view name, const kv::Result& result, const std::string& id) {
    const bool has_heads = result.model.attention == kv::AttentionKind::standard && result.memory.layout.kv_heads_per_rank > 0;
    Svg svg;
    std::variant<Picture, std::string> out;
    if (name == "kv-tensor" || name == "gqa") {
        if (!has_heads) return "the " + std::string(name) + " picture needs a model with KV heads (" + result.model.name + " has none)";
        out = name == "gqa" ? gqa(result, id, svg) : kv_tensor(result, id, svg);
    } else if (name == "budget") {
        out = budget(result, id, svg);
    } else if (name == "roofline") {
        out = roofline(result, id, svg);
    } else if (name == "intensity") {
        out = intensity(result, id, svg);
    } else if (name == "resident") {
        out = resident(result, id, svg);
    } else {
        return "unknown picture \"" + std::string(name) + "\" (the pictures are: " + picture_names_list() + ")";
    }
    if (svg.bad()) return "the " + std::string(name) + " picture of this scenario has a coordinate that is not a number";
    return out;
}

std::string picture_figure_html(const Picture& picture, const std::string& id, const std::string& caption_html) {
    return "<figure class=\"kv-picture\" id=\"" + id + "\">" + picture.svg + "<figcaption>" +
           (caption_html.empty() ? escape_html(picture.title) : caption_html) + "</figcaption></figure>\n";
}

}  // namespace site
