#include "memory/parallelism.hpp"

#include <algorithm>

namespace kv {

ExpertPlacement place_experts(const ModelSpec& m, const Scenario& s) {
    ExpertPlacement p;
    if (m.num_experts <= 0) return p;
    p.gpus = std::max<int64_t>(1, s.tensor_parallel_size * s.data_parallel_size);
    // use_ep = TP x DP > 1 and --enable-expert-parallel (FusedMoEParallelConfig.make).
    p.whole_experts = s.enable_expert_parallel && p.gpus > 1;
    if (p.whole_experts) {
        // determine_expert_map: E // EP each, one more on the first E % EP ranks (those of DP rank 0).
        p.experts_per_gpu = m.num_experts / p.gpus + (m.num_experts % p.gpus > 0 ? 1 : 0);
        p.expert_width = m.moe_intermediate_size;
    } else {
        p.experts_per_gpu = m.num_experts;
        p.expert_width = m.moe_intermediate_size / p.gpus;
    }
    return p;
}

int64_t requests_per_engine(const Scenario& s) {
    const int64_t engines = std::max<int64_t>(1, s.data_parallel_size);
    return (s.concurrent_requests + engines - 1) / engines;
}

Deployment deploy(const Scenario& s, const MemoryPlan& memory, const Admission& admission) {
    Deployment d;
    d.engines = std::max<int64_t>(1, s.data_parallel_size);
    d.gpus = s.tensor_parallel_size * s.pipeline_parallel_size * d.engines;
    d.requests_per_engine = requests_per_engine(s);
    d.kv_cache_tokens = memory.kv_cache_tokens * d.engines;
    d.max_concurrency = memory.max_concurrency * static_cast<double>(d.engines);
    d.max_resident_sequences = admission.max_resident_sequences * d.engines;
    d.running = std::min(s.concurrent_requests, admission.running * d.engines);
    d.waiting = s.concurrent_requests - d.running;
    return d;
}

}  // namespace kv
