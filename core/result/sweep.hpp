// The panels' curves, each computed once per scenario: the same scenario re-evaluated across batch
// sizes and across tensor-parallel sizes (the batching ceiling), and its decode step timed with
// more and more prefill folded in (chunked prefill). Each batch and tensor-parallel point is a full
// evaluate_resolved() and each chunk point the step-time model's own decode_step_with_chunk_s(), so
// the curves cannot disagree with the single-scenario numbers.
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

// A decode step of the running batch with one prompt's prefill tokens folded into the same forward
// pass, from none to past the chunk budget: flat while the tokens ride free in the step's idle
// tensor cores, then rising with their FLOPs.
struct ChunkPoint {
    double prefill_tokens = 0;  // where the sample sits, evenly spaced (so not always a whole token)
    double step_s = 0;          // the step with that many tokens, to the nearest whole one, folded in
};

struct ChunkSweep {
    std::vector<ChunkPoint> points;  // samples + 1 from 0 to max_prefill_tokens; none unless status is ok
    int64_t max_prefill_tokens = 0;  // the larger of the chunk budget (at least 1) and twice what rides free
    double added_itl_s = 0;          // a full chunk's step less the decode step, at least 0: on every stream's ITL
};

ChunkSweep sweep_chunk(const Result& base, int samples = 96, const Calibration& calibration = {});

// The decode step with `prefill_tokens` folded in: any point of that curve (sweep_chunk samples it).
double chunk_step_s(const Result& base, int64_t prefill_tokens, const Calibration& calibration = {});

}  // namespace kv
