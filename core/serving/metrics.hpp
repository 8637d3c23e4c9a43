// The simulation's latency summaries (internal to serving/): Prometheus histograms with the buckets
// vLLM declares (vllm/v1/metrics/loggers.py) and nearest-rank percentiles.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "serving/simulate.hpp"

namespace kv::sim {

inline const std::vector<double> ttft_buckets_s = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
                                                   1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
inline const std::vector<double> itl_buckets_s = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                                  0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};

template <typename T>
Histogram histogram_of(const std::vector<double>& bounds, const std::vector<T>& samples) {
    Histogram h;
    h.upper_bounds = bounds;
    h.cumulative.assign(bounds.size(), 0);
    for (const T sample : samples) {
        const auto v = static_cast<double>(sample);
        size_t bucket = 0;  // most samples fall in the first buckets: a linear scan beats bisection
        while (bucket < bounds.size() && v > bounds[bucket]) ++bucket;
        if (bucket < bounds.size()) ++h.cumulative[bucket];
        h.sum += v;
    }
    for (size_t i = 1; i < h.cumulative.size(); ++i) h.cumulative[i] += h.cumulative[i - 1];
    h.count = static_cast<int64_t>(samples.size());
    return h;
}

// Nearest-rank percentiles; reorders `samples`.
template <typename T>
Percentiles percentiles_of(std::vector<T>& samples) {
    Percentiles p;
    p.count = static_cast<int64_t>(samples.size());
    if (samples.empty()) return p;
    double sum = 0;
    for (const T v : samples) sum += static_cast<double>(v);
    p.mean = sum / static_cast<double>(samples.size());
    auto at = [&](double q) {
        const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(samples.size()))) - 1;
        std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(rank), samples.end());
        return static_cast<double>(samples[rank]);
    };
    p.p50 = at(0.50);
    p.p90 = at(0.90);
    p.p99 = at(0.99);
    return p;
}

}  // namespace kv::sim
