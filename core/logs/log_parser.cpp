#include "logs/log_parser.hpp"

#include <cctype>
#include <cstdlib>

namespace kv {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

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

// The number right after `marker` (spaces, '(' and '=' skipped; thousands separators dropped).
std::optional<double> number_after(std::string_view line, std::string_view marker) {
    const size_t at = line.find(marker);
    if (at == std::string_view::npos) return std::nullopt;
    size_t i = at + marker.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == '(' || line[i] == '=')) ++i;
    std::string digits;
    for (; i < line.size(); ++i) {
        const char c = line[i];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || (c == '-' && digits.empty())) digits += c;
        else if (c == ',' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])) && !digits.empty() &&
                 i + 3 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 3])))
            continue;  // 1,048,576
        else break;
    }
    if (digits.empty() || digits == "-" || digits == ".") return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    return end && *end == '\0' ? std::optional<double>(v) : std::nullopt;
}

std::optional<int64_t> integer_after(std::string_view line, std::string_view marker) {
    auto v = number_after(line, marker);
    if (!v || *v < 0 || *v > 9.0e15) return std::nullopt;
    return static_cast<int64_t>(*v);
}

// A word after `marker`, up to a comma, space, quote or closing bracket.
std::optional<std::string> word_after(std::string_view line, std::string_view marker) {
    const size_t at = line.find(marker);
    if (at == std::string_view::npos) return std::nullopt;
    size_t i = at + marker.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == '\'' || line[i] == '"')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ',' && line[j] != ' ' && line[j] != '\'' && line[j] != '"' && line[j] != ')' && line[j] != '}')
        ++j;
    if (j == i) return std::nullopt;
    return std::string(line.substr(i, j - i));
}

// The total in "Free memory on device (F/T GiB)" (the first '/' of a line may be a file path's).
std::optional<double> total_after_free(std::string_view line) {
    const size_t at = line.find("Free memory on device (");
    if (at == std::string_view::npos) return std::nullopt;
    const size_t slash = line.find('/', at);
    return slash == std::string_view::npos ? std::nullopt : number_after(line.substr(slash), "/");
}

template <typename T>
void keep(std::optional<T>& slot, const std::optional<T>& value) {
    if (value) slot = value;
}

// The launch flags, from "non-default args: {'key': value, ...}" or the engine config line
// ("key=value, ...").
void read_flags(ParsedLog& p, std::string_view line, bool dict) {
    auto key = [&](const char* name) {
        std::string k;
        if (dict) k.push_back('\'');
        k.append(name);
        k.append(dict ? "':" : "=");
        return k;
    };
    keep(p.model, word_after(line, key("model")));
    keep(p.gpu_memory_utilization, number_after(line, key("gpu_memory_utilization")));
    keep(p.max_model_len, integer_after(line, key(dict ? "max_model_len" : "max_seq_len")));
    keep(p.tensor_parallel_size, integer_after(line, key("tensor_parallel_size")));
    keep(p.pipeline_parallel_size, integer_after(line, key("pipeline_parallel_size")));
    keep(p.max_num_seqs, integer_after(line, key("max_num_seqs")));
    keep(p.max_num_batched_tokens, integer_after(line, key("max_num_batched_tokens")));
    keep(p.block_size, integer_after(line, key("block_size")));
    keep(p.kv_cache_dtype, word_after(line, key("kv_cache_dtype")));
    keep(p.quantization, word_after(line, key("quantization")));
    keep(p.dtype, word_after(line, key("dtype")));
    if (auto eager = word_after(line, key("enforce_eager"))) p.enforce_eager = *eager == "True" || *eager == "true";
    if (auto custom = word_after(line, key("disable_custom_all_reduce")))
        p.disable_custom_all_reduce = *custom == "True" || *custom == "true";
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
        read_flags(p, line.substr(line.find("with config:")), false);
    } else if (contains(line, "non-default args: {")) {
        read_flags(p, line.substr(line.find("non-default args: {")), true);
    } else if (contains(line, "Disabled the custom all-reduce kernel")) {
        p.disable_custom_all_reduce = true;
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
        keep(p.weights_gib, number_after(line, "model weights take "));
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

// The KV cache as sized: available memory, tokens, blocks, concurrency, CUDA graphs.
bool read_cache_line(ParsedLog& p, std::string_view line) {
    if (contains(line, "Available KV cache memory: ")) {
        keep(p.available_gib, number_after(line, "Available KV cache memory: "));
    } else if (contains(line, "GPU KV cache size: ")) {
        keep(p.kv_cache_tokens, integer_after(line, "GPU KV cache size: "));
    } else if (contains(line, "Maximum concurrency for ")) {
        keep(p.concurrency_tokens, integer_after(line, "Maximum concurrency for "));
        keep(p.max_concurrency, number_after(line, "tokens per request: "));
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
    } else if (contains(line, "CUDA out of memory")) {
        if (!p.refusal_kind) p.refusal_kind = p.available_gib ? RefusalKind::out_of_memory_after_sizing : RefusalKind::weights_do_not_fit;
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

// Returns whether the line told us something; the readers are tried in this order, which matters
// where one line holds several markers (a refusal that also states free memory).
bool read_line(ParsedLog& p, std::string_view line) {
    return read_engine_line(p, line) || read_profile_line(p, line) || read_cache_line(p, line) || read_refusal_line(p, line) ||
           read_stats_line(p, line);
}

}  // namespace

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
        std::string line = clean(text.substr(start, end - start));
        // A long line followed by one that begins no record was hard-wrapped: join them.
        if (!current.empty() && current.size() >= 100 && !begins_record(line)) current += line;
        else {
            flush();
            current = std::move(line);
        }
        start = end + 1;
    }
    flush();
    return p;
}

}  // namespace kv
