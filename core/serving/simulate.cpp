#include "serving/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "base/format.hpp"
#include "serving/workload_fields.hpp"
#include "memory/memory_plan.hpp"
#include "time/step_time.hpp"

namespace kv {
namespace {

// --- Arrivals and lengths ---

// splitmix64: the same numbers on every platform (<random>'s distributions differ between
// standard libraries, and the page's module must agree with the native build).
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]
    double normal() {
        constexpr double two_pi = 6.283185307179586;
        return std::sqrt(-2.0 * std::log(uniform())) * std::cos(two_pi * uniform());
    }
};

struct LengthShape {
    const char* name;
    double prompt_median, prompt_sigma, output_median, output_sigma;
};
// Illustrative shapes (log-normal medians and spreads), not fitted to a trace.
constexpr LengthShape shapes[] = {
    {"chat", 600, 0.8, 250, 0.7},
    {"summarise", 6000, 0.5, 300, 0.4},
    {"reasoning", 400, 0.7, 3000, 0.6},
};

int64_t draw_tokens(Rng& rng, double median, double sigma) {
    const double tokens = std::round(median * std::exp(sigma * rng.normal()));
    return std::clamp<int64_t>(static_cast<int64_t>(tokens), 1, 1 << 18);
}

// --- Histograms (vllm/v1/metrics/loggers.py: the buckets vLLM declares) ---

const std::vector<double> ttft_buckets_s = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
                                            1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
const std::vector<double> itl_buckets_s = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
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

// --- The block pool ---

// Blocks in a doubly linked free queue, as vLLM's FreeKVCacheBlockQueue: allocation takes from
// the front, freed blocks go to the back, and a cached block that a request hits is taken out of
// the middle. A block remembers which block of the shared prefix it holds until it is evicted.
// Per cell of the drawn grid the pool keeps running counts, so a frame costs one pass over the
// cells rather than over the blocks.
class BlockPool {
public:
    BlockPool(int32_t blocks, int32_t blocks_per_cell)
        : prev_(static_cast<size_t>(blocks) + 1),
          next_(static_cast<size_t>(blocks) + 1),
          refs_(static_cast<size_t>(blocks), 0),
          prefix_slot_(static_cast<size_t>(blocks), -1),
          sentinel_(blocks),
          per_cell_(blocks_per_cell) {
        const auto cells = static_cast<size_t>((blocks + blocks_per_cell - 1) / blocks_per_cell);
        cells_.resize(cells);
        prev_[static_cast<size_t>(sentinel_)] = next_[static_cast<size_t>(sentinel_)] = sentinel_;
        for (int32_t b = 0; b < blocks; ++b) link_back(b);
    }

    // What one cell of the grid holds.
    struct Cell {
        int32_t used = 0;         // blocks some request holds
        int32_t cached = 0;       // free blocks that still hold a block of the shared prefix
        int32_t prefix_held = 0;  // held blocks of the shared prefix
        int32_t owner = -1;       // the request that last took a block here
    };

    int32_t size() const { return sentinel_; }
    int32_t free() const { return free_; }
    int32_t cached_free() const { return cached_free_; }
    int32_t refs(int32_t b) const { return refs_[static_cast<size_t>(b)]; }
    const std::vector<Cell>& cells() const { return cells_; }
    int32_t cell_blocks(size_t cell) const { return std::min(per_cell_, sentinel_ - static_cast<int32_t>(cell) * per_cell_); }

    int32_t allocate(int32_t request, std::vector<int32_t>& prefix_blocks) {
        const int32_t b = next_[static_cast<size_t>(sentinel_)];
        unlink(b);
        if (int32_t& slot = prefix_slot_[static_cast<size_t>(b)]; slot >= 0) {  // evict
            prefix_blocks[static_cast<size_t>(slot)] = -1;
            slot = -1;
        }
        refs_[static_cast<size_t>(b)] = 1;
        Cell& c = cell(b);
        ++c.used;
        c.owner = request;
        return b;
    }
    // Another request holds a cached prefix block; a free one leaves the queue.
    void hold(int32_t b) {
        if (refs_[static_cast<size_t>(b)]++ == 0) {
            unlink(b);
            ++cell(b).used;
            ++cell(b).prefix_held;
        }
    }
    void release(int32_t b) {
        if (--refs_[static_cast<size_t>(b)] > 0) return;
        --cell(b).used;
        if (prefix_slot_[static_cast<size_t>(b)] >= 0) --cell(b).prefix_held;
        link_back(b);
    }
    // A held block becomes a block of the shared prefix.
    void mark_prefix(int32_t b, int32_t slot) {
        prefix_slot_[static_cast<size_t>(b)] = slot;
        ++cell(b).prefix_held;
    }

private:
    Cell& cell(int32_t b) { return cells_[static_cast<size_t>(b / per_cell_)]; }
    void unlink(int32_t b) {
        const auto i = static_cast<size_t>(b);
        next_[static_cast<size_t>(prev_[i])] = next_[i];
        prev_[static_cast<size_t>(next_[i])] = prev_[i];
        --free_;
        if (prefix_slot_[i] >= 0) --cached_free_, --cell(b).cached;
    }
    void link_back(int32_t b) {
        const auto i = static_cast<size_t>(b), s = static_cast<size_t>(sentinel_);
        prev_[i] = prev_[s];
        next_[i] = sentinel_;
        next_[static_cast<size_t>(prev_[s])] = b;
        prev_[s] = b;
        ++free_;
        if (prefix_slot_[i] >= 0) ++cached_free_, ++cell(b).cached;
    }

    std::vector<int32_t> prev_, next_, refs_, prefix_slot_;
    std::vector<Cell> cells_;
    int32_t sentinel_;
    int32_t per_cell_;
    int32_t free_ = 0, cached_free_ = 0;
};

// --- The scheduler ---

struct Live {
    int32_t index = 0;  // into Simulation::requests
    int64_t prompt = 0, output = 0;
    int64_t generated = 0;
    int64_t computed = 0;    // tokens whose KV is in the cache
    int64_t registered = 0;  // prefix blocks this request has offered to the cache
    std::vector<int32_t> blocks;
    double last_token_s = 0;
    int64_t tokens() const { return prompt + generated; }
};

struct Scheduled {
    Live* request;
    int64_t tokens;
};

class Engine {
public:
    Engine(const Result& r, const Workload& w, const SimOptions& o, const Calibration& c, Simulation& sim)
        : r_(r), options_(o), calibration_(c), sim_(sim), pool_(pool_blocks(r), cell_size(pool_blocks(r), o.max_cells)) {
        const KvLayout& k = r.memory.layout;
        block_size_ = k.block_size;
        block_set_bytes_ = k.page_bytes * static_cast<double>(k.group_size);
        one_group_ = k.num_groups == 1 && k.sliding_layers == 0;
        budget_ = *r.scenario.max_num_batched_tokens;
        max_seqs_ = *r.scenario.max_num_seqs;
        max_len_ = *r.scenario.max_model_len;
        if (w.prefix_caching && w.shared_prefix_tokens >= block_size_) {
            if (one_group_) prefix_blocks_.assign(static_cast<size_t>(w.shared_prefix_tokens / block_size_), -1);
            else sim_.note = "prefix caching is not simulated for models with sliding-window layers";
        }
        sim_.pool_blocks = pool_.size();
        sim_.block_size = block_size_;
        sim_.blocks_per_cell = cell_size(pool_.size(), o.max_cells);
    }

    void run() {
        const std::vector<SimRequest>& requests = sim_.requests;
        live_.resize(requests.size());
        size_t next_arrival = 0;
        double now = requests.empty() ? 0.0 : requests.front().spec.arrival_s;
        next_log_s_ = now + log_interval_s;
        last_log_s_ = now;
        constexpr int64_t max_steps = 20'000'000;  // a guard; no workload within the limits gets near
        for (int64_t step = 0; step < max_steps; ++step) {
            while (next_arrival < requests.size() && requests[next_arrival].spec.arrival_s <= now) arrive(next_arrival++);
            if (running_.empty() && waiting_.empty()) {
                if (next_arrival == requests.size()) break;
                const double idle_until = requests[next_arrival].spec.arrival_s;
                record(now, idle_until - now, 0, 0);
                now = idle_until;
                continue;
            }
            const std::vector<Scheduled>& batch = schedule();
            if (batch.empty()) {  // the head request can never fit the pool: drop it as the engine would reject it
                reject(static_cast<size_t>(waiting_.front()->index));
                waiting_.pop_front();
                continue;
            }
            StepLoad load;
            for (const Scheduled& s : batch) add_to_load(load, s);
            const double step_s = time_step(step_engine(r_), load, calibration_).total_s;
            now += step_s;
            finish_step(batch, now);
            record(now - step_s, step_s, static_cast<int32_t>(load.prefill_tokens), static_cast<int32_t>(load.decode_tokens));
            while (now >= next_log_s_) log_stats(now);
        }
        summarise();
    }

private:
    static constexpr double log_interval_s = 10.0;

    // The usable pool: vLLM keeps one null block out of it.
    static int32_t pool_blocks(const Result& r) {
        return static_cast<int32_t>(std::clamp<int64_t>(r.memory.num_gpu_blocks - 1, 1, std::numeric_limits<int32_t>::max() - 1));
    }
    static int32_t cell_size(int32_t blocks, int64_t max_cells) {
        const int64_t cells = std::clamp<int64_t>(max_cells, 1, blocks);
        return static_cast<int32_t>((blocks + cells - 1) / cells);
    }

    int64_t blocks_for(int64_t tokens) const {
        if (one_group_) return (tokens + block_size_ - 1) / block_size_;
        return static_cast<int64_t>(std::ceil(request_kv_bytes(r_.memory.layout, r_.model, tokens, 1) / block_set_bytes_));
    }

    void arrive(size_t i) {
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
    void reject(size_t i) {
        sim_.requests[i].rejected = true;
        ++rejected_;
    }

    // Cached blocks of the shared prefix this request could reuse, leaving at least one prompt
    // token to compute (vLLM recomputes the last token rather than hit a whole prompt).
    int64_t cached_prefix_blocks(const Live& l) const {
        int64_t hit = 0;
        const int64_t most = std::min<int64_t>(static_cast<int64_t>(prefix_blocks_.size()), (l.tokens() - 1) / block_size_);
        while (hit < most && prefix_blocks_[static_cast<size_t>(hit)] >= 0) ++hit;
        return hit;
    }

    const std::vector<Scheduled>& schedule() {
        std::vector<Scheduled>& batch = batch_;
        batch.clear();
        int64_t budget = budget_;
        bool preempted = false;
        // Running requests first, oldest first: a decode needs one token, a prefill the rest of its
        // prompt up to the budget. When the pool is dry the newest running request gives way.
        for (size_t i = 0; i < running_.size() && budget > 0;) {
            Live* l = running_[i];
            const int64_t tokens = std::min(l->tokens() - l->computed, budget);
            const int64_t need = blocks_for(l->computed + tokens) - static_cast<int64_t>(l->blocks.size());
            bool self_preempted = false;
            while (need > pool_.free()) {
                Live* victim = running_.back();
                preempt(victim);
                preempted = true;
                if (victim == l) {
                    self_preempted = true;
                    break;
                }
            }
            if (self_preempted) break;
            for (int64_t b = 0; b < need; ++b) l->blocks.push_back(pool_.allocate(l->index, prefix_blocks_));
            batch.push_back({l, tokens});
            budget -= tokens;
            ++i;
        }
        // Waiting requests only in a step that preempted nobody (as V1's scheduler does).
        while (!preempted && !waiting_.empty() && budget > 0 && static_cast<int64_t>(running_.size()) < max_seqs_) {
            Live* l = waiting_.front();
            const int64_t hit = cached_prefix_blocks(*l);
            int64_t hit_free = 0;  // cached blocks no request holds: they are counted as free
            for (int64_t b = 0; b < hit; ++b) hit_free += pool_.refs(prefix_blocks_[static_cast<size_t>(b)]) == 0;
            const int64_t computed = hit * block_size_;
            const int64_t tokens = std::min(l->tokens() - computed, budget);
            const int64_t need = blocks_for(computed + tokens) - hit;
            if (need > pool_.free() - hit_free) break;
            for (int64_t b = 0; b < hit; ++b) {
                const int32_t block = prefix_blocks_[static_cast<size_t>(b)];
                pool_.hold(block);
                l->blocks.push_back(block);
            }
            for (int64_t b = 0; b < need; ++b) l->blocks.push_back(pool_.allocate(l->index, prefix_blocks_));
            l->computed = computed;
            l->registered = hit;
            count_lookup(*l, computed);
            waiting_.pop_front();
            running_.push_back(l);
            batch.push_back({l, tokens});
            budget -= tokens;
        }
        return batch;
    }

    void count_lookup(const Live& l, int64_t hit_tokens) {
        if (prefix_blocks_.empty()) return;
        SimRequest& q = sim_.requests[static_cast<size_t>(l.index)];
        if (q.preemptions == 0) q.prefix_hit_tokens = hit_tokens;
        lookups_.push_back({l.tokens(), hit_tokens});
        window_queries_ += l.tokens();
        window_hits_ += hit_tokens;
        total_queries_ += l.tokens();
        total_hits_ += hit_tokens;
        if (lookups_.size() > recent_lookups) {  // the stats line's rate covers recent requests
            window_queries_ -= lookups_.front().first;
            window_hits_ -= lookups_.front().second;
            lookups_.pop_front();
        }
    }

    void free_blocks(Live& l) {
        // Freed in reverse so that a request's tail blocks are evicted before its head (vLLM does
        // the same, to keep the most shareable blocks cached longest).
        for (auto it = l.blocks.rbegin(); it != l.blocks.rend(); ++it) pool_.release(*it);
        l.blocks.clear();
    }

    void preempt(Live* l) {
        running_.pop_back();
        free_blocks(*l);
        l->computed = 0;
        l->registered = 0;
        waiting_.push_front(l);
        ++sim_.requests[static_cast<size_t>(l->index)].preemptions;
        ++preemptions_;
    }

    // One token for a request past its prompt that has already produced one; anything else is a
    // prompt chunk or the recomputation of a preempted request.
    static bool is_decode(const Scheduled& s) {
        const Live& l = *s.request;
        return s.tokens == 1 && l.generated > 0 && l.computed >= l.prompt;
    }

    void add_to_load(StepLoad& load, const Scheduled& s) const {
        const Live& l = *s.request;
        const auto tokens = static_cast<double>(s.tokens);
        if (is_decode(s)) {
            load.decode_tokens += 1;
            load.decode_context_tokens += static_cast<double>(l.computed + 1);
            load.decode_kv_bytes += static_cast<double>(l.blocks.size()) * block_set_bytes_;
        } else {
            load.prefill_tokens += tokens;
            load.prefill_context_pairs += tokens * (static_cast<double>(l.computed) + tokens / 2.0);
            load.prefill_kv_read_tokens += static_cast<double>(l.computed);
        }
    }

    void finish_step(const std::vector<Scheduled>& batch, double now) {
        for (const Scheduled& s : batch) {
            Live& l = *s.request;
            if (!is_decode(s)) interval_prompt_tokens_ += s.tokens, total_prompt_tokens_ += s.tokens;
            l.computed += s.tokens;
            offer_prefix_blocks(l);
            if (l.computed < l.tokens()) continue;  // a chunk: no token yet
            SimRequest& q = sim_.requests[static_cast<size_t>(l.index)];
            ++l.generated;
            ++interval_generated_;
            ++total_generated_;
            if (q.first_token_s < 0) q.first_token_s = now;
            else itl_samples_.push_back(static_cast<float>(now - l.last_token_s));
            l.last_token_s = now;
            if (l.generated == l.output) {
                q.finish_s = now;
                free_blocks(l);
                ++finished_;
                running_.erase(std::find(running_.begin(), running_.end(), &l));
            }
        }
    }

    // Full blocks of the shared prefix this request has computed join the cache, unless another
    // copy is already there.
    void offer_prefix_blocks(Live& l) {
        const int64_t full = std::min<int64_t>(static_cast<int64_t>(prefix_blocks_.size()), l.computed / block_size_);
        for (; l.registered < full; ++l.registered) {
            int32_t& slot = prefix_blocks_[static_cast<size_t>(l.registered)];
            if (slot >= 0) continue;
            slot = l.blocks[static_cast<size_t>(l.registered)];
            pool_.mark_prefix(slot, static_cast<int32_t>(l.registered));
        }
    }

    void record(double start_s, double step_s, int32_t prefill_tokens, int32_t decode_tokens) {
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

    void snapshot() {
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

    void log_stats(double now) {
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
            sim_.stats_lines.push_back(std::move(line));
            sim_.stats_line_s.push_back(now);
        }
        interval_prompt_tokens_ = interval_generated_ = 0;
        last_log_s_ = now;
        next_log_s_ = now + log_interval_s;
    }

    void summarise() {
        SimSummary& s = sim_.summary;
        double first = -1, last = 0;
        std::vector<double> ttft, e2e;
        for (const SimRequest& q : sim_.requests) {
            if (first < 0 || q.spec.arrival_s < first) first = q.spec.arrival_s;
            if (q.finish_s < 0) continue;
            last = std::max(last, q.finish_s);
            ttft.push_back(q.ttft_s());
            e2e.push_back(q.e2e_s());
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
    }

    static constexpr size_t recent_lookups = 1000;

    const Result& r_;
    const SimOptions& options_;
    const Calibration& calibration_;
    Simulation& sim_;
    BlockPool pool_;
    int64_t block_size_ = 16, budget_ = 0, max_seqs_ = 0, max_len_ = 0;
    double block_set_bytes_ = 0;
    bool one_group_ = true;
    std::vector<int32_t> prefix_blocks_;  // physical block per shared-prefix block, -1: not cached
    std::vector<Live> live_;
    std::vector<Live*> running_;  // in admission order
    std::deque<Live*> waiting_;
    std::vector<Scheduled> batch_;    // this step's requests (kept to reuse its memory)
    std::vector<float> itl_samples_;  // float: a run can have millions
    std::deque<std::pair<int64_t, int64_t>> lookups_;
    int64_t window_queries_ = 0, window_hits_ = 0, total_queries_ = 0, total_hits_ = 0;
    int64_t preemptions_ = 0, finished_ = 0, rejected_ = 0;
    int64_t interval_prompt_tokens_ = 0, interval_generated_ = 0, total_prompt_tokens_ = 0, total_generated_ = 0;
    double next_log_s_ = 0, last_log_s_ = 0, peak_usage_ = 0, running_time_ = 0;
    double frame_interval_s_ = 0.01, next_frame_s_ = 0;
};

}  // namespace

double Histogram::quantile(double q) const {
    if (count == 0) return 0.0;
    const double rank = q * static_cast<double>(count);
    int64_t below = 0;
    for (size_t i = 0; i < upper_bounds.size(); ++i) {
        if (static_cast<double>(cumulative[i]) >= rank) {
            const double lower = i == 0 ? 0.0 : upper_bounds[i - 1];
            const auto in_bucket = static_cast<double>(cumulative[i] - below);
            return lower + (upper_bounds[i] - lower) * (rank - static_cast<double>(below)) / std::max(1.0, in_bucket);
        }
        below = cumulative[i];
    }
    return upper_bounds.empty() ? 0.0 : upper_bounds.back();  // Prometheus reports the top bound for +Inf
}

std::variant<std::vector<RequestSpec>, InputError> workload_requests(const Workload& w, const Scenario& scenario) {
    if (!w.list.empty()) {
        if (static_cast<int64_t>(w.list.size()) > max_workload_requests())
            return InputError{"requests", ErrorCode::out_of_range, "at most " + format_count(max_workload_requests()) + " requests"};
        std::vector<RequestSpec> list = w.list;
        for (const RequestSpec& q : list)
            if (!(q.arrival_s >= 0 && q.arrival_s < 1e9) || q.prompt_tokens < 1 || q.output_tokens < 1 || q.prompt_tokens > (1 << 24) ||
                q.output_tokens > (1 << 24))
                return InputError{"requests", ErrorCode::out_of_range,
                                  "each request needs arrival_s 0 to 1e9, prompt_tokens and output_tokens 1 to 16,777,216"};
        std::stable_sort(list.begin(), list.end(), [](const RequestSpec& a, const RequestSpec& b) { return a.arrival_s < b.arrival_s; });
        return list;
    }
    if (auto error = check_fields(workload_fields(), w)) return *error;
    const LengthShape* shape = nullptr;
    for (const LengthShape& s : shapes)
        if (w.name == s.name) shape = &s;
    Rng rng{w.seed};
    std::vector<RequestSpec> list;
    list.reserve(static_cast<size_t>(w.requests));
    double t = 0;
    for (int64_t i = 0; i < w.requests; ++i) {
        RequestSpec q;
        if (w.rate_per_s > 0 && i > 0) t += -std::log(rng.uniform()) / w.rate_per_s;
        q.arrival_s = t;
        q.prompt_tokens = shape ? draw_tokens(rng, shape->prompt_median, shape->prompt_sigma) : scenario.prompt_tokens;
        q.output_tokens = shape ? draw_tokens(rng, shape->output_median, shape->output_sigma) : scenario.output_tokens;
        q.prompt_tokens += w.shared_prefix_tokens;
        list.push_back(q);
    }
    return list;
}

std::variant<Simulation, InputError> simulate(const Result& result, const Workload& workload, const SimOptions& options,
                                              const Calibration& calibration) {
    if (result.status == Status::engine_refused)
        return InputError{"scenario", ErrorCode::inconsistent_config,
                          "the engine does not start in this scenario: " +
                              (result.memory.startup_error ? result.memory.startup_error->message : std::string("it is refused"))};
    auto requests = workload_requests(workload, result.scenario);
    if (auto* error = std::get_if<InputError>(&requests)) return *error;
    Simulation sim;
    for (const RequestSpec& q : std::get<std::vector<RequestSpec>>(requests)) sim.requests.push_back({q});
    Engine(result, workload, options, calibration, sim).run();
    return sim;
}

double preemption_onset_rate(const Result& result, const Workload& workload, const Calibration& calibration) {
    SimOptions quiet;
    quiet.record = false;
    auto preempts = [&](double rate) {
        Workload w = workload;
        w.rate_per_s = rate;
        auto sim = simulate(result, w, quiet, calibration);
        return std::holds_alternative<Simulation>(sim) && std::get<Simulation>(sim).summary.preemptions > 0;
    };
    if (!preempts(0)) return 0.0;
    double lo = 0.01, hi = 1.0;  // lo: no preemption; hi: preemption
    while (preempts(lo) && lo > 1e-4) lo /= 10;
    while (!preempts(hi) && hi < find_field(workload_fields(), "rate_per_s")->spec->hi) hi *= 2;
    while (hi / lo > 1.01) {
        const double mid = std::sqrt(lo * hi);
        (preempts(mid) ? hi : lo) = mid;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10(hi)) - 1);  // two significant figures
    return std::ceil(hi / magnitude) * magnitude;
}

}  // namespace kv
