// Admission: how many of the requests in flight the scheduler runs at once. It runs what is
// asked, up to what the KV pool holds (each sequence a block set for its full final length) and
// what max_num_seqs allows; the rest wait. Sizes per GPU (per tensor-parallel rank).
#pragma once
#include <cstdint>

#include "memory/memory_plan.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

enum class BindingLimit { concurrent_requests, kv_pool, max_num_seqs, none };
const char* binding_limit_name(BindingLimit limit);

struct Admission {
    double bytes_per_sequence = 0;         // prompt + output tokens (whole blocks)
    double outside_budget_bytes = 0;       // visible memory beyond the requested budget
    double min_utilization_that_fits = 0;  // smallest gpu_memory_utilization at which the engine starts
    // The same rounded up to the setting's decimals (0.9304 -> 0.94: rounded to nearest, 0.93,
    // would still fail), as the log and the panels quote it.
    double min_utilization_setting = 0;
    int64_t longest_request_tokens = 0;  // longest request one sequence could hold in the pool
    // Zero when the engine does not start.
    int64_t max_resident_sequences = 0;
    int64_t running = 0;
    int64_t waiting = 0;
    BindingLimit binding_limit = BindingLimit::none;
    double kv_pool_used_bytes = 0;
    double kv_cache_usage = 0;  // stats line: fraction of blocks in use, 0..1
};

// `scenario` with every engine default filled in and `requests` of its requests given to this
// engine (all of them, or a data-parallel engine's share); `serving`: the engine started and admits
// this request length.
Admission admit(const Scenario& scenario, int64_t requests, const ModelSpec& model, const MemoryPlan& memory, bool serving);

}  // namespace kv
