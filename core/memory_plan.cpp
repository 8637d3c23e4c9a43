#include "memory_plan.hpp"

#include <algorithm>
#include <cmath>

namespace kv {

double activation_reserve_bytes(const ModelSpec& model, const Scenario& s, const Calibration& c) {
    const double activations = static_cast<double>(c.live_hidden_buffers) * s.max_num_batched_tokens *
                               model.hidden_size * c.activation_bytes_per_element;
    const double logits = static_cast<double>(s.max_num_seqs) * model.vocab_size *
                          c.logits_bytes_per_element / s.tensor_parallel_size;
    return activations + logits + c.fixed_workspace_bytes;
}

void plan_memory(Result& r, const Calibration& c) {
    const Scenario& s = r.scenario;
    const ModelSpec& m = r.model;
    const int64_t tp = s.tensor_parallel_size;
    const int64_t sequence_tokens = s.prompt_tokens + s.output_tokens;

    // A rank holds kv_heads / tp heads; past kv_heads ranks each keeps a whole replicated head.
    r.kv_heads_per_rank = std::max<int64_t>(1, m.num_key_value_heads / tp);
    r.kv_heads_replicated = tp > m.num_key_value_heads;
    r.kv_bytes_per_token = 2.0 * m.num_hidden_layers * r.kv_heads_per_rank * m.head_dim *
                           bytes_per_element(s.kv_cache_dtype);
    r.bytes_per_sequence = r.kv_bytes_per_token * static_cast<double>(sequence_tokens);

    r.params = parameter_count(m);
    r.weight_bytes = static_cast<double>(r.params) * bytes_per_element(s.weight_dtype) / tp;
    r.activation_bytes = activation_reserve_bytes(m, s, c);
    r.budget_bytes = s.gpu_memory_utilization * r.gpu.memory_bytes;
    r.outside_budget_bytes = r.gpu.memory_bytes - r.budget_bytes;
    r.min_utilization_that_fits = (r.weight_bytes + r.activation_bytes) / r.gpu.memory_bytes;

    const double free_bytes = r.budget_bytes - r.weight_bytes - r.activation_bytes;
    r.kv_pool_bytes = std::max(0.0, free_bytes);
    if (free_bytes <= 0) {
        r.status = Status::weights_do_not_fit;
        r.binding_limit = BindingLimit::kv_pool;
        r.waiting = s.concurrent_requests;
        return;
    }

    const double block_bytes = r.kv_bytes_per_token * static_cast<double>(c.kv_block_tokens);
    const auto blocks = static_cast<int64_t>(std::floor(r.kv_pool_bytes / block_bytes));
    r.kv_cache_tokens = blocks * c.kv_block_tokens;
    r.max_concurrency = static_cast<double>(r.kv_cache_tokens) / static_cast<double>(*s.max_model_len);
    r.longest_request_tokens = static_cast<int64_t>(std::floor(r.kv_pool_bytes / r.kv_bytes_per_token));
    r.max_resident_sequences = static_cast<int64_t>(std::floor(r.kv_pool_bytes / r.bytes_per_sequence));
    if (r.max_resident_sequences == 0) {
        r.status = Status::request_does_not_fit;
        r.binding_limit = BindingLimit::kv_pool;
        r.waiting = s.concurrent_requests;
        return;
    }

    // The scheduler runs what is asked, up to what the pool holds and what max_num_seqs allows.
    r.running = std::min({s.concurrent_requests, r.max_resident_sequences, s.max_num_seqs});
    r.waiting = s.concurrent_requests - r.running;
    if (r.running == s.concurrent_requests) r.binding_limit = BindingLimit::concurrent_requests;
    else if (r.running == r.max_resident_sequences) r.binding_limit = BindingLimit::kv_pool;
    else r.binding_limit = BindingLimit::max_num_seqs;

    r.kv_pool_used_bytes = r.bytes_per_sequence * static_cast<double>(r.running);
    const int64_t blocks_per_sequence = (sequence_tokens + c.kv_block_tokens - 1) / c.kv_block_tokens;
    r.kv_cache_usage = std::min(1.0, static_cast<double>(r.running * blocks_per_sequence) /
                                         static_cast<double>(blocks));
}

}  // namespace kv
