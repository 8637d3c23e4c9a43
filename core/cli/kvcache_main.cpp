// kvcache: the model from the command line. Reads a scenario (JSON; missing fields take the
// defaults) from --scenario or standard input and prints the result as JSON. Exit code 2 and
// {"error": {...}} on bad input.
//   kvcache --scenario '{"prompt_tokens": 32768}'
//   kvcache --sweep batch|tp --scenario '{...}'     curves of the batching-ceiling panel
//   kvcache --catalog                               built-in models and GPUs
//   kvcache --validate < tests/validation/startup_logs.json   the model against real vLLM start-ups
//   (exit 1 when the median |error| exceeds 3%, a row exceeds 10% or a refusal is missed or invented)
#include <iostream>
#include <iterator>
#include <string>

#include "evaluate.hpp"
#include "json_io.hpp"
#include "sweep.hpp"
#include "validation.hpp"

namespace {

int usage() {
    std::cerr << "usage: kvcache [--scenario JSON] [--sweep batch|tp] [--catalog] [--validate < startups.json]\n"
                 "       with no --scenario the scenario JSON is read from standard input\n";
    return 2;
}

int print_error(const kv::InputError& error) {
    std::cout << kv::error_to_json(error).dump(2) << "\n";
    return 2;
}

int validate() {
    const auto data = nlohmann::json::parse(std::cin, nullptr, false);
    if (data.is_discarded()) {
        std::cerr << "kvcache: the validation data on standard input is not JSON\n";
        return 2;
    }
    auto outcome = kv::validate_startups(data);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    const auto& summary = std::get<kv::ValidationSummary>(outcome);
    std::cout << kv::validation_table(summary);
    const bool refusals_agree =
        summary.refusals_agreeing == summary.refusals_logged && summary.refusals_unexpected == 0;
    return summary.median_abs_error <= 0.03 && summary.max_abs_error <= 0.10 && refusals_agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string scenario_text, sweep;
    bool have_scenario = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--scenario" && i + 1 < argc) { scenario_text = argv[++i]; have_scenario = true; }
        else if (arg == "--sweep" && i + 1 < argc) sweep = argv[++i];
        else if (arg == "--validate") return validate();
        else if (arg == "--catalog") { std::cout << kv::catalog_to_json().dump(2) << "\n"; return 0; }
        else return usage();
    }
    if (!sweep.empty() && sweep != "batch" && sweep != "tp") return usage();
    if (!have_scenario)
        scenario_text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (scenario_text.find_first_not_of(" \t\r\n") == std::string::npos) scenario_text = "{}";

    auto outcome = kv::evaluate_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) return print_error(*error);
    const kv::Result& result = std::get<kv::Result>(outcome);

    if (sweep == "batch") std::cout << kv::batch_sweep_to_json(kv::sweep_batch(result)).dump(2) << "\n";
    else if (sweep == "tp") std::cout << kv::tensor_parallel_sweep_to_json(kv::sweep_tensor_parallel(result)).dump(2) << "\n";
    else std::cout << kv::result_to_json(result).dump(2) << "\n";
    return 0;
}
