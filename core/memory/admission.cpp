#include "memory/admission.hpp"

#include <algorithm>
#include <cmath>

#include "scenario/scenario_fields.hpp"

namespace kv {

const char* binding_limit_name(BindingLimit limit) {
    static const char* const names[] = {"concurrent_requests", "kv_pool", "max_num_seqs", "none"};
    return names[static_cast<int>(limit)];
}

Admission admit(const Scenario& s, int64_t requests, const ModelSpec& model, const MemoryPlan& mem, bool serving) {
    Admission a;
    const KvLayout& k = mem.layout;
    const int64_t sequence_tokens = s.prompt_tokens + s.output_tokens;
    const double block_set_bytes = k.page_bytes * static_cast<double>(k.group_size);
    // A running sequence holds only the window of its sliding-window layers.
    const double need = request_kv_bytes(k, model, sequence_tokens, 1);
    const auto blocks_per_sequence = static_cast<int64_t>(std::ceil(need / block_set_bytes));
    a.bytes_per_sequence = need;
    a.outside_budget_bytes = mem.visible_bytes - mem.requested_bytes;
    a.min_utilization_that_fits = (mem.requested_bytes - mem.available_kv_bytes + mem.request_kv_bytes) / mem.visible_bytes;
    // The field table is constant: its decimals are looked up once.
    static const double scale = std::pow(10.0, scenario_field("gpu_memory_utilization").decimals);
    a.min_utilization_setting = std::ceil(a.min_utilization_that_fits * scale - 1e-9) / scale;
    a.longest_request_tokens = mem.estimated_max_model_len;
    if (!serving) {
        a.waiting = requests;
        return a;
    }
    a.max_resident_sequences = blocks_per_sequence > 0 ? mem.num_gpu_blocks / blocks_per_sequence : 0;
    a.running = std::min({requests, a.max_resident_sequences, *s.max_num_seqs});
    a.waiting = requests - a.running;
    if (a.running == requests) a.binding_limit = BindingLimit::concurrent_requests;
    else if (a.running == a.max_resident_sequences) a.binding_limit = BindingLimit::kv_pool;
    else a.binding_limit = BindingLimit::max_num_seqs;
    a.kv_pool_used_bytes = need * static_cast<double>(a.running);
    // vLLM counts usage over num_gpu_blocks - 1 (one null block).
    a.kv_cache_usage = std::min(
        1.0, static_cast<double>(a.running * blocks_per_sequence) / static_cast<double>(std::max<int64_t>(1, mem.num_gpu_blocks - 1)));
    return a;
}

}  // namespace kv
