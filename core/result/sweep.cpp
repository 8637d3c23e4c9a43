#include "result/sweep.hpp"

#include "scenario/scenario_fields.hpp"

#include <algorithm>

namespace kv {

BatchSweep sweep_batch(const Result& base, int max_points, const Calibration& c) {
    BatchSweep sweep;
    sweep.pool_limit = base.admission.max_resident_sequences;
    if (base.admission.bytes_per_sequence > 0) sweep.amortised_batch = base.memory.weight_bytes / base.admission.bytes_per_sequence;
    const int64_t largest = std::min(base.admission.max_resident_sequences, base.scenario.max_num_seqs.value_or(0));
    if (largest <= 0) return sweep;

    std::vector<int64_t> batches;
    const int64_t dense = std::min<int64_t>(largest, 64);
    for (int64_t b = 1; b <= dense; ++b) batches.push_back(b);
    const int64_t remaining_points = std::max<int64_t>(1, max_points - dense);
    for (int64_t i = 1; i <= remaining_points && dense < largest; ++i) {
        const int64_t b = dense + (largest - dense) * i / remaining_points;
        if (b > batches.back()) batches.push_back(b);
    }
    for (int64_t batch : batches) {
        Scenario s = base.scenario;
        s.concurrent_requests = batch;
        const Result r = evaluate_resolved(s, base.model, base.gpu, c);
        sweep.points.push_back({batch, r.steps.decode.total_s, r.steps.decode_tokens_per_s, r.steps.weight_share, r.steps.decode.bound});
    }
    return sweep;
}

std::vector<TensorParallelPoint> sweep_tensor_parallel(const Result& base, const Calibration& c) {
    std::vector<TensorParallelPoint> points;
    for (int64_t tp : deployed_tensor_parallel_sizes()) {
        TensorParallelPoint point;
        point.tensor_parallel_size = tp;
        Scenario s = base.scenario;
        s.tensor_parallel_size = tp;
        point.result = evaluate_resolved(s, base.model, base.gpu, c);
        const auto& refusal = point.result.memory.startup_error;
        point.valid = !(refusal && refusal->kind == RefusalKind::tensor_parallel_mismatch);
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace kv
