// KV offloading's CPU tier in the simulation (memory/offload.hpp has the engine's side): what a
// waiting request finds there, the write-through copies as blocks fill and the tier's recency order.
// Compiled for size in the page's module: it runs per filled block, not per token.
#include <algorithm>
#include <string>

#include "base/format.hpp"
#include "serving/scheduler.hpp"

namespace kv::sim {

int64_t Scheduler::cpu_hit_blocks(const Live& l, int64_t gpu_hits) const {
    if (!offload_.on) return 0;
    const int64_t most = (l.tokens() - 1) / block_size_;  // at least one token left to compute, as for GPU hits
    const int64_t chain = l.offloaded > 0 ? l.offloaded : std::min<int64_t>(prefix_offloaded_, static_cast<int64_t>(prefix_blocks_.size()));
    return std::max<int64_t>(0, std::min(chain, most) - gpu_hits);
}

// Write-through: each newly full block is copied out once. The shared prefix's blocks are stored once
// for everyone; a request's own blocks take room, made by dropping the least recently used requests'
// copies from their tails (a chain is only useful from its head).
void Scheduler::store_blocks(Live& l) {
    const auto prefix = static_cast<int64_t>(prefix_blocks_.size());
    const int64_t full = std::min<int64_t>(static_cast<int64_t>(l.blocks.size()), l.computed / block_size_);
    if (full <= l.offloaded) return;
    const int64_t new_prefix = std::max<int64_t>(0, std::min(full, prefix) - prefix_offloaded_);
    const int64_t new_own = std::max<int64_t>(0, full - std::max(prefix, l.offloaded));
    while (cpu_used_ + new_prefix + new_own > offload_.cpu_blocks && cpu_lru_head_ < cpu_lru_.size()) {
        const auto [index, touch] = cpu_lru_[cpu_lru_head_];
        Live& victim = live_[static_cast<size_t>(index)];
        if (victim.touched != touch) {  // touched again since: a later entry stands for it
            ++cpu_lru_head_;
            continue;
        }
        if (index == l.index) break;
        const int64_t own = std::max<int64_t>(0, victim.offloaded - prefix);
        const int64_t drop = std::min(own, cpu_used_ + new_prefix + new_own - offload_.cpu_blocks);
        victim.offloaded -= drop;
        cpu_used_ -= drop;
        if (victim.offloaded <= prefix) {
            ++cpu_lru_head_;
            victim.touched = -1;
        }
    }
    const int64_t room = std::max<int64_t>(0, offload_.cpu_blocks - cpu_used_);
    const int64_t stored_prefix = std::min(new_prefix, room), stored_own = std::min(new_own, room - stored_prefix);
    prefix_offloaded_ += stored_prefix;
    cpu_used_ += stored_prefix + stored_own;
    interval_stored_ += stored_prefix + stored_own;
    if (stored_prefix < new_prefix) return;  // the chain breaks where the room ran out
    l.offloaded = std::max(l.offloaded, std::min(full, prefix)) + stored_own;
    if (stored_own > 0) touch(l);
}

// One rank's share over its link, after the loads queued before it.
void Scheduler::start_load(Live& l, int64_t blocks) {
    l.ready_s = std::max(now_, link_free_s_) + static_cast<double>(blocks) * offload_.load_s_per_block;
    link_free_s_ = l.ready_s;
    interval_loaded_ += blocks;
    touch(l);
}

// A request touched again leaves a stale entry behind; once stale entries could outnumber the
// requests, they are dropped, so the queue stays within twice the requests however long the run.
void Scheduler::touch(Live& l) {
    if (cpu_lru_.size() - cpu_lru_head_ > 2 * live_.size() + 64) {
        size_t kept = 0;
        for (size_t i = cpu_lru_head_; i < cpu_lru_.size(); ++i)
            if (live_[static_cast<size_t>(cpu_lru_[i].first)].touched == cpu_lru_[i].second) cpu_lru_[kept++] = cpu_lru_[i];
        cpu_lru_.resize(kept);
        cpu_lru_head_ = 0;
    }
    l.touched = touches_++;
    cpu_lru_.emplace_back(l.index, l.touched);
}

double Scheduler::earliest_load_s() const {
    double earliest = 0;
    for (const Live* l : running_)
        if (loading(*l) && (earliest == 0 || l->ready_s < earliest)) earliest = l->ready_s;
    return earliest;
}

}  // namespace kv::sim
