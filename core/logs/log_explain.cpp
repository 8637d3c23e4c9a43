#include "logs/log_explain.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "model/catalog.hpp"
#include "base/format.hpp"
#include "scenario/scenario_fields.hpp"
#include "base/units.hpp"

namespace kv {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string last_component(const std::string& path) {
    std::string p = path;
    while (!p.empty() && p.back() == '/') p.pop_back();
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The catalog model a launched name refers to: its repository, or a local folder named after it.
const ModelSpec* model_for(const std::string& launched) {
    const std::string name = lower(last_component(launched));
    for (const ModelSpec& m : builtin_catalog().models)
        if (!m.hf_repo.empty() && (lower(m.hf_repo) == lower(launched) || lower(last_component(m.hf_repo)) == name)) return &m;
    return nullptr;
}

// The catalog GPU whose CUDA total is nearest the logged one.
const GpuSpec* gpu_for(double total_gib, bool& exact) {
    const GpuSpec* best = nullptr;
    for (const GpuSpec& g : builtin_catalog().gpus)
        if (!best || std::fabs(g.visible_memory_bytes / GiB - total_gib) < std::fabs(best->visible_memory_bytes / GiB - total_gib))
            best = &g;
    exact = best && std::fabs(best->visible_memory_bytes / GiB - total_gib) < 0.35;
    return best;
}

// The release a log's shape points to when it prints no version.
std::string version_from_shape(const ParsedLog& p) {
    if (p.cuda_graph_estimate_gib) return "0.19.0";
    if (p.v1_engine.value_or(p.kv_cache_tokens.has_value())) return "0.10.1";
    if (p.activation_gib && !p.total_gib) return "0.7.2";
    return "0.6.4";
}

// Each number the log states beside the model's, with what it means; the unstated terms inferred.
void add_terms(LogExplanation& x) {
    const ParsedLog& p = x.log;
    const MemoryPlan& m = x.result.memory;
    auto term = [&](std::string name, std::optional<double> logged, double model, std::string unit, std::string meaning,
                    bool inferred = false) {
        x.terms.push_back({std::move(name), logged, inferred, model, std::move(unit), std::move(meaning)});
    };
    term("memory CUDA reports", p.total_gib, m.visible_bytes / GiB, "GiB",
         "The card's total as CUDA sees it, a little under the size on the box; no flag moves it.");
    term("gpu_memory_utilization", p.gpu_memory_utilization, m.limits.gpu_memory_utilization, "fraction",
         "The share of that total the engine may use (--gpu-memory-utilization).");
    term("weights", p.weights_gib, m.weight_bytes / GiB, "GiB",
         "This GPU's shard of the weights: --tensor-parallel-size and --pipeline-parallel-size split it, "
         "--quantization fp8 or a 4-bit checkpoint shrinks it.");
    const double requested = p.total_gib && p.gpu_memory_utilization ? *p.total_gib * *p.gpu_memory_utilization : m.requested_bytes / GiB;
    std::optional<double> activation = p.activation_gib, non_torch = p.non_torch_gib;
    const double graphs_in_budget = m.cuda_graph_in_budget ? p.cuda_graph_estimate_gib.value_or(m.cuda_graph_bytes / GiB) : 0.0;
    if (p.weights_gib && p.available_gib && (!activation || !non_torch)) {
        // What the budget leaves for the two unstated terms.
        const double rest = requested - *p.weights_gib - *p.available_gib - graphs_in_budget;
        term("activation peak + non-torch", rest, (m.activation_peak_bytes + m.non_torch_bytes) / GiB, "GiB",
             "Inferred: the budget minus weights and pool. The profile run's peak (--max-num-batched-tokens, "
             "--max-num-seqs) and memory outside PyTorch (communication buffers under tensor parallelism).",
             true);
    } else {
        term("activation peak", activation, m.activation_peak_bytes / GiB, "GiB",
             "The profile run's peak: a forward pass of --max-num-batched-tokens tokens and the sampler over "
             "--max-num-seqs rows.");
        term("non-torch memory", non_torch, m.non_torch_bytes / GiB, "GiB",
             "Memory outside PyTorch's allocator that the profile run grew: CUDA context, NCCL and all-reduce buffers.");
    }
    term("CUDA graphs (estimate)", p.cuda_graph_estimate_gib, m.cuda_graph_bytes / GiB, "GiB",
         m.cuda_graph_in_budget ? "Subtracted from the budget in this release; --enforce-eager captures none."
                                : "Not subtracted in this release: it must fit outside the budget; --enforce-eager captures none.");
    term("available KV cache", p.available_gib, m.available_kv_bytes / GiB, "GiB",
         "What is left for the cache: everything above subtracted from the budget.");
    if (x.result.rules.v1_engine)
        term("GPU KV cache size", p.kv_cache_tokens ? std::optional<double>(static_cast<double>(*p.kv_cache_tokens)) : std::nullopt,
             static_cast<double>(m.kv_cache_tokens), "tokens",
             "Whole blocks of --block-size tokens over every layer; --kv-cache-dtype fp8 doubles it.");
    else
        term("# GPU blocks", p.gpu_blocks ? std::optional<double>(static_cast<double>(*p.gpu_blocks)) : std::nullopt,
             static_cast<double>(m.num_gpu_blocks), "blocks", "Blocks of --block-size tokens over every layer.");
    term("maximum concurrency", p.max_concurrency, m.max_concurrency, "x",
         "How many requests of --max-model-len tokens the pool holds at once; shorter requests fit more.");
}

// The scenario the log describes: what it states, over what the caller gave, over the defaults.
std::variant<Scenario, InputError> scenario_of(const ParsedLog& p, const GivenScenario& given, std::vector<std::string>& assumptions) {
    Scenario s = given.scenario;
    if (p.version) s.vllm_version = *p.version;
    else if (!given.has("vllm_version")) {
        s.vllm_version = version_from_shape(p);
        assumptions.push_back("vllm_version " + s.vllm_version + ": the log prints no version; its line formats point to it");
    }
    const bool model_given = given.has("model") || given.has("model_config");
    if (p.model && !model_given) {
        const ModelSpec* m = model_for(*p.model);
        if (!m)
            return InputError{"model", ErrorCode::unknown_value,
                              "the log launches \"" + *p.model +
                                  "\", which is not in the catalog; give its model (a catalog id) or its config.json as model_config"};
        s.model = m->name;
    } else if (!p.model && !model_given) {
        return InputError{"model", ErrorCode::missing_field,
                          "the log does not name the model; give it as model (a catalog id) or model_config"};
    }
    if (!given.has("gpu") && !given.has("gpu_config")) {
        if (p.total_gib) {
            bool exact = false;
            s.gpu = gpu_for(*p.total_gib, exact)->name;
            if (!exact)
                assumptions.push_back("gpu " + s.gpu + ": the nearest catalog GPU to the logged " + format_fixed(*p.total_gib, 2) + " GiB");
        } else {
            assumptions.push_back("gpu H100: the log states no GPU memory; give gpu or gpu_config");
            s.gpu = "H100";
        }
    }
    if (p.gpu_memory_utilization) s.gpu_memory_utilization = *p.gpu_memory_utilization;
    if (p.max_model_len) s.max_model_len = *p.max_model_len;
    else if (p.concurrency_tokens && !given.has("max_model_len")) s.max_model_len = *p.concurrency_tokens;
    if (p.tensor_parallel_size) s.tensor_parallel_size = *p.tensor_parallel_size;
    if (p.pipeline_parallel_size) s.pipeline_parallel_size = *p.pipeline_parallel_size;
    if (p.max_num_seqs) s.max_num_seqs = *p.max_num_seqs;
    if (p.max_num_batched_tokens) s.max_num_batched_tokens = *p.max_num_batched_tokens;
    if (p.block_size) s.block_size = *p.block_size;
    if (p.enforce_eager) s.enforce_eager = *p.enforce_eager;
    if (p.disable_custom_all_reduce) s.disable_custom_all_reduce = *p.disable_custom_all_reduce;
    if (p.kv_cache_dtype && p.kv_cache_dtype->rfind("fp8", 0) == 0) s.kv_cache_dtype = DType::fp8;
    if (p.quantization && *p.quantization == "fp8") s.weight_dtype = DType::fp8;
    // What the log states is checked as a scenario's fields are (a version too old, a size out of range).
    if (auto error = check_fields(scenario_fields(), s)) return *error;
    return s;
}

}  // namespace

std::variant<LogExplanation, InputError> explain_log(std::string_view text, const GivenScenario& given) {
    LogExplanation x;
    x.log = parse_vllm_log(text);
    if (x.log.recognised.empty())
        return InputError{"log", ErrorCode::unknown_value,
                          "no vLLM start-up line was recognised (looked for the version banner, \"Model loading took\", "
                          "\"Available KV cache memory\", \"GPU KV cache size\", \"# GPU blocks\", \"Maximum "
                          "concurrency\" and the engine's refusals)"};
    auto scenario = scenario_of(x.log, given, x.assumptions);
    if (auto* e = std::get_if<InputError>(&scenario)) return *e;
    x.scenario = std::get<Scenario>(scenario);
    auto outcome = evaluate(x.scenario);
    if (auto* e = std::get_if<InputError>(&outcome)) return *e;
    x.result = std::get<Result>(outcome);
    add_terms(x);
    return x;
}

}  // namespace kv
