// The JSON boundary of the simulation: a workload in, a run's summary (and, when asked, its stats
// lines and per-request figures) out. Every rejection names the field and its range.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "base/input_error.hpp"
#include "serving/simulate.hpp"

namespace kv {

// {"workload": "chat", "rate_per_s": 8, "requests": 2000, "seed": 1, "shared_prefix_tokens": 0,
//  "prefix_caching": true} or {"list": [{"arrival_s": 0, "prompt_tokens": 512, "output_tokens": 64}, ...]};
// missing fields keep the defaults of `base`.
std::variant<Workload, InputError> workload_from_json(const nlohmann::json& json, const Workload& base = {});
std::variant<Workload, InputError> workload_from_text(const std::string& text, const Workload& base = {});
nlohmann::json workload_to_json(const Workload& workload);

// The summary, plus the metrics a Prometheus scrape would show at the end of the run.
nlohmann::json simulation_to_json(const Simulation& simulation, bool with_stats_lines = false);

}  // namespace kv
