#include "serving/scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "memory/memory_plan.hpp"
#include "result/evaluate.hpp"

namespace kv::sim {

Scheduler::Scheduler(const Result& r, const Workload& w, const SimOptions& o, const Calibration& c, Simulation& sim)
    : r_(r),
      engine_(step_engine(r)),
      options_(o),
      calibration_(c),
      sim_(sim),
      pool_(pool_blocks(r), cell_size(pool_blocks(r), o.max_cells)) {
    const KvLayout& k = r.memory.layout;
    block_size_ = k.block_size;
    block_set_bytes_ = k.page_bytes * static_cast<double>(k.group_size);
    model_kv_share_ = model_kv_share(k);
    speculative_tokens_ = r.memory.drafter.num_speculative_tokens;
    one_group_ = k.num_groups == 1 && k.sliding_layers == 0;
    budget_ = *r.scenario.max_num_batched_tokens;
    max_seqs_ = *r.scenario.max_num_seqs;
    max_len_ = *r.scenario.max_model_len;
    max_concurrency_ = w.max_concurrency;
    stated_rate_per_s_ = w.list.empty() ? w.rate_per_s : 0.0;
    keep_preempted_ = w.prefix_caching && one_group_;
    offload_ = r.memory.offload;  // check_offload admits it only for one-group layouts
    if (w.prefix_caching && w.shared_prefix_tokens >= block_size_) {
        if (one_group_) prefix_blocks_.assign(static_cast<size_t>(w.shared_prefix_tokens / block_size_), -1);
        else sim_.note = "prefix caching is not simulated for models with sliding-window layers";
    }
    sim_.pool_blocks = pool_.size();
    sim_.block_size = block_size_;
    sim_.blocks_per_cell = cell_size(pool_.size(), o.max_cells);
}

void Scheduler::begin() {
    started_ = true;
    live_.resize(sim_.requests.size());
    if (options_.prompts_cached && keep_preempted_) warm_cache();
    clock_s_ = sim_.requests.empty() ? 0.0 : sim_.requests.front().spec.arrival_s;
    next_log_s_ = clock_s_ + log_interval_s;
    last_log_s_ = clock_s_;
}

bool Scheduler::advance(int64_t steps) {
    const std::vector<SimRequest>& requests = sim_.requests;
    if (!started_) begin();
    double now = clock_s_;
    bool done = step_ >= max_steps;
    for (int64_t taken = 0; !done && taken < steps; ++taken, ++step_) {
        if (step_ + 1 >= max_steps) done = true;  // a guard; no workload within the limits gets near
        // The client sends what has arrived, up to its concurrency cap; a held request leaves when a slot frees.
        while (next_arrival_ < requests.size() && requests[next_arrival_].spec.arrival_s <= now &&
               (max_concurrency_ == 0 || in_flight() < max_concurrency_)) {
            sim_.requests[next_arrival_].spec.arrival_s =
                now > requests[next_arrival_].spec.arrival_s && max_concurrency_ > 0 ? now : requests[next_arrival_].spec.arrival_s;
            arrive(next_arrival_++);
        }
        if (running_.empty() && waiting_.empty()) {
            if (next_arrival_ == requests.size()) {
                done = true;
                break;
            }
            const double idle_until = requests[next_arrival_].spec.arrival_s;
            record(now, idle_until - now, 0, 0);
            now = idle_until;
            continue;
        }
        now_ = now;
        const std::vector<Scheduled>& batch = schedule();
        const double loaded_s = batch.empty() ? earliest_load_s() : 0.0;
        if (loaded_s > now) {  // only loads from the CPU are under way: wait for the first
            record(now, loaded_s - now, 0, 0);
            now = loaded_s;
            while (now >= next_log_s_) log_stats(now);
            continue;
        }
        if (batch.empty()) {  // the head request can never fit the pool: drop it as the engine would reject it
            reject(static_cast<size_t>(waiting_.front()->index));
            waiting_.pop_front();
            continue;
        }
        StepLoad load;
        for (const Scheduled& s : batch) add_to_load(load, s);
        const double step_s = time_step(engine_, load, calibration_).total_s;
        if (options_.split_time) split(batch, load, step_s);
        now += step_s;
        const bool saturated = !waiting_.empty();  // someone waits though the step is full
        const int64_t finished_before = finished_;
        finish_step(batch, now);
        if (saturated) saturated_s_ += step_s, saturated_finished_ += finished_ - finished_before;
        record(now - step_s, step_s, static_cast<int32_t>(load.prefill_tokens), static_cast<int32_t>(load.decode_tokens));
        while (now >= next_log_s_) log_stats(now);
    }
    clock_s_ = now;
    if (done) summarise();
    return done;
}

// The usable pool: vLLM keeps one null block out of it.
int32_t Scheduler::pool_blocks(const Result& r) {
    return static_cast<int32_t>(std::clamp<int64_t>(r.memory.num_gpu_blocks - 1, 1, std::numeric_limits<int32_t>::max() - 1));
}

int32_t Scheduler::cell_size(int32_t blocks, int64_t max_cells) {
    const int64_t cells = std::clamp<int64_t>(max_cells, 1, blocks);
    return static_cast<int32_t>((blocks + cells - 1) / cells);
}

int64_t Scheduler::blocks_for(int64_t tokens) const {
    if (one_group_) return (tokens + block_size_ - 1) / block_size_;
    return static_cast<int64_t>(std::ceil(request_kv_bytes(r_.memory.layout, r_.model, tokens, 1) / block_set_bytes_));
}

// The blocks an earlier pass over the same prompts left cached: each request's full prompt blocks,
// freed in request order (the last requests' blocks the most recently used), each findable by its
// request until an allocation evicts it, as a preempted request's are.
void Scheduler::warm_cache() {
    for (size_t i = 0; i < live_.size(); ++i) {
        Live& l = live_[i];
        l.index = static_cast<int32_t>(i);
        const int64_t full = (sim_.requests[i].spec.prompt_tokens - 1) / block_size_;
        for (int64_t b = 0; b < full; ++b) {
            const int32_t block = pool_.allocate(l.index, prefix_blocks_);
            pool_.keep_for(block, l.index);
            l.kept.push_back(block);
        }
        for (auto it = l.kept.rbegin(); it != l.kept.rend(); ++it) pool_.release(*it);  // tail first, as free_blocks
    }
}

void Scheduler::arrive(size_t i) {
    SimRequest& q = sim_.requests[i];
    if (q.spec.prompt_tokens + q.spec.output_tokens > max_len_) {
        reject(i);
        return;
    }
    Live& l = live_[i];
    l.index = static_cast<int32_t>(i);
    l.prompt = q.spec.prompt_tokens;
    l.output = q.spec.output_tokens;
    waiting_.push_back(&l);
}

void Scheduler::reject(size_t i) {
    sim_.requests[i].rejected = true;
    ++rejected_;
}

// Cached blocks of the shared prefix this request could reuse, leaving at least one prompt
// token to compute (vLLM recomputes the last token rather than hit a whole prompt).
int64_t Scheduler::cached_prefix_blocks(const Live& l) const {
    int64_t hit = 0;
    const int64_t most = std::min<int64_t>(static_cast<int64_t>(prefix_blocks_.size()), (l.tokens() - 1) / block_size_);
    while (hit < most && prefix_blocks_[static_cast<size_t>(hit)] >= 0) ++hit;
    return hit;
}

// Of the blocks this request freed when preempted, those from `from` on that no allocation has
// evicted since, again leaving at least one token to compute.
int64_t Scheduler::kept_blocks(const Live& l, int64_t from) const {
    const int64_t most = std::min<int64_t>(static_cast<int64_t>(l.kept.size()), (l.tokens() - 1) / block_size_);
    int64_t hit = from;
    while (hit < most && pool_.kept_for(l.kept[static_cast<size_t>(hit)], l.index)) ++hit;
    return hit - from;
}

const std::vector<Scheduled>& Scheduler::schedule() {
    std::vector<Scheduled>& batch = batch_;
    batch.clear();
    int64_t budget = budget_;
    bool preempted = false;
    // Running requests first, oldest first: a decode needs one token, a prefill the rest of its
    // prompt up to the budget. When the pool is dry the newest running request gives way.
    for (size_t i = 0; i < running_.size() && budget > 0;) {
        Live* l = running_[i];
        if (loading(*l)) {  // its blocks are still coming back from the CPU
            ++i;
            continue;
        }
        const int64_t tokens = std::min(l->tokens() - l->computed, budget);
        const int64_t scored = is_decode({l, tokens}) ? tokens + speculative_tokens_ : tokens;  // drafts take budget and slots
        const int64_t need = blocks_for(l->computed + scored) - static_cast<int64_t>(l->blocks.size());
        bool self_preempted = false;
        while (need > pool_.free() && !self_preempted) {
            Live* victim = running_.back();
            preempt(victim);
            preempted = true;
            self_preempted = victim == l;
        }
        if (self_preempted) break;
        for (int64_t b = 0; b < need; ++b) l->blocks.push_back(pool_.allocate(l->index, prefix_blocks_));
        batch.push_back({l, tokens});
        budget -= std::min(scored, budget);
        ++i;
    }
    // Waiting requests only in a step that preempted nobody (as V1's scheduler does).
    if (!preempted) admit_waiting(budget);
    return batch;
}

// The queue's head requests, while they fit the pool, the budget and max_num_seqs: their cached
// blocks (the shared prefix's, their own kept ones) first, then blocks for what they compute now.
void Scheduler::admit_waiting(int64_t budget) {
    while (!waiting_.empty() && budget > 0 && static_cast<int64_t>(running_.size()) < max_seqs_) {
        Live* l = waiting_.front();
        const int64_t hit = cached_prefix_blocks(*l);
        const int64_t kept = kept_blocks(*l, hit);
        int64_t hit_free = kept;  // cached blocks no request holds: they are counted as free
        for (int64_t b = 0; b < hit; ++b) hit_free += pool_.refs(prefix_blocks_[static_cast<size_t>(b)]) == 0;
        const int64_t external = cpu_hit_blocks(*l, hit + kept);
        const int64_t computed = (hit + kept + external) * block_size_;
        // A request with blocks to load waits for them (vLLM's WAITING_FOR_REMOTE_KVS): this step
        // allocates their blocks and computes nothing for it.
        const int64_t tokens = external > 0 ? 0 : std::min(l->tokens() - computed, budget);
        const int64_t need = blocks_for(computed + tokens) - hit - kept;
        if (need > pool_.free() - hit_free) break;
        for (int64_t b = 0; b < hit; ++b) {
            const int32_t block = prefix_blocks_[static_cast<size_t>(b)];
            pool_.hold(block);
            l->blocks.push_back(block);
        }
        for (int64_t b = hit; b < hit + kept; ++b) {
            const int32_t block = l->kept[static_cast<size_t>(b)];
            pool_.reclaim(block, l->index);
            l->blocks.push_back(block);
        }
        l->kept.clear();
        for (int64_t b = 0; b < need; ++b) l->blocks.push_back(pool_.allocate(l->index, prefix_blocks_));
        l->computed = computed;
        l->registered = hit;
        count_lookup(*l, (hit + kept) * block_size_, external * block_size_);
        waiting_.pop_front();
        running_.push_back(l);
        if (external > 0) {
            start_load(*l, external);
            continue;
        }
        batch_.push_back({l, tokens});
        budget -= tokens;
    }
}

void Scheduler::count_lookup(const Live& l, int64_t hit_tokens, int64_t external_tokens) {
    total_loaded_ += external_tokens;
    if (prefix_blocks_.empty() && !options_.prompts_cached && !offload_.on) return;
    // vLLM's logged rates and its Prometheus counters take a request's first lookup only; a
    // preempted request's come back in PrefixCacheStats.preempted_* (vllm/v1/metrics/stats.py).
    SimRequest& q = sim_.requests[static_cast<size_t>(l.index)];
    if (q.preemptions > 0) return;
    q.prefix_hit_tokens = hit_tokens;
    lookups_.push_back({l.tokens(), hit_tokens, external_tokens});
    window_queries_ += l.tokens();
    window_hits_ += hit_tokens;
    window_external_ += external_tokens;
    total_queries_ += l.tokens();
    total_hits_ += hit_tokens;
    total_external_ += external_tokens;
    if (lookups_.size() > recent_lookups) {  // the stats line's rate covers recent requests
        window_queries_ -= lookups_.front().queried;
        window_hits_ -= lookups_.front().hits;
        window_external_ -= lookups_.front().external;
        lookups_.pop_front();
    }
}

void Scheduler::free_blocks(Live& l) {
    // Freed in reverse so that a request's tail blocks are evicted before its head (vLLM does
    // the same, to keep the most shareable blocks cached longest).
    for (auto it = l.blocks.rbegin(); it != l.blocks.rend(); ++it) pool_.release(*it);
    l.blocks.clear();
}

void Scheduler::preempt(Live* l) {
    running_.pop_back();
    l->kept.clear();
    if (keep_preempted_) {  // its full blocks keep their hashes; shared-prefix ones are cached already
        const auto full = std::min<size_t>(l->blocks.size(), static_cast<size_t>(l->computed / block_size_));
        l->kept.assign(l->blocks.begin(), l->blocks.begin() + static_cast<std::ptrdiff_t>(full));
        for (size_t b = 0; b < full; ++b)
            if (b >= prefix_blocks_.size() || prefix_blocks_[b] != l->blocks[b]) pool_.keep_for(l->blocks[b], l->index);
    }
    free_blocks(*l);
    l->computed = 0;
    l->registered = 0;
    waiting_.push_front(l);
    ++sim_.requests[static_cast<size_t>(l->index)].preemptions;
    ++preemptions_;
}

// One token for a request past its prompt that has already produced one; anything else is a
// prompt chunk or the recomputation of a preempted request.
void Scheduler::split(const std::vector<Scheduled>& batch, const StepLoad& load, double step_s) {
    double decode_s = 0;
    if (load.prefill_tokens == 0) {
        decode_s = step_s;
    } else if (load.decode_tokens > 0) {
        StepLoad decodes;
        for (const Scheduled& s : batch)
            if (is_decode(s)) add_to_load(decodes, s);
        decode_s = std::min(step_s, time_step(engine_, decodes, calibration_).total_s);
    }
    decode_time_s_ += decode_s;
    prefill_time_s_ += step_s - decode_s;
}

bool Scheduler::is_decode(const Scheduled& s) {
    const Live& l = *s.request;
    return s.tokens == 1 && l.generated > 0 && l.computed >= l.prompt;
}

void Scheduler::add_to_load(StepLoad& load, const Scheduled& s) const {
    const Live& l = *s.request;
    const auto tokens = static_cast<double>(s.tokens);
    if (is_decode(s)) {
        load.decode_tokens += 1;
        load.decode_context_tokens += static_cast<double>(l.computed + 1);
        load.decode_kv_bytes += static_cast<double>(l.blocks.size()) * block_set_bytes_ * model_kv_share_;
    } else {
        load.prefill_tokens += tokens;
        load.prefill_context_pairs += tokens * (static_cast<double>(l.computed) + tokens / 2.0);
        load.prefill_kv_read_tokens += static_cast<double>(l.computed);
    }
}

void Scheduler::finish_step(const std::vector<Scheduled>& batch, double now) {
    for (const Scheduled& s : batch) {
        Live& l = *s.request;
        const bool decode = is_decode(s);
        if (!decode) interval_prompt_tokens_ += s.tokens, total_prompt_tokens_ += s.tokens;
        l.computed += s.tokens;
        if (l.computed < l.tokens()) {  // a chunk: no token yet
            offer_prefix_blocks(l);
            if (offload_.on) store_blocks(l);
            continue;
        }
        SimRequest& q = sim_.requests[static_cast<size_t>(l.index)];
        const int64_t gained = decode ? tokens_gained(l) : 1;
        l.computed += gained - 1;  // the accepted drafts' KV stays; the last token is the next step's input
        offer_prefix_blocks(l);
        if (offload_.on) store_blocks(l);
        l.generated += gained;
        interval_generated_ += gained;
        total_generated_ += gained;
        if (q.first_token_s < 0) q.first_token_s = now;
        else itl_samples_.push(static_cast<float>(now - l.last_token_s));
        l.last_token_s = now;
        if (l.generated == l.output) {
            q.finish_s = now;
            free_blocks(l);
            ++finished_;
            running_.erase(std::find(running_.begin(), running_.end(), &l));
        }
    }
}

int64_t Scheduler::tokens_gained(const Live& l) {
    if (speculative_tokens_ == 0) return 1;
    // Position i is accepted when i - 1 was and a draw falls under the acceptance rate, so position i
    // with the rate to the power i: the run's length is geometric. One draw per request and step,
    // from a hash of both, keeps runs repeatable.
    uint64_t z = (static_cast<uint64_t>(l.index) << 32 | static_cast<uint64_t>(l.generated)) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    const double u = (static_cast<double>((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;  // (0, 1)
    const double rate = r_.scenario.draft_acceptance_rate;
    const int64_t run =
        rate <= 0 ? 0 : static_cast<int64_t>(std::min(static_cast<double>(speculative_tokens_), std::floor(std::log(u) / std::log(rate))));
    const int64_t gained = std::min(1 + run, l.output - l.generated);
    ++interval_drafts_;
    interval_accepted_ += gained - 1;
    interval_accepted_at_.resize(static_cast<size_t>(speculative_tokens_));
    for (int64_t i = 0; i + 1 < gained; ++i) ++interval_accepted_at_[static_cast<size_t>(i)];
    return gained;
}

// Full blocks of the shared prefix this request has computed join the cache, unless another
// copy is already there.
void Scheduler::offer_prefix_blocks(Live& l) {
    const int64_t full = std::min<int64_t>(static_cast<int64_t>(prefix_blocks_.size()), l.computed / block_size_);
    for (; l.registered < full; ++l.registered) {
        int32_t& slot = prefix_blocks_[static_cast<size_t>(l.registered)];
        if (slot >= 0) continue;
        slot = l.blocks[static_cast<size_t>(l.registered)];
        pool_.mark_prefix(slot, static_cast<int32_t>(l.registered));
    }
}

}  // namespace kv::sim
