// Serving over time: a discrete-event simulation of one vLLM V1-style scheduler on the engine that
// evaluate() sized. Requests arrive (Poisson at a rate, or all at once), wait, are admitted under
// max_num_seqs and the token budget (max_num_batched_tokens, chunked prefill), take KV blocks of
// block_size tokens from the pool one block at a time as they grow, and finish. When the pool runs
// dry the most recently admitted running request is preempted and later recomputed from scratch
// (V1's policy). With prefix caching, a shared system prompt's full blocks are kept in a cache:
// later requests reuse them, and when no request holds them they stay cached, counted as free,
// until an allocation evicts them (least recently freed first). Each step's time comes from the
// same step-time model as the steady state (step_time.hpp).
// Deterministic for a seed: arrivals and lengths use a fixed generator, not <random>.
// Leaves out: prefix caching of hybrid (sliding-window) models, caching of a request's own
// blocks across preemption, speculative decoding, and the CPU overhead between steps.
#pragma once
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/calibration.hpp"
#include "result/evaluate.hpp"
#include "base/input_error.hpp"

namespace kv {

struct RequestSpec {
    double arrival_s = 0;       // when the client sends it (with a concurrency cap: once a slot frees)
    int64_t prompt_tokens = 0;  // including the shared prefix
    int64_t output_tokens = 0;
};

// Named workloads draw prompt and output lengths from log-normal shapes chosen to illustrate
// (they are not measurements): chat (short prompts, medium answers), summarise (long documents,
// short answers), reasoning (short prompts, long outputs); "fixed" uses the scenario's
// prompt_tokens and output_tokens for every request.
struct Workload {
    std::string name = "chat";  // chat, summarise, reasoning, fixed
    double rate_per_s = 8;      // Poisson arrivals; 0: every request arrives at once
    int64_t requests = 2000;
    uint64_t seed = 1;
    int64_t shared_prefix_tokens = 0;  // a system prompt every request starts with
    bool prefix_caching = true;        // vLLM V1's default
    int64_t max_concurrency = 0;  // the client keeps at most this many requests in flight (vllm bench serve's --max-concurrency); 0: no cap
    double gpu_hour_price = 0;    // what a GPU-hour costs (any currency): the run's cost per million tokens; 0: none
    std::vector<RequestSpec> list;  // explicit requests; when set, name/rate/requests are unused
};

// One scheduler step (or an idle gap, with zero tokens).
struct SimStep {
    double start_s = 0;
    double step_s = 0;
    int32_t running = 0;
    int32_t waiting = 0;
    int32_t preemptions_total = 0;  // cumulative, as vllm:num_preemptions_total
    int32_t blocks_used = 0;        // held by running requests (shared prefix blocks once)
    int32_t blocks_cached = 0;      // prefix blocks no request holds: free but still hit-able
    float kv_cache_usage = 0;       // vllm:kv_cache_usage_perc: blocks_used over the pool, 0..1
    int32_t prefill_tokens = 0;
    int32_t decode_tokens = 0;
};

struct SimRequest {
    RequestSpec spec;
    double first_token_s = -1;  // absolute time; -1: never (rejected or unfinished)
    double finish_s = -1;
    int64_t preemptions = 0;
    int64_t prefix_hit_tokens = 0;  // at its first admission
    bool rejected = false;          // longer than max_model_len (HTTP 400)
    double ttft_s() const { return first_token_s - spec.arrival_s; }
    double e2e_s() const { return finish_s - spec.arrival_s; }
};

// The block pool at one moment, one cell per block or per group of blocks on big pools.
struct PoolFrame {
    int32_t step = 0;             // index into Simulation::steps
    std::vector<uint16_t> owner;  // request index (mod 65,520), or one of the codes below
    std::vector<uint8_t> fill;    // blocks of the cell in use, 0..255 of the cell
    static constexpr uint16_t free_cell = 0xFFFF, cached_prefix = 0xFFFE, shared_prefix = 0xFFFD;
};

struct Percentiles {
    double p50 = 0, p90 = 0, p99 = 0, mean = 0;
    int64_t count = 0;
};

// A Prometheus histogram as vLLM declares it: upper bounds and cumulative counts.
struct Histogram {
    std::vector<double> upper_bounds;  // le="..." (the +Inf bucket is `count`)
    std::vector<int64_t> cumulative;
    int64_t count = 0;
    double sum = 0;
    double quantile(double q) const;  // what histogram_quantile() would report
};

// What a run's tokens cost at a GPU-hour price: the GPUs of one replica for the run's duration,
// apportioned as the run's steps split their time (SimSummary::decode_time_s to output tokens,
// prefill_time_s to the prompt tokens computed). A prompt token found in the prefix cache is not
// computed and takes no GPU time of its own: what a provider charges for it pays for the blocks
// that hold it.
struct RunCost {
    double per_million_output_tokens = 0, per_million_prompt_tokens = 0;
    double per_million_cached_prompt_tokens = 0;  // 0 by this accounting; kept so the line says so
};

// Whether the run's latencies describe the traffic or only how long the run was. An open stream of
// arrivals faster than the engine completes requests builds a queue that grows for as long as the
// traffic lasts, so its waits and percentiles grow with the number of requests; so do a burst's
// (every request at once). A client that caps its requests in flight keeps the queue on its side.
enum class Load { stable, overloaded, burst, capped };
const char* load_name(Load load);

struct SimSummary {
    double duration_s = 0;  // first arrival to last finish
    int64_t finished = 0;
    int64_t rejected = 0;
    int64_t preemptions = 0;
    double generation_tokens_per_s = 0;  // over the whole run
    double prompt_tokens_per_s = 0;      // prefill tokens computed (recomputation included)
    double prefix_hit_rate = 0;          // hit tokens / queried tokens, requests' first lookups (as vLLM logs it)
    double peak_kv_cache_usage = 0;
    double mean_running = 0;  // time-weighted
    Percentiles ttft_s, itl_s, e2e_s;
    Percentiles tpot_s;                       // per request, (finish - first token) / (output tokens - 1), as vllm bench serve's TPOT
    Histogram ttft_histogram, itl_histogram;  // vllm:time_to_first_token_seconds, vllm:inter_token_latency_seconds
    // With SimOptions::split_time: the steps' decodes costed alone, and what their prompt tokens
    // added (the marginal cost of prefill; a prompt chunk riding on a decode step costs little).
    double decode_time_s = 0, prefill_time_s = 0;
    int64_t prefix_hit_tokens = 0;    // prompt tokens found in the prefix cache, not computed
    int64_t external_hit_tokens = 0;  // with KV offloading: tokens loaded back from the CPU, preempted requests' too
    double external_hit_rate = 0;     // first lookups' share from the CPU, as "External prefix cache hit rate"
    RunCost cost;                     // with Workload::gpu_hour_price (else zero)
    double offered_rate_per_s = 0;    // the workload's arrival rate (0: all at once)
    double sustained_rate_per_s = 0;  // requests finished per second in the steps that left requests waiting (0: none did)
    Load load = Load::stable;
    bool latency_grows_with_run() const { return load == Load::overloaded || load == Load::burst; }
};
// What a reader should know before quoting the run's latencies: "" when they describe the engine.
std::string load_note(const SimSummary& summary);
// The run's cost per million tokens at `gpu_hour_price` for `gpus` GPUs (its decode and prefill
// time must have been split: SimOptions::split_time).
RunCost run_cost(const SimSummary& summary, double gpu_hour_price, int64_t gpus);

struct Simulation {
    int64_t pool_blocks = 0;  // num_gpu_blocks - 1 (one null block)
    int64_t block_size = 0;
    int64_t blocks_per_cell = 1;
    std::vector<SimStep> steps;
    std::vector<SimRequest> requests;
    std::vector<PoolFrame> frames;         // at most max_frames, evenly spread over simulated time
    std::vector<std::string> stats_lines;  // every 10 s of simulated time, in the engine's format
    std::vector<double> stats_line_s;      // when each was printed
    SimSummary summary;
    std::string note;  // what the simulation left out for this scenario, if anything
};

struct SimOptions {
    int64_t max_cells = 1024;
    int64_t max_frames = 400;
    bool record = true;  // steps, frames and stats lines (off for searches)
    // The work a run may take, checked before it starts: every generated token is at least a slot
    // in a step and a latency sample, so a short link asking for 20,000 requests of 8,192 tokens
    // would hold a page for half a minute and a gigabyte and a half. The default keeps a page's run
    // under a second or two; the benchmark validation raises it for runs with no recording.
    int64_t max_generated_tokens = 16'000'000;
    int64_t max_prompt_tokens = 200'000'000;  // prefill costs steps too, though no memory per token
    // Each step's time apportioned (SimSummary::decode_time_s, prefill_time_s): a second costing of
    // every step that carries a prompt, so only runs that need it (a plan's cost) ask for it.
    bool split_time = false;
    // The first requests to arrive left out of the latency percentiles: a closed loop's first wave
    // all arrive at once, a burst the steady state never sees again.
    int64_t warmup_requests = 0;
    // Every prompt's full blocks already in the prefix cache when the run starts, as a benchmark
    // leaves them that sent the same prompts in its warm-up iterations (with prefix caching on).
    bool prompts_cached = false;
};

// The requests a workload produces (sorted by arrival), or an error naming the field.
std::variant<std::vector<RequestSpec>, InputError> workload_requests(const Workload& workload, const Scenario& scenario);

// Runs the workload on an evaluated result. A result whose engine refused to start gives an
// InputError naming the refusal.
std::variant<Simulation, InputError> simulate(const Result& result, const Workload& workload, const SimOptions& options = {},
                                              const Calibration& calibration = {});

namespace sim {
class Scheduler;
}

// A run taken a slice at a time, so a page can keep each task short: the same checks as simulate()
// when it starts, then advance() until it says the run has ended, then take() the simulation. The
// result is read, not copied: it must outlive the run.
class SimulationRun {
public:
    static std::variant<std::unique_ptr<SimulationRun>, InputError> start(const Result& result, const Workload& workload,
                                                                          const SimOptions& options = {},
                                                                          const Calibration& calibration = {});
    ~SimulationRun();
    bool advance(int64_t steps);  // true once the run has ended
    Simulation take();            // after advance() said so

private:
    SimulationRun(const Result& result, const Workload& workload, const SimOptions& options, const Calibration& calibration);
    const Result& result_;
    Workload workload_;
    SimOptions options_;
    Calibration calibration_;
    Simulation sim_;
    std::unique_ptr<sim::Scheduler> scheduler_;
    bool ended_ = false;
};

// The lowest arrival rate (requests/s, to 2 significant figures) at which the workload's run
// preempts at least once; 0 when even a burst does not.
double preemption_onset_rate(const Result& result, const Workload& workload, const Calibration& calibration = {});

}  // namespace kv
