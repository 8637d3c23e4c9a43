#include <algorithm>
#include <string>

#include "base/format.hpp"
#include "serving/metrics.hpp"
#include "serving/scheduler.hpp"

namespace kv::sim {

void Scheduler::record(double start_s, double step_s, int32_t prefill_tokens, int32_t decode_tokens) {
    const int32_t used = pool_.size() - pool_.free();
    const double usage = static_cast<double>(used) / static_cast<double>(pool_.size());
    peak_usage_ = std::max(peak_usage_, usage);
    running_time_ += static_cast<double>(running_.size()) * step_s;
    if (!options_.record) return;
    sim_.steps.push_back({start_s, step_s, static_cast<int32_t>(running_.size()), static_cast<int32_t>(waiting_.size()),
                          static_cast<int32_t>(preemptions_), used, pool_.cached_free(), static_cast<float>(usage), prefill_tokens,
                          decode_tokens});
    // Frames evenly spread over simulated time, so playback moves at a steady pace through
    // busy stretches and idle ones alike.
    if (start_s >= next_frame_s_) {
        snapshot();
        next_frame_s_ = start_s + frame_interval_s_;
    }
}

void Scheduler::snapshot() {
    auto& frames = sim_.frames;
    if (static_cast<int64_t>(frames.size()) >= options_.max_frames) {  // keep every other frame
        size_t kept = 0;
        for (size_t f = 2; f < frames.size(); f += 2) frames[++kept] = std::move(frames[f]);
        ++kept;
        frames.resize(kept);
        frame_interval_s_ *= 2;
    }
    PoolFrame frame;
    frame.step = static_cast<int32_t>(sim_.steps.size() - 1);
    const auto& cells = pool_.cells();
    frame.owner.reserve(cells.size());
    frame.fill.reserve(cells.size());
    for (size_t c = 0; c < cells.size(); ++c) {
        const BlockPool::Cell& cell = cells[c];
        uint16_t owner = PoolFrame::free_cell;
        int32_t shown = 0;
        if (cell.used > 0) {
            owner = 2 * cell.prefix_held >= cell.used ? PoolFrame::shared_prefix : static_cast<uint16_t>(cell.owner % 65520);
            shown = cell.used;
        } else if (cell.cached > 0) {
            owner = PoolFrame::cached_prefix;
            shown = cell.cached;
        }
        frame.owner.push_back(owner);
        frame.fill.push_back(static_cast<uint8_t>(shown * 255 / pool_.cell_blocks(c)));
    }
    frames.push_back(std::move(frame));
}

void Scheduler::summarise() {
    SimSummary& s = sim_.summary;
    double first = -1, last = 0, last_arrival = 0;
    SampleRuns ttft, e2e, tpot;
    int64_t index = 0;
    for (const SimRequest& q : sim_.requests) {
        const bool warming_up = index++ < options_.warmup_requests;  // in arrival order (workload_requests sorts them)
        if (first < 0 || q.spec.arrival_s < first) first = q.spec.arrival_s;
        last_arrival = std::max(last_arrival, q.spec.arrival_s);
        if (q.finish_s < 0) continue;
        last = std::max(last, q.finish_s);
        if (warming_up) continue;
        ttft.push(q.ttft_s());
        e2e.push(q.e2e_s());
        if (q.spec.output_tokens > 1) tpot.push((q.finish_s - q.first_token_s) / static_cast<double>(q.spec.output_tokens - 1));
    }
    s.duration_s = std::max(0.0, last - std::max(0.0, first));
    s.finished = finished_;
    s.rejected = rejected_;
    s.preemptions = preemptions_;
    if (s.duration_s > 0) {
        s.generation_tokens_per_s = static_cast<double>(total_generated_) / s.duration_s;
        s.prompt_tokens_per_s = static_cast<double>(total_prompt_tokens_) / s.duration_s;
        s.mean_running = running_time_ / s.duration_s;
    }
    s.prefix_hit_rate = total_queries_ > 0 ? static_cast<double>(total_hits_) / static_cast<double>(total_queries_) : 0.0;
    s.peak_kv_cache_usage = peak_usage_;
    s.ttft_histogram = histogram_of(ttft_buckets_s, ttft);
    s.itl_histogram = histogram_of(itl_buckets_s, itl_samples_);
    s.ttft_s = percentiles_of(ttft);
    s.itl_s = percentiles_of(itl_samples_);
    s.e2e_s = percentiles_of(e2e);
    s.tpot_s = percentiles_of(tpot);
    s.decode_time_s = decode_time_s_;
    s.prefix_hit_tokens = total_hits_;
    s.external_hit_tokens = total_loaded_;
    s.external_hit_rate = total_queries_ > 0 ? static_cast<double>(total_external_) / static_cast<double>(total_queries_) : 0.0;
    s.prefill_time_s = prefill_time_s_;
    classify_load(std::max(0.0, first), last_arrival);
}

// The offered rate against what the engine completed while requests waited: a queue that is
// still there at a quarter of the run and gains on the engine grows for as long as the traffic
// lasts.
void Scheduler::classify_load(double first_arrival_s, double last_arrival_s) {
    SimSummary& s = sim_.summary;
    const auto arrivals = static_cast<double>(sim_.requests.size());
    const double span = last_arrival_s - first_arrival_s;
    s.offered_rate_per_s = stated_rate_per_s_ > 0 ? stated_rate_per_s_ : span > 0 ? (arrivals - 1.0) / span : 0.0;
    s.sustained_rate_per_s = saturated_s_ > 0 ? static_cast<double>(saturated_finished_) / saturated_s_ : 0.0;
    if (max_concurrency_ > 0) s.load = Load::capped;
    else if (s.offered_rate_per_s <= 0) s.load = Load::burst;
    else if (saturated_s_ > 0.25 * s.duration_s && s.offered_rate_per_s > s.sustained_rate_per_s) s.load = Load::overloaded;
    else s.load = Load::stable;
}

}  // namespace kv::sim
