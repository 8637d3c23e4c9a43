#include "plan/plan_load.hpp"

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "model/catalog.hpp"

namespace kv {
namespace {

// The shapes that set a step's work and the cache: the same model under another weight format.
bool same_shapes(const ModelSpec& a, const ModelSpec& b) {
    return a.num_hidden_layers == b.num_hidden_layers && a.hidden_size == b.hidden_size && a.intermediate_size == b.intermediate_size &&
           a.num_attention_heads == b.num_attention_heads && a.num_key_value_heads == b.num_key_value_heads && a.head_dim == b.head_dim &&
           a.vocab_size == b.vocab_size && a.num_experts == b.num_experts && a.experts_per_token == b.experts_per_token &&
           a.moe_intermediate_size == b.moe_intermediate_size && a.attention == b.attention && a.kv_lora_rank == b.kv_lora_rank;
}

std::string format_caveat(WeightFormat format) {
    switch (format) {
        case WeightFormat::fp8:
            return "FP8 weights (a published FP8 checkpoint): usually a small accuracy loss; check it on your own evaluation";
        case WeightFormat::int4_grouped:
            return "4-bit weights (AWQ/GPTQ): a larger accuracy loss than FP8, most felt on reasoning, maths and code; check it on "
                   "your own evaluation";
        case WeightFormat::mxfp4_experts:
            return "MXFP4 experts, as the model was released: its published accuracy";
        case WeightFormat::bf16:
            break;
    }
    return "";
}

// The objective a percentile must meet, and the words for a miss.
struct Objective {
    const std::optional<double>& limit;
    double measured;
    const char* name;
};

}  // namespace

std::vector<WeightOption> weight_options(const ModelSpec& model, bool from_catalog) {
    std::vector<WeightOption> options = {{&model, "", DType::bf16, format_caveat(model.weight_format)}};
    if (model.weight_format != WeightFormat::bf16) return options;
    bool fp8_release = false;
    if (from_catalog)
        for (const ModelSpec& other : builtin_catalog().models)
            if (other.name != model.name && other.weight_format != WeightFormat::bf16 && same_shapes(model, other)) {
                options.push_back({&other, other.name, DType::bf16, format_caveat(other.weight_format)});
                fp8_release = fp8_release || other.weight_format == WeightFormat::fp8;
            }
    if (!fp8_release)
        options.push_back({&model, "", DType::fp8,
                           "--quantization fp8: the 16-bit weights quantised as the engine loads them, with no calibration; "
                           "usually a small accuracy loss, more than a calibrated FP8 release; check it on your own evaluation"});
    return options;
}

std::string fp8_cache_caveat() {
    return "FP8 KV cache: keys and values in one byte without calibrated scales; usually a small accuracy loss, most felt on "
           "long contexts; check it on your own evaluation";
}

void serve_load(PlanCandidate& c, const Result& replica, const PlanTarget& t, const Calibration& calibration) {
    constexpr int64_t fewest = 100, most = 1000, most_generated = 2'000'000;
    const auto replicas = static_cast<double>(c.replicas);
    Workload w;
    w.name = "fixed";
    w.seed = 1;
    int64_t requests = 0;
    if (t.rate_per_s) {  // requests at a rate, about a minute of them
        w.rate_per_s = *t.rate_per_s / replicas;
        requests = std::llround(w.rate_per_s * 60.0);
    } else {  // each user sends the next request when the last one ends
        w.rate_per_s = 0;
        w.max_concurrency = c.users_per_replica;
        requests = 4 * c.users_per_replica;
    }
    // At least two waves of users: the first is left out of the percentiles.
    const int64_t cap = std::max(most, t.rate_per_s ? 0 : 2 * c.users_per_replica);
    w.requests = std::min(std::clamp<int64_t>(requests, fewest, cap), std::max<int64_t>(1, most_generated / t.output_tokens));
    SimOptions options;
    options.record = false;
    options.split_time = t.gpu_hour_price.has_value();
    options.warmup_requests = t.rate_per_s ? 0 : std::min(c.users_per_replica, w.requests / 2);  // the users' first requests, sent at once
    auto run = simulate(replica, w, options, calibration);
    if (auto* error = std::get_if<InputError>(&run)) {
        c.misses.push_back("the load could not be simulated: " + error->message);
        c.meets = false;
        return;
    }
    const SimSummary& s = std::get<Simulation>(run).summary;
    ServedLoad served{s.ttft_s, s.tpot_s, s.load, s.offered_rate_per_s, s.sustained_rate_per_s, w.requests};
    const double duration = std::max(s.duration_s, 1e-9);
    const auto finished = static_cast<double>(s.finished);
    const double output = finished * static_cast<double>(t.output_tokens), input = finished * static_cast<double>(t.prompt_tokens);
    served.output_tokens_per_s = output / duration * replicas;
    served.input_tokens_per_s = input / duration * replicas;
    if (t.gpu_hour_price) {
        const RunCost cost = run_cost(s, *t.gpu_hour_price, c.scenario.tensor_parallel_size);
        served.cost_per_million_output_tokens = cost.per_million_output_tokens;
        served.cost_per_million_input_tokens = cost.per_million_prompt_tokens;
    }
    const Objective objectives[] = {{t.ttft_s, s.ttft_s.p50, "median TTFT"},  {t.ttft_p90_s, s.ttft_s.p90, "p90 TTFT"},
                                    {t.ttft_p99_s, s.ttft_s.p99, "p99 TTFT"}, {t.itl_s, s.tpot_s.p50, "median TPOT"},
                                    {t.tpot_p90_s, s.tpot_s.p90, "p90 TPOT"}, {t.tpot_p99_s, s.tpot_s.p99, "p99 TPOT"}};
    if (s.load == Load::overloaded)
        c.misses.push_back("the queue grows: " + format_significant(s.offered_rate_per_s, 2) + " requests/s arrive at a replica, " +
                           format_significant(s.sustained_rate_per_s, 2) + " a second complete");
    for (const Objective& o : objectives)
        if (o.limit && o.measured > *o.limit)
            c.misses.push_back(std::string(o.name) + " " + format_duration(o.measured) + " over the " + format_duration(*o.limit) +
                               " objective");
    c.served = served;
    c.meets = c.misses.empty();
}

std::vector<PlanCandidate> pareto_front(const std::vector<PlanCandidate>& served) {
    std::vector<const PlanCandidate*> order;
    for (const PlanCandidate& c : served)
        if (c.served) order.push_back(&c);
    std::sort(order.begin(), order.end(), [](const PlanCandidate* a, const PlanCandidate* b) {
        if (a->gpus_used != b->gpus_used) return a->gpus_used < b->gpus_used;
        return a->served->tpot_s.p99 < b->served->tpot_s.p99;
    });
    std::vector<PlanCandidate> front;
    for (const PlanCandidate* c : order)
        if (front.empty() || c->served->tpot_s.p99 < front.back().served->tpot_s.p99) front.push_back(*c);
    return front;
}

}  // namespace kv
