#include "validation/benchmarks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "base/format.hpp"
#include "base/median.hpp"
#include "result/evaluate.hpp"
#include "serving/simulate.hpp"

namespace kv {
namespace {

const char* const figures[] = {"avg_latency_s",
                               "requests_per_s",
                               "output_tokens_per_s",
                               "total_tokens_per_s",
                               "median_tpot_ms",
                               "mean_tpot_ms",
                               "median_itl_ms",
                               "mean_itl_ms",
                               "median_ttft_ms",
                               "mean_ttft_ms",
                               "output_throughput_tok_per_s"};

// The workload the benchmark sent: fixed lengths, all at once or at its rate, capped or not. Its
// prefix caching is the engine's, set once the engine is known: random prompts share no prefix,
// but with caching on (V1's default) a preempted request finds its own blocks when it returns.
Workload workload_of(const BenchmarkRecord& rec) {
    Workload w;
    w.name = "fixed";
    w.requests = rec.kind == BenchmarkKind::latency ? rec.batch_size : rec.num_prompts;
    w.rate_per_s = rec.kind == BenchmarkKind::serving ? rec.request_rate : 0.0;
    w.max_concurrency = rec.kind == BenchmarkKind::serving ? rec.max_concurrency : 0;
    return w;
}

// benchmark_latency times the same prompts it sent in its warm-up iterations, so with prefix caching
// on their blocks are found in the cache and the timed batches prefill almost nothing; its scripts
// turned prefix caching off by default from PR #18639 / #18771 (2025-05-27, "V1 enables prefix
// caching by default which skews the latency numbers"), placed at 0.9.0.
bool latency_prompts_cached(const BenchmarkRecord& rec, bool prefix_caching) {
    if (rec.kind != BenchmarkKind::latency || !prefix_caching) return false;
    const auto script = parse_engine_version(rec.script_version);
    return script && *script < EngineVersion{0, 9, 0};
}

// Each request's output: output_len, unless the run printed fewer generated tokens than that for
// its requests (no --ignore-eos: a request may stop at its end-of-sequence token), when every
// simulated request gets the printed mean.
int64_t output_tokens_of(const BenchmarkRecord& rec) {
    const int64_t requests = rec.completed > 0 ? rec.completed : rec.num_prompts;
    if (rec.generated_tokens <= 0 || requests <= 0 || rec.generated_tokens >= requests * rec.output_len) return rec.output_len;
    return std::max<int64_t>(2, (rec.generated_tokens + requests / 2) / requests);
}

// The figure the run printed, read off the simulated run.
double figure_of(const BenchmarkRecord& rec, const SimSummary& s) {
    const auto requests = static_cast<double>(s.finished);
    const double duration = std::max(s.duration_s, 1e-12);
    const auto out = static_cast<double>(output_tokens_of(rec)), in = static_cast<double>(rec.input_len);
    const std::string& f = rec.figure;
    if (f == "avg_latency_s") return s.duration_s;
    if (f == "requests_per_s") return requests / duration;
    if (f == "output_tokens_per_s" || f == "output_throughput_tok_per_s") return requests * out / duration;
    if (f == "total_tokens_per_s") return requests * (in + out) / duration;
    if (f == "median_tpot_ms") return s.tpot_s.p50 * 1e3;
    if (f == "mean_tpot_ms") return s.tpot_s.mean * 1e3;
    if (f == "median_itl_ms") return s.itl_s.p50 * 1e3;
    if (f == "mean_itl_ms") return s.itl_s.mean * 1e3;
    if (f == "median_ttft_ms") return s.ttft_s.p50 * 1e3;
    return s.ttft_s.mean * 1e3;  // mean_ttft_ms
}

// One record: evaluated and simulated, or why not.
TimingRow predict(const BenchmarkRecord& rec, const Calibration& c) {
    TimingRow row{rec.id, rec.role, "", "", rec.scenario.vllm_version, rec.figure, rec.measured, 0, 0, ""};
    Scenario s = rec.scenario;
    s.prompt_tokens = rec.input_len;
    s.output_tokens = output_tokens_of(rec);
    Workload w = workload_of(rec);
    s.concurrent_requests = std::clamp<int64_t>(w.max_concurrency > 0 ? w.max_concurrency : w.requests, 1, 4096);
    auto outcome = evaluate(s, c);
    if (auto* e = std::get_if<InputError>(&outcome)) {
        row.failure = e->message;
        return row;
    }
    Result r = std::get<Result>(outcome);
    // The run took place, so its engine started: where the recorded flags leave the model's own
    // max_model_len, which one request of would not fit, the benchmark's own length is taken (the
    // engine's refusal names it; so does benchmark_latency's --max-model-len in later releases).
    if (r.memory.startup_error && r.memory.startup_error->kind == RefusalKind::max_model_len_does_not_fit && !rec.scenario.max_model_len) {
        s.max_model_len = (rec.input_len + rec.output_len + 1023) / 1024 * 1024;
        auto shorter = evaluate(s, c);
        if (auto* e = std::get_if<InputError>(&shorter)) {
            row.failure = e->message;
            return row;
        }
        r = std::get<Result>(shorter);
    }
    row.gpu = r.gpu.name;
    row.model = r.model.name;
    if (r.status != Status::ok) {
        row.failure = r.memory.startup_error ? std::string(refusal_kind_name(r.memory.startup_error->kind)) : "request too long";
        return row;
    }
    SimOptions options;
    options.record = false;
    options.max_generated_tokens = 50'000'000;
    w.prefix_caching = rec.prefix_caching.value_or(r.rules.v1_engine);
    options.prompts_cached = latency_prompts_cached(rec, w.prefix_caching);
    auto sim = simulate(r, w, options, c);
    if (auto* e = std::get_if<InputError>(&sim)) {
        row.failure = e->message;
        return row;
    }
    row.predicted = figure_of(rec, std::get<Simulation>(sim).summary);
    row.error = row.predicted / rec.measured - 1.0;
    return row;
}

}  // namespace

bool known_timing_figure(const std::string& figure) {
    return std::find(std::begin(figures), std::end(figures), figure) != std::end(figures);
}

std::variant<TimingSummary, InputError> validate_timing(const std::vector<BenchmarkRecord>& records, const Calibration& c) {
    TimingSummary out;
    std::vector<double> all, fit, holdout;
    for (const BenchmarkRecord& rec : records) {
        TimingRow row = predict(rec, c);
        if (row.failure.empty()) {
            const double e = std::fabs(row.error);
            all.push_back(e);
            (row.role == "fit" ? fit : holdout).push_back(e);
        } else {
            ++out.failures;
        }
        out.rows.push_back(std::move(row));
    }
    out.median_abs_error = median(all);
    out.fit_median_abs_error = median(fit);
    out.holdout_median_abs_error = median(holdout);
    out.holdout_max_abs_error = holdout.empty() ? 0 : *std::max_element(holdout.begin(), holdout.end());
    out.fit_rows = static_cast<int>(fit.size());
    out.holdout_rows = static_cast<int>(holdout.size());
    return out;
}

std::string timing_table(const TimingSummary& s) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-62s %-8s %-7s %-26s %-8s %-20s %12s %12s %8s\n", "run", "role", "gpu", "model", "vllm", "figure",
                  "measured", "model", "error");
    out += line;
    for (const char* role : {"fit", "holdout"})
        for (const TimingRow& r : s.rows) {
            if (r.role != role) continue;
            if (!r.failure.empty())
                std::snprintf(line, sizeof line, "%-62s %-8s %-7s %-26s %-8s %-20s %12s   no prediction: %s\n", r.id.substr(0, 62).c_str(),
                              r.role.c_str(), r.gpu.c_str(), r.model.substr(0, 26).c_str(), r.version.c_str(), r.figure.c_str(),
                              format_significant(r.measured, 4).c_str(), r.failure.substr(0, 120).c_str());
            else
                std::snprintf(line, sizeof line, "%-62s %-8s %-7s %-26s %-8s %-20s %12s %12s %7.1f%%\n", r.id.substr(0, 62).c_str(),
                              r.role.c_str(), r.gpu.c_str(), r.model.substr(0, 26).c_str(), r.version.c_str(), r.figure.c_str(),
                              format_significant(r.measured, 4).c_str(), format_significant(r.predicted, 4).c_str(), 100.0 * r.error);
            out += line;
        }
    std::snprintf(line, sizeof line,
                  "%zu runs: median |error| %.1f%% (fit rows %.1f%% over %d, held-out rows %.1f%% over %d, held-out worst %.1f%%); "
                  "%d without a prediction\n",
                  s.rows.size(), 100.0 * s.median_abs_error, 100.0 * s.fit_median_abs_error, s.fit_rows, 100.0 * s.holdout_median_abs_error,
                  s.holdout_rows, 100.0 * s.holdout_max_abs_error, s.failures);
    out += line;
    return out;
}

}  // namespace kv
