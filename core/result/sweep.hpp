// The batching-ceiling panel's curves: the same scenario re-evaluated across batch sizes and across
// tensor-parallel sizes. Each point is a full evaluate_resolved(), so the curves cannot disagree
// with the single-scenario numbers.
#pragma once
#include <cstdint>
#include <vector>

#include "result/evaluate.hpp"

namespace kv {

struct BatchPoint {
    int64_t batch = 0;
    double step_s = 0;        // = per-stream ITL
    double tokens_per_s = 0;  // aggregate
    double weight_share = 0;
    Bound bound = Bound::none;
};

struct BatchSweep {
    std::vector<BatchPoint> points;  // batch 1 .. the largest the pool and max_num_seqs allow
    int64_t pool_limit = 0;          // max_resident_sequences
    double amortised_batch = 0;      // batch at which the cache read equals the weight read
};

// At most `max_points` batches, every batch up to 64 and then evenly spaced.
BatchSweep sweep_batch(const Result& base, int max_points = 128, const Calibration& calibration = {});

struct TensorParallelPoint {
    int64_t tensor_parallel_size = 0;
    bool valid = false;  // the engine accepts this tensor-parallel size for the model's heads
    Result result;       // per-rank figures
};

std::vector<TensorParallelPoint> sweep_tensor_parallel(const Result& base, const Calibration& calibration = {});

}  // namespace kv
