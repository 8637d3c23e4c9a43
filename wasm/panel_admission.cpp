// Panel 1, admission and memory: the engine's admission decision and its per-step memory traffic.
// Lesson sections: "The KV Cache" (the opening panel), "Why the batch stops growing where it does",
// "What GQA buys, and where it stops helping". Every figure is a field of kv::Result, printed by
// core/format.hpp. Sizes are per GPU (per tensor-parallel rank).
//
// Index of this file:
// [SECTION] Title
// [SECTION] HBM budget bar (the engine's memory order)
// [SECTION] Bytes per token and per sequence
// [SECTION] Admission: resident sequences and the binding limit
// [SECTION] Decode step: bytes, time, throughput, ITL
// [SECTION] Engine log
// [SECTION] Panel
#include <imgui.h>

#include "format.hpp"
#include "panels.hpp"
#include "style.hpp"
#include "widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Title
//-----------------------------------------------------------------------------

void title(const kv::Result& r) {
    std::string where = r.model.name + " on " + r.gpu.label;
    if (r.scenario.tensor_parallel_size > 1)
        where += ", tensor parallel " + kv::format_count(r.scenario.tensor_parallel_size) + " (figures per GPU)";
    panel_title("Admission and memory", where);
}

//-----------------------------------------------------------------------------
// [SECTION] HBM budget bar (the engine's memory order)
// Lesson: "Why the batch stops growing where it does", steps 1 to 4.
//-----------------------------------------------------------------------------

void budget_bar(const kv::Result& r) {
    heading("HBM, in the order the engine fills it");
    const double kv_free = r.kv_pool_bytes - r.kv_pool_used_bytes;
    const std::vector<Segment> segments = {
        {Colour::outside_budget, r.outside_budget_bytes, kv::format_gib(r.outside_budget_bytes, 1), "outside the budget",
         "1. HBM beyond gpu_memory_utilization × capacity: the CUDA context, the allocator and the driver."},
        {Colour::weights, r.weight_bytes, kv::format_gib(r.weight_bytes, 1), "weights",
         "2. The model's parameters (this rank's shard): a fixed cost, paid once, independent of load."},
        {Colour::activation, r.activation_bytes, kv::format_gib(r.activation_bytes, 1), "activation reserve",
         "3. Room for the largest forward pass the scheduler may launch (max_num_batched_tokens) and workspaces."},
        {Colour::kv_used, r.kv_pool_used_bytes, kv::format_gib(r.kv_pool_used_bytes, 1), "KV pool in use",
         "4. The part of the KV pool the running sequences hold."},
        {Colour::kv_free, kv_free, kv::format_gib(kv_free, 1), "KV pool free",
         "4. The rest of the pool: too small for one more sequence, or nobody is waiting for it."},
    };
    const bool overflows = r.status == kv::Status::weights_do_not_fit;
    stacked_bar("##hbm", segments, r.gpu.memory_bytes, 34.0f, overflows ? r.gpu.memory_bytes : 0.0,
                overflows ? "HBM capacity " + kv::format_gib(r.gpu.memory_bytes, 0) : "");
    legend(segments);
    text_wrapped("budget = gpu_memory_utilization " + kv::format_fixed(r.scenario.gpu_memory_utilization, 2) + " × " +
               kv::format_gib(r.gpu.memory_bytes, 0) + " = " + kv::format_gib(r.budget_bytes, 1) +
               "; the KV pool is what the weights and the reserve leave: " + kv::format_gib(r.kv_pool_bytes, 1) + ".",
                 Colour::text_muted);
}

//-----------------------------------------------------------------------------
// [SECTION] Bytes per token and per sequence
// Lesson: the opening formula, and "What GQA buys".
//-----------------------------------------------------------------------------

void cache_sizes(const kv::Result& r) {
    heading("What one token and one sequence cost");
    const kv::Scenario& s = r.scenario;
    const std::string formula = "2 × " + kv::format_count(r.model.num_hidden_layers) + " layers × " +
                                kv::format_count(r.kv_heads_per_rank) + " kv_heads × " + kv::format_count(r.model.head_dim) +
                                " × " + kv::format_count(kv::bytes_per_element(s.kv_cache_dtype)) + " B";
    figure_row("sizes", {
        {"KV cache per token", kv::format_bytes(r.kv_bytes_per_token), formula, Colour::kv_used,
         "Keys plus values, for every layer and every KV head, head_dim wide, at the cache precision. Query "
         "heads do not count: grouped-query attention shares each KV head among several of them."},
        {"per sequence", kv::format_bytes(r.bytes_per_sequence),
         "× " + kv::format_count(s.prompt_tokens + s.output_tokens) + " tokens (prompt + output)", Colour::kv_used,
         "Each sequence holds a block for its full final length in this simulation; paged attention would hold "
         "only what it has generated."},
        {"weights", kv::format_gib(r.weight_bytes, 1), kv::format_params(static_cast<double>(r.params)) + " parameters",
         Colour::weights, nullptr},
        {"KV pool", kv::format_gib(r.kv_pool_bytes, 1),
         "vLLM: " + kv::format_count(r.kv_cache_tokens) + " tokens, " + kv::format_factor(r.max_concurrency, 2) +
             " for " + kv::format_count(*s.max_model_len) + "-token requests",
         Colour::text, "vLLM's boot line: GPU KV cache size and Maximum concurrency, which divides by max_model_len."},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Admission: resident sequences and the binding limit
// Lesson: content/lesson/02-memory-order.md, "Why the batch stops where it does".
//-----------------------------------------------------------------------------

const char* binding_limit_words(kv::BindingLimit limit) {
    switch (limit) {
    case kv::BindingLimit::kv_pool: return "the KV pool";
    case kv::BindingLimit::max_num_seqs: return "max_num_seqs";
    case kv::BindingLimit::concurrent_requests: return "the requests";
    case kv::BindingLimit::none: break;
    }
    return "nothing";
}

const char* binding_limit_note(kv::BindingLimit limit) {
    switch (limit) {
    case kv::BindingLimit::kv_pool: return "the pool is full; lowering max_num_seqs admits no one";
    case kv::BindingLimit::max_num_seqs: return "below what the pool holds: paid-for batching unused";
    case kv::BindingLimit::concurrent_requests: return "every request runs; the pool has room";
    case kv::BindingLimit::none: break;
    }
    return "";
}

void admission(const kv::Result& r) {
    heading("Admission");
    figure_row("admission", {
        {"running", kv::format_count(r.running),
         "of " + kv::format_count(r.scenario.concurrent_requests) + " requests; " + kv::format_count(r.waiting) + " waiting",
         Colour::kv_used, "vLLM's stats line: Running: N reqs, Waiting: M reqs."},
        {"the pool holds", kv::format_count(r.max_resident_sequences), "sequences of this length", Colour::text,
         "floor(KV pool / bytes per sequence)."},
        {"limited by", binding_limit_words(r.binding_limit), binding_limit_note(r.binding_limit), Colour::text, nullptr},
        {"KV cache usage", kv::format_percent(r.kv_cache_usage, 1), "of the pool", Colour::kv_used,
         "vLLM's GPU KV cache usage (the vllm:kv_cache_usage_perc gauge)."},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Decode step: bytes, time, throughput, ITL
// Lesson: content/lesson/01-intro.md (throughput follows the resident sequences, not FLOPs).
//-----------------------------------------------------------------------------

void decode_step(const kv::Result& r) {
    heading("One decode step");
    figure_row("decode", {
        {"bytes moved per step", kv::format_bytes(r.decode.bytes),
         "weights " + kv::format_percent(r.weight_share, 0) + ", KV cache the rest", Colour::memory,
         "Every step reads this rank's weights once and every running sequence's whole cache."},
        {"step time", kv::format_duration(r.decode.total_s),
         std::string(r.decode.bound == kv::Bound::compute ? "compute-bound" : "memory-bound"), Colour::decode, nullptr},
        {"aggregate", kv::format_tokens_per_s(r.decode_tokens_per_s), "one token per running sequence per step",
         Colour::decode, "vLLM's Avg generation throughput."},
        {"per-stream ITL", kv::format_duration(r.itl_s), "inter-token latency = one step", Colour::decode,
         "What one reader of one stream waits between tokens."},
    });
    const double kv_read = r.decode.bytes - r.weight_bytes;
    stacked_bar("##step_bytes", {
        {Colour::weights, r.weight_bytes, kv::format_bytes(r.weight_bytes), "weight read", nullptr},
        {Colour::kv_used, kv_read, kv::format_bytes(kv_read), "KV cache read", nullptr},
    }, r.decode.bytes, 22.0f);
}

//-----------------------------------------------------------------------------
// [SECTION] Engine log
//-----------------------------------------------------------------------------

void log_section(const kv::Result& r) {
    heading("Engine log");
    engine_log(r);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Panel
//-----------------------------------------------------------------------------

void panel_admission(kvapp::Panel& panel) {
    title(panel.result);
    knobs(panel, knob_all);
    rejected_input_banner(panel);
    const kv::Result& r = panel.result;
    budget_bar(r);
    cache_sizes(r);
    if (r.status == kv::Status::ok) {
        admission(r);
        decode_step(r);
    } else {
        heading("Admission");
        failure_banner(r);
    }
    log_section(r);
    keyboard_hint();
}

}  // namespace kvui
