// Which card a start-up log ran on, read from the memory it reports (log_explain.cpp's scenario).
#include "logs/log_gpu.hpp"

#include <cmath>

#include "base/format.hpp"
#include "base/units.hpp"
#include "model/catalog.hpp"

namespace kv {
namespace {

// The catalog GPU whose CUDA total is nearest the logged one.
const GpuSpec* gpu_for(double total_gib, bool& exact) {
    const GpuSpec* best = nullptr;
    for (const GpuSpec& g : builtin_catalog().gpus)
        if (!best || std::fabs(g.visible_memory_bytes / GiB - total_gib) < std::fabs(best->visible_memory_bytes / GiB - total_gib))
            best = &g;
    exact = best && std::fabs(best->visible_memory_bytes / GiB - total_gib) < 0.35;
    return best;
}

// The card's total where the log prints none, from the engine's own advice on the CUDA-graph
// estimate: 0.19's "from U to U2" keeps the pool with U2 = U + estimate / total, 0.20's "U is
// equivalent to U0" is U0 = U - estimate / total. Only where the printed digits fix it to a few
// percent: an estimate (two decimals) of a quarter GiB or more, utilisations (four) 0.005 apart.
std::optional<double> total_from_graph_advice(const ParsedLog& p) {
    if (!p.cuda_graph_estimate_gib || !p.gpu_memory_utilization) return std::nullopt;
    const double gap = p.suggested_utilization    ? *p.suggested_utilization - *p.gpu_memory_utilization
                       : p.equivalent_utilization ? *p.gpu_memory_utilization - *p.equivalent_utilization
                                                  : 0.0;
    if (*p.cuda_graph_estimate_gib < 0.25 || gap < 0.005) return std::nullopt;
    return *p.cuda_graph_estimate_gib / gap;
}

}  // namespace

// The card a log names by its memory (the logged total, else the one its CUDA-graph advice implies)
// into s.gpu, the match said where it is not exact; false, and the starting point's card where it names neither.
bool gpu_by_memory(const ParsedLog& p, Scenario& s, std::vector<std::string>& assumptions) {
    bool exact = false;
    if (p.total_gib) {
        s.gpu = gpu_for(*p.total_gib, exact)->name;
        if (!exact)
            assumptions.push_back("gpu " + s.gpu + ": the nearest catalog GPU to the logged " + format_fixed(*p.total_gib, 2) + " GiB");
        return true;
    }
    if (const double implied_total_gib = total_from_graph_advice(p).value_or(0.0); implied_total_gib > 0) {
        s.gpu = gpu_for(implied_total_gib, exact)->name;
        assumptions.push_back("gpu " + s.gpu + ": the nearest catalog GPU to the " + format_fixed(implied_total_gib, 1) +
                              " GiB that the log's advice on the CUDA-graph estimate implies (the estimate over the change of "
                              "utilisation it advises); give gpu if it is another card");
        return true;
    }
    s.gpu = starting_gpu;
    return false;
}

}  // namespace kv
