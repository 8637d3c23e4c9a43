#include "logs/log_explain.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "logs/log_gpu.hpp"
#include "model/catalog.hpp"
#include "scenario/defaults.hpp"
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

// The release a log's shape points to when it prints no version.
std::string version_from_shape(const ParsedLog& p) {
    // The estimate is printed, and subtracted, by default from 0.20.0 (0.19 printed it when asked).
    if (p.cuda_graph_estimate_gib || p.equivalent_utilization) return "0.20.0";
    if (p.kv_cache_memory_bytes) return "0.11.0";  // the first release with the flag (engine_rules.hpp)
    if (p.v1_engine.value_or(p.kv_cache_tokens.has_value())) return "0.10.1";
    if (p.activation_gib && !p.total_gib) return "0.7.2";
    return "0.6.4";
}

// Adds one number beside the model's; with no model run, only a logged number, standing alone.
struct TermAdder {
    LogExplanation& x;
    void operator()(std::string name, std::optional<double> logged, double model, std::string unit, std::string meaning,
                    bool inferred = false) const {
        if (!x.evaluated && !logged) return;
        x.terms.push_back({std::move(name), logged, inferred, x.evaluated ? std::optional<double>(model) : std::nullopt, std::move(unit),
                           std::move(meaning)});
    }
};

// The budget's terms as the log states them beside the model's, the unstated ones inferred.
void add_budget_terms(LogExplanation& x) {
    const ParsedLog& p = x.log;
    const MemoryPlan& m = x.result.memory;
    const bool ran = x.evaluated;
    const TermAdder term{x};
    term("memory CUDA reports", p.total_gib, m.visible_bytes / GiB, "GiB",
         "The card's total as CUDA sees it, a little under the size on the box; no flag moves it.");
    term("gpu_memory_utilization", p.gpu_memory_utilization, m.limits.gpu_memory_utilization, "fraction",
         "The share of that total the engine may use (--gpu-memory-utilization).");
    const double graphs_share = m.cuda_graph_in_budget && m.visible_bytes > 0 ? m.cuda_graph_bytes / m.visible_bytes : 0.0;
    if (p.equivalent_utilization || (ran && m.cuda_graph_in_budget))
        term("utilisation less the CUDA-graph estimate", p.equivalent_utilization, m.limits.gpu_memory_utilization - graphs_share,
             "fraction",
             "From 0.20 the CUDA-graph estimate comes out of the budget: this is the share left for weights, activations and "
             "the pool, what the same flag gave before.");
    term("weights", p.weights_gib, m.weight_bytes / GiB, "GiB",
         "This GPU's shard of the weights: --tensor-parallel-size and --pipeline-parallel-size split it, "
         "--quantization fp8 or a 4-bit checkpoint shrinks it.");
    const double requested = p.total_gib && p.gpu_memory_utilization ? *p.total_gib * *p.gpu_memory_utilization : m.requested_bytes / GiB;
    std::optional<double> activation = p.activation_gib, non_torch = p.non_torch_gib;
    const double graphs_in_budget = m.cuda_graph_in_budget ? p.cuda_graph_estimate_gib.value_or(m.cuda_graph_bytes / GiB) : 0.0;
    if (p.weights_gib && p.available_gib && (!activation || !non_torch) && (ran || (p.total_gib && p.gpu_memory_utilization))) {
        // What the budget leaves for the two unstated terms.
        const double rest = requested - *p.weights_gib - *p.available_gib - graphs_in_budget;
        // Without the total in the log, the budget is the scenario's GPU's: a guess where none was named.
        const std::string from = !p.total_gib && x.gpu_assumed ? "Inferred from the assumed " + x.scenario.gpu +
                                                                     "'s memory (the log states none: name your GPU for a figure "
                                                                     "that means something): "
                                                               : std::string("Inferred: ");
        term("activation peak + non-torch", rest, (m.activation_peak_bytes + m.non_torch_bytes) / GiB, "GiB",
             from +
                 "the budget minus weights and pool. The profile run's peak (--max-num-batched-tokens, "
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
         m.cuda_graph_in_budget || !ran ? "Subtracted from the budget from 0.20; --enforce-eager captures none."
                                        : "Not subtracted in this release (or by its model runner V2, before 0.29): it must fit outside "
                                          "the budget; --enforce-eager captures none.");
    term("available KV cache", p.available_gib, m.available_kv_bytes / GiB, "GiB",
         p.available_gib && *p.available_gib < 0
             ? "Below zero: weights, activation peak and non-torch memory (and from 0.20 the CUDA-graph estimate) already "
               "exceed the budget, so no pool is left and the engine stops; raise --gpu-memory-utilization or shrink those."
             : "What is left for the cache: everything above subtracted from the budget.");
}

// The pool as sized: its bytes per token, its tokens or blocks, the requests it holds.
void add_pool_terms(LogExplanation& x) {
    const ParsedLog& p = x.log;
    const MemoryPlan& m = x.result.memory;
    const TermAdder term{x};
    // With several KV-cache groups (sliding windows, linear-attention state) the printed tokens are not
    // the pool over one token's bytes, so the model's side is the same quotient.
    const bool grouped = m.layout.num_groups > 1 && m.kv_cache_tokens > 0;
    if (x.inference.kv_bytes_per_token)
        term("KV bytes per token", *x.inference.kv_bytes_per_token / 1024.0,
             (grouped ? m.available_kv_bytes / static_cast<double>(m.kv_cache_tokens) : m.layout.kv_bytes_per_token) / 1024.0, "KiB",
             grouped ? "Inferred: the pool over the tokens it prints. This model's layers fall into several KV-cache groups "
                       "(sliding-window or linear-attention layers beside full attention) that share the pool, so a printed "
                       "token stands for more bytes than one token's keys and values."
                     : "Inferred: the pool over its tokens. One token's keys and values on this rank, over every layer: KV heads "
                       "per rank x head_dim x 2 x the cache's bytes per element.",
             true);
    if (p.state_block_size)
        term("attention block size", static_cast<double>(*p.state_block_size), static_cast<double>(m.layout.block_size), "tokens",
             "A hybrid model's block: grown until one attention page weighs as much as one linear-attention layer's state for one "
             "request, which shares the pool; the state's page is padded to it.");
    if (x.evaluated ? x.result.rules.v1_engine : !p.gpu_blocks)
        term("GPU KV cache size", p.kv_cache_tokens ? std::optional<double>(static_cast<double>(*p.kv_cache_tokens)) : std::nullopt,
             static_cast<double>(m.kv_cache_tokens), "tokens",
             "Whole blocks of --block-size tokens over every layer; --kv-cache-dtype fp8 doubles it.");
    else
        term("# GPU blocks", p.gpu_blocks ? std::optional<double>(static_cast<double>(*p.gpu_blocks)) : std::nullopt,
             static_cast<double>(m.num_gpu_blocks), "blocks", "Blocks of --block-size tokens over every layer.");
    term("maximum concurrency", p.max_concurrency, m.max_concurrency, "x",
         "How many requests of --max-model-len tokens the pool holds at once; shorter requests fit more.");
}

// What to change for the failure a paste shows, by where in the start-up it struck.
std::string failure_advice(const LoggedFailure& f) {
    if (f.kind == FailureKind::nccl_error)
        return "A collective between the GPUs failed (NCCL). Check that every rank can reach the others: containers need "
               "shared memory (--ipc=host or a large --shm-size), PCIe machines without peer access need NCCL_P2P_DISABLE=1, "
               "and NCCL_DEBUG=INFO names the cause; --disable-custom-all-reduce rules out vLLM's own kernel.";
    switch (f.stage) {
        case LogStage::loading_weights:
            return "Out of memory while loading the weights: this GPU's shard does not fit. Split it over more GPUs "
                   "(--tensor-parallel-size, --pipeline-parallel-size), load a quantized checkpoint, or free the GPU of other processes.";
        case LogStage::profiling:
            return "Out of memory in the profile run, a forward pass of --max-num-batched-tokens tokens and the sampler over "
                   "--max-num-seqs rows: lower those two, or --max-model-len where it sets the batch.";
        case LogStage::sized:
        case LogStage::capturing_graphs:
            return "Out of memory after the pool was sized, while capturing CUDA graphs: the graphs need memory the budget "
                   "did not leave. Lower --gpu-memory-utilization a little (0.02-0.05 frees that share of the card), capture "
                   "fewer sizes (a smaller --max-num-seqs), or --enforce-eager to capture none.";
        case LogStage::serving:
            return "Out of memory once serving: the pool is allocated, so a request's activations or sampler (or another "
                   "process on the GPU) found no room. Lower --gpu-memory-utilization to leave headroom, or --max-num-seqs and "
                   "--max-num-batched-tokens to shrink each step.";
    }
    return {};
}

// What to change for a refusal to start that the engine printed.
std::string refusal_advice(const ParsedLog& p) {
    switch (*p.refusal_kind) {
        case RefusalKind::no_kv_cache_memory:
            return "Nothing was left for the KV cache once weights, the profile run's peak and non-torch memory were taken "
                   "from the budget: raise --gpu-memory-utilization, lower --max-num-batched-tokens and --max-num-seqs (a "
                   "smaller profile run), or spread the weights over more GPUs (--tensor-parallel-size).";
        case RefusalKind::max_model_len_does_not_fit:
            return "The pool cannot hold one request of --max-model-len tokens: lower --max-model-len" +
                   (p.estimated_max_model_len ? " (to at most " + format_count(*p.estimated_max_model_len) + ", the engine's estimate)"
                                              : std::string()) +
                   ", or grow the pool: a higher --gpu-memory-utilization, --kv-cache-dtype fp8, or more GPUs.";
        case RefusalKind::max_model_len_too_long:
            return "--max-model-len is longer than the model's own context (max_position_embeddings after rope scaling): "
                   "lower it, or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 if the model really handles more.";
        case RefusalKind::tensor_parallel_mismatch:
            return "--tensor-parallel-size must divide the model's attention heads: pick a size that does.";
        default:
            return {};
    }
}

// The rules of the scenario's release and engine on its GPU (a catalog one, or the reader's own).
EngineRules rules_of(const Scenario& s) {
    GpuSpec gpu;
    if (s.gpu_config) gpu = *s.gpu_config;
    else if (const GpuSpec* found = find_gpu(s.gpu)) gpu = *found;
    return engine_rules_of(s, gpu);
}

// The engine the log shows where its release would choose the other on this GPU (VLLM_USE_V1).
void read_engine(const ParsedLog& p, Scenario& s) {
    if (!p.v1_engine) return;
    Scenario automatic = s;
    automatic.engine = "auto";
    const EngineRules chosen = rules_of(automatic);
    if (*p.v1_engine != chosen.v1_engine && (*p.v1_engine || chosen.version < first_v1_only_version)) s.engine = *p.v1_engine ? "v1" : "v0";
}

// --speculative-config as the log states it. A draft model's catalog id cannot be read from its
// repository name here: it is left to the reader.
void read_speculative_config(const ParsedLog& p, Scenario& s, std::vector<std::string>& assumptions) {
    if (!p.speculative_method || *p.speculative_method == "draft_model") return;
    if (!rules_of(s).v1_engine) {
        assumptions.push_back("speculative_method " + *p.speculative_method +
                              ": left out, as the model's speculative decoding is V1's and " + s.vllm_version + " runs V0");
        return;
    }
    s.speculative_method = *p.speculative_method;
    if (p.num_speculative_tokens) s.num_speculative_tokens = *p.num_speculative_tokens;
}

// --kv-offloading-size as the non-default args or the command give it, where the release takes it.
void read_offloading(const ParsedLog& p, Scenario& s, std::vector<std::string>& assumptions) {
    if (!p.kv_offloading_size_gib) return;
    if (!engine_rules_of(s.vllm_version).kv_offloading_argument) {
        assumptions.push_back("kv_offloading_size_gib: left out, as " + s.vllm_version + " predates the flag (0.14.0)");
        return;
    }
    s.kv_offloading_size_gib = *p.kv_offloading_size_gib;
}

// The scenario the log describes: what it states, over what the caller gave, over the defaults.
std::variant<Scenario, InputError> scenario_of(const ParsedLog& p, const GivenScenario& given, std::vector<std::string>& assumptions,
                                               bool& model_named, bool& gpu_known) {
    Scenario s = given.scenario;
    if (p.version) s.vllm_version = *p.version;
    else if (!given.has("vllm_version")) {
        s.vllm_version = version_from_shape(p);
        assumptions.push_back("vllm_version " + s.vllm_version + ": the log prints no version; its line formats point to it");
    }
    const bool model_given = given.has("model") || given.has("model_config");
    model_named = model_given;
    if (p.model && !model_given) {
        if (const ModelSpec* m = model_for(*p.model)) {
            s.model = m->name;
            model_named = true;
        } else {
            assumptions.push_back("model: the log launches \"" + *p.model +
                                  "\", which is not in the catalog; give its model (a catalog id) or its config.json as model_config");
        }
    }
    gpu_known = given.has("gpu") || given.has("gpu_config") || gpu_by_memory(p, s, assumptions);
    if (!given.has("engine")) read_engine(p, s);
    if (p.gpu_memory_utilization) s.gpu_memory_utilization = *p.gpu_memory_utilization;
    if (p.max_model_len) s.max_model_len = *p.max_model_len;
    else if (p.concurrency_tokens && !given.has("max_model_len")) s.max_model_len = *p.concurrency_tokens;
    if (p.tensor_parallel_size) s.tensor_parallel_size = *p.tensor_parallel_size;
    if (p.pipeline_parallel_size) s.pipeline_parallel_size = *p.pipeline_parallel_size;
    // Data-parallel engines: as the flag sets them, else as many as the worker tags' ranks name.
    if (p.data_parallel_size) s.data_parallel_size = *p.data_parallel_size;
    else if (!p.data_parallel_ranks.empty())
        s.data_parallel_size = *std::max_element(p.data_parallel_ranks.begin(), p.data_parallel_ranks.end()) + 1;
    if (p.enable_expert_parallel) s.enable_expert_parallel = *p.enable_expert_parallel;
    if (p.enable_lora) s.enable_lora = *p.enable_lora;
    if (p.max_loras) s.max_loras = *p.max_loras;
    if (p.max_lora_rank) s.max_lora_rank = *p.max_lora_rank;
    read_speculative_config(p, s, assumptions);
    read_offloading(p, s, assumptions);
    if (p.max_num_seqs) s.max_num_seqs = *p.max_num_seqs;
    if (p.max_num_batched_tokens) s.max_num_batched_tokens = *p.max_num_batched_tokens;
    if (p.block_size) s.block_size = *p.block_size;
    if (p.kv_cache_memory_bytes) s.kv_cache_memory_bytes = *p.kv_cache_memory_bytes;
    if (p.enforce_eager) s.enforce_eager = *p.enforce_eager;
    if (p.disable_custom_all_reduce) s.disable_custom_all_reduce = *p.disable_custom_all_reduce;
    if (p.kv_cache_dtype && p.kv_cache_dtype->rfind("fp8", 0) == 0) s.kv_cache_dtype = DType::fp8;
    if (p.quantization && *p.quantization == "fp8") s.weight_dtype = DType::fp8;
    if (p.mamba_ssm_cache_dtype) s.mamba_ssm_cache_dtype = *p.mamba_ssm_cache_dtype;
    // What the log states is checked as a scenario's fields are (a version too old, a size out of range).
    if (auto error = check_fields(scenario_fields(), s)) return *error;
    return s;
}

// For a paste that names no catalog model: the models its numbers fit, and the one it runs with
// where one alone fits them.
void infer_the_model(LogExplanation& x, bool gpu_known) {
    x.inference = infer_model(x.log, x.scenario, gpu_known);
    if (!x.inference.unique) {
        x.assumptions.push_back(x.inference.candidates.empty()
                                    ? "model: the log does not name a catalog model and no catalog model fits its numbers; give it "
                                      "as model (a catalog id) or model_config to compare each number with the model"
                                    : "model: the log does not name it and more than one catalog model fits its numbers (the "
                                      "candidates); give it as model to compare each number with the model");
        return;
    }
    const ModelCandidate& best = x.inference.candidates.front();
    x.scenario.model = best.model;
    x.scenario.tensor_parallel_size = best.tensor_parallel_size;
    x.scenario.kv_cache_dtype = best.kv_cache_dtype;
    std::string why = best.evidence == Evidence::weights_and_kv_bytes ? "its weights and the pool's bytes per token"
                                                                      : "its weights and, on " + best.gpu + ", the pool's tokens";
    if (!gpu_known && !best.gpu.empty()) x.scenario.gpu = best.gpu;
    for (size_t i = 1; i < x.inference.candidates.size(); ++i)
        if (x.inference.candidates[i].evidence == best.evidence && x.inference.candidates[i].model != best.model)
            why += " (so does " + x.inference.candidates[i].model + ", of the same shapes)";
    x.assumptions.push_back("model " + best.model + " (tensor_parallel_size " + std::to_string(best.tensor_parallel_size) +
                            ", kv_cache_dtype " + dtype_name(best.kv_cache_dtype) +
                            (gpu_known || best.gpu.empty() ? "" : ", gpu " + best.gpu) +
                            "): the log does not name it; the catalog model that fits " + why);
}

// Each engine's own pool, where the paste tags its figures with the rank: " Engine 0: ...; engine 1: ...".
std::string engine_pools_said(const std::vector<ParsedLog::EnginePool>& pools) {
    if (pools.size() < 2) return "";
    std::string said;
    for (const auto& pool : pools) {
        std::vector<std::string> parts;
        if (pool.available_gib) parts.push_back(format_fixed(*pool.available_gib, 2) + " GiB for the pool");
        if (pool.kv_cache_tokens) parts.push_back(format_count(*pool.kv_cache_tokens) + " tokens");
        if (pool.gpu_blocks) parts.push_back(format_count(*pool.gpu_blocks) + " blocks");
        if (pool.max_concurrency) parts.push_back(format_fixed(*pool.max_concurrency, 2) + "x concurrency");
        said += std::string(said.empty() ? " Engine " : "; engine ") + std::to_string(pool.rank) + ": ";
        for (size_t i = 0; i < parts.size(); ++i) said += (i ? ", " : "") + parts[i];
    }
    return said + ".";
}

// A V1 start-up that compiled its graphs afresh profiled with the compiler's memory inside the run
// (vLLM issues #54122, #54383): what a warm restart of the same flags would not have counted.
std::string cold_compile_note(const LogExplanation& x) {
    const ParsedLog& p = x.log;
    std::string note = "This start-up compiled the model's graphs afresh";
    if (p.torch_compile_s) note += " (torch.compile " + format_fixed(*p.torch_compile_s, 1) + " s)";
    note +=
        " inside the profile run, which books the compiler's memory as activation peak and non-torch memory: the pool is "
        "smaller than a restart of the same flags with a warm compile cache gets, by under a GiB on 24 GB cards to tens of "
        "GiB on 96 GB ones (vLLM issues #54122, #54383).";
    if (x.evaluated && x.result.gpu.host_link == "unified") note += " On unified memory the compiler's host memory counts too.";
    return note + " The model leaves this out.";
}

}  // namespace

std::variant<LogExplanation, InputError> explain_log(std::string_view text, const GivenScenario& given) {
    LogExplanation x;
    x.log = parse_vllm_log(text);
    if (x.log.recognised.empty())
        return InputError{"log", ErrorCode::unknown_value,
                          "no vLLM start-up line was recognised (looked for the version banner, \"Model loading took\", "
                          "\"Available KV cache memory\", \"GPU KV cache size\", \"# GPU blocks\", \"Maximum "
                          "concurrency\", a `vllm serve` command and the engine's refusals and failures)"};
    bool model_named = false, gpu_known = false;
    auto scenario = scenario_of(x.log, given, x.assumptions, model_named, gpu_known);
    if (auto* e = std::get_if<InputError>(&scenario)) return *e;
    x.scenario = std::get<Scenario>(scenario);
    if (!model_named) infer_the_model(x, gpu_known);
    if (model_named || x.inference.unique) {
        x.gpu_assumed = !gpu_known && !(x.inference.unique && !x.inference.candidates.front().gpu.empty());
        if (x.gpu_assumed) x.assumptions.push_back("gpu H100: the log states no GPU memory; give gpu or gpu_config");
        auto outcome = evaluate(x.scenario);
        if (auto* e = std::get_if<InputError>(&outcome)) return *e;
        x.result = std::get<Result>(outcome);
        x.evaluated = true;
    }
    if (!x.inference.kv_bytes_per_token) x.inference.kv_bytes_per_token = logged_kv_bytes_per_token(x.log);
    add_budget_terms(x);
    add_pool_terms(x);
    if (x.log.failure) x.advice = failure_advice(*x.log.failure);
    else if (x.log.refusal_kind) x.advice = refusal_advice(x.log);
    if (x.log.encoder_items)
        x.notes.push_back("The profile run first encoded " + std::to_string(*x.log.encoder_items) + " image items of the largest size (" +
                          format_count(x.log.encoder_budget_tokens.value_or(0)) +
                          " tokens of budget): its pass can set the activation peak.");
    if (x.log.graphs_compiled && x.log.v1_engine.value_or(true)) x.notes.push_back(cold_compile_note(x));
    // Data-parallel engines: as the flag sets them, or as many as the paste's worker tags name.
    const auto engines = std::max<int64_t>(x.log.data_parallel_size.value_or(1), static_cast<int64_t>(x.log.data_parallel_ranks.size()));
    if (engines > 1)
        x.notes.push_back("The log describes " + std::to_string(engines) +
                          " engines (data-parallel ranks): each profiles and sizes its own pool on its own GPUs; the numbers "
                          "above are the last ones printed." +
                          engine_pools_said(x.log.engine_pools));
    return x;
}

}  // namespace kv
