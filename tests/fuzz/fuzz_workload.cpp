// The workload reader and the serving simulation: any JSON text in; an error naming a field, or a
// run that keeps its books (every request finishes or is rejected, the pool is never over-full,
// KV usage stays within 0..1, the batch within max_num_seqs, every figure finite).
#include <cstdlib>
#include <string>

#include "fuzz_common.hpp"
#include "io/simulate_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto workload = kv::workload_from_text(text);
    if (!std::holds_alternative<kv::Workload>(workload)) return 0;
    kv::Workload w = std::get<kv::Workload>(workload);
    w.requests = std::min<int64_t>(w.requests, 200);  // keep each execution short
    if (w.list.size() > 200) w.list.resize(200);
    static const kv::Result result = std::get<kv::Result>(kv::evaluate(kv::Scenario{}));
    auto run = kv::simulate(result, w);
    if (auto* error = std::get_if<kv::InputError>(&run)) {
        if (error->field.empty()) std::abort();
        return 0;
    }
    const kv::Simulation& sim = std::get<kv::Simulation>(run);
    const int64_t requests = static_cast<int64_t>(sim.requests.size());
    if (sim.summary.finished + sim.summary.rejected != requests) std::abort();
    for (const kv::SimStep& s : sim.steps) {
        if (s.blocks_used + s.blocks_cached > sim.pool_blocks || s.blocks_used < 0) std::abort();
        if (s.running > *result.scenario.max_num_seqs || s.running + s.waiting > requests) std::abort();
        if (!(s.step_s >= 0)) std::abort();
    }
    if (!(sim.summary.peak_kv_cache_usage >= 0 && sim.summary.peak_kv_cache_usage <= 1)) std::abort();
    kvfuzz::all_finite(kv::simulation_to_json(sim, true));
    return 0;
}
