// Panel 1, admission and memory: the engine's admission decision and its per-step memory traffic.
// Every figure is a field of kv::Result, printed by core/base/format.hpp. Sizes are per GPU (per
// tensor- and pipeline-parallel rank), out of the memory CUDA reports
// (kv::MemoryPlan::visible_bytes), not the marketed size.
//
// Index of this file: section, the function that draws it, the lesson anchors it serves
// (content/lesson/FILE.md#ID: the id the site gives that chapter's heading).
// [SECTION] Title                  title()
// [SECTION] HBM budget bar         budget_bar()     02-memory-order.md#why-the-batch-stops-where-it-does
//                                                   06-fp8.md#fp8-cache-or-fp8-weights
// [SECTION] Bytes per token        cache_sizes()    01-intro.md#bytes-per-token
//                                                   05-gqa.md#what-grouped-query-attention-buys
// [SECTION] Admission              admission()      02-memory-order.md#why-the-batch-stops-where-it-does
// [SECTION] Decode step            decode_step()    01-intro.md#bytes-per-token
// [SECTION] Engine log             log_section()    09-real-system.md#checking-the-arithmetic-on-a-real-system
// [SECTION] Panel                  panel_admission(), with dcgm_readout() (panel_phases.cpp)
#include <imgui.h>

#include <algorithm>
#include <vector>

#include "base/format.hpp"
#include "panels/panels.hpp"
#include "ui/parts.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Title: title()
//-----------------------------------------------------------------------------

void title(const kv::Result& r) {
    std::string where = model_label(r) + " on " + r.gpu.label + ", vLLM " + r.scenario.vllm_version;
    if (r.scenario.tensor_parallel_size > 1) where += ", tensor parallel " + kv::format_count(r.scenario.tensor_parallel_size);
    if (r.scenario.pipeline_parallel_size > 1) where += ", pipeline parallel " + kv::format_count(r.scenario.pipeline_parallel_size);
    if (r.scenario.data_parallel_size > 1)
        where += ", " + kv::format_count(r.scenario.data_parallel_size) + " data-parallel engines (figures per engine)";
    if (r.scenario.tensor_parallel_size * r.scenario.pipeline_parallel_size > 1) where += " (figures per GPU)";
    panel_title("Admission and memory", where);
}

//-----------------------------------------------------------------------------
// [SECTION] HBM budget bar, in the engine's memory order: budget_bar()
// Lesson: 02-memory-order.md#why-the-batch-stops-where-it-does (its steps 1 to 6) and
// 06-fp8.md#fp8-cache-or-fp8-weights (weights or cache: which takes more of the bar).
//-----------------------------------------------------------------------------

void budget_bar(const kv::Result& r) {
    heading("HBM, in the order the engine fills it");
    const kv::MemoryPlan& m = r.memory;
    // CUDA graphs come out of the budget from 0.20.0; before, and for model runner V2 until 0.30, they live
    // in the headroom outside it.
    const double graphs_outside = m.cuda_graph_in_budget ? 0.0 : m.cuda_graph_bytes;
    const double outside = std::max(0.0, r.admission.outside_budget_bytes - graphs_outside);
    const double pool = std::max(0.0, m.available_kv_bytes);
    const double kv_free = std::max(0.0, pool - r.admission.kv_pool_used_bytes);
    const std::string graphs_legend = m.cuda_graph_in_budget ? "CUDA graphs" : "CUDA graphs (outside the budget)";
    const bool started = !m.startup_error;
    std::vector<Segment> segments = {
        {Colour::outside_budget, outside, kv::format_gib(outside, 1), "outside the budget",
         "1. The memory CUDA reports beyond gpu_memory_utilization × that total: left to the driver and to "
         "anything else on the GPU."},
        {Colour::cuda_graphs, graphs_outside, kv::format_gib(graphs_outside, 2), graphs_legend,
         "Before vLLM 0.20.0, and from 0.22 to 0.29 for the models model runner V2 ran, the captured CUDA graphs are "
         "not counted in the budget: they must fit in the headroom outside it."},
        {Colour::weights, m.weight_bytes, kv::format_gib(m.weight_bytes, 1), "weights",
         "2. The model's parameters (this rank's shard): a fixed cost, paid once, independent of load."},
        {Colour::activation, m.activation_peak_bytes, kv::format_gib(m.activation_peak_bytes, 1), "activation peak",
         "3. The profile run's peak: one forward pass over max_num_batched_tokens tokens (V0 without chunked "
         "prefill: max_model_len) and the sampler."},
        {Colour::non_torch, m.non_torch_bytes, kv::format_gib(m.non_torch_bytes, 2), "non-torch",
         "4. Memory outside PyTorch's allocator that grows during start-up: the CUDA context, NCCL and custom "
         "all-reduce buffers."},
        {Colour::cuda_graphs, m.cuda_graph_in_budget ? m.cuda_graph_bytes : 0.0, kv::format_gib(m.cuda_graph_bytes, 2), "CUDA graphs",
         "5. From vLLM 0.20.0 the CUDA graphs' estimate comes out of the budget (none with enforce_eager)."},
        {Colour::kv_used, r.admission.kv_pool_used_bytes, kv::format_gib(r.admission.kv_pool_used_bytes, 1), "KV pool in use",
         "6. The part of the KV pool the running sequences hold."},
        {Colour::kv_free, kv_free, kv::format_gib(kv_free, 1), started ? "KV pool free" : "left for the KV cache",
         started ? "6. The rest of the pool: too small for one more sequence, or nobody is waiting for it."
                 : "6. What is left for the cache blocks: too little for the engine to start."},
    };
    // Parts that are empty in this configuration (no graphs, nothing running) leave the legend.
    std::erase_if(segments, [&](const Segment& seg) {
        const bool pool = seg.colour == Colour::kv_used || seg.colour == Colour::kv_free;
        return seg.value <= 0 && !(pool && started);
    });
    double sum = 0;
    for (const Segment& seg : segments) sum += seg.value;
    // More than CUDA reports: the part past the marker is what the engine lacks.
    const bool overflows = sum > m.visible_bytes * (1.0 + 1e-9);
    stacked_bar("##hbm", segments, m.visible_bytes, 34.0f, overflows ? m.visible_bytes : 0.0,
                overflows ? "memory CUDA reports: " + kv::format_gib(m.visible_bytes, 2) : "");
    legend(segments);
    std::string sentence = "budget = gpu_memory_utilization " + kv::format_fixed(*r.scenario.gpu_memory_utilization, 2) + " × " +
                           kv::format_gib(m.visible_bytes, 2) + " visible = " + kv::format_gib(m.requested_bytes, 2) +
                           "; the KV pool is what the weights, the activation "
                           "peak, non-torch memory" +
                           (m.cuda_graph_in_budget ? " and the CUDA graphs" : "") + " leave: ";
    sentence += m.available_kv_bytes > 0 ? kv::format_gib(m.available_kv_bytes, 2) + "."
                                         : "nothing; they overrun it by " + kv::format_gib(-m.available_kv_bytes, 2) + ".";
    text_wrapped(sentence, Colour::text_muted);
}

//-----------------------------------------------------------------------------
// [SECTION] Bytes per token and per sequence: cache_sizes()
// Lesson: 01-intro.md#bytes-per-token (the formula) and 05-gqa.md#what-grouped-query-attention-buys.
//-----------------------------------------------------------------------------

// The per-token formula as the engine's layout multiplies it, from the numbers the result holds.
std::string per_token_formula(const kv::Result& r) {
    const kv::KvLayout& k = r.memory.layout;
    const std::string dtype = kv::format_count(kv::bytes_per_element(r.scenario.kv_cache_dtype)) + " B";
    if (r.model.attention == kv::AttentionKind::mla && r.rules.mla_attention)
        return kv::format_counted(k.layers, "layer") + " × (" + kv::format_count(r.model.kv_lora_rank) + " latent + " +
               kv::format_count(r.model.qk_rope_head_dim) + " rope) × " + dtype;
    if (r.model.attention == kv::AttentionKind::mla)  // a release before MLA's kernels: every head's key and value
        return "2 × " + kv::format_counted(k.layers, "layer") + " × " + kv::format_count(k.kv_heads_per_rank) + " heads × " +
               kv::format_count(r.model.qk_nope_head_dim + r.model.qk_rope_head_dim) + " × " + dtype;
    return "2 × " + kv::format_counted(k.layers, "layer") + " × " + kv::format_count(k.kv_heads_per_rank) + " kv_heads × " +
           kv::format_count(r.model.head_dim) + " × " + dtype;
}

void cache_sizes(const kv::Result& r) {
    heading("What one token and one sequence cost");
    const kv::Scenario& s = r.scenario;
    const kv::MemoryPlan& m = r.memory;
    std::string sequence_note = "× " + kv::format_count(s.prompt_tokens + s.output_tokens) + " tokens (prompt + output)";
    if (m.layout.sliding_layers > 0)
        sequence_note += "; " + kv::format_counted(m.layout.sliding_layers, "layer") + (m.layout.sliding_layers == 1 ? " keeps" : " keep") +
                         " only " + kv::format_count(r.model.sliding_window) + " tokens";
    const std::string pool_note = m.available_kv_bytes > 0 && !m.startup_error
                                      ? "vLLM: " + kv::format_count(m.kv_cache_tokens) + " tokens, " +
                                            kv::format_factor(m.max_concurrency, 2) + " for " + kv::format_count(*s.max_model_len) +
                                            "-token requests"
                                      : "the engine does not start";
    figure_row({
        {"KV cache per token", kv::format_bytes(m.layout.kv_bytes_per_token), per_token_formula(r), Colour::kv_used,
         "Keys plus values (MLA: one compressed latent), for every attention layer and every KV head of this rank, "
         "at the cache precision. Query heads do not count: grouped-query attention shares each KV head among "
         "several of them."},
        {"per sequence", kv::format_bytes(r.admission.bytes_per_sequence), sequence_note, Colour::kv_used,
         "Each sequence holds blocks of block_size tokens for its full final length in this simulation; paged "
         "attention would hold only what it has generated. Sliding-window layers hold only their window."},
        {"weights", kv::format_gib(m.weight_bytes, 1),
         kv::format_params(static_cast<double>(r.params)) + " parameters, " + kv::weight_format_name(r.model.weight_format),
         Colour::weights, nullptr},
        {"KV pool", kv::format_gib(std::max(0.0, m.available_kv_bytes), 1), pool_note, Colour::text,
         "vLLM's boot lines: Available KV cache memory, GPU KV cache size and Maximum concurrency, which divides by "
         "max_model_len."},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Admission, resident sequences and the binding limit: admission()
// Lesson: 02-memory-order.md#why-the-batch-stops-where-it-does.
//-----------------------------------------------------------------------------

const char* binding_limit_words(kv::BindingLimit limit) {
    switch (limit) {
        case kv::BindingLimit::kv_pool:
            return "the KV pool";
        case kv::BindingLimit::max_num_seqs:
            return "max_num_seqs";
        case kv::BindingLimit::concurrent_requests:
            return "the requests";
        case kv::BindingLimit::none:
            break;
    }
    return "nothing";
}

const char* binding_limit_note(kv::BindingLimit limit) {
    switch (limit) {
        case kv::BindingLimit::kv_pool:
            return "the pool is full; lowering max_num_seqs admits no one";
        case kv::BindingLimit::max_num_seqs:
            return "below what the pool holds: paid-for batching unused";
        case kv::BindingLimit::concurrent_requests:
            return "every request runs; the pool has room";
        case kv::BindingLimit::none:
            break;
    }
    return "";
}

void admission(const kv::Result& r) {
    heading("Admission");
    figure_row({
        {"running", kv::format_count(r.admission.running),
         "of " + kv::format_count(r.scenario.concurrent_requests) + " requests; " + kv::format_count(r.admission.waiting) + " waiting",
         Colour::kv_used, "vLLM's stats line: Running: N reqs, Waiting: M reqs."},
        {"the pool holds", kv::format_count(r.admission.max_resident_sequences), "sequences of this length", Colour::text,
         "floor(KV pool / bytes per sequence)."},
        {"limited by", binding_limit_words(r.admission.binding_limit), binding_limit_note(r.admission.binding_limit), Colour::text,
         nullptr},
        {"KV cache usage", kv::format_percent(r.admission.kv_cache_usage, 1), "of the pool", Colour::kv_used,
         "vLLM's GPU KV cache usage (the vllm:kv_cache_usage_perc gauge)."},
    });
}

//-----------------------------------------------------------------------------
// [SECTION] Decode step, bytes, time, throughput, ITL: decode_step()
// Lesson: 01-intro.md#bytes-per-token (throughput follows the resident sequences, not FLOPs).
//-----------------------------------------------------------------------------

void decode_step(const kv::Result& r) {
    heading("One decode step");
    figure_row({
        {"bytes moved per step", kv::format_bytes(r.steps.decode.bytes),
         "weights " + kv::format_percent(r.steps.weight_share, 0) + ", KV cache the rest", Colour::memory,
         "Every step reads this rank's weights once and every running sequence's whole cache."},
        {"step time", kv::format_duration(r.steps.decode.total_s),
         std::string(r.steps.decode.bound == kv::Bound::compute ? "compute-bound" : "memory-bound"), Colour::decode, nullptr},
        {"decode rate", kv::format_tokens_per_s(r.steps.decode_tokens_per_s), "one token per running sequence per step", Colour::decode,
         "Decode steps alone, all streams. vLLM's logged Avg generation throughput is lower: its steps also "
         "compute the prompts of arriving requests (the log line below)."},
        {"per-stream ITL", kv::format_duration(r.steps.itl_s), "inter-token latency = one step", Colour::decode,
         "What one reader of one stream waits between tokens."},
    });
    const double weights = r.memory.weight_bytes;
    const double kv_read = r.steps.decode.bytes - weights;
    stacked_bar("##step_bytes",
                {
                    {Colour::weights, weights, kv::format_bytes(weights), "weight read", nullptr},
                    {Colour::kv_used, kv_read, kv::format_bytes(kv_read), "KV cache read", nullptr},
                },
                r.steps.decode.bytes, 22.0f);
}

//-----------------------------------------------------------------------------
// [SECTION] Engine log: log_section()
// Lesson: 09-real-system.md#checking-the-arithmetic-on-a-real-system (the start-up lines).
//-----------------------------------------------------------------------------

void log_section(const kv::Result& r) {
    heading("Engine log");
    engine_log(r);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Panel: panel_admission()
//-----------------------------------------------------------------------------

void panel_admission(kvapp::Panel& panel) {
    if (panel.focus.empty()) title(panel.result);  // beside the text, the header above names the scenario
    const kv::Result& r = panel.result;
    const bool ok = r.status == kv::Status::ok;
    std::vector<Part> parts = {
        {{}, [&] { rejected_input_banner(panel); }, true},
        // A refusal comes first, in red, before the bar that shows where the memory went.
        {{},
         [&] {
             if (r.status != kv::Status::engine_refused) return;
             heading("Start-up");
             failure_banner(r);
         },
         true,
         // The refusal's explanation names the weights, the request's cache and the length that fits.
         r.status == kv::Status::engine_refused
             ? std::vector<std::string_view>{"weight_bytes", "request_kv_bytes", "estimated_max_model_len"}
             : std::vector<std::string_view>{}},
        {{"weight_bytes", "activation_bytes", "non_torch_bytes", "cuda_graph_bytes", "cuda_graph_in_budget", "available_kv_cache_bytes",
          "kv_pool_bytes", "kv_pool_used_bytes", "budget_bytes", "visible_memory_bytes", "outside_budget_bytes",
          "min_utilization_that_fits", "gpu.memory_bytes"},
         [&] { budget_bar(r); }},
        {{"kv_bytes_per_token", "kv_bytes_per_token_per_layer", "kv_heads_per_rank", "kv_heads_replicated", "request_kv_bytes",
          "bytes_per_sequence", "params", "kv_cache_tokens", "num_gpu_blocks", "max_concurrency"},
         [&] { cache_sizes(r); },
         false,
         {"weight_bytes", "kv_pool_bytes"}},
        {{"running", "waiting", "max_resident_sequences", "binding_limit", "kv_cache_usage"},
         [&] {
             if (ok) admission(r);
             if (r.status != kv::Status::request_too_long) return;
             heading("Admission");
             failure_banner(r);
         },
         r.status == kv::Status::request_too_long},
        {{"decode", "decode_step_s", "decode_bytes_per_step", "decode_tokens_per_s", "itl_s", "weight_share", "generation_tokens_per_s",
          "decode_bound"},
         [&] {
             if (ok) decode_step(r);
         }},
        {{"dram_active", "tensor_active", "gpu_utilization"},
         [&] {
             if (ok) dcgm_readout(r);  // beside the real-system section, which reads it
         }},
        {{"log"}, [&] { log_section(r); }, false, {"max_resident_sequences"}},  // the lesson's lines under vLLM's say it
    };
    draw_parts(panel,
               {"model", "gpu", "prompt_tokens", "output_tokens", "concurrent_requests", "gpu_memory_utilization", "kv_cache_dtype",
                "weight_dtype", "max_num_seqs", "max_num_batched_tokens", "max_model_len", "tensor_parallel_size", "vllm_version",
                "enforce_eager", "force_mha"},
               parts);
    keyboard_hint();
}

}  // namespace kvui
