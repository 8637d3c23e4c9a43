#include "engine_log.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "format.hpp"
#include "units.hpp"

namespace kv {
namespace {

void add(Result& r, LogKind kind, const std::string& text) {
    static const char* const prefix[] = {"INFO ", "WARNING ", "ERROR ", "LESSON "};
    r.log.push_back({kind, prefix[static_cast<int>(kind)] + text});
}

// Utilisation rounded up to the next hundredth, so "fits at 0.78" really fits.
std::string utilization_ceiling(double fraction) {
    return format_fixed(std::ceil(fraction * 100.0 - 1e-9) / 100.0, 2);
}

void log_failure(Result& r) {
    const Scenario& s = r.scenario;
    const double need = r.weight_bytes + r.activation_bytes;
    if (r.status == Status::weights_do_not_fit) {
        std::string text = "the weights do not fit: " + format_gib(r.weight_bytes, 2) + " of weights and " +
                           format_gib(r.activation_bytes, 2) + " of activation reserve need " + format_gib(need, 2) +
                           ", but gpu_memory_utilization " + format_fixed(s.gpu_memory_utilization, 2) +
                           " leaves a budget of " + format_gib(r.budget_bytes, 2) + " (" +
                           format_gib(need - r.budget_bytes, 2) + " short). ";
        const double one_request = (need + r.bytes_per_sequence) / r.gpu.memory_bytes;
        if (one_request <= 1.0)
            text += "The smallest gpu_memory_utilization that loads them is " + utilization_ceiling(r.min_utilization_that_fits) +
                    "; serving one " + format_count(s.prompt_tokens + s.output_tokens) + "-token request needs " +
                    utilization_ceiling(one_request) + ".";
        else
            text += "No gpu_memory_utilization serves a request on this GPU: use FP8 weights or tensor parallelism.";
        add(r, LogKind::failure, text);
        return;
    }
    add(r, LogKind::failure,
        "the KV pool cannot hold one request: a " + format_count(s.prompt_tokens + s.output_tokens) +
            "-token sequence needs " + format_gib(r.bytes_per_sequence, 2) + " but the pool is " +
            format_gib(r.kv_pool_bytes, 2) + ". The longest request that fits is " +
            format_count(r.longest_request_tokens) + " tokens.");
}

void log_binding_limit(Result& r) {
    const Scenario& s = r.scenario;
    const std::string running = format_count(r.running) + " running, " + format_count(r.waiting) + " waiting";
    switch (r.binding_limit) {
    case BindingLimit::concurrent_requests:
        add(r, LogKind::lesson, running + ": every request is admitted; the pool could hold " +
                                    format_count(r.max_resident_sequences) + " sequences of this length.");
        break;
    case BindingLimit::kv_pool:
        add(r, LogKind::lesson, running + ": the KV pool is the limit (" + format_count(r.max_resident_sequences) +
                                    " sequences of " + format_bytes(r.bytes_per_sequence) +
                                    "). Lowering max_num_seqs would not admit one more.");
        break;
    case BindingLimit::max_num_seqs:
        add(r, LogKind::lesson, running + ": max_num_seqs (" + format_count(s.max_num_seqs) +
                                    ") is the limit, below the " + format_count(r.max_resident_sequences) +
                                    " sequences the pool holds: batching already paid for is left unused.");
        break;
    case BindingLimit::none: break;
    }
}

}  // namespace

void write_engine_log(Result& r) {
    const Scenario& s = r.scenario;
    const int64_t request_tokens = s.prompt_tokens + s.output_tokens;
    add(r, LogKind::info, "Model loading took " + format_fixed(r.weight_bytes / GiB, 4) + " GiB");
    if (request_tokens > *s.max_model_len)
        add(r, LogKind::warning, "a " + format_count(request_tokens) + "-token request exceeds max_model_len (" +
                                     format_count(*s.max_model_len) + "): vLLM would reject it. The numbers below "
                                     "assume it were raised.");
    if (r.status == Status::weights_do_not_fit) {
        log_failure(r);
        return;
    }
    add(r, LogKind::info, "Available KV cache memory: " + format_fixed(r.kv_pool_bytes / GiB, 2) + " GiB");
    char concurrency[32];
    std::snprintf(concurrency, sizeof concurrency, "%.2fx", r.max_concurrency);
    add(r, LogKind::info, "GPU KV cache size: " + format_count(r.kv_cache_tokens) +
                              " tokens, Maximum concurrency for " + format_count(*s.max_model_len) +
                              " tokens per request: " + concurrency);
    if (r.status == Status::request_does_not_fit) {
        log_failure(r);
        return;
    }
    add(r, LogKind::info, "Avg prompt throughput: " + format_fixed(r.prompt_tokens_per_s, 1) +
                              " tokens/s, Avg generation throughput: " + format_fixed(r.decode_tokens_per_s, 1) +
                              " tokens/s, Running: " + std::to_string(r.running) + " reqs, Waiting: " +
                              std::to_string(r.waiting) + " reqs, GPU KV cache usage: " +
                              format_fixed(r.kv_cache_usage * 100.0, 1) + "%, Prefix cache hit rate: 0.0%");
    log_binding_limit(r);
    add(r, LogKind::lesson, "concurrency ceiling for " + format_count(request_tokens) + "-token requests: " +
                                format_count(r.max_resident_sequences) + " (the boot line divides by max_model_len " +
                                format_count(*s.max_model_len) + " instead).");
    add(r, LogKind::lesson, "weight share of the decode step: " + format_percent(r.weight_share, 0) + " of " +
                                format_bytes(r.decode.bytes) + " moved per step; each running sequence adds " +
                                format_bytes(r.bytes_per_sequence) + ".");
    add(r, LogKind::lesson, std::string("prefill is ") + bound_name(r.prefill.bound) + "-bound (TTFT " +
                                format_duration(r.prefill.total_s) + "); decode is " + bound_name(r.decode.bound) +
                                "-bound (step " + format_duration(r.decode.total_s) + ", tensor pipe " +
                                format_percent(r.tensor_active, 1) + " active).");
    if (r.kv_heads_replicated)
        add(r, LogKind::warning, "tensor_parallel_size " + std::to_string(s.tensor_parallel_size) + " exceeds the " +
                                     std::to_string(r.model.num_key_value_heads) +
                                     " KV heads: each rank keeps a replicated head, so the cache stops shrinking per rank.");
}

}  // namespace kv
