#include "serving/metrics.hpp"

#include <algorithm>

namespace kv {

double Histogram::quantile(double q) const {
    if (count == 0) return 0.0;
    const double rank = q * static_cast<double>(count);
    int64_t below = 0;
    for (size_t i = 0; i < upper_bounds.size(); ++i) {
        if (static_cast<double>(cumulative[i]) >= rank) {
            const double lower = i == 0 ? 0.0 : upper_bounds[i - 1];
            const auto in_bucket = static_cast<double>(cumulative[i] - below);
            return lower + (upper_bounds[i] - lower) * (rank - static_cast<double>(below)) / std::max(1.0, in_bucket);
        }
        below = cumulative[i];
    }
    return upper_bounds.empty() ? 0.0 : upper_bounds.back();  // Prometheus reports the top bound for +Inf
}

}  // namespace kv

namespace kv::sim {

double SampleRuns::at_rank(size_t rank) {
    std::sort(runs_.begin(), runs_.end(), [](const Run& a, const Run& b) { return a.value < b.value; });
    for (const Run& r : runs_) {
        if (rank < r.count) return r.value;
        rank -= r.count;
    }
    return runs_.back().value;
}

}  // namespace kv::sim
