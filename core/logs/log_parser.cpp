#include "logs/log_parser.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "base/format.hpp"
#include "logs/log_flags.hpp"
#include "logs/log_scan.hpp"

namespace kv {
namespace {

// ANSI colour sequences out, carriage returns out.
std::string clean(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
            continue;
        }
        if (line[i] != '\r' && line[i] != '\0') out += line[i];
    }
    return out;
}

// A line that begins a log record rather than continuing a hard-wrapped one.
bool begins_record(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    line = line.substr(i);
    if (line.empty()) return true;
    const char c = line[0];
    if (c == '(' || c == '[' || c == '#' || std::isdigit(static_cast<unsigned char>(c))) return true;
    for (std::string_view p : {"INFO", "WARNING", "ERROR", "DEBUG", "Traceback", "ValueError", "RuntimeError", "torch.", "File ", "GPU ",
                               "Available ", "Maximum ", "Model ", "Loading "})
        if (starts_with(line, p)) return true;
    return false;
}

// The total in "Free memory on device (F/T GiB)" (the first '/' of a line may be a file path's).
std::optional<double> total_after_free(std::string_view line) {
    const size_t at = line.find("Free memory on device (");
    if (at == std::string_view::npos) return std::nullopt;
    const size_t slash = line.find('/', at);
    return slash == std::string_view::npos ? std::nullopt : number_after(line.substr(slash), "/");
}

// The engine and its flags: the version banner, the config and non-default args lines, the weights loaded.
bool read_engine_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "vLLM API server version ")) {
        keep(p.version, word_after(line, "vLLM API server version "));
    } else if (contains(line, "with config:")) {
        if (contains(line, "V1 LLM engine (v")) {
            keep(p.version, word_after(line, "V1 LLM engine (v"));
            p.v1_engine = true;
        } else if (contains(line, "LLM engine (v")) {
            keep(p.version, word_after(line, "LLM engine (v"));
            p.v1_engine = false;
        }
        read_flags(p, line.substr(line.find("with config:")), FlagForm::config_line);
        p.flags_listed = true;
    } else if (contains(line, "non-default args: {")) {
        read_flags(p, line.substr(line.find("non-default args: {")), FlagForm::args_dict);
        p.flags_listed = true;
    } else if (contains(line, "vllm serve ") || contains(line, "vllm.entrypoints.openai.api_server")) {
        read_flags(p, line, FlagForm::command_line);
    } else if (contains(line, "Falling back to V0")) {
        p.v1_engine = false;  // the oracle's warning (arg_utils.py, 0.8.0 to 0.10.x)
    } else if (contains(line, "Disabled the custom all-reduce kernel")) {
        p.disable_custom_all_reduce = true;
    } else if (contains(line, "Using PunicaWrapper")) {
        // LoRA's kernel wrapper (vllm/lora/punica_wrapper/punica_selector.py): printed only with LoRA on.
        p.enable_lora = true;
    } else if (contains(line, "Encoder cache will be initialized with a budget of ")) {
        keep(p.encoder_budget_tokens, integer_after(line, "a budget of "));
        keep(p.encoder_items, integer_after(line, "profiled with "));
    } else if (contains(line, "Loading drafter model...")) {
        p.drafter_loaded = true;  // speculative decoding: its weights are in the next line's figure
    } else if (contains(line, "Model loading took ")) {
        keep(p.weights_gib, number_after(line, "Model loading took "));
        if (!p.v1_engine) p.v1_engine = true;
    } else if (contains(line, "oading model weights took ") && (contains(line, " GB") || contains(line, "GiB"))) {
        keep(p.weights_gib, number_after(line, "oading model weights took "));
    } else {
        return false;
    }
    return true;
}

// The profile run and the budget: memory profiling results, free memory at start (and its refusal).
bool read_profile_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "Memory profiling results:")) {
        keep(p.total_gib, number_after(line, "total_gpu_memory="));
        keep(p.non_torch_gib, number_after(line, "non_torch_memory="));
        keep(p.available_gib, number_after(line, "kv_cache_size="));
        keep(p.gpu_memory_utilization, number_after(line, "gpu_memory_utilization="));
        // peak_torch_memory includes the weights.
        if (auto peak = number_after(line, "peak_torch_memory="); peak && p.weights_gib) p.activation_gib = *peak - *p.weights_gib;
    } else if (contains(line, "model weights take ")) {
        p.v1_engine = false;  // V0's worker.py alone prints this line, whatever an earlier line suggested
        if (!p.weights_gib) keep(p.weights_gib, number_after(line, "model weights take "));  // the loading line has more digits
        keep(p.non_torch_gib, number_after(line, "non_torch_memory takes "));
        keep(p.activation_gib, number_after(line, "activation peak memory takes "));
        keep(p.available_gib, number_after(line, "reserved for KV Cache is "));
    } else if (contains(line, "total_gpu_memory (") && contains(line, "gpu_memory_utilization (")) {
        keep(p.total_gib, number_after(line, "total_gpu_memory ("));
        keep(p.gpu_memory_utilization, number_after(line, "gpu_memory_utilization ("));
    } else if (contains(line, "on startup is less than desired")) {
        p.refusal_kind = RefusalKind::free_memory_below_request;
        p.refusal_line = std::string(line);
        keep(p.total_gib, total_after_free(line));
    } else if (contains(line, "Free memory on device (")) {
        // "(78.68/79.19 GiB) on startup. Desired GPU memory utilization is (0.95, 75.23 GiB)." and,
        // from 0.10.2, "Actual usage is W GiB for weight, A GiB for peak activation, ...".
        keep(p.total_gib, total_after_free(line));
        keep(p.gpu_memory_utilization, number_after(line, "Desired GPU memory utilization is ("));
        if (!p.weights_gib) keep(p.weights_gib, number_after(line, "Actual usage is "));  // "Model loading took" has more digits
        if (auto w = line.find(" for weight, "); w != std::string_view::npos) {
            keep(p.activation_gib, number_after(line.substr(w), " for weight, "));
            if (auto a = line.find(" for peak activation, "); a != std::string_view::npos)
                keep(p.non_torch_gib, number_after(line.substr(a), " for peak activation, "));
            if (auto n = line.find(" for non-torch memory, and "); n != std::string_view::npos)
                keep(p.cuda_graph_captured_gib, number_after(line.substr(n), " for non-torch memory, and "));
        }
    } else {
        return false;
    }
    return true;
}

// torch.compile in the profile run (backends.py, monitor.py): a compile-cache miss, and the total time.
bool read_compile_line(ParsedLog& p, std::string_view line) {
    const bool compiled = contains(line, "Compiling a graph for ") || contains(line, "saved AOT compiled function");
    p.graphs_compiled = p.graphs_compiled || compiled;
    for (std::string_view marker : {"torch.compile takes ", "torch.compile took "}) keep(p.torch_compile_s, number_after(line, marker));
    return compiled || contains(line, "torch.compile t");
}

// The KV cache as sized: available memory, tokens, blocks, concurrency, CUDA graphs.
bool read_cache_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "Available KV cache memory: ")) {
        keep(p.available_gib, number_after(line, "Available KV cache memory: "));
    } else if (contains(line, " GiB memory for KV Cache as specified by kv_cache_memory_bytes")) {
        // --kv-cache-memory-bytes (gpu_worker.py, PR #21489): "..., reserved 8.00 GiB memory for KV Cache as specified ..."
        keep(p.available_gib, number_after(line, ", reserved "));
    } else if (contains(line, "GPU KV cache size: ") || contains(line, "Maximum concurrency for ")) {
        // Later releases print both on one line.
        keep(p.kv_cache_tokens, integer_after(line, "GPU KV cache size: "));
        keep(p.concurrency_tokens, integer_after(line, "Maximum concurrency for "));
        keep(p.max_concurrency, number_after(line, "tokens per request: "));
    } else if (contains(line, "Setting attention block size to ")) {
        // Hybrid models (vllm/model_executor/models/config.py): the block grown to hold a state page.
        keep(p.state_block_size, integer_after(line, "Setting attention block size to "));
    } else if (contains(line, "increase --gpu-memory-utilization from ")) {
        const std::string_view advice = line.substr(line.find("increase --gpu-memory-utilization from "));
        keep(p.gpu_memory_utilization, number_after(advice, " from "));
        keep(p.suggested_utilization, number_after(advice, " to "));
    } else if (contains(line, "The current --gpu-memory-utilization=")) {
        keep(p.gpu_memory_utilization, number_after(line, "The current --gpu-memory-utilization="));
        keep(p.equivalent_utilization, number_after(line, "is equivalent to --gpu-memory-utilization="));
    } else if (contains(line, "GPU blocks: ") || contains(line, "CUDA blocks: ") || contains(line, "cuda blocks: ")) {
        for (std::string_view m : {"GPU blocks: ", "CUDA blocks: ", "cuda blocks: "}) keep(p.gpu_blocks, integer_after(line, m));
        for (std::string_view m : {"CPU blocks: ", "cpu blocks: "}) keep(p.cpu_blocks, integer_after(line, m));
        if (!p.v1_engine) p.v1_engine = false;
    } else if (contains(line, "Estimated CUDA graph memory: ")) {
        keep(p.cuda_graph_estimate_gib, number_after(line, "Estimated CUDA graph memory: "));
    } else if (contains(line, "Graph capturing finished in ") && contains(line, " took ")) {
        keep(p.cuda_graph_captured_gib, number_after(line.substr(line.find(" took ")), " took "));
    } else {
        return false;
    }
    return true;
}

// What the model calls running out of memory at this stage.
RefusalKind oom_refusal(LogStage stage) {
    if (stage == LogStage::loading_weights) return RefusalKind::weights_do_not_fit;
    return stage == LogStage::profiling ? RefusalKind::profile_out_of_memory : RefusalKind::out_of_memory_after_sizing;
}

// The engine's refusals at start-up, in its words.
bool read_refusal_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "No available memory for the cache blocks")) {
        p.refusal_kind = RefusalKind::no_kv_cache_memory;
        p.refusal_line = std::string(line);
    } else if (contains(line, "To serve at least one request with the model")) {
        p.refusal_kind = RefusalKind::max_model_len_does_not_fit;
        p.refusal_line = std::string(line);
        keep(p.estimated_max_model_len, integer_after(line, "estimated maximum model length is "));
    } else if (contains(line, "is larger than the maximum number of tokens that can be stored in KV cache")) {
        p.refusal_kind = RefusalKind::max_model_len_does_not_fit;
        p.refusal_line = std::string(line);
        if (auto c = line.find("stored in KV cache ("); c != std::string_view::npos)
            keep(p.kv_cache_tokens, integer_after(line.substr(c), "stored in KV cache ("));
    } else if (contains(line, "is greater than the derived max_model_len")) {
        p.refusal_kind = RefusalKind::max_model_len_too_long;
        p.refusal_line = std::string(line);
    } else if (contains(line, "must be divisible by tensor parallel size")) {
        p.refusal_kind = RefusalKind::tensor_parallel_mismatch;
        p.refusal_line = std::string(line);
    } else if (out_of_memory(line)) {
        if (!p.refusal_kind) p.refusal_kind = oom_refusal(p.stage);
        p.refusal_line = std::string(line);
    } else {
        return false;
    }
    return true;
}

// The periodic stats line.
bool read_stats_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "Running: ") && contains(line, "reqs")) {
        keep(p.running, integer_after(line, "Running: "));
        keep(p.waiting, integer_after(line, "Waiting: "));
        if (auto usage = number_after(line, "KV cache usage: ")) p.kv_cache_usage = *usage / 100.0;
    } else {
        return false;
    }
    return true;
}

// A phrase and the start-up stage it names.
struct StageText {
    std::string_view text;
    LogStage stage;
};

// The last of `texts` the line holds, if any.
std::optional<LogStage> stage_named(std::string_view line, const StageText* texts, size_t count) {
    std::optional<LogStage> found;
    for (size_t i = 0; i < count; ++i)
        if (contains(line, texts[i].text)) found = texts[i].stage;
    return found;
}

// The stage a line marks the start-up as having reached: the profile run once the weights are in,
// the pool sized once the budget is printed, CUDA graphs (their estimate from 0.20, then their
// capture), then serving.
constexpr std::array<StageText, 19> stage_markers{{
    {"Model loading took", LogStage::profiling},
    {"oading model weights took", LogStage::profiling},
    {"Loading weights took", LogStage::profiling},
    {"Memory profiling", LogStage::sized},
    {"Available KV cache memory", LogStage::sized},
    {"as specified by kv_cache_memory_bytes", LogStage::sized},
    {"GPU KV cache size", LogStage::sized},
    {"GPU blocks: ", LogStage::sized},
    {"model weights take ", LogStage::sized},
    {"Profiling CUDA graph memory", LogStage::capturing_graphs},
    {"Capturing CUDA graph", LogStage::capturing_graphs},
    {"Capturing cudagraphs", LogStage::capturing_graphs},
    {"Capturing the model for CUDA graphs", LogStage::capturing_graphs},
    {"Graph capturing finished", LogStage::serving},
    {"init engine (profile, create kv cache", LogStage::serving},
    {"Starting vLLM API server", LogStage::serving},
    {"Starting vLLM server", LogStage::serving},
    {"Application startup complete", LogStage::serving},
    {"Avg prompt throughput", LogStage::serving},
}};

// A traceback's frames name the stage a paste cut before its stage markers: vLLM's own functions.
constexpr std::array<StageText, 11> traceback_frames{{
    {"load_weights", LogStage::loading_weights},
    {"load_model", LogStage::loading_weights},
    {"profile_run", LogStage::profiling},
    {"_dummy_sampler_run", LogStage::profiling},
    {"warming up sampler", LogStage::profiling},
    {"determine_available_memory", LogStage::profiling},
    {"determine_num_available_blocks", LogStage::profiling},
    {"capture_model", LogStage::capturing_graphs},
    {"capture_end", LogStage::capturing_graphs},
    {"torch.cuda.graph(", LogStage::capturing_graphs},
    {"output_handler", LogStage::serving},
}};

void read_stage(ParsedLog& p, std::string_view line) {
    if (auto stage = stage_named(line, stage_markers.data(), stage_markers.size())) {
        p.stage = *stage;
        p.stage_marked = true;
    }
    // The innermost call a paste shows first is enough.
    if (!p.traceback_stage) p.traceback_stage = stage_named(line, traceback_frames.data(), traceback_frames.size());
}

// The first failure a paste shows, with the stage it struck in; whether the line was one.
bool read_failure(ParsedLog& p, std::string_view line) {
    const bool oom = out_of_memory(line), nccl = !oom && nccl_failure(line);
    if (!oom && !nccl) return false;
    if (!p.failure)
        p.failure = LoggedFailure{oom ? FailureKind::out_of_memory : FailureKind::nccl_error, p.stage, std::string(line.substr(0, 600))};
    return true;
}

// The pool figures one line states: read with the earlier ones set aside, then the earlier ones
// kept where the line states none; a line tagged with a data-parallel rank is that engine's own.
using PoolFigures = ParsedLog::PoolFigures;

PoolFigures set_pool_aside(ParsedLog& p) {
    PoolFigures earlier{p.available_gib, p.kv_cache_tokens, p.gpu_blocks, p.max_concurrency};
    p.available_gib.reset();
    p.kv_cache_tokens.reset();
    p.gpu_blocks.reset();
    p.max_concurrency.reset();
    return earlier;
}

void keep_pool(ParsedLog& p, const PoolFigures& earlier, std::optional<int64_t> rank) {
    if (rank && (p.available_gib || p.kv_cache_tokens || p.gpu_blocks || p.max_concurrency)) {
        auto pool = std::find_if(p.engine_pools.begin(), p.engine_pools.end(), [&](const auto& e) { return e.rank == *rank; });
        if (pool == p.engine_pools.end()) pool = p.engine_pools.insert(p.engine_pools.end(), ParsedLog::EnginePool{{}, *rank});
        if (p.available_gib) pool->available_gib = p.available_gib;
        if (p.kv_cache_tokens) pool->kv_cache_tokens = p.kv_cache_tokens;
        if (p.gpu_blocks) pool->gpu_blocks = p.gpu_blocks;
        if (p.max_concurrency) pool->max_concurrency = p.max_concurrency;
    }
    // Tensor-parallel ranks each print their pool while it is sized, and the engine keeps the fewest
    // blocks of any (the V1 engine core's "num_gpu_blocks", V0's driver): there the smallest figure
    // counts. A later start-up in the same paste (its loading line ends the sizing) replaces them.
    const bool reprint = !rank && p.stage == LogStage::sized;
    const auto combine = [reprint](auto& now, const auto& before) {
        if (!now) now = before;
        else if (reprint && before) now = std::min(*now, *before);
    };
    combine(p.available_gib, earlier.available_gib);
    combine(p.kv_cache_tokens, earlier.kv_cache_tokens);
    combine(p.gpu_blocks, earlier.gpu_blocks);
    combine(p.max_concurrency, earlier.max_concurrency);
}

// Returns whether the line told us something; the readers are tried in this order, which matters
// where one line holds several markers (a refusal that also states free memory).
bool read_line(ParsedLog& p, std::string_view line) {
    const auto rank = data_parallel_rank(line);
    if (rank && std::find(p.data_parallel_ranks.begin(), p.data_parallel_ranks.end(), *rank) == p.data_parallel_ranks.end())
        p.data_parallel_ranks.push_back(*rank);
    const bool failure = read_failure(p, line);  // at the stage reached before this line
    const PoolFigures earlier = set_pool_aside(p);
    const bool known = read_engine_line(p, line) || read_profile_line(p, line) || read_compile_line(p, line) || read_cache_line(p, line) ||
                       read_refusal_line(p, line) || read_stats_line(p, line);
    keep_pool(p, earlier, rank);
    read_stage(p, line);
    return known || failure;
}

}  // namespace

const char* log_stage_name(LogStage stage) {
    static const char* const names[] = {"loading_weights", "profiling", "sized", "capturing_graphs", "serving"};
    return names[static_cast<int>(stage)];
}

ParsedLog parse_vllm_log(std::string_view text) {
    ParsedLog p;
    std::string current;
    auto flush = [&] {
        if (!current.empty() && read_line(p, current)) p.recognised.push_back(current.substr(0, 2000));
        current.clear();
    };
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(strip_prefixes(clean(text.substr(start, end - start))));
        // A long line followed by one that begins no record was hard-wrapped: join them.
        if (!current.empty() && current.size() >= 100 && !begins_record(line)) current += line;
        else {
            flush();
            current = std::move(line);
        }
        start = end + 1;
    }
    flush();
    // A paste that starts at the traceback: its frames say where the failure struck.
    if (p.failure && !p.stage_marked && p.traceback_stage) {
        p.failure->stage = *p.traceback_stage;
        if (p.failure->kind == FailureKind::out_of_memory && p.refusal_kind == RefusalKind::weights_do_not_fit)
            p.refusal_kind = oom_refusal(*p.traceback_stage);
    }
    // The engine refuses to start when nothing is left for the pool (kv_cache_utils.py).
    if (!p.refusal_kind && p.available_gib && *p.available_gib <= 0) {
        p.refusal_kind = RefusalKind::no_kv_cache_memory;
        p.refusal_line = "Available KV cache memory: " + format_fixed(*p.available_gib, 2) + " GiB";
    }
    return p;
}

}  // namespace kv
