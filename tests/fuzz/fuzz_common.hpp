// Shared by the fuzz targets: the invariants every accepted input must keep. A violation traps,
// which libFuzzer reports as a crash with the input that caused it.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>

#include "result/evaluate.hpp"
#include "io/json_io.hpp"

namespace kvfuzz {

inline void require(bool condition) {
    if (!condition) __builtin_trap();
}

inline void all_finite(const nlohmann::json& j) {
    if (j.is_number_float()) require(std::isfinite(j.get<double>()));
    else if (j.is_object() || j.is_array())
        for (const auto& v : j) all_finite(v);
}

// Finite, non-negative sizes and times; usage at most 1; used within the pool; requests conserved
// (per engine and across data-parallel engines).
inline void check_result(const kv::Result& r) {
    all_finite(kv::result_to_json(r));
    const kv::MemoryPlan& m = r.memory;
    require(m.weight_bytes >= 0 && m.activation_peak_bytes >= 0 && m.non_torch_bytes >= 0 && m.cuda_graph_bytes >= 0);
    require(m.num_gpu_blocks >= 0 && m.kv_cache_tokens >= 0);
    const kv::Admission& a = r.admission;
    require(a.kv_cache_usage >= 0 && a.kv_cache_usage <= 1);
    require(a.kv_pool_used_bytes <= std::max(0.0, m.available_kv_bytes) * (1 + 1e-9));
    // One engine's admission holds its share of the requests; every data-parallel engine, all of them.
    require(a.running >= 0 && a.waiting >= 0 && a.running + a.waiting == r.deployment.requests_per_engine);
    const kv::Deployment& d = r.deployment;
    require(d.running >= 0 && d.waiting >= 0 && d.running + d.waiting == r.scenario.concurrent_requests);
    require(r.steps.decode.total_s >= 0 && r.steps.prefill.total_s >= 0 && r.steps.itl_s >= 0);
    if (!m.startup_error) require(m.available_kv_bytes > 0 && m.request_kv_bytes <= m.available_kv_bytes);
}

}  // namespace kvfuzz
