// The simulation's latency summaries (internal to serving/): Prometheus histograms with the buckets
// vLLM declares (vllm/v1/metrics/loggers.py) and nearest-rank percentiles.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "serving/simulate.hpp"

namespace kv::sim {

inline const std::vector<double> ttft_buckets_s = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
                                                   1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
inline const std::vector<double> itl_buckets_s = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                                  0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};

// Samples in the order they were taken, equal neighbours kept as one run: the requests decoding in
// one step share one inter-token gap, so a run of millions of tokens keeps about one entry a step
// (one float a token took 29 MB for the lesson's crowded reasoning run, the module's largest block).
class SampleRuns {
public:
    void push(double value) {
        if (!runs_.empty() && runs_.back().value == value && runs_.back().count < UINT32_MAX) ++runs_.back().count;
        else runs_.push_back({value, 1});
        ++count_;
    }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }

    // f(value, count) for each run, in the order taken.
    template <typename F>
    void each(F f) const {
        for (const Run& r : runs_) f(r.value, r.count);
    }
    // The rank-th smallest sample (from 0); sorts the runs.
    double at_rank(size_t rank);  // metrics.cpp: once per percentile, so compiled for size in the page

private:
    struct Run {
        double value;
        uint32_t count;
    };
    std::vector<Run> runs_;
    size_t count_ = 0;
};

// Prometheus histogram of `samples`; the sum adds them in the order taken.
inline Histogram histogram_of(const std::vector<double>& bounds, const SampleRuns& samples) {
    Histogram h;
    h.upper_bounds = bounds;
    h.cumulative.assign(bounds.size(), 0);
    samples.each([&](double v, uint32_t count) {
        size_t bucket = 0;  // most samples fall in the first buckets: a linear scan beats bisection
        while (bucket < bounds.size() && v > bounds[bucket]) ++bucket;
        if (bucket < bounds.size()) h.cumulative[bucket] += count;
        for (uint32_t k = 0; k < count; ++k) h.sum += v;
    });
    for (size_t i = 1; i < h.cumulative.size(); ++i) h.cumulative[i] += h.cumulative[i - 1];
    h.count = static_cast<int64_t>(samples.size());
    return h;
}

// Nearest-rank percentiles of `samples`; sorts them.
inline Percentiles percentiles_of(SampleRuns& samples) {
    Percentiles p;
    p.count = static_cast<int64_t>(samples.size());
    if (samples.empty()) return p;
    double sum = 0;
    samples.each([&](double v, uint32_t count) {
        for (uint32_t k = 0; k < count; ++k) sum += v;
    });
    p.mean = sum / static_cast<double>(samples.size());
    auto at = [&](double q) { return samples.at_rank(static_cast<size_t>(std::ceil(q * static_cast<double>(samples.size()))) - 1); };
    p.p50 = at(0.50);
    p.p90 = at(0.90);
    p.p99 = at(0.99);
    return p;
}

}  // namespace kv::sim
