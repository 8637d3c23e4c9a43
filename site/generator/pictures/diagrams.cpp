// The diagrams of the mechanisms: the K and V one token leaves in the cache (kv-tensor), query heads
// grouped onto KV heads (gqa), and the memory CUDA reports split in the engine's order (budget).
#include <algorithm>

#include "base/format.hpp"
#include "pictures/drawings.hpp"

namespace site::drawing {
namespace {

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

}  // namespace

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
    // Two lines: one would run past a phone's column.
    svg.text(10, 180, "KV cache per token: " + kv::format_bytes(gqa_bytes) + " grouped,", "start", "p-strong");
    svg.text(10, 197, kv::format_bytes(mha_bytes) + " multi-head (" + kv::format_factor(mha_bytes / gqa_bytes, 2) + ")", "start",
             "p-strong");
    Picture p;
    p.title = "Grouped-query attention: query heads sharing KV heads (" + r.model.name + ")";
    p.desc = r.model.name + " groups its " + h + " query heads onto " + k + " KV heads, " + kv::format_count(heads / kv_heads) +
             " to each, and caches " + kv::format_bytes(gqa_bytes) +
             " per token; with a K and V head for every query head it would cache " + kv::format_bytes(mha_bytes) + ", " +
             kv::format_factor(mha_bytes / gqa_bytes, 2) + " as much.";
    p.svg = svg.finish(208, id, p.title, p.desc);
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

}  // namespace site::drawing
