#include "serving/simulate.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "base/format.hpp"

#include "serving/scheduler.hpp"
#include "serving/workload_fields.hpp"

namespace kv {
namespace {

// The run's work against the budget, refused by name before anything is allocated.
std::optional<InputError> check_budget(const std::vector<RequestSpec>& requests, const SimOptions& options) {
    int64_t generated = 0, prompt = 0;
    for (const RequestSpec& q : requests) generated += q.output_tokens, prompt += q.prompt_tokens;
    const auto count = static_cast<int64_t>(requests.size());
    if (generated > options.max_generated_tokens)
        return InputError{"requests", ErrorCode::out_of_range,
                          "the run would generate " + format_count(generated) + " tokens (" + format_count(count) +
                              " requests); a simulated run generates at most " + format_count(options.max_generated_tokens) +
                              ": fewer requests or shorter outputs"};
    if (prompt > options.max_prompt_tokens)
        return InputError{"requests", ErrorCode::out_of_range,
                          "the run would prefill " + format_count(prompt) + " prompt tokens (" + format_count(count) +
                              " requests); a simulated run prefills at most " + format_count(options.max_prompt_tokens) +
                              ": fewer requests or shorter prompts"};
    return std::nullopt;
}

}  // namespace

const char* load_name(Load load) {
    static const char* const names[] = {"stable", "overloaded", "burst", "capped"};
    return names[static_cast<int>(load)];
}

std::string load_note(const SimSummary& s) {
    if (s.load == Load::overloaded)
        return "The queue grows for as long as the traffic lasts: " + format_significant(s.offered_rate_per_s, 2) +
               " requests/s arrive and the engine completes " + format_significant(s.sustained_rate_per_s, 2) +
               " while requests wait. Its waits and percentiles grow with the run's length, so they describe this run, not the server.";
    if (s.load == Load::burst)
        return "Every request arrives at once: the waits and percentiles grow with the number of requests the run sends.";
    return "";
}

RunCost run_cost(const SimSummary& s, double gpu_hour_price, int64_t gpus) {
    RunCost cost;
    const double output = s.generation_tokens_per_s * s.duration_s, computed = s.prompt_tokens_per_s * s.duration_s;
    const double timed = s.decode_time_s + s.prefill_time_s;
    if (gpu_hour_price <= 0 || timed <= 0) return cost;
    const double spent = gpu_hour_price * static_cast<double>(gpus) * s.duration_s / 3600.0;
    if (output > 0) cost.per_million_output_tokens = spent * (s.decode_time_s / timed) / output * 1e6;
    if (computed > 0) cost.per_million_prompt_tokens = spent * (s.prefill_time_s / timed) / computed * 1e6;
    return cost;
}

SimulationRun::SimulationRun(const Result& result, const Workload& workload, const SimOptions& options, const Calibration& calibration)
    : result_(result), workload_(workload), options_(options), calibration_(calibration) {
    options_.split_time = options.split_time || workload.gpu_hour_price > 0;  // a price needs the time split
}

SimulationRun::~SimulationRun() = default;

std::variant<std::unique_ptr<SimulationRun>, InputError> SimulationRun::start(const Result& result, const Workload& workload,
                                                                              const SimOptions& options, const Calibration& calibration) {
    if (result.status == Status::engine_refused)
        return InputError{"scenario", ErrorCode::inconsistent_config,
                          "the engine does not start in this scenario: " +
                              (result.memory.startup_error ? result.memory.startup_error->message : std::string("it is refused"))};
    auto requests = workload_requests(workload, result.scenario);
    if (auto* error = std::get_if<InputError>(&requests)) return *error;
    if (auto error = check_budget(std::get<std::vector<RequestSpec>>(requests), options)) return *error;
    std::unique_ptr<SimulationRun> run(new SimulationRun(result, workload, options, calibration));
    for (const RequestSpec& q : std::get<std::vector<RequestSpec>>(requests)) run->sim_.requests.push_back({q});
    run->scheduler_ = std::make_unique<sim::Scheduler>(run->result_, run->workload_, run->options_, run->calibration_, run->sim_);
    return run;
}

bool SimulationRun::advance(int64_t steps) {
    if (!ended_ && scheduler_->advance(steps)) {
        ended_ = true;
        if (workload_.gpu_hour_price > 0)
            sim_.summary.cost = run_cost(sim_.summary, workload_.gpu_hour_price,
                                         result_.scenario.tensor_parallel_size * result_.scenario.pipeline_parallel_size);
    }
    return ended_;
}

Simulation SimulationRun::take() { return std::move(sim_); }

std::variant<Simulation, InputError> simulate(const Result& result, const Workload& workload, const SimOptions& options,
                                              const Calibration& calibration) {
    auto started = SimulationRun::start(result, workload, options, calibration);
    if (auto* error = std::get_if<InputError>(&started)) return *error;
    SimulationRun& run = *std::get<std::unique_ptr<SimulationRun>>(started);
    while (!run.advance(std::numeric_limits<int64_t>::max())) {}
    return run.take();
}

double preemption_onset_rate(const Result& result, const Workload& workload, const Calibration& calibration) {
    SimOptions quiet;
    quiet.record = false;
    auto preempts = [&](double rate) {
        Workload w = workload;
        w.rate_per_s = rate;
        auto sim = simulate(result, w, quiet, calibration);
        return std::holds_alternative<Simulation>(sim) && std::get<Simulation>(sim).summary.preemptions > 0;
    };
    if (!preempts(0)) return 0.0;
    double lo = 0.01, hi = 1.0;  // lo: no preemption; hi: preemption
    while (preempts(lo) && lo > 1e-4) lo /= 10;
    while (!preempts(hi) && hi < find_field(workload_fields(), "rate_per_s")->spec->hi) hi *= 2;
    while (hi / lo > 1.01) {
        const double mid = std::sqrt(lo * hi);
        (preempts(mid) ? hi : lo) = mid;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10(hi)) - 1);  // two significant figures
    return std::ceil(hi / magnitude) * magnitude;
}

}  // namespace kv
