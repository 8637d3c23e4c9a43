// The step-time model against real vLLM benchmark runs (tests/validation/benchmark_runs.json, each
// with its source): every run is simulated with the project's own scheduler as its benchmark drove
// the engine, and its headline figure compared with what it printed.
//   benchmark_latency: one batch of batch_size prompts arriving at once; "Avg latency" is the time
//   from the first prompt to the last token (the simulated run's duration);
//   benchmark_throughput: num_prompts arriving at once; requests/s and tokens/s over the duration
//   (total tokens/s counts prompt and output tokens);
//   benchmark_serving / vllm bench serve: num_prompts at request_rate (all at once when infinite),
//   at most max_concurrency in flight; TPOT per request (E2E - TTFT) / (output - 1), ITL pooled
//   over every gap, medians and means as the script prints them.
// Records marked "role": "fit" set the step-time constants in calibration.hpp (scripts/fit_timing);
// "holdout" rows only check them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/input_error.hpp"
#include "engine/calibration.hpp"
#include "scenario/scenario.hpp"

namespace kv {

enum class BenchmarkKind { latency, throughput, serving };

// One run as the validation file records it (io/validation_json.hpp reads the file).
struct BenchmarkRecord {
    std::string id, source, role;  // role: "fit" or "holdout"
    Scenario scenario;             // the model, GPU, release and flags the run states
    BenchmarkKind kind = BenchmarkKind::latency;
    int64_t batch_size = 0;   // latency runs
    int64_t num_prompts = 0;  // throughput and serving runs
    int64_t input_len = 0, output_len = 0;
    double request_rate = 0;             // serving: requests per second; 0: all at once (inf)
    int64_t max_concurrency = 0;         // serving: 0 when not capped
    std::optional<bool> prefix_caching;  // as the flags set it; unset: the engine's default (V1 on, V0 off)
    std::string script_version;          // the benchmark script's release: the source's when it names one, else the engine's
    int64_t generated_tokens = 0;        // the printed "Total generated tokens" (0: not printed)
    int64_t completed = 0;               // the printed "Successful requests" (0: not printed)
    std::string figure;                  // the headline: avg_latency_s, requests_per_s, median_tpot_ms, ...
    double measured = 0;                 // as printed, in the figure's unit
};

struct TimingRow {
    std::string id, role, gpu, model, version, figure;
    double measured = 0, predicted = 0;
    double error = 0;     // predicted / measured - 1
    std::string failure;  // why no prediction exists (the engine refuses), else ""
};

struct TimingSummary {
    std::vector<TimingRow> rows;
    double median_abs_error = 0;
    double fit_median_abs_error = 0, holdout_median_abs_error = 0;
    double holdout_max_abs_error = 0;
    int fit_rows = 0, holdout_rows = 0, failures = 0;
};

// Each record simulated and compared; an InputError only for a record the readers refuse.
std::variant<TimingSummary, InputError> validate_timing(const std::vector<BenchmarkRecord>& records, const Calibration& calibration = {});

// A plain-text table, one row per run, fit and held-out rows apart, and the summary lines.
std::string timing_table(const TimingSummary& summary);

// The headline figures a record may name.
bool known_timing_figure(const std::string& figure);

}  // namespace kv
