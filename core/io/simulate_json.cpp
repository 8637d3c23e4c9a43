#include "io/simulate_json.hpp"

#include "base/format.hpp"
#include "io/fields_json.hpp"
#include "io/input_text.hpp"
#include "serving/workload_fields.hpp"

namespace kv {
namespace {

using json = nlohmann::json;

std::optional<InputError> read_requests(const json& value, std::vector<RequestSpec>& list) {
    const std::string shape =
        "list must be an array of {arrival_s, prompt_tokens, output_tokens} (1 to " + format_count(max_workload_requests()) + " requests)";
    if (!value.is_array() || value.empty() || static_cast<int64_t>(value.size()) > max_workload_requests())
        return InputError{"list", ErrorCode::wrong_type, shape};
    list.clear();
    for (const json& entry : value) {
        if (!entry.is_object()) return InputError{"list", ErrorCode::wrong_type, shape};
        RequestSpec q;
        for (const auto& [key, field] : entry.items()) {
            if (key == "arrival_s") {
                auto v = read_number(field, "list.arrival_s", 0, 1e9, 6);
                if (auto* e = std::get_if<InputError>(&v)) return *e;
                q.arrival_s = std::get<double>(v);
            } else if (key == "prompt_tokens" || key == "output_tokens") {
                auto v = read_integer(field, "list." + key, 1, 1 << 24);
                if (auto* e = std::get_if<InputError>(&v)) return *e;
                (key == "prompt_tokens" ? q.prompt_tokens : q.output_tokens) = std::get<int64_t>(v);
            } else {
                return InputError{"list", ErrorCode::unknown_field, "a request has arrival_s, prompt_tokens and output_tokens"};
            }
        }
        if (q.prompt_tokens < 1 || q.output_tokens < 1) return InputError{"list", ErrorCode::missing_field, shape};
        list.push_back(q);
    }
    return std::nullopt;
}

}  // namespace

std::variant<Workload, InputError> workload_from_json(const json& in, const Workload& base) {
    Workload w = base;
    const auto list = [&w](const std::string&, const json& value) { return read_requests(value, w.list); };
    if (auto error = read_fields(workload_fields(), in, w, "workload", "workload", list)) return *error;
    return w;
}

std::variant<Workload, InputError> workload_from_text(const std::string& text, const Workload& base) {
    auto parsed = parse_input_text(text, "workload", 4u << 20);  // an explicit list of 20,000 requests is about 1 MiB
    if (auto* error = std::get_if<InputError>(&parsed)) return *error;
    return workload_from_json(std::get<json>(parsed), base);
}

json workload_to_json(const Workload& w) { return write_fields(workload_fields(), w); }

namespace {
// Exact percentiles of the run, and (for a metric) what histogram_quantile() reads off its buckets.
json percentiles_to_json(const Percentiles& p, const Histogram* h = nullptr) {
    json out = {{"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"mean", p.mean}, {"count", p.count}};
    if (h) out.update({{"histogram_p50", h->quantile(0.5)}, {"histogram_p90", h->quantile(0.9)}, {"histogram_p99", h->quantile(0.99)}});
    return out;
}
json histogram_to_json(const Histogram& h) {
    json buckets = json::array();
    for (size_t i = 0; i < h.upper_bounds.size(); ++i) buckets.push_back({{"le", h.upper_bounds[i]}, {"count", h.cumulative[i]}});
    return {{"buckets", buckets}, {"count", h.count}, {"sum", h.sum}};
}
}  // namespace

json simulation_to_json(const Simulation& sim, bool with_stats_lines) {
    const SimSummary& s = sim.summary;
    int64_t running = 0, waiting = 0;
    double usage = 0;
    if (!sim.steps.empty()) {
        const SimStep& last = sim.steps.back();
        running = last.running;
        waiting = last.waiting;
        usage = last.kv_cache_usage;
    }
    json out = {
        {"duration_s", s.duration_s},
        {"finished", s.finished},
        {"rejected", s.rejected},
        {"preemptions", s.preemptions},
        {"generation_tokens_per_s", s.generation_tokens_per_s},
        {"prompt_tokens_per_s", s.prompt_tokens_per_s},
        {"prefix_hit_rate", s.prefix_hit_rate},
        {"external_hit_rate", s.external_hit_rate},
        {"external_hit_tokens", s.external_hit_tokens},
        {"peak_kv_cache_usage", s.peak_kv_cache_usage},
        {"mean_running", s.mean_running},
        {"ttft_s", percentiles_to_json(s.ttft_s, &s.ttft_histogram)},
        {"itl_s", percentiles_to_json(s.itl_s, &s.itl_histogram)},
        {"e2e_s", percentiles_to_json(s.e2e_s)},
        {"tpot_s", percentiles_to_json(s.tpot_s)},
        {"offered_rate_per_s", s.offered_rate_per_s},
        {"sustained_rate_per_s", s.sustained_rate_per_s},
        {"load", load_name(s.load)},
        {"latency_grows_with_run", s.latency_grows_with_run()},
        {"load_note", load_note(s)},
        {"prefix_hit_tokens", s.prefix_hit_tokens},
        {"cost",
         {{"per_million_output_tokens", s.cost.per_million_output_tokens},
          {"per_million_prompt_tokens", s.cost.per_million_prompt_tokens},
          {"per_million_cached_prompt_tokens", s.cost.per_million_cached_prompt_tokens}}},
        {"pool_blocks", sim.pool_blocks},
        {"block_size", sim.block_size},
        {"steps", static_cast<int64_t>(sim.steps.size())},
        {"note", sim.note},
        {"metrics",
         {{"vllm:num_requests_running", running},
          {"vllm:num_requests_waiting", waiting},
          {"vllm:kv_cache_usage_perc", usage},
          {"vllm:num_preemptions_total", s.preemptions},
          {"vllm:time_to_first_token_seconds", histogram_to_json(s.ttft_histogram)},
          {"vllm:inter_token_latency_seconds", histogram_to_json(s.itl_histogram)}}},
    };
    if (with_stats_lines) out["stats_lines"] = sim.stats_lines;
    return out;
}

}  // namespace kv
