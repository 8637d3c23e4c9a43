#include "page/accuracy.hpp"

#include "io/validation_json.hpp"
#include "page/files.hpp"

namespace site {

namespace fs = std::filesystem;
using nlohmann::json;

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
    return json{{"memory", kv::accuracy_to_json(std::get<kv::ValidationSummary>(memory))},
                {"time", kv::accuracy_to_json(std::get<kv::TimingSummary>(time))}};
}

}  // namespace site
