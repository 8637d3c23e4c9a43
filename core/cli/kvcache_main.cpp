// kvcache: the model from the command line. Reads a scenario (JSON; missing fields take the
// defaults) from --scenario or standard input and prints the result as JSON. Exit code 2 and
// {"error": {...}} on bad input.
//   kvcache --scenario '{"prompt_tokens": 32768}'
//   kvcache --sweep batch|tp --scenario '{...}'     curves of the batching-ceiling panel
//   kvcache --catalog                               built-in models and GPUs
//   kvcache --validate [--json] < tests/validation/startup_logs.json   the model against real vLLM start-ups
//   (exit 1 when the median |error| exceeds 3%, a row exceeds 10% or a refusal is missed or invented)
//   kvcache --validate-timing [--calibration JSON] [--json] < tests/validation/benchmark_runs.json
//   (the step-time model against real vLLM benchmark runs: exit 1 when the held-out median |error|
//   exceeds 10% or a held-out row exceeds 25%; --calibration overrides constants, as scripts/fit_timing
//   does; --json prints the rows as data)
//   kvcache --plan '{"model": "Qwen3-32B", "gpu": "H100", "gpu_count": 4, "users": 64, "itl_s": 0.05}'
//   (the target as an argument or on standard input: the vllm serve flags that meet it, cheapest first,
//   or {"met": false, "closest": ...}; plan.hpp says what is searched)
//   kvcache --explain-log [--scenario '{"gpu": "L4"}'] < vllm.log   a real start-up log, explained
//   (the scenario adds what the log does not say; exit 2 when nothing in it is a vLLM start-up line)
//   kvcache --simulate '{"workload": "chat", "rate_per_s": 8}' [--scenario '{...}'] [--stats-lines]
//           [--find-preemption-onset]
//   (serving over time: the run's summary and end-of-run metrics, the stats lines, the lowest rate
//   at which the workload preempts; simulate.hpp says what is modelled)
#include <iostream>
#include <iterator>
#include <string>

#include "result/evaluate.hpp"
#include "io/input_text.hpp"
#include "io/json_io.hpp"
#include "plan/plan.hpp"
#include "io/simulate_json.hpp"
#include "result/sweep.hpp"
#include "io/explain_json.hpp"
#include "io/calibration_json.hpp"
#include "io/validation_json.hpp"

namespace {

int usage() {
    std::cerr
        << "usage: kvcache [--scenario JSON] [--sweep batch|tp] [--catalog] [--validate [--json] < startups.json] [--explain-log < vllm.log]\n"
           "       kvcache --validate-timing [--calibration JSON] [--json] < benchmark_runs.json\n"
           "       kvcache --plan [TARGET_JSON]   the flags that serve a target (JSON or standard input)\n"
           "       kvcache --simulate [WORKLOAD_JSON] [--scenario JSON] [--stats-lines] [--find-preemption-onset]\n"
           "       with no --scenario the scenario JSON is read from standard input\n";
    return 2;
}

// The validation sets are the project's own files (under a megabyte today); they still pass the
// depth and duplicate-key checks every untrusted text does.
constexpr size_t max_validation_bytes = 64 << 20;

std::string standard_input() { return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()}; }

int print_error(const kv::InputError& error) {
    std::cout << kv::json_text(kv::error_to_json(error), 2) << "\n";
    return 2;
}

int explain(const std::string& given_text) {
    const std::string text = standard_input();
    auto given = kv::parse_input_text(given_text.empty() ? "{}" : given_text, "scenario");
    if (auto* error = std::get_if<kv::InputError>(&given)) return print_error(*error);
    if (!std::get<nlohmann::json>(given).is_object())
        return print_error({"scenario", kv::ErrorCode::malformed_json, "--scenario must be a JSON object"});
    auto outcome = kv::explain_log_json(text, std::get<nlohmann::json>(given));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    std::cout << kv::json_text(kv::explanation_to_json(std::get<kv::LogExplanation>(outcome)), 2) << "\n";
    return 0;
}

int plan(const std::string& target_text) {
    auto target = kv::plan_target_from_text(target_text);
    if (auto* error = std::get_if<kv::InputError>(&target)) return print_error(*error);
    auto outcome = kv::plan(std::get<kv::PlanTarget>(target));
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    std::cout << kv::json_text(kv::plan_to_json(std::get<kv::PlanResult>(outcome)), 2) << "\n";
    return 0;
}

int simulate(const std::string& workload_text, const std::string& scenario_text, bool stats_lines, bool find_onset) {
    auto workload = kv::workload_from_text(workload_text);
    if (auto* error = std::get_if<kv::InputError>(&workload)) return print_error(*error);
    auto outcome = kv::evaluate_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    auto run = kv::simulate(std::get<kv::Result>(outcome), std::get<kv::Workload>(workload));
    if (auto* error = std::get_if<kv::InputError>(&run)) return print_error(*error);
    nlohmann::json out = kv::simulation_to_json(std::get<kv::Simulation>(run), stats_lines);
    if (find_onset)
        out["preemption_onset_rate_per_s"] = kv::preemption_onset_rate(std::get<kv::Result>(outcome), std::get<kv::Workload>(workload));
    std::cout << kv::json_text(out, 2) << "\n";
    return 0;
}

int validate(bool as_json) {
    auto parsed = kv::parse_input_text(standard_input(), "validation data", max_validation_bytes);
    if (auto* error = std::get_if<kv::InputError>(&parsed)) return print_error(*error);
    const nlohmann::json& data = std::get<nlohmann::json>(parsed);
    auto outcome = kv::validate_startups(data);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    const auto& summary = std::get<kv::ValidationSummary>(outcome);
    if (as_json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const kv::ValidationRow& r : summary.rows)
            rows.push_back(
                {{"id", r.id}, {"role", r.role}, {"what", r.what}, {"logged", r.logged}, {"predicted", r.predicted}, {"error", r.error}});
        std::cout << kv::json_text(nlohmann::json{{"rows", rows}, {"accuracy", kv::accuracy_to_json(summary)}}) << "\n";
    } else {
        std::cout << kv::validation_table(summary);
    }
    const bool refusals_agree = summary.refusals_agreeing == summary.refusals_logged && summary.refusals_unexpected == 0;
    return summary.median_abs_error <= 0.03 && summary.max_abs_error <= 0.10 && refusals_agree ? 0 : 1;
}

int validate_timing(const std::string& calibration_text, bool as_json) {
    auto parsed = kv::parse_input_text(standard_input(), "benchmark runs", max_validation_bytes);
    if (auto* error = std::get_if<kv::InputError>(&parsed)) return print_error(*error);
    const nlohmann::json& data = std::get<nlohmann::json>(parsed);
    kv::Calibration calibration;
    if (!calibration_text.empty()) {
        auto overrides = kv::parse_input_text(calibration_text, "calibration");
        if (auto* error = std::get_if<kv::InputError>(&overrides)) return print_error(*error);
        auto read = kv::calibration_from_json(std::get<nlohmann::json>(overrides));
        if (auto* error = std::get_if<kv::InputError>(&read)) return print_error(*error);
        calibration = std::get<kv::Calibration>(read);
    }
    auto outcome = kv::validate_timing(data, calibration);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    const auto& summary = std::get<kv::TimingSummary>(outcome);
    if (as_json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const kv::TimingRow& r : summary.rows)
            rows.push_back({{"id", r.id},
                            {"role", r.role},
                            {"gpu", r.gpu},
                            {"model", r.model},
                            {"version", r.version},
                            {"figure", r.figure},
                            {"measured", r.measured},
                            {"predicted", r.predicted},
                            {"error", r.error},
                            {"failure", r.failure}});
        std::cout << kv::json_text(nlohmann::json{{"rows", rows}, {"accuracy", kv::accuracy_to_json(summary)}}) << "\n";
    } else {
        std::cout << kv::timing_table(summary);
    }
    return summary.holdout_median_abs_error <= 0.10 && summary.holdout_max_abs_error <= 0.25 && summary.failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string scenario_text, sweep;
    std::string workload_text;
    bool have_scenario = false, explain_log = false, simulating = false, stats_lines = false, find_onset = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--scenario" && i + 1 < argc) {
            scenario_text = argv[++i];
            have_scenario = true;
        } else if (arg == "--sweep" && i + 1 < argc) sweep = argv[++i];
        else if (arg == "--validate") {
            if (i + 1 < argc && std::string(argv[i + 1]) != "--json") return usage();
            return validate(i + 1 < argc);
        } else if (arg == "--validate-timing") {
            std::string calibration_text;
            bool as_json = false;
            for (int k = i + 1; k < argc; ++k) {
                const std::string option = argv[k];
                if (option == "--calibration" && k + 1 < argc) calibration_text = argv[++k];
                else if (option == "--json") as_json = true;
                else return usage();
            }
            return validate_timing(calibration_text, as_json);
        } else if (arg == "--plan") {
            const bool inline_target = i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0;
            if (inline_target) return plan(argv[i + 1]);
            const std::string text = standard_input();
            return plan(text.find_first_not_of(" \t\r\n") == std::string::npos ? "{}" : text);
        } else if (arg == "--explain-log") explain_log = true;
        else if (arg == "--simulate") {
            simulating = true;
            if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) workload_text = argv[++i];
        } else if (arg == "--stats-lines") stats_lines = true;
        else if (arg == "--find-preemption-onset") find_onset = true;
        else if (arg == "--calibration-defaults") {
            std::cout << kv::json_text(kv::calibration_to_json(kv::Calibration{}), 2) << "\n";
            return 0;
        } else if (arg == "--catalog") {
            std::cout << kv::json_text(kv::catalog_to_json(), 2) << "\n";
            return 0;
        } else return usage();
    }
    if (explain_log) return explain(scenario_text);
    if (simulating)
        return simulate(workload_text.empty() ? "{}" : workload_text, have_scenario ? scenario_text : "{}", stats_lines, find_onset);
    if (!sweep.empty() && sweep != "batch" && sweep != "tp") return usage();
    if (!have_scenario) scenario_text = standard_input();
    if (scenario_text.find_first_not_of(" \t\r\n") == std::string::npos) scenario_text = "{}";

    auto outcome = kv::evaluate_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    const kv::Result& result = std::get<kv::Result>(outcome);

    if (sweep == "batch") std::cout << kv::json_text(kv::batch_sweep_to_json(kv::sweep_batch(result)), 2) << "\n";
    else if (sweep == "tp") std::cout << kv::json_text(kv::tensor_parallel_sweep_to_json(kv::sweep_tensor_parallel(result)), 2) << "\n";
    else std::cout << kv::json_text(kv::result_to_json(result), 2) << "\n";
    return 0;
}
