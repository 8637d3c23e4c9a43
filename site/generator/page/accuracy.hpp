// How far to trust the model, measured when the site is built: both validation files (real vLLM
// start-ups and real benchmark runs, tests/validation/) run through the core, summarised for the
// lesson's `accuracy.` figures and the panels' error bands.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace site {

// {"memory": {...}, "time": {...}}: for each, how many records were compared, the median |error|
// of all, of the fit rows and of the held-out rows, and the worst held-out |error| (fractions).
// nullopt, having said why, when a file is missing or the core refuses it.
std::optional<nlohmann::json> measure_accuracy(const std::filesystem::path& validation_dir, std::ostream& errors);

}  // namespace site
