#include "page/accuracy.hpp"

#include <algorithm>
#include <cmath>

#include "io/validation_json.hpp"
#include "page/files.hpp"

namespace site {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json memory_accuracy(const kv::ValidationSummary& s) {
    double worst_holdout = 0;
    int holdout = 0;
    for (const kv::ValidationRow& r : s.rows)
        if (r.role != "fit") worst_holdout = std::max(worst_holdout, std::fabs(r.error)), ++holdout;
    return {{"records", static_cast<int64_t>(s.rows.size())},
            {"holdout_records", holdout},
            {"median", s.median_abs_error},
            {"fit_median", s.fit_median_abs_error},
            {"holdout_median", s.holdout_median_abs_error},
            {"holdout_worst", worst_holdout}};
}

json time_accuracy(const kv::TimingSummary& s) {
    return {{"records", static_cast<int64_t>(s.rows.size())},
            {"holdout_records", s.holdout_rows},
            {"median", s.median_abs_error},
            {"fit_median", s.fit_median_abs_error},
            {"holdout_median", s.holdout_median_abs_error},
            {"holdout_worst", s.holdout_max_abs_error}};
}

}  // namespace

std::optional<json> measure_accuracy(const fs::path& dir, std::ostream& errors) {
    const auto startups = read_json(dir / "startup_logs.json", errors);
    const auto runs = read_json(dir / "benchmark_runs.json", errors);
    if (!startups || !runs) return std::nullopt;
    auto memory = kv::validate_startups(*startups);
    auto time = kv::validate_timing(*runs);
    for (const auto* error : {std::get_if<kv::InputError>(&memory), std::get_if<kv::InputError>(&time)})
        if (error) {
            report(errors, file_error(dir.string(), ErrorCode::malformed_json, error->message));
            return std::nullopt;
        }
    return json{{"memory", memory_accuracy(std::get<kv::ValidationSummary>(memory))},
                {"time", time_accuracy(std::get<kv::TimingSummary>(time))}};
}

}  // namespace site
