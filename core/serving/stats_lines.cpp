// The lines the engine prints every ten seconds of the run (vllm/v1/metrics/loggers.py): the stats
// line, and beside it speculative decoding's and the KV connector's. String work a few times a
// simulated minute, so compiled for size in the page's module.
#include <algorithm>
#include <string>

#include "base/format.hpp"
#include "serving/scheduler.hpp"

namespace kv::sim {

// vLLM's speculative decoding line (vllm/v1/spec_decode/metrics.py), beside the stats line.
void Scheduler::log_speculative(double now, double interval) {
    const auto drafts = static_cast<double>(interval_drafts_), accepted = static_cast<double>(interval_accepted_);
    const double drafted = drafts * static_cast<double>(speculative_tokens_);
    std::string line = "SpecDecoding metrics: Mean acceptance length: " + format_fixed(1.0 + accepted / drafts, 2);
    line += ", Accepted throughput: " + format_fixed(accepted / interval, 2) + " tokens/s, Drafted throughput: ";
    line += format_fixed(drafted / interval, 2) + " tokens/s, Accepted: " + std::to_string(interval_accepted_);
    line += " tokens, Drafted: " + std::to_string(static_cast<int64_t>(drafted)) + " tokens, Per-position acceptance rate: ";
    for (size_t i = 0; i < interval_accepted_at_.size(); ++i)
        line += (i ? ", " : "") + format_fixed(static_cast<double>(interval_accepted_at_[i]) / drafts, 3);
    line += ", Avg Draft acceptance rate: " + format_fixed(100.0 * accepted / drafted, 1) + "%";
    sim_.stats_lines.push_back(std::move(line));
    sim_.stats_line_s.push_back(now);
}

void Scheduler::log_stats(double now) {
    const double interval = now - last_log_s_;
    if (options_.record) {
        const double hit_rate = window_queries_ > 0 ? static_cast<double>(window_hits_) / static_cast<double>(window_queries_) : 0.0;
        const double usage = static_cast<double>(pool_.size() - pool_.free()) / static_cast<double>(pool_.size());
        std::string line = "Engine 000: Avg prompt throughput: ";
        line += format_fixed(static_cast<double>(interval_prompt_tokens_) / interval, 1);
        line += " tokens/s, Avg generation throughput: ";
        line += format_fixed(static_cast<double>(interval_generated_) / interval, 1);
        line += " tokens/s, Running: " + std::to_string(running_.size());
        line += " reqs, Waiting: " + std::to_string(waiting_.size());
        line += " reqs, GPU KV cache usage: " + format_fixed(usage * 100.0, 1);
        line += "%, Prefix cache hit rate: " + format_fixed(hit_rate * 100.0, 1) + "%";
        // The connector's rate (vllm/v1/metrics/loggers.py), once it has looked anything up.
        if (offload_.on && window_queries_ > 0)
            line += ", External prefix cache hit rate: " +
                    format_fixed(100.0 * static_cast<double>(window_external_) / static_cast<double>(window_queries_), 1) + "%";
        sim_.stats_lines.push_back(std::move(line));
        sim_.stats_line_s.push_back(now);
        if (interval_drafts_ > 0) log_speculative(now, interval);
        if (interval_stored_ + interval_loaded_ > 0) log_transfers(now, interval);
    }
    interval_stored_ = interval_loaded_ = 0;
    interval_prompt_tokens_ = interval_generated_ = 0;
    interval_drafts_ = interval_accepted_ = 0;
    interval_accepted_at_.assign(interval_accepted_at_.size(), 0);
    last_log_s_ = now;
    next_log_s_ = now + log_interval_s;
}

// The offloading connector's line (kv_connector/v1/metrics.py KVConnectorLogging, the 0.14-era
// OffloadingConnectorStats.reduce): bytes and copy time summed over every rank's transfers.
void Scheduler::log_transfers(double now, double) {
    const auto ranks = static_cast<double>(r_.scenario.tensor_parallel_size * r_.scenario.pipeline_parallel_size);
    std::string line = "KV Transfer metrics:";
    const int64_t blocks[] = {interval_stored_, interval_loaded_};
    for (int i = 0; i < 2; ++i) {
        if (blocks[i] == 0) continue;
        const std::string type = i == 0 ? "GPU_to_CPU" : "CPU_to_GPU";
        const double copies = static_cast<double>(blocks[i]) * ranks;
        line += (line.back() == ':' ? " " : ", ") + type +
                "_total_bytes=" + std::to_string(static_cast<int64_t>(copies * offload_.block_bytes_per_rank)) + ", " + type +
                "_total_time=" + format_fixed(copies * offload_.load_s_per_block, 6);
    }
    sim_.stats_lines.push_back(std::move(line));
    sim_.stats_line_s.push_back(now);
}

}  // namespace kv::sim
