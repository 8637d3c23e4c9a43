// The serving simulation: it agrees with the steady-state model where both apply, preempts under
// overload and counts it as the engine's metrics do, shares a prefix, and repeats for a seed.
#include <catch2/catch.hpp>
#include "logs/engine_log.hpp"
#include <fstream>

#include "base/format.hpp"
#include "serving/metrics.hpp"
#include "serving/simulate.hpp"
#include "io/simulate_json.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;

namespace {

Simulation run(const Result& r, const Workload& w, const SimOptions& o = {}) {
    auto sim = simulate(r, w, o);
    REQUIRE(std::holds_alternative<Simulation>(sim));
    return std::get<Simulation>(std::move(sim));
}

// Generation throughput over the middle of the run (ramp-up and drain left out): a decode step
// makes one token per decoding request.
double middle_generation_tokens_per_s(const Simulation& sim) {
    const double end = sim.steps.back().start_s + sim.steps.back().step_s;
    double tokens = 0, seconds = 0;
    for (const SimStep& s : sim.steps) {
        if (s.start_s < 0.2 * end || s.start_s > 0.7 * end) continue;
        tokens += s.decode_tokens;
        seconds += s.step_s;
    }
    return tokens / seconds;
}

}  // namespace

TEST_CASE("the lesson's starting point at 256 requests pays for its prompts") {
    const Result r = evaluate_ok({{"concurrent_requests", 256}, {"max_num_seqs", 256}, {"gpu_memory_utilization", 0.9}});
    const ServingSteady& v = r.steps.serving;
    CHECK(v.prompt_tokens_per_s == Approx(v.generation_tokens_per_s * 4096.0 / 256.0).epsilon(0.01));
    CHECK(v.prompt_tokens_per_s < v.prefill_only_tokens_per_s);
    CHECK(v.generation_tokens_per_s < v.decode_only_tokens_per_s);
    // Paying for prefill costs this prompt-heavy workload most of the decode-only rate.
    CHECK(v.generation_tokens_per_s < 0.75 * r.steps.decode_tokens_per_s);
    // The stats line reports the serving figures.
    bool found = false;
    for (const LogLine& line : engine_log(r))
        found = found || line.text.find("Avg prompt throughput: " + format_fixed(v.prompt_tokens_per_s, 1)) != std::string::npos;
    CHECK(found);
}

TEST_CASE("a long run that keeps the batch full agrees with the steady state within 5%") {
    for (const auto& [prompt, output, seqs] :
         {std::tuple{4096, 256, 32}, std::tuple{512, 512, 64}, std::tuple{1000, 100, 16}, std::tuple{2000, 1000, 128}}) {
        const Result r =
            evaluate_ok({{"prompt_tokens", prompt}, {"output_tokens", output}, {"max_num_seqs", seqs}, {"concurrent_requests", seqs}});
        INFO("prompt " << prompt << ", output " << output << ", max_num_seqs " << seqs);
        REQUIRE(r.admission.running == seqs);  // the batch, not the pool, is the limit
        Workload w;
        w.name = "fixed";
        w.requests = 3000;
        // Arrivals a little faster than the engine finishes requests keep a queue, so the batch
        // stays full, and arrive staggered as a steady state has them.
        w.rate_per_s = 1.2 * r.steps.serving.generation_tokens_per_s / output;
        const Simulation sim = run(r, w);
        CHECK(sim.summary.preemptions == 0);
        CHECK(middle_generation_tokens_per_s(sim) == Approx(r.steps.serving.generation_tokens_per_s).epsilon(0.05));
    }
}

TEST_CASE("under overload the pool runs dry, the newest request is preempted and the metrics count it") {
    const Result r = evaluate_ok({});
    Workload w;
    w.name = "reasoning";  // long outputs: sequences outgrow the blocks they were admitted with
    w.rate_per_s = 0;
    w.requests = 600;
    const Simulation sim = run(r, w);
    REQUIRE(sim.summary.preemptions > 0);
    CHECK(sim.summary.peak_kv_cache_usage == Approx(1.0).epsilon(0.01));
    int64_t per_request = 0;
    for (const SimRequest& q : sim.requests) per_request += q.preemptions;
    CHECK(per_request == sim.summary.preemptions);
    CHECK(sim.steps.back().preemptions_total == sim.summary.preemptions);
    const nlohmann::json j = simulation_to_json(sim);
    CHECK(j["metrics"]["vllm:num_preemptions_total"] == sim.summary.preemptions);
    CHECK(sim.summary.finished == 600);  // recomputed, every request still finishes

    // The same run, lightly loaded, never preempts.
    w.name = "chat";
    w.rate_per_s = 2;
    w.requests = 300;
    CHECK(run(r, w).summary.preemptions == 0);
}

TEST_CASE("with prefix caching on, a preempted request finds its own blocks again when it returns") {
    // V1 frees a preempted request's blocks with their hashes kept (scheduler.py: _preempt_request,
    // then get_computed_blocks on its return), so it recomputes only what was evicted meanwhile.
    const Result r = evaluate_ok({});
    Workload w;
    w.name = "reasoning";
    w.rate_per_s = 0;
    w.requests = 600;
    w.prefix_caching = true;
    const Simulation kept = run(r, w);
    w.prefix_caching = false;
    const Simulation recomputed = run(r, w);
    REQUIRE(kept.summary.preemptions > 0);
    REQUIRE(recomputed.summary.preemptions > 0);
    const auto prefilled = [](const Simulation& sim) { return sim.summary.prompt_tokens_per_s * sim.summary.duration_s; };
    int64_t prompts = 0;
    for (const SimRequest& q : kept.requests) prompts += q.spec.prompt_tokens;
    // Without the cache every preemption recomputes the prompt and what was generated; with it,
    // only evicted blocks (and the last partial block) are computed again.
    CHECK(prefilled(recomputed) > 1.2 * static_cast<double>(prompts));
    CHECK(prefilled(kept) < prefilled(recomputed));
    CHECK(prefilled(kept) >= static_cast<double>(prompts));
    CHECK(kept.summary.duration_s < recomputed.summary.duration_s);
    CHECK(kept.summary.finished == 600);
}

TEST_CASE("the simulation keeps its books") {
    const Result r = evaluate_ok({{"max_num_seqs", 256}});
    Workload w;
    w.rate_per_s = 40;
    w.requests = 1500;
    const Simulation sim = run(r, w);
    int64_t generated = 0, itl_samples = 0;
    for (const SimRequest& q : sim.requests) {
        REQUIRE(q.finish_s >= q.first_token_s);
        CHECK(q.ttft_s() > 0);
        itl_samples += q.spec.output_tokens - 1;
        generated += q.spec.output_tokens;
    }
    CHECK(sim.summary.itl_s.count == itl_samples);
    CHECK(sim.summary.ttft_s.count == 1500);
    CHECK(sim.summary.generation_tokens_per_s * sim.summary.duration_s == Approx(static_cast<double>(generated)));
    for (const SimStep& s : sim.steps) {
        REQUIRE(s.blocks_used + s.blocks_cached <= sim.pool_blocks);
        REQUIRE(s.running <= 256);
        REQUIRE(s.prefill_tokens + s.decode_tokens <= *r.scenario.max_num_batched_tokens);
    }
    CHECK(sim.summary.ttft_s.p50 <= sim.summary.ttft_s.p90);
    CHECK(sim.summary.ttft_s.p90 <= sim.summary.ttft_s.p99);
    // Stats lines every 10 s of simulated time, in the engine's format.
    REQUIRE(!sim.stats_lines.empty());
    CHECK(sim.stats_lines.size() == static_cast<size_t>(sim.summary.duration_s / 10.0));
    CHECK(sim.stats_lines[0].rfind("Engine 000: Avg prompt throughput: ", 0) == 0);
    CHECK(sim.stats_lines[0].find(" reqs, GPU KV cache usage: ") != std::string::npos);
    // Frames cover the run and each cell is within the pool's colours.
    REQUIRE(!sim.frames.empty());
    CHECK(sim.frames.size() <= 400);
    CHECK(static_cast<int64_t>(sim.frames[0].owner.size()) * sim.blocks_per_cell >= sim.pool_blocks);
}

TEST_CASE("a shared system prompt is computed once and then hit") {
    const Result r = evaluate_ok({});
    Workload w;
    w.rate_per_s = 4;
    w.requests = 400;
    w.shared_prefix_tokens = 2000;
    const Simulation cached = run(r, w);
    // 125 full blocks of the 2,000-token prefix: every request after the first few hits them.
    const double prefix_share = 2000.0 / (2000.0 + 826.0);  // the chat prompt's mean is about 826 tokens
    CHECK(cached.summary.prefix_hit_rate > 0.9 * prefix_share);
    CHECK(cached.summary.prefix_hit_rate < 1.0);
    int64_t hits = 0;
    for (const SimRequest& q : cached.requests) hits += q.prefix_hit_tokens == 2000;
    CHECK(hits >= 395);
    w.prefix_caching = false;
    const Simulation uncached = run(r, w);
    CHECK(uncached.summary.prefix_hit_rate == 0);
    CHECK(cached.summary.peak_kv_cache_usage < uncached.summary.peak_kv_cache_usage);
    CHECK(cached.summary.prompt_tokens_per_s < uncached.summary.prompt_tokens_per_s);
    CHECK(cached.summary.ttft_s.p50 < uncached.summary.ttft_s.p50);
}

TEST_CASE("a seed fixes the run") {
    const Result r = evaluate_ok({});
    Workload w;
    w.requests = 500;
    w.rate_per_s = 20;
    const Simulation a = run(r, w), b = run(r, w);
    REQUIRE(a.steps.size() == b.steps.size());
    CHECK(a.summary.ttft_s.p99 == b.summary.ttft_s.p99);
    CHECK(a.stats_lines == b.stats_lines);
    w.seed = 2;
    CHECK(run(r, w).summary.ttft_s.p99 != a.summary.ttft_s.p99);
}

TEST_CASE("a run taken in slices is the run taken at once") {
    const Result r = evaluate_ok({});
    Workload w;
    w.requests = 300;
    w.rate_per_s = 30;
    w.gpu_hour_price = 2.5;
    const Simulation whole = run(r, w);
    auto started = SimulationRun::start(r, w);
    REQUIRE(std::holds_alternative<std::unique_ptr<SimulationRun>>(started));
    SimulationRun& sliced = *std::get<std::unique_ptr<SimulationRun>>(started);
    int slices = 1;
    while (!sliced.advance(7)) ++slices;
    CHECK(slices > 10);
    const Simulation parts = sliced.take();
    REQUIRE(parts.steps.size() == whole.steps.size());
    CHECK(parts.steps.back().start_s == whole.steps.back().start_s);
    CHECK(parts.summary.ttft_s.p99 == whole.summary.ttft_s.p99);
    CHECK(parts.summary.itl_s.p50 == whole.summary.itl_s.p50);
    CHECK(parts.summary.cost.per_million_output_tokens == whole.summary.cost.per_million_output_tokens);
    CHECK(parts.summary.cost.per_million_output_tokens > 0);
    CHECK(parts.stats_lines == whole.stats_lines);
    CHECK(parts.frames.size() == whole.frames.size());
    // The same refusals as simulate(), before anything runs.
    w.requests = 0;
    CHECK(std::holds_alternative<InputError>(SimulationRun::start(r, w)) == std::holds_alternative<InputError>(simulate(r, w)));
}

TEST_CASE("the preemption onset is the lowest rate that preempts") {
    const Result r = evaluate_ok({});
    Workload w;
    w.requests = 2000;
    const double onset = preemption_onset_rate(r, w);
    REQUIRE(onset > 0);
    SimOptions quiet;
    quiet.record = false;
    w.rate_per_s = onset;
    CHECK(run(r, w, quiet).summary.preemptions > 0);
    w.rate_per_s = onset * 0.9;
    CHECK(run(r, w, quiet).summary.preemptions == 0);
}

TEST_CASE("workloads outside their ranges name the field") {
    auto error = [](const std::string& text) {
        auto w = workload_from_text(text);
        REQUIRE(std::holds_alternative<InputError>(w));
        return std::get<InputError>(w);
    };
    CHECK(error(R"({"rate_per_s": -1})").field == "rate_per_s");
    CHECK(error(R"({"rate_per_s": 1e30})").field == "rate_per_s");
    CHECK(error(R"({"requests": 0})").field == "requests");
    CHECK(error(R"({"requests": 20001})").field == "requests");
    CHECK(error(R"({"workload": "poetry"})").field == "workload");
    CHECK(error(R"({"shared_prefix_tokens": -3})").field == "shared_prefix_tokens");
    CHECK(error(R"({"prefix_caching": 1})").field == "prefix_caching");
    CHECK(error(R"({"list": [{"arrival_s": 0, "prompt_tokens": 0, "output_tokens": 5}]})").field == "list.prompt_tokens");
    CHECK(error(R"({"rate": 3})").code == ErrorCode::unknown_field);
    CHECK(error("{").code == ErrorCode::malformed_json);

    // A refused engine is an error, not an empty run.
    const Result refused = evaluate_ok({{"model", "Qwen3-32B"}});
    REQUIRE(refused.status == Status::engine_refused);
    CHECK(std::holds_alternative<InputError>(simulate(refused, Workload{})));

    // Requests longer than max_model_len are rejected, as the server does with HTTP 400.
    Workload w;
    w.list = {{0, 100, 10}, {0, 50000, 10}};
    const Simulation sim = run(evaluate_ok({}), w);
    CHECK(sim.summary.rejected == 1);
    CHECK(sim.summary.finished == 1);
}

TEST_CASE("histogram quantiles interpolate within vLLM's buckets as Prometheus does") {
    Histogram h;
    h.upper_bounds = {0.1, 0.2, 0.4};
    h.cumulative = {10, 30, 40};
    h.count = 40;
    CHECK(h.quantile(0.25) == Approx(0.1));  // rank 10: the top of the first bucket
    CHECK(h.quantile(0.5) == Approx(0.15));  // rank 20: halfway through the second
    CHECK(h.quantile(1.0) == Approx(0.4));
}

TEST_CASE("samples kept as runs of equal neighbours give the percentiles and histogram of every sample") {
    // Gaps as a run's steps leave them: a step's decoding requests share one, a readmitted one differs.
    const std::vector<double> gaps = {0.02, 0.02, 0.02, 0.5, 0.02, 0.03, 0.03, 0.03, 0.03, 0.01, 0.03, 0.2};
    sim::SampleRuns runs;
    for (const double g : gaps) runs.push(g);
    REQUIRE(runs.size() == gaps.size());
    const Histogram h = sim::histogram_of({0.01, 0.025, 0.1, 0.3}, runs);
    CHECK(h.cumulative == std::vector<int64_t>{1, 5, 10, 11});  // the 0.5 s gap is above every bound
    CHECK(h.count == 12);
    CHECK(h.sum == Approx(0.94));
    const Percentiles p = sim::percentiles_of(runs);
    std::vector<double> sorted = gaps;
    std::sort(sorted.begin(), sorted.end());
    CHECK(p.p50 == sorted[5]);   // nearest rank: ceil(0.5 x 12) = the 6th
    CHECK(p.p90 == sorted[10]);  // ceil(0.9 x 12) = the 11th
    CHECK(p.p99 == sorted[11]);
    CHECK(p.mean == Approx(0.94 / 12));
    CHECK(p.count == 12);
}

TEST_CASE("the serving chapter's qualitative claims hold for its scenarios") {
    // content/lesson/07-serving-over-time.md says: the calm reasoning rate never preempts and the
    // onset lies between the calm and busy rates; the busy rate preempts, and though a preempted
    // request finds its own kept blocks, others took most of them, so most of the recomputation
    // remains; the shared prompt with prefix caching keeps the pool below what it fills without,
    // where requests are preempted.
    std::ifstream file(std::string(KV_CONTENT_DATA) + "/../lesson/scenarios.json");
    const nlohmann::json lesson = nlohmann::json::parse(file);
    auto run_named = [&](const std::string& name) {
        nlohmann::json scenario = lesson["base"];
        for (const auto& [key, value] : lesson["scenarios"][name]["set"].items()) scenario[key] = value;
        const Result r = evaluate_ok(scenario);
        auto w = workload_from_json(lesson["scenarios"][name]["workload"]);
        REQUIRE(std::holds_alternative<Workload>(w));
        return std::pair{r, std::get<Workload>(w)};
    };
    const auto [calm_result, calm] = run_named("reasoning_calm");
    const auto [busy_result, busy] = run_named("reasoning_busy");
    CHECK(run(calm_result, calm).summary.preemptions == 0);
    const Simulation busy_run = run(busy_result, busy);
    CHECK(busy_run.summary.preemptions > 0);
    REQUIRE(busy.prefix_caching);
    Workload busy_uncached = busy;
    busy_uncached.prefix_caching = false;
    const Simulation uncached_run = run(busy_result, busy_uncached);
    int64_t prompts = 0;
    for (const SimRequest& q : busy_run.requests) prompts += q.spec.prompt_tokens;
    const auto recomputed = [&](const Simulation& sim) {
        return sim.summary.prompt_tokens_per_s * sim.summary.duration_s - static_cast<double>(prompts);
    };
    CHECK(recomputed(busy_run) < recomputed(uncached_run));
    CHECK(recomputed(busy_run) > 0.5 * recomputed(uncached_run));
    const auto [onset_result, onset_workload] = run_named("reasoning_onset");
    REQUIRE(lesson["scenarios"]["reasoning_onset"].value("find_preemption_onset", false));
    const double onset = preemption_onset_rate(onset_result, onset_workload);
    CHECK(onset > calm.rate_per_s);
    CHECK(onset <= busy.rate_per_s);
    const auto [prefix_result, prefix] = run_named("chat_prefix");
    const auto [off_result, off] = run_named("chat_prefix_off");
    const Simulation with_cache = run(prefix_result, prefix), without = run(off_result, off);
    CHECK(with_cache.summary.preemptions == 0);
    CHECK(without.summary.preemptions > 0);
    CHECK(with_cache.summary.peak_kv_cache_usage < 0.5 * without.summary.peak_kv_cache_usage);
    CHECK(with_cache.summary.ttft_s.p50 < without.summary.ttft_s.p50);
    // Without the cache fewer requests are completed than arrive, and the text says that a run
    // twice as long reports waits about twice as long; with it the queue is stable. The exercise's
    // faster chat rate stays below what the engine completes.
    CHECK(without.summary.load == Load::overloaded);
    CHECK(without.summary.sustained_rate_per_s < off.rate_per_s);
    CHECK(with_cache.summary.load == Load::stable);
    Workload longer = off;
    longer.requests = 2 * off.requests;
    const double growth = run(off_result, longer).summary.ttft_s.p50 / without.summary.ttft_s.p50;
    CHECK(growth > 1.5);
    CHECK(growth < 2.5);
    const auto [faster_result, faster] = run_named("chat_12");
    CHECK(run(faster_result, faster).summary.load == Load::stable);
    CHECK(faster.rate_per_s == 1.5 * run_named("chat_steady").second.rate_per_s);
}

TEST_CASE("a queue that gains on the engine is called overloaded, and its waits grow with the run; a stable one's do not") {
    const Result r = evaluate_ok({{"model", "Qwen3-8B"}, {"gpu", "H100"}});
    const auto ttft_p50 = [&](double rate, int64_t requests, Load expected) {
        Workload w;
        w.rate_per_s = rate;
        w.requests = requests;
        const Simulation sim = run(r, w, SimOptions{.record = false});
        CHECK(sim.summary.load == expected);
        CHECK(sim.summary.offered_rate_per_s == rate);
        CHECK(sim.summary.latency_grows_with_run() == (expected == Load::overloaded));
        CHECK((load_note(sim.summary).empty()) == (expected == Load::stable));
        return sim.summary.ttft_s.p50;
    };
    CHECK(ttft_p50(4, 2000, Load::stable) < 1.2 * ttft_p50(4, 1000, Load::stable));
    CHECK(ttft_p50(64, 2000, Load::overloaded) > 1.5 * ttft_p50(64, 1000, Load::overloaded));
    Workload burst;
    burst.rate_per_s = 0;
    burst.requests = 300;
    CHECK(run(r, burst).summary.load == Load::burst);
    Workload capped = burst;
    capped.max_concurrency = 16;
    CHECK(run(r, capped).summary.load == Load::capped);
}

TEST_CASE("a run beyond the work budget is refused by name before anything runs") {
    const Result r = evaluate_ok({{"model", "Llama-3.1-8B"}, {"gpu", "B200"}, {"prompt_tokens", 32768}, {"output_tokens", 8192}});
    Workload w;
    w.name = "fixed";
    w.requests = 20000;
    w.rate_per_s = 10000;
    auto outcome = simulate(r, w);
    REQUIRE(std::holds_alternative<InputError>(outcome));
    const InputError& e = std::get<InputError>(outcome);
    CHECK(e.field == "requests");
    CHECK(e.code == ErrorCode::out_of_range);
    CHECK_THAT(e.message, Catch::Contains("163,840,000 tokens"));
    // Within the budget the same workload runs.
    w.requests = 200;
    CHECK(std::holds_alternative<Simulation>(simulate(r, w)));
}

TEST_CASE("a run can leave its first wave out of the percentiles and apportion its time to decodes and prompts") {
    const Result r = evaluate_ok({{"model", "Qwen3-8B"}, {"gpu", "H100"}});
    Workload w;
    w.name = "fixed";
    w.rate_per_s = 0;
    w.max_concurrency = 32;  // a closed loop of 32 clients
    w.requests = 128;
    SimOptions options;
    options.record = false;
    const Simulation whole = run(r, w, options);
    options.warmup_requests = 32;
    options.split_time = true;
    const Simulation steady = run(r, w, options);
    CHECK(whole.summary.ttft_s.count == 128);
    CHECK(steady.summary.ttft_s.count == 96);
    // The first wave's prompts all arrive at once and queue behind each other.
    CHECK(steady.summary.ttft_s.p99 < whole.summary.ttft_s.p99);
    // Every step's time goes to its decodes or to its prompts, and both did work.
    CHECK(steady.summary.decode_time_s > 0);
    CHECK(steady.summary.prefill_time_s > 0);
    CHECK(steady.summary.decode_time_s + steady.summary.prefill_time_s <= steady.summary.duration_s * (1 + 1e-9));
    CHECK(whole.summary.decode_time_s == 0);                               // not asked for
    CHECK(steady.summary.duration_s == Approx(whole.summary.duration_s));  // the run itself is the same
}

TEST_CASE("at a GPU-hour price a run states its cost per million output and prompt tokens; cached prompt tokens take no GPU time") {
    const Result r = evaluate_ok({{"model", "Qwen3-8B"}, {"gpu", "H100"}});
    Workload w;
    w.requests = 400;
    w.shared_prefix_tokens = 2000;
    const Simulation free_run = run(r, w);
    CHECK(free_run.summary.cost.per_million_output_tokens == 0);
    w.gpu_hour_price = 2.5;
    const Simulation priced = run(r, w);
    const SimSummary& s = priced.summary;
    CHECK(s.prefix_hit_tokens > 0);
    CHECK(s.decode_time_s > 0);
    CHECK(s.prefill_time_s > 0);
    // The GPU-hours of the run (idle gaps included), split between the tokens of each kind, add back up.
    const double spent = 2.5 * s.duration_s / 3600.0;
    const double output = s.generation_tokens_per_s * s.duration_s, computed = s.prompt_tokens_per_s * s.duration_s;
    CHECK(s.cost.per_million_output_tokens * output / 1e6 + s.cost.per_million_prompt_tokens * computed / 1e6 == Approx(spent));
    CHECK(s.cost.per_million_output_tokens > s.cost.per_million_prompt_tokens);  // a decode step makes one token per sequence
    CHECK(s.cost.per_million_cached_prompt_tokens == 0);
    // The price changes the bill, not the run.
    CHECK(s.ttft_s.p50 == free_run.summary.ttft_s.p50);
    CHECK(s.duration_s == free_run.summary.duration_s);
    const nlohmann::json out = simulation_to_json(priced, false);
    CHECK(out["cost"]["per_million_output_tokens"].get<double>() == Approx(s.cost.per_million_output_tokens));
}
