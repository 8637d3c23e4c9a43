#include "result/sweep.hpp"

#include "scenario/scenario_fields.hpp"

#include <algorithm>
#include <cmath>

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

ChunkSweep sweep_chunk(const Result& base, int samples, const Calibration& c) {
    ChunkSweep sweep;
    if (base.status != Status::ok || samples < 1) return sweep;
    const StepTimes& t = base.steps;
    sweep.added_itl_s = std::max(0.0, t.step_with_full_chunk_s - t.decode.total_s);
    sweep.max_prefill_tokens = std::max<int64_t>(std::max<int64_t>(t.chunk_budget_tokens, 1), t.free_prefill_tokens * 2);
    const auto x_max = static_cast<double>(sweep.max_prefill_tokens);
    sweep.points.reserve(static_cast<size_t>(samples) + 1);
    for (int i = 0; i <= samples; ++i) {
        const double tokens = x_max * i / samples;
        sweep.points.push_back({tokens, chunk_step_s(base, std::llround(tokens), c)});
    }
    return sweep;
}

double chunk_step_s(const Result& base, int64_t prefill_tokens, const Calibration& c) {
    return decode_step_with_chunk_s(step_engine(base), base.admission.running, prefill_tokens, c);
}

}  // namespace kv
