#include "logs/engine_log.hpp"
#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "engine/engine_rules.hpp"
#include "base/format.hpp"
#include "plan/plan_fields.hpp"
#include "plan/plan_load.hpp"
#include "scenario/defaults.hpp"
#include "scenario/scenario_fields.hpp"

namespace kv {
namespace {

constexpr int64_t model_len_step = 1024;
constexpr size_t max_simulated = 48;  // configurations that hold their users, simulated: the cheapest of each GPU count
// vllm serve takes --data-parallel-size from 0.9.0; before, each replica is its own server.
constexpr EngineVersion first_data_parallel_serve{0, 9, 0};

std::optional<InputError> check_target(const PlanTarget& t) { return check_fields(plan_target_fields(), t); }

// [SECTION] One replica's scenario and what its evaluation says.
Scenario replica_scenario(const PlanTarget& t, int64_t users_per_replica) {
    Scenario s;
    s.model = t.model;
    s.model_config = t.model_config;
    s.gpu = t.gpu;
    s.gpu_config = t.gpu_config;
    s.vllm_version = t.vllm_version;
    s.entry = Entry::serve;
    s.prompt_tokens = t.prompt_tokens;
    s.output_tokens = t.output_tokens;
    s.concurrent_requests = users_per_replica;
    return s;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// The engine's memory lines at start-up (V1 and V0 wordings).
std::vector<std::string> startup_lines(const Result& r) {
    static const char* const prefixes[] = {
        "INFO Model loading",     "INFO Loading model weights", "INFO Memory profiling results", "INFO Available KV cache memory",
        "INFO GPU KV cache size", "INFO # GPU blocks",          "INFO Maximum concurrency"};
    std::vector<std::string> lines;
    for (const LogLine& line : engine_log(r))
        for (const char* prefix : prefixes)
            if (line.kind == LogKind::info && starts_with(line.text, prefix)) lines.push_back(line.text);
    return lines;
}

// `users_must_run`: a closed loop's users each hold a sequence; a rate's requests may queue, and
// whether the replica keeps up is the simulation's to judge (serve_load).
PlanCandidate describe(const Result& r, const Scenario& s, int64_t replicas, int64_t users_per_replica, bool users_must_run) {
    PlanCandidate c;
    c.scenario = s;
    c.replicas = replicas;
    c.gpus_used = s.tensor_parallel_size * replicas;
    c.users_per_replica = users_per_replica;
    c.command_line = serve_command(s, r.model, replicas);
    c.startup_lines = startup_lines(r);
    c.startup_error = r.memory.startup_error;
    c.running = r.admission.running;
    c.max_resident_sequences = r.admission.max_resident_sequences;
    c.users_headroom = static_cast<double>(r.admission.max_resident_sequences) / static_cast<double>(users_per_replica);
    c.itl_s = r.steps.itl_s;
    c.ttft_s = r.steps.prefill.total_s;
    c.decode_tokens_per_s = r.steps.decode_tokens_per_s * static_cast<double>(replicas);
    c.available_kv_cache_bytes = r.memory.available_kv_bytes;

    if (r.memory.startup_error)
        c.misses.push_back("the engine refuses to start (" + std::string(refusal_kind_name(r.memory.startup_error->kind)) + ")");
    else if (r.status == Status::request_too_long)
        c.misses.push_back("a " + format_count(s.prompt_tokens + s.output_tokens) + "-token request exceeds max_model_len " +
                           format_count(*r.scenario.max_model_len));
    else if (users_must_run && r.admission.running < users_per_replica)
        c.misses.push_back(format_count(r.admission.running) + " of " + format_count(users_per_replica) + " users per replica running (" +
                           binding_limit_name(r.admission.binding_limit) + " is the limit)");
    c.meets = c.misses.empty();  // it starts and holds its users: the load it serves is judged later (serve_load)
    return c;
}

// Refusals a shorter max_model_len can cure (V0 profiles max(max_model_len, 2048) tokens).
bool length_refusal(const PlanCandidate& c) {
    if (!c.startup_error) return false;
    const RefusalKind kind = c.startup_error->kind;
    return kind == RefusalKind::max_model_len_does_not_fit || kind == RefusalKind::no_kv_cache_memory ||
           kind == RefusalKind::profile_out_of_memory;
}

// [SECTION] Ranking.
// Cheapest first: fewest GPUs, then most headroom, then lowest ITL, then the lower utilisation.
bool cheaper(const PlanCandidate& a, const PlanCandidate& b) {
    if (a.gpus_used != b.gpus_used) return a.gpus_used < b.gpus_used;
    if (a.caveats.size() != b.caveats.size()) return a.caveats.size() < b.caveats.size();  // the weights and cache as trained first
    if (a.users_headroom != b.users_headroom) return a.users_headroom > b.users_headroom;
    if (a.served && b.served && a.served->tpot_s.p99 != b.served->tpot_s.p99) return a.served->tpot_s.p99 < b.served->tpot_s.p99;
    if (a.itl_s != b.itl_s) return a.itl_s < b.itl_s;
    return a.scenario.gpu_memory_utilization.value_or(0) < b.scenario.gpu_memory_utilization.value_or(0);
}

// Closest to the target: most users running (all replicas), then started (between refusals: more
// KV memory left per rank), then lowest ITL.
int64_t users_running(const PlanCandidate& c, int64_t users) { return std::min(users, c.running * c.replicas); }
bool closer(const PlanCandidate& a, const PlanCandidate& b, int64_t users) {
    const int64_t ra = users_running(a, users), rb = users_running(b, users);
    if (ra != rb) return ra > rb;
    if (a.startup_error.has_value() != b.startup_error.has_value()) return !a.startup_error;
    if (a.startup_error && a.available_kv_cache_bytes != b.available_kv_cache_bytes)
        return a.available_kv_cache_bytes > b.available_kv_cache_bytes;
    if (a.itl_s != b.itl_s) return a.itl_s < b.itl_s;
    return a.gpus_used < b.gpus_used;
}

std::string shape(const PlanCandidate& c) {
    return "tensor_parallel_size " + std::to_string(c.scenario.tensor_parallel_size) + " x " + format_count(c.replicas) +
           (c.replicas == 1 ? " replica" : " replicas");
}

std::string target_words(const PlanTarget& t, const std::string& gpu) {
    std::string text = (t.rate_per_s ? format_significant(*t.rate_per_s, 3) + " requests/s" : format_count(t.users) + " users") + " at " +
                       format_count(t.prompt_tokens) + " + " + format_count(t.output_tokens) + " tokens";
    const std::pair<const std::optional<double>*, const char*> objectives[] = {{&t.ttft_s, "median TTFT"},  {&t.ttft_p90_s, "p90 TTFT"},
                                                                               {&t.ttft_p99_s, "p99 TTFT"}, {&t.itl_s, "median TPOT"},
                                                                               {&t.tpot_p90_s, "p90 TPOT"}, {&t.tpot_p99_s, "p99 TPOT"}};
    for (const auto& [limit, name] : objectives)
        if (*limit) text += std::string(", ") + name + " <= " + format_duration(**limit);
    return text + " on up to " + format_count(t.gpu_count) + " " + gpu;
}

}  // namespace

// [SECTION] The command line.
std::string serve_command(const Scenario& s, const ModelSpec& model, int64_t replicas) {
    const EngineRules rules = engine_rules_of(s.vllm_version);
    const EngineVersion& version = rules.version;
    // A config.json of the reader's own: the directory holding it and its weights.
    std::string command = "vllm serve " + (!model.hf_repo.empty() ? model.hf_repo : s.model_config ? "MODEL_DIR" : s.model);
    // An engine asked for by name is the environment's choice, written before the command.
    if (s.engine != "auto") command = std::string("VLLM_USE_V1=") + (s.engine == "v1" ? "1 " : "0 ") + command;
    if (s.tensor_parallel_size > 1) command += " --tensor-parallel-size " + std::to_string(s.tensor_parallel_size);
    // The planner's candidates are one engine each (data_parallel_size 1) run `replicas` times; a
    // scenario of several engines multiplies in.
    const int64_t engines = replicas * s.data_parallel_size;
    if (engines > 1 && !(version < first_data_parallel_serve)) command += " --data-parallel-size " + std::to_string(engines);
    if (s.enable_expert_parallel && model.num_experts > 0) command += " --enable-expert-parallel";
    const double default_utilization = default_gpu_memory_utilization(rules);
    if (s.gpu_memory_utilization && format_fixed(*s.gpu_memory_utilization, 2) != format_fixed(default_utilization, 2))
        command += " --gpu-memory-utilization " + format_fixed(*s.gpu_memory_utilization, 2);
    if (s.max_model_len) command += " --max-model-len " + std::to_string(*s.max_model_len);
    if (s.kv_cache_dtype == DType::fp8) command += " --kv-cache-dtype fp8";
    if (s.weight_dtype == DType::fp8) command += " --quantization fp8";
    if (s.max_num_seqs) command += " --max-num-seqs " + std::to_string(*s.max_num_seqs);
    if (s.max_num_batched_tokens) command += " --max-num-batched-tokens " + std::to_string(*s.max_num_batched_tokens);
    if (s.block_size) command += " --block-size " + std::to_string(*s.block_size);
    if (s.pipeline_parallel_size > 1) command += " --pipeline-parallel-size " + std::to_string(s.pipeline_parallel_size);
    if (s.enforce_eager) command += " --enforce-eager";
    if (s.disable_custom_all_reduce) command += " --disable-custom-all-reduce";
    return command;
}

// [SECTION] The search.
namespace {

// One search: the target, what the probe resolved, the best meeting candidate per (tp, replicas,
// kv dtype, weight dtype) and the closest miss.
struct Search {
    const PlanTarget& t;
    const ModelSpec& model;
    const GpuSpec& gpu;
    const Calibration& calibration;
    int64_t short_len = 0;                    // the smallest multiple of model_len_step holding a request
    int64_t default_max_num_seqs = 0;         // the engine's, for this version and GPU
    std::vector<WeightOption> weights_tried;  // weight_options() of the target's model
    PlanResult result;
    std::map<std::tuple<int64_t, int64_t, int, int>, PlanCandidate> best;  // that start and hold their users
    std::optional<PlanCandidate> closest;

    void consider(PlanCandidate c) {
        if (c.meets) {
            const auto key = std::make_tuple(c.scenario.tensor_parallel_size, c.replicas, static_cast<int>(c.scenario.kv_cache_dtype),
                                             weights_index(c.scenario));
            auto found = best.find(key);
            if (found == best.end()) best.emplace(key, std::move(c));
            else if (cheaper(c, found->second)) found->second = std::move(c);
        } else if (!closest || closer(c, *closest, t.users)) {
            closest = std::move(c);
        }
    }

    PlanCandidate run(const Scenario& s, const ModelSpec& weights, int64_t replicas, int64_t users_per_replica) {
        ++result.evaluations;
        PlanCandidate c = describe(evaluate_resolved(s, weights, gpu, calibration), s, replicas, users_per_replica, !t.rate_per_s);
        for (const WeightOption& option : weights_tried)
            if (option.model == &weights && option.weight_dtype == s.weight_dtype && !option.caveat.empty())
                c.caveats.push_back(option.caveat);
        if (s.kv_cache_dtype == DType::fp8) c.caveats.push_back(fp8_cache_caveat());
        return c;
    }

    // One configuration: the model's own max_model_len first, the shorter one when that falls short.
    void try_configuration(Scenario s, const ModelSpec& weights, int64_t replicas, int64_t load) {
        const bool own_len = weights.max_position_embeddings > 0;
        if (default_max_num_seqs < load) s.max_num_seqs = load;
        if (!own_len) s.max_model_len = short_len;
        PlanCandidate c = run(s, weights, replicas, load);
        const bool shorter_may_help = length_refusal(c) || (!c.startup_error && c.running < load);
        if (own_len && short_len < weights.max_position_embeddings && shorter_may_help) {
            s.max_model_len = short_len;
            PlanCandidate shorter = run(s, weights, replicas, load);
            if (shorter.meets || closer(shorter, c, t.users)) c = std::move(shorter);
        }
        consider(std::move(c));
    }

    void search(int64_t max_concurrent) {
        for (int64_t tp : deployed_tensor_parallel_sizes()) {
            if (tp > t.gpu_count) break;
            int64_t previous_load = 0;
            for (int64_t replicas = 1; replicas <= t.gpu_count / tp; ++replicas) {
                int64_t load = (t.users + replicas - 1) / replicas;       // the busiest replica
                if (t.rate_per_s) load = std::min(load, max_concurrent);  // a rate's requests may queue
                if (load == previous_load) continue;                      // more GPUs, no fewer users each
                previous_load = load;
                if (load > max_concurrent) continue;  // beyond the engine's max_num_seqs range
                for (const WeightOption& weights : weights_tried)
                    for (DType kv_dtype : {DType::bf16, DType::fp8})
                        for (double utilization : searched_utilizations) {
                            Scenario s = replica_scenario(t, load);
                            if (!weights.scenario_model.empty()) s.model = weights.scenario_model;
                            s.tensor_parallel_size = tp;
                            s.weight_dtype = weights.weight_dtype;
                            s.kv_cache_dtype = kv_dtype;
                            s.gpu_memory_utilization = utilization;
                            try_configuration(s, *weights.model, replicas, load);
                        }
            }
        }
    }

    // Which of weights_tried a scenario carries.
    int weights_index(const Scenario& s) const {
        for (size_t i = 0; i < weights_tried.size(); ++i)
            if (weights_tried[i].weight_dtype == s.weight_dtype &&
                (weights_tried[i].scenario_model.empty() ? s.model == t.model : s.model == weights_tried[i].scenario_model))
                return static_cast<int>(i);
        return -1;
    }

    // The target load on the cheapest configurations that start and hold their users, judged.
    void serve() {
        std::vector<PlanCandidate> all;
        for (auto& [key, c] : best) all.push_back(std::move(c));
        std::sort(all.begin(), all.end(), cheaper);
        // Every GPU count gets its turn (the Pareto front spans them), its cheapest first.
        std::vector<size_t> per_count(static_cast<size_t>(t.gpu_count) + 1, 0);
        size_t counts = 0;
        for (const PlanCandidate& c : all) counts += per_count[static_cast<size_t>(c.gpus_used)]++ == 0 ? 1 : 0;
        const size_t each = std::max<size_t>(1, max_simulated / std::max<size_t>(1, counts));
        std::fill(per_count.begin(), per_count.end(), 0);
        std::vector<PlanCandidate> runnable;
        for (PlanCandidate& c : all)
            if (per_count[static_cast<size_t>(c.gpus_used)]++ < each) runnable.push_back(std::move(c));
        for (PlanCandidate& c : runnable) {
            ++result.simulations;
            const ModelSpec* weights = &model;
            for (const WeightOption& option : weights_tried)
                if (option.scenario_model == c.scenario.model) weights = option.model;
            serve_load(c, evaluate_resolved(c.scenario, *weights, gpu, calibration), t, calibration);
            if (c.meets) ++result.configurations_met;
        }
        result.pareto = pareto_front(runnable);
        for (PlanCandidate& c : runnable) {
            if (c.meets) result.candidates.push_back(std::move(c));
            else if (!closest || served_closer(c, *closest)) closest = std::move(c);
        }
    }

    // Between misses: one that ran the load before one that did not; for a rate, one that keeps up
    // with it, else the one whose replicas complete the most of it; then fewer missed objectives, the
    // smaller worst overshoot, then the static order.
    bool served_closer(const PlanCandidate& a, const PlanCandidate& b) const {
        if (a.served.has_value() != b.served.has_value()) return a.served.has_value();
        if (a.served && b.served && t.rate_per_s) {
            const bool a_behind = a.served->load == Load::overloaded, b_behind = b.served->load == Load::overloaded;
            if (a_behind != b_behind) return !a_behind;
            const double a_done = a.served->sustained_rate_per_s * static_cast<double>(a.replicas);
            const double b_done = b.served->sustained_rate_per_s * static_cast<double>(b.replicas);
            if (a_behind && a_done != b_done) return a_done > b_done;
        }
        if (a.served && b.served && a.misses.size() != b.misses.size()) return a.misses.size() < b.misses.size();
        if (a.served && b.served) return a.served->tpot_s.p99 < b.served->tpot_s.p99;
        return closer(a, b, t.users);
    }

    // The candidates cheapest first, and one sentence for people.
    void finish(int64_t max_concurrent) {
        std::sort(result.candidates.begin(), result.candidates.end(), cheaper);
        if (result.candidates.size() > static_cast<size_t>(t.max_candidates))
            result.candidates.resize(static_cast<size_t>(t.max_candidates));
        result.met = !result.candidates.empty();
        const std::string words = target_words(t, gpu.name);
        if (result.met) {
            const PlanCandidate& first = result.candidates.front();
            result.summary = format_count(result.configurations_met) + " of " + format_count(result.simulations) +
                             " configurations simulated meet " + words + "; the cheapest uses " + format_count(first.gpus_used) +
                             (first.gpus_used == 1 ? " GPU (" : " GPUs (") + shape(first) + "), p99 TPOT " +
                             format_duration(first.served->tpot_s.p99) + ", p99 TTFT " + format_duration(first.served->ttft_s.p99) + ".";
        } else if (closest) {
            result.closest = std::move(closest);
            // A rate has no users to count: what the closest does with the rate is its first miss.
            const std::string running =
                t.rate_per_s ? std::string()
                             : " runs " + format_count(users_running(*result.closest, t.users)) + " of " + format_count(t.users) + " users";
            result.summary = "Nothing meets " + words + ". Closest: " + shape(*result.closest) + running +
                             (result.closest->misses.empty() ? "" : "; " + result.closest->misses.front()) + ".";
        } else {
            result.summary = "Nothing meets " + words + ": a replica takes at most " + format_count(max_concurrent) +
                             " users (max_num_seqs), so " + format_count(t.users) + " users need at least " +
                             format_count((t.users + max_concurrent - 1) / max_concurrent) + " replicas.";
        }
    }
};

}  // namespace

std::variant<PlanResult, InputError> plan(const PlanTarget& t, const Calibration& calibration) {
    if (auto error = check_target(t)) return *error;
    const auto max_concurrent = static_cast<int64_t>(scenario_field("concurrent_requests").hi);
    const int64_t sequence_tokens = t.prompt_tokens + t.output_tokens;
    const int64_t short_len = (sequence_tokens + model_len_step - 1) / model_len_step * model_len_step;
    // One evaluation resolves the ids (an unknown model or GPU is an InputError naming it) and the
    // engine's default max_num_seqs for this version and GPU.
    Scenario probe_scenario = replica_scenario(t, t.rate_per_s ? 1 : std::min(t.users, max_concurrent));
    probe_scenario.max_model_len = short_len;
    auto probe_outcome = evaluate(probe_scenario, calibration);
    if (auto* error = std::get_if<InputError>(&probe_outcome)) return *error;
    const Result& probe = std::get<Result>(probe_outcome);
    // A rate has no users of its own: the requests it keeps in flight stand for them (Little's law:
    // the rate times a request's time, a lone request's on the probe, so at least that many). They
    // size max_num_seqs and the headroom candidates are ranked by; the users box plays no part.
    PlanTarget shaped = t;
    if (t.rate_per_s) {
        const double request_s = probe.steps.prefill.total_s + static_cast<double>(t.output_tokens - 1) * probe.steps.itl_s;
        const double in_flight = std::ceil(*t.rate_per_s * request_s);
        shaped.users = static_cast<int64_t>(std::clamp(in_flight, 1.0, static_cast<double>(max_concurrent * t.gpu_count)));
    }
    Search search{shaped,
                  probe.model,
                  probe.gpu,
                  calibration,
                  short_len,
                  probe.scenario.max_num_seqs.value_or(0),
                  weight_options(probe.model, !t.model_config),
                  {},
                  {},
                  {}};
    search.result.target = t;
    search.result.evaluations = 1;
    search.search(max_concurrent);
    search.serve();
    search.finish(max_concurrent);
    return std::move(search.result);
}

}  // namespace kv
