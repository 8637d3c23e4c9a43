// The model against real vLLM start-ups: each record of tests/validation/startup_logs.json holds
// what a public log printed (GPU KV cache size, # GPU blocks, Available KV cache memory, Model
// loading took ...) and the scenario it corresponds to. This predicts each and reports the error,
// and whether the model refuses exactly the start-ups the engine refused.
// Records marked "role": "fit" set the memory constants in calibration.hpp; "holdout" rows only
// check them.
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/calibration.hpp"
#include "base/input_error.hpp"
#include "scenario/scenario.hpp"

namespace kv {

struct ValidationRow {
    std::string id, source, role, version, what;  // what: "tokens", "blocks" or "available"
    std::string model, gpu;
    double logged = 0, predicted = 0;                           // in the unit of `what` (GiB for available)
    double error = 0;                                           // predicted / logged - 1
    double logged_weights_gib = -1, predicted_weights_gib = 0;  // -1: the log does not say
    std::string startup_error;                                  // the model's refusal kind, when it refuses
    bool logged_refusal = false;                                // the engine stopped at start-up
    bool restated = false;  // the figure is its author's restatement (a table entry), not a printed line
};

struct ValidationSummary {
    std::vector<ValidationRow> rows;
    double median_abs_error = 0, max_abs_error = 0;
    double printed_max_abs_error = 0;  // over the figures the engine printed (no restated ones)
    double fit_median_abs_error = 0, holdout_median_abs_error = 0;
    int refusals_logged = 0, refusals_agreeing = 0;  // start-ups refused, and how many the model refuses too
    int refusals_unexpected = 0;                     // the model refuses where the engine started
};

// One start-up as the validation file records it (io/validation_json.hpp reads the file).
struct StartupRecord {
    std::string id, source, role;  // role: "fit" or "holdout"
    Scenario scenario;
    // What the log printed (unset: it does not say).
    std::optional<double> kv_cache_tokens, num_gpu_blocks, available_kv_cache_gib, model_weights_gib;
    bool logged_refusal = false;  // the engine stopped at start-up
    bool restated = false;        // `figure_restated`: its author restated the figure
};

std::variant<ValidationSummary, InputError> validate_startups(const std::vector<StartupRecord>& records,
                                                              const Calibration& calibration = {});

// A plain-text table, one row per start-up, and the summary lines.
std::string validation_table(const ValidationSummary& summary);

}  // namespace kv
