#include "logs/log_candidates.hpp"

#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "model/catalog.hpp"
#include "result/evaluate.hpp"

namespace kv {
namespace {

// A shard within this of the logged one matches: the model's weights match most of the 31
// validation start-ups to about 1%, gpt-oss's MXFP4 shards to 2-7% (buffers the engine keeps).
constexpr double weights_tolerance = 0.07;
// One candidate decides only when it is this near and every other shape is this much further.
constexpr double weights_decisive = 0.03;
// Bytes per token from the pool are exact but for the last, partly filled block.
constexpr double kv_bytes_tolerance = 0.01;
// A pool predicted from the GPU's budget carries the activation and non-torch estimates too.
constexpr double pool_tolerance = 0.06;
constexpr size_t most_candidates = 6;

}  // namespace

std::optional<double> logged_kv_bytes_per_token(const ParsedLog& p) {
    if (!p.available_gib || *p.available_gib <= 0) return std::nullopt;
    double tokens = 0;
    if (p.kv_cache_tokens && *p.kv_cache_tokens > 0) tokens = static_cast<double>(*p.kv_cache_tokens);
    else if (p.gpu_blocks && *p.gpu_blocks > 0) tokens = static_cast<double>(*p.gpu_blocks * p.block_size.value_or(16));
    if (tokens <= 0) return std::nullopt;
    return *p.available_gib * GiB / tokens;
}

namespace {

// The three numbers a candidate is judged by, from one evaluation.
struct Sizes {
    double weight_bytes = 0, kv_bytes_per_token = 0;
    int64_t kv_cache_tokens = 0;
};
std::optional<Sizes> evaluated(const Scenario& s) {
    auto outcome = evaluate(s);
    const auto* r = std::get_if<Result>(&outcome);
    if (!r) return std::nullopt;
    return Sizes{r->memory.weight_bytes, r->memory.layout.kv_bytes_per_token, r->memory.kv_cache_tokens};
}

// The catalog GPU (or the given one) whose budget leaves the logged pool, and how near.
void match_pool(ModelCandidate& c, const ParsedLog& p, Scenario s, bool gpu_known) {
    if (!p.kv_cache_tokens || *p.kv_cache_tokens <= 0) return;
    const auto logged = static_cast<double>(*p.kv_cache_tokens);
    std::vector<std::string> gpus;
    if (gpu_known) gpus.push_back(s.gpu);
    else
        for (const GpuSpec& g : builtin_catalog().gpus) gpus.push_back(g.name);
    for (const std::string& gpu : gpus) {
        s.gpu = gpu;
        auto r = evaluated(s);
        if (!r || r->kv_cache_tokens <= 0) continue;
        const double difference = static_cast<double>(r->kv_cache_tokens) / logged - 1.0;
        if (std::fabs(difference) <= pool_tolerance && (!c.pool_difference || std::fabs(difference) < std::fabs(*c.pool_difference))) {
            c.pool_difference = difference;
            c.gpu = gpu;
        }
    }
    if (c.pool_difference) c.evidence = Evidence::weights_and_pool;
}

// One model at one tensor-parallel size and cache dtype, if its shard matches the logged weights.
std::optional<ModelCandidate> candidate(const ParsedLog& p, const ModelInference& x, const Scenario& s, bool gpu_known) {
    auto r = evaluated(s);
    if (!r || r->weight_bytes <= 0) return std::nullopt;
    ModelCandidate c;
    c.model = s.model;
    c.tensor_parallel_size = s.tensor_parallel_size;
    c.kv_cache_dtype = s.kv_cache_dtype;
    c.weights_gib = r->weight_bytes / GiB;
    c.weights_difference = c.weights_gib / *p.weights_gib - 1.0;
    if (std::fabs(c.weights_difference) > weights_tolerance) return std::nullopt;
    c.kv_bytes_per_token = r->kv_bytes_per_token;
    if (x.kv_bytes_per_token) {
        c.kv_bytes_difference = c.kv_bytes_per_token / *x.kv_bytes_per_token - 1.0;
        if (std::fabs(*c.kv_bytes_difference) > kv_bytes_tolerance) return std::nullopt;
        c.evidence = Evidence::weights_and_kv_bytes;
    } else {
        match_pool(c, p, s, gpu_known);
    }
    return c;
}

double closeness(const ModelCandidate& c) {
    return std::fabs(c.weights_difference) + std::fabs(c.kv_bytes_difference.value_or(c.pool_difference.value_or(0.0)));
}

}  // namespace

const char* evidence_name(Evidence evidence) {
    static const char* const names[] = {"weights_and_kv_bytes", "weights_and_pool", "weights"};
    return names[static_cast<int>(evidence)];
}

ModelInference infer_model(const ParsedLog& p, const Scenario& base, bool gpu_known) {
    ModelInference x;
    x.kv_bytes_per_token = logged_kv_bytes_per_token(p);
    if (!p.weights_gib || *p.weights_gib <= 0) return x;
    // Sizes the log does not state are tried: the usual tensor-parallel sizes, both cache dtypes
    // where the pool's bytes per token can tell them apart. A log with the engine's non-default args
    // or config line states them by leaving them out: then they are the defaults.
    const bool flags_listed = p.flags_listed;
    std::vector<int64_t> sizes = p.tensor_parallel_size ? std::vector<int64_t>{*p.tensor_parallel_size}
                                 : flags_listed         ? std::vector<int64_t>{1}
                                                        : std::vector<int64_t>{1, 2, 4, 8};
    std::vector<DType> caches{base.kv_cache_dtype};
    if (!p.kv_cache_dtype && !flags_listed && x.kv_bytes_per_token && base.kv_cache_dtype == DType::bf16) caches.push_back(DType::fp8);
    for (const ModelSpec& m : builtin_catalog().models)
        for (int64_t tp : sizes)
            for (DType cache : caches) {
                Scenario s = base;
                s.model = m.name;
                s.model_config.reset();
                s.tensor_parallel_size = tp;
                s.kv_cache_dtype = cache;
                if (auto c = candidate(p, x, s, gpu_known)) x.candidates.push_back(*c);
            }
    // Strongest evidence first, then nearest; the catalog's order breaks ties (sort is not stable).
    std::vector<size_t> order(x.candidates.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const ModelCandidate &ca = x.candidates[a], &cb = x.candidates[b];
        if (ca.evidence != cb.evidence) return ca.evidence < cb.evidence;
        if (closeness(ca) != closeness(cb)) return closeness(ca) < closeness(cb);
        return a < b;
    });
    std::vector<ModelCandidate> sorted;
    for (size_t i = 0; i < order.size() && i < most_candidates; ++i) sorted.push_back(x.candidates[order[i]]);
    x.candidates = std::move(sorted);
    if (!x.candidates.empty()) {
        const ModelCandidate& best = x.candidates.front();
        // Models of the same shapes (a base and its instruct tune) do the same arithmetic: one answer.
        auto same_shapes = [&](const ModelCandidate& c) {
            return c.tensor_parallel_size == best.tensor_parallel_size && c.kv_cache_dtype == best.kv_cache_dtype &&
                   c.weights_gib == best.weights_gib && c.kv_bytes_per_token == best.kv_bytes_per_token;
        };
        // A pool matched on a GPU the log did not name is a hint: among the catalog's cards one may
        // fit by chance. Bytes per token, or the pool on the logged card, decide.
        const bool decisive = best.evidence == Evidence::weights_and_kv_bytes || (best.evidence == Evidence::weights_and_pool && gpu_known);
        const double best_off = std::fabs(best.weights_difference);
        x.unique =
            decisive && best_off <= weights_decisive &&
            std::all_of(x.candidates.begin() + 1, x.candidates.end(), [&](const ModelCandidate& c) {
                return c.evidence != best.evidence || same_shapes(c) || std::fabs(c.weights_difference) >= best_off + weights_decisive;
            });
    }
    return x;
}

}  // namespace kv
