#include "logs/validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "result/evaluate.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "base/units.hpp"

namespace kv {
namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double number_or(const nlohmann::json& o, const char* key, double fallback) {
    return o.contains(key) && o[key].is_number() ? o[key].get<double>() : fallback;
}

}  // namespace

std::variant<ValidationSummary, InputError> validate_startups(const nlohmann::json& data, const Calibration& c) {
    ValidationSummary out;
    if (!data.is_object() || !data.contains("startups") || !data["startups"].is_array())
        return InputError{"startups", ErrorCode::wrong_type, "the validation file must hold a \"startups\" array"};
    for (const auto& rec : data["startups"]) {
        if (!rec.contains("scenario") || !rec.value("exclude_reason", std::string()).empty()) continue;
        const std::string id = rec.value("id", std::string("?"));
        auto scenario = scenario_from_json(rec["scenario"]);
        if (auto* e = std::get_if<InputError>(&scenario))
            return InputError{"startups." + id + "." + e->field, e->code, id + ": " + e->message};
        auto outcome = evaluate(std::get<Scenario>(scenario), c);
        if (auto* e = std::get_if<InputError>(&outcome))
            return InputError{"startups." + id + "." + e->field, e->code, id + ": " + e->message};
        const Result& r = std::get<Result>(outcome);
        const nlohmann::json logged = rec.value("logged", nlohmann::json::object());

        ValidationRow row;
        row.id = id;
        row.source = rec.value("source", std::string());
        row.role = rec.value("role", std::string("holdout"));
        row.version = r.scenario.vllm_version;
        row.model = r.model.name;
        row.gpu = r.gpu.name;
        row.predicted_weights_gib = r.memory.weight_bytes / GiB;
        row.logged_weights_gib = number_or(logged, "model_weights_gib", -1);
        if (r.memory.startup_error) row.startup_error = r.memory.startup_error->kind;
        row.logged_refusal = rec.value("logged_refusal", false);
        out.refusals_logged += row.logged_refusal ? 1 : 0;
        out.refusals_agreeing += row.logged_refusal && r.memory.startup_error ? 1 : 0;
        out.refusals_unexpected += !row.logged_refusal && r.memory.startup_error ? 1 : 0;
        if (number_or(logged, "kv_cache_tokens", 0) > 0) {
            row.what = "tokens";
            row.logged = number_or(logged, "kv_cache_tokens", 0);
            row.predicted = static_cast<double>(r.memory.kv_cache_tokens);
        } else if (number_or(logged, "num_gpu_blocks", 0) > 0) {
            row.what = "blocks";
            row.logged = number_or(logged, "num_gpu_blocks", 0);
            row.predicted = static_cast<double>(r.memory.num_gpu_blocks);
        } else if (number_or(logged, "available_kv_cache_gib", 0) > 0) {
            row.what = "available";
            row.logged = number_or(logged, "available_kv_cache_gib", 0);
            row.predicted = r.memory.available_kv_bytes / GiB;
        } else if (row.logged_refusal) {
            row.what = "refusal";  // nothing to compare but the refusal itself
            row.logged = 1;
            row.predicted = r.memory.startup_error ? 1 : 0;
        } else {
            continue;
        }
        row.error = row.predicted / row.logged - 1.0;
        out.rows.push_back(row);
    }
    std::vector<double> all, fit, holdout;
    for (const ValidationRow& row : out.rows) {
        all.push_back(std::fabs(row.error));
        (row.role == "fit" ? fit : holdout).push_back(std::fabs(row.error));
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
        std::snprintf(line, sizeof line, "%-34s %-8s %-9s %-22s %-8s %-9s %12s %12s %7.1f%% %15s%s\n", r.id.c_str(), r.role.c_str(),
                      r.version.c_str(), r.model.substr(0, 22).c_str(), r.gpu.c_str(), r.what.c_str(),
                      format_grouped(r.logged, decimals).c_str(), format_grouped(r.predicted, decimals).c_str(), 100.0 * r.error,
                      weights.c_str(), r.startup_error.empty() ? "" : ("  refused: " + r.startup_error).c_str());
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "%zu start-ups: median |error| %.1f%%, max %.1f%% (fit rows %.1f%%, held-out rows %.1f%%); "
                  "refusals: %d logged, %d refused by the model too, %d refused by the model alone\n",
                  s.rows.size(), 100.0 * s.median_abs_error, 100.0 * s.max_abs_error, 100.0 * s.fit_median_abs_error,
                  100.0 * s.holdout_median_abs_error, s.refusals_logged, s.refusals_agreeing, s.refusals_unexpected);
    out += line;
    return out;
}

}  // namespace kv
