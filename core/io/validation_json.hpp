// The validation files as data: tests/validation/startup_logs.json (real start-ups) and
// benchmark_runs.json (real benchmark runs) read into the validation room's records. A record with an exclude_reason, or without a scenario, is kept in the
// file but not compared.
#pragma once
#include <nlohmann/json.hpp>
#include <variant>
#include <vector>

#include "base/input_error.hpp"
#include "validation/benchmarks.hpp"
#include "validation/startups.hpp"

namespace kv {

std::variant<std::vector<StartupRecord>, InputError> startup_records_from_json(const nlohmann::json& data);
// Both steps: the file's records against the model.
std::variant<ValidationSummary, InputError> validate_startups(const nlohmann::json& data, const Calibration& calibration = {});

// tests/validation/benchmark_runs.json: runs with an exclude_reason are kept in the file, not compared.
std::variant<std::vector<BenchmarkRecord>, InputError> benchmark_records_from_json(const nlohmann::json& data);
std::variant<TimingSummary, InputError> validate_timing(const nlohmann::json& data, const Calibration& calibration = {});

// How far to trust the model, as the lesson quotes it: records compared, held-out records, the
// medians (all, fit, held out) and the worst held-out error, as fractions. `kvcache --validate
// --json` and `--validate-timing --json` print these; the site's accuracy.* figures read them.
nlohmann::json accuracy_to_json(const ValidationSummary& memory);
nlohmann::json accuracy_to_json(const TimingSummary& time);

}  // namespace kv
