// The simulation's scheduler (internal to serving/): one vLLM V1-style engine stepping over time.
// Each step admits and schedules under max_num_seqs and the token budget, takes blocks from the
// pool, costs the forward pass with time_step() and records what the engine would show.
// Scheduling is in scheduler.cpp, recording (steps, frames, stats lines, the summary) in recording.cpp.
#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "serving/block_pool.hpp"
#include "serving/metrics.hpp"
#include "serving/simulate.hpp"
#include "time/step_time.hpp"

namespace kv::sim {

struct Live {
    int32_t index = 0;  // into Simulation::requests
    int64_t prompt = 0, output = 0;
    int64_t generated = 0;
    int64_t computed = 0;    // tokens whose KV is in the cache
    int64_t registered = 0;  // prefix blocks this request has offered to the cache
    std::vector<int32_t> blocks;
    std::vector<int32_t> kept;  // the full blocks it freed when last preempted, in order
    // KV offloading (memory/offload.hpp): its leading blocks with a copy on the CPU, its last place
    // in the CPU tier's recency queue, and when the blocks it is loading back will have arrived.
    int64_t offloaded = 0;
    int64_t touched = -1;
    double ready_s = 0;
    double last_token_s = 0;
    int64_t tokens() const { return prompt + generated; }
};

struct Scheduled {
    Live* request;
    int64_t tokens;
};

class Scheduler {
public:
    Scheduler(const Result& r, const Workload& w, const SimOptions& o, const Calibration& c, Simulation& sim);

    // At most `steps` more scheduler steps; true once the run has ended (its summary then made).
    // Slices of any size make the same run as one call.
    bool advance(int64_t steps);

private:
    static constexpr double log_interval_s = 10.0;
    static constexpr int64_t max_steps = 20'000'000;  // a guard; no workload within the limits gets near

    // The usable pool: vLLM keeps one null block out of it.
    static int32_t pool_blocks(const Result& r);
    static int32_t cell_size(int32_t blocks, int64_t max_cells);

    int64_t blocks_for(int64_t tokens) const;

    void begin();  // advance()'s first call: the requests' slots, a warm cache, the clock

    void arrive(size_t i);
    void warm_cache();
    void reject(size_t i);

    // Cached blocks of the shared prefix this request could reuse, leaving at least one prompt
    // token to compute (vLLM recomputes the last token rather than hit a whole prompt).
    int64_t cached_prefix_blocks(const Live& l) const;
    int64_t kept_blocks(const Live& l, int64_t from) const;

    const std::vector<Scheduled>& schedule();
    void admit_waiting(int64_t budget);

    void count_lookup(const Live& l, int64_t hit_tokens, int64_t external_tokens);

    // KV offloading: the blocks a waiting request can load back from the CPU beyond its GPU hits; a
    // request's newly full blocks copied out (the least recently used requests' copies make room).
    int64_t cpu_hit_blocks(const Live& l, int64_t gpu_hits) const;
    void store_blocks(Live& l);
    void start_load(Live& l, int64_t blocks);
    void touch(Live& l);
    bool loading(const Live& l) const { return l.ready_s > now_; }
    double earliest_load_s() const;
    void log_transfers(double now, double interval);

    void free_blocks(Live& l);

    void preempt(Live* l);

    // One token for a request past its prompt that has already produced one; anything else is a
    // prompt chunk or the recomputation of a preempted request.
    static bool is_decode(const Scheduled& s);

    void add_to_load(StepLoad& load, const Scheduled& s) const;
    // The step's time to its decodes (costed alone) and to its prompt tokens (what they added).
    void split(const std::vector<Scheduled>& batch, const StepLoad& load, double step_s);

    void finish_step(const std::vector<Scheduled>& batch, double now);
    // Tokens a decode gains this step: 1, or with speculative decoding the accepted drafts and the
    // sampler's own, the mean acceptance length on average.
    int64_t tokens_gained(const Live& l);

    // Full blocks of the shared prefix this request has computed join the cache, unless another
    // copy is already there.
    void offer_prefix_blocks(Live& l);

    void record(double start_s, double step_s, int32_t prefill_tokens, int32_t decode_tokens);

    void snapshot();

    void log_stats(double now);
    void log_speculative(double now, double interval);

    void summarise();
    void classify_load(double first_arrival_s, double last_arrival_s);

    static constexpr size_t recent_lookups = 1000;

    const Result& r_;
    const StepEngine engine_;  // every step is timed on it
    const SimOptions& options_;
    const Calibration& calibration_;
    Simulation& sim_;
    BlockPool pool_;
    int64_t block_size_ = 16, budget_ = 0, max_seqs_ = 0, max_len_ = 0, max_concurrency_ = 0;
    double stated_rate_per_s_ = 0;  // the workload's rate, 0 when it is all at once or a list
    // Requests the server holds (running or waiting): what the client's concurrency cap counts.
    int64_t in_flight() const { return static_cast<int64_t>(running_.size() + waiting_.size()); }
    double block_set_bytes_ = 0;
    double model_kv_share_ = 1;       // of each block set, the model's own layers' part (not a drafter's)
    int64_t speculative_tokens_ = 0;  // drafts a decode scores (memory/speculative.hpp)
    bool one_group_ = true;
    bool keep_preempted_ = false;         // prefix caching is on: a preempted request's blocks stay cached
    std::vector<int32_t> prefix_blocks_;  // physical block per shared-prefix block, -1: not cached
    std::vector<Live> live_;
    std::vector<Live*> running_;  // in admission order
    std::deque<Live*> waiting_;
    std::vector<Scheduled> batch_;  // this step's requests (kept to reuse its memory)
    SampleRuns itl_samples_;        // one inter-token gap (at float precision) per output token after a request's first
    struct Lookup {
        int64_t queried, hits, external;
    };
    std::deque<Lookup> lookups_;
    int64_t window_queries_ = 0, window_hits_ = 0, total_queries_ = 0, total_hits_ = 0;
    int64_t window_external_ = 0, total_external_ = 0;  // tokens the CPU tier supplied to first lookups
    int64_t total_loaded_ = 0;                          // to every lookup, preempted requests' too
    // KV offloading's CPU tier (memory/offload.hpp): blocks held, and requests in the order they were
    // last touched (an entry whose request was touched again since is stale and skipped).
    CpuOffload offload_;
    std::vector<std::pair<int32_t, int64_t>> cpu_lru_;  // from cpu_lru_head_ on
    size_t cpu_lru_head_ = 0;
    int64_t touches_ = 0;
    int64_t cpu_used_ = 0, prefix_offloaded_ = 0;
    double link_free_s_ = 0, now_ = 0;
    int64_t interval_stored_ = 0, interval_loaded_ = 0;  // blocks, for the KV Transfer metrics line
    int64_t preemptions_ = 0, finished_ = 0, rejected_ = 0;
    int64_t interval_prompt_tokens_ = 0, interval_generated_ = 0, total_prompt_tokens_ = 0, total_generated_ = 0;
    int64_t interval_drafts_ = 0, interval_accepted_ = 0;  // speculative decoding, for its metrics line
    std::vector<int64_t> interval_accepted_at_;            // accepted drafts by position
    double next_log_s_ = 0, last_log_s_ = 0, peak_usage_ = 0, running_time_ = 0;
    double saturated_s_ = 0;                         // time in steps that left requests waiting
    double decode_time_s_ = 0, prefill_time_s_ = 0;  // SimOptions::split_time
    int64_t saturated_finished_ = 0;                 // requests finished in those steps
    double frame_interval_s_ = 0.01, next_frame_s_ = 0;
    // Where advance() stopped: the loop's step, simulated clock and next request to arrive.
    bool started_ = false;
    int64_t step_ = 0;
    double clock_s_ = 0;
    size_t next_arrival_ = 0;
};

}  // namespace kv::sim
