#include "validation/startups.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "result/evaluate.hpp"
#include "base/format.hpp"
#include "base/median.hpp"
#include "base/units.hpp"

namespace kv {

namespace {

// The row of one record: the figure its log states, beside the model's.
std::optional<ValidationRow> row_of(const StartupRecord& rec, const Result& r) {
    ValidationRow row;
    row.id = rec.id;
    row.source = rec.source;
    row.role = rec.role;
    row.version = r.scenario.vllm_version;
    row.model = r.model.name;
    row.gpu = r.gpu.name;
    row.predicted_weights_gib = r.memory.weight_bytes / GiB;
    row.logged_weights_gib = rec.model_weights_gib.value_or(-1);
    if (r.memory.startup_error) row.startup_error = refusal_kind_name(r.memory.startup_error->kind);
    row.logged_refusal = rec.logged_refusal;
    row.restated = rec.restated;
    if (rec.kv_cache_tokens) {
        row.what = "tokens";
        row.logged = *rec.kv_cache_tokens;
        row.predicted = static_cast<double>(r.memory.kv_cache_tokens);
    } else if (rec.num_gpu_blocks) {
        row.what = "blocks";
        row.logged = *rec.num_gpu_blocks;
        row.predicted = static_cast<double>(r.memory.num_gpu_blocks);
    } else if (rec.available_kv_cache_gib) {
        row.what = "available";
        row.logged = *rec.available_kv_cache_gib;
        row.predicted = r.memory.available_kv_bytes / GiB;
    } else if (row.logged_refusal) {
        row.what = "refusal";  // nothing to compare but the refusal itself
        row.logged = 1;
        row.predicted = r.memory.startup_error ? 1 : 0;
    } else {
        return std::nullopt;
    }
    row.error = row.predicted / row.logged - 1.0;
    return row;
}

}  // namespace

std::variant<ValidationSummary, InputError> validate_startups(const std::vector<StartupRecord>& records, const Calibration& c) {
    ValidationSummary out;
    for (const StartupRecord& rec : records) {
        auto outcome = evaluate(rec.scenario, c);
        if (auto* e = std::get_if<InputError>(&outcome))
            return InputError{"startups." + rec.id + "." + e->field, e->code, rec.id + ": " + e->message};
        const Result& r = std::get<Result>(outcome);
        const bool refused = r.memory.startup_error.has_value();
        out.refusals_logged += rec.logged_refusal ? 1 : 0;
        out.refusals_agreeing += rec.logged_refusal && refused ? 1 : 0;
        out.refusals_unexpected += !rec.logged_refusal && refused ? 1 : 0;
        if (auto row = row_of(rec, r)) out.rows.push_back(*row);
    }
    std::vector<double> all, fit, holdout;
    for (const ValidationRow& row : out.rows) {
        all.push_back(std::fabs(row.error));
        (row.role == "fit" ? fit : holdout).push_back(std::fabs(row.error));
        if (!row.restated) out.printed_max_abs_error = std::max(out.printed_max_abs_error, std::fabs(row.error));
    }
    out.median_abs_error = median(all);
    out.max_abs_error = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
    out.fit_median_abs_error = median(fit);
    out.holdout_median_abs_error = median(holdout);
    return out;
}

std::string validation_table(const ValidationSummary& s) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-34s %-8s %-9s %-22s %-8s %-9s %12s %12s %8s %15s\n", "start-up", "role", "vllm", "model", "gpu",
                  "compares", "logged", "model", "error", "weights GiB");
    out += line;
    for (const ValidationRow& r : s.rows) {
        const int decimals = r.what == "available" ? 2 : 0;
        const std::string weights = r.logged_weights_gib >= 0
                                        ? format_fixed(r.logged_weights_gib, 2) + "/" + format_fixed(r.predicted_weights_gib, 2)
                                        : "-/" + format_fixed(r.predicted_weights_gib, 2);
        const std::string remark = !r.startup_error.empty() ? "  refused: " + r.startup_error
                                   : r.restated             ? "  restated by its author"
                                                            : "";
        std::snprintf(line, sizeof line, "%-34s %-8s %-9s %-22s %-8s %-9s %12s %12s %7.1f%% %15s%s\n", r.id.c_str(), r.role.c_str(),
                      r.version.c_str(), r.model.substr(0, 22).c_str(), r.gpu.c_str(), r.what.c_str(),
                      format_grouped(r.logged, decimals).c_str(), format_grouped(r.predicted, decimals).c_str(), 100.0 * r.error,
                      weights.c_str(), remark.c_str());
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "%zu start-ups: median |error| %.1f%%, max %.1f%% (%.1f%% over printed figures; fit rows %.1f%%, held-out rows "
                  "%.1f%%); refusals: %d logged, %d refused by the model too, %d refused by the model alone\n",
                  s.rows.size(), 100.0 * s.median_abs_error, 100.0 * s.max_abs_error, 100.0 * s.printed_max_abs_error,
                  100.0 * s.fit_median_abs_error, 100.0 * s.holdout_median_abs_error, s.refusals_logged, s.refusals_agreeing,
                  s.refusals_unexpected);
    out += line;
    return out;
}

}  // namespace kv
