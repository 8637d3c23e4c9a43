// The reader's knobs, shared by the four panels. Every knob is a label, a (?) tooltip saying what
// it is in vLLM's terms and what it changes, and a control that writes through kvapp::edit().
// Token counts move along log-spaced stops (powers of two and their quarter steps) so the brief's
// values (128, 4,096, 32,768) are exact stops and the arrow keys step one stop at a time. Knobs the
// engine defaults (max_num_seqs, max_num_batched_tokens, max_model_len) show the value the engine
// resolved, marked "default", until the reader moves them; their "default" button unsets them again.
// The model and GPU pickers list whatever kv::builtin_catalog() holds. The serving panel adds the
// workload's knobs (kv::Workload), which write through kvapp::edit_workload() and re-run the
// simulation.
//
// Index of this file:
// [SECTION] Tooltips (vLLM's terms)
// [SECTION] Controls
// [SECTION] Model and GPU pickers (the whole catalog)
// [SECTION] The knob grid
// [SECTION] Banners: rejected input, the engine's refusal, a request too long
// [SECTION] The page's twin: the knobs as data, the key results as text
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "logs/engine_log.hpp"
#include "model/catalog.hpp"
#include "base/format.hpp"
#include "panels/panels.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Tooltips (vLLM's terms)
//-----------------------------------------------------------------------------

const char* const help_model =
    "The checkpoint vLLM serves (--model). Its config.json fixes num_hidden_layers, num_key_value_heads and "
    "head_dim (or MLA's latent width), hence the KV bytes per token, and the parameter count, hence the "
    "weights. The lesson page's \"Your own model or GPU\" form (or the model_config field) takes a "
    "config.json of your own.";
const char* const help_gpu =
    "The accelerator. The memory CUDA reports (a little under the marketed size) sets the budget, HBM "
    "bandwidth sets the decode step, tensor-core throughput sets the prefill. The lesson page's \"Your own "
    "model or GPU\" form (or the gpu_config field) describes one of your own.";
const char* const help_prompt =
    "Prompt length of every request, in tokens. With the output tokens it sets the KV cache one sequence "
    "holds: this simulation gives each sequence a block for its full final length.";
const char* const help_output =
    "Tokens generated per request (the request's max_tokens). Adds to each sequence's cache and sets how many "
    "decode steps a request takes.";
const char* const help_concurrent =
    "Requests the clients keep in flight. The scheduler runs as many as the KV pool and max_num_seqs allow; "
    "the rest wait (vLLM's \"Waiting: N reqs\").";
const char* const help_utilization =
    "vLLM's --gpu-memory-utilization: the fraction of the memory CUDA reports that the engine may use. Weights, "
    "the profile run's activation peak, memory outside PyTorch, CUDA graphs (from 0.21.0) and the KV pool all "
    "come out of it; the rest is left to the driver and whatever else runs on the GPU.";
const char* const help_kv_dtype =
    "vLLM's --kv-cache-dtype: auto keeps the model's BF16; fp8 stores keys and values in one byte, halving the "
    "bytes per token and doubling the sequences the pool holds.";
const char* const help_weight_dtype =
    "Weight precision (--quantization fp8 or an FP8 checkpoint): halves the weight bytes, which enlarges the "
    "KV pool, and runs the matmuls on FP8 tensor cores where the GPU has them.";
const char* const help_force_mha =
    "Not a vLLM flag: a what-if that gives every query head its own K and V head (num_key_value_heads = "
    "num_attention_heads), as the model would be without grouped-query attention. k_proj and v_proj widen too.";
const char* const help_max_num_seqs =
    "vLLM's --max-num-seqs: the most sequences the scheduler runs in one step. It caps what the scheduler "
    "tries to run; the KV pool caps what it can. Unset, the engine picks it (1,024 on large GPUs from 0.9.0, "
    "256 otherwise); \"default\" goes back to that.";
const char* const help_batched_tokens =
    "vLLM's --max-num-batched-tokens: the token budget of one forward pass. It sizes the profile run's "
    "activation peak and the prefill chunk that rides along with a decode step (chunked prefill). Unset, the "
    "engine picks it for the version, GPU and entry point; \"default\" goes back to that.";
const char* const help_max_model_len =
    "vLLM's --max-model-len: the longest request the engine accepts. Unset, it is the model's "
    "max_position_embeddings. At start-up the engine refuses unless one request this long fits in the KV pool, "
    "and its \"Maximum concurrency\" line divides the pool by it. \"default\" goes back to the model's.";
const char* const help_vllm_version =
    "The vLLM release whose start-up accounting the engine follows. Before 0.8 (V0) the profile run pushes "
    "max(max_model_len, 2048) tokens through without chunked prefill; V1 profiles max_num_batched_tokens. From "
    "0.9 large GPUs get bigger batch defaults, from 0.10 sliding-window layers keep only their window, and from "
    "0.21 the CUDA graphs come out of the budget.";
const char* const help_enforce_eager =
    "vLLM's --enforce-eager: run without capturing CUDA graphs. Saves their memory (inside the budget from "
    "0.21.0, in the headroom outside it before) and costs some decode speed, which this model leaves out.";
const char* const help_tp =
    "vLLM's --tensor-parallel-size: GPUs that split every layer. Each rank holds 1/N of the weights and of "
    "every sequence's cache, and the ranks all-reduce twice per layer over the GPUs' interconnect. The engine "
    "refuses a size that does not divide the attention heads.";

const char* const help_workload =
    "Where the requests' lengths come from. chat: short prompts, medium answers; summarise: long documents, short "
    "answers; reasoning: short prompts, long outputs (log-normal shapes chosen to illustrate, not measurements). "
    "fixed: every request has the scenario's prompt_tokens and output_tokens.";
const char* const help_rate =
    "Requests per second arriving at the server, at random (Poisson) times with this average. burst: every request "
    "arrives at once, as a benchmark that fires them all together.";
const char* const help_requests = "How many requests the run serves. The run ends when the last one finishes.";
const char* const help_seed =
    "The seed of the arrival times and lengths: the same seed gives the same run, another seed another draw of the "
    "same workload.";
const char* const help_shared_prefix =
    "A system prompt every request starts with, in tokens (part of each prompt). With prefix caching its full "
    "blocks are computed once and shared; without, every request prefills and stores its own copy.";
const char* const help_prefix_caching =
    "vLLM's --enable-prefix-caching (on by default in V1): full blocks of a prompt are kept under a hash of their "
    "tokens, so a later request with the same prefix reuses them instead of computing them again. Freed cached "
    "blocks count as free but stay hit-able until an allocation evicts them.";

//-----------------------------------------------------------------------------
// [SECTION] Controls
//-----------------------------------------------------------------------------

// Powers of two and their quarter steps (x1, x1.25, x1.5, x1.75) from lo to hi.
std::vector<int64_t> log_stops(int64_t lo, int64_t hi) {
    std::set<int64_t> stops = {lo, hi};
    for (int e = 0; e < 40; ++e)
        for (double m : {1.0, 1.25, 1.5, 1.75}) {
            const int64_t v = std::llround(std::ldexp(m, e));
            if (v >= lo && v <= hi) stops.insert(v);
        }
    return {stops.begin(), stops.end()};
}

// A slider over `stops` showing `value` (which may lie between stops when set from the page), with
// `suffix` after the number.
bool stop_slider(const char* id, int64_t& value, const std::vector<int64_t>& stops, const char* suffix = "") {
    int index = static_cast<int>(std::upper_bound(stops.begin(), stops.end(), value) - stops.begin()) - 1;
    index = std::clamp(index, 0, static_cast<int>(stops.size()) - 1);
    const std::string shown = escape_format(kv::format_count(value) + suffix);
    if (!ImGui::SliderInt(id, &index, 0, static_cast<int>(stops.size()) - 1, shown.c_str(),
                          ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput))
        return false;
    if (stops[static_cast<size_t>(index)] == value) return false;
    value = stops[static_cast<size_t>(index)];
    return true;
}

bool dtype_radio(const char* id, kv::DType& dtype) {
    ImGui::PushID(id);
    bool changed = false;
    if (ImGui::RadioButton("BF16", dtype == kv::DType::bf16)) {
        dtype = kv::DType::bf16;
        changed = true;
    }
    ImGui::SameLine(0, 16);
    if (ImGui::RadioButton("FP8", dtype == kv::DType::fp8)) {
        dtype = kv::DType::fp8;
        changed = true;
    }
    ImGui::PopID();
    return changed;
}

//-----------------------------------------------------------------------------
// [SECTION] Model and GPU pickers (the whole catalog)
//-----------------------------------------------------------------------------

// The catalog's models, grouped by what sets their cache and weights, in this order; each model
// in the first group that describes it.
enum class ModelGroup { dense, quantised, experts, sliding, mla, count };

const char* model_group_name(ModelGroup g) {
    static const char* const names[] = {"Dense, grouped-query attention", "Quantised checkpoints", "Mixture of experts",
                                        "Sliding-window layers", "MLA (one compressed latent per token)"};
    return names[static_cast<int>(g)];
}

ModelGroup model_group(const kv::ModelSpec& m) {
    if (m.attention == kv::AttentionKind::mla) return ModelGroup::mla;
    if (m.num_experts > 0) return ModelGroup::experts;
    if (m.sliding_window > 0) return ModelGroup::sliding;
    if (m.weight_format != kv::WeightFormat::bf16) return ModelGroup::quantised;
    return ModelGroup::dense;
}

std::string model_summary(const kv::ModelSpec& model, const std::string& name) {
    std::string text = name + "  " + kv::format_params(static_cast<double>(kv::parameter_count(model)));
    if (model.num_experts > 0) text += " (" + kv::format_params(static_cast<double>(kv::active_parameter_count(model))) + " active)";
    if (model.attention == kv::AttentionKind::mla) return text + ", MLA";
    return text + ", " + kv::format_count(model.num_key_value_heads) + " KV heads";
}

// "H100  79.2 GiB visible, 3.35 TB/s": the memory the engine budgets from, not the marketed size.
// The closed combo drops "visible" to keep the bandwidth in view; the tooltip says it.
std::string gpu_summary(const kv::GpuSpec& gpu, bool in_list = true) {
    return gpu.name + "  " + kv::format_gib(gpu.visible_memory_bytes, 1) + (in_list ? " visible, " : ", ") +
           kv::format_bandwidth(gpu.hbm_bytes_per_s);
}

void model_picker(kvapp::Panel& panel) {
    const kv::Scenario& s = panel.scenario;
    // A config.json from the page is shown as the result read it; any catalog entry replaces it.
    const std::string preview = s.model_config ? model_summary(panel.result.model, model_label(panel.result)) : s.model;
    if (!ImGui::BeginCombo("##model", preview.c_str())) return;
    for (int g = 0; g < static_cast<int>(ModelGroup::count); ++g) {
        bool heading_drawn = false;
        for (const kv::ModelSpec& m : kv::builtin_catalog().models) {
            if (static_cast<int>(model_group(m)) != g) continue;
            if (!heading_drawn) {
                text_muted(model_group_name(static_cast<ModelGroup>(g)));
                heading_drawn = true;
            }
            const bool selected = !s.model_config && m.name == s.model;
            ImGui::Indent(8);
            if (ImGui::Selectable(model_summary(m, m.name).c_str(), selected) && !selected)
                kvapp::edit(panel, [&](kv::Scenario& next) {
                    next.model = m.name;
                    next.model_config.reset();
                });
            ImGui::Unindent(8);
            if (selected) ImGui::SetItemDefaultFocus();
        }
    }
    ImGui::EndCombo();
}

void gpu_picker(kvapp::Panel& panel) {
    const kv::Scenario& s = panel.scenario;
    const std::string preview = (s.gpu_config ? "yours: " : "") + gpu_summary(panel.result.gpu, false);
    if (!ImGui::BeginCombo("##gpu", preview.c_str())) return;
    for (const kv::GpuSpec& g : kv::builtin_catalog().gpus) {
        const bool selected = !s.gpu_config && g.name == s.gpu;
        if (ImGui::Selectable(gpu_summary(g).c_str(), selected) && !selected)
            kvapp::edit(panel, [&](kv::Scenario& next) {
                next.gpu = g.name;
                next.gpu_config.reset();
            });
        if (selected) ImGui::SetItemDefaultFocus();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", g.label.c_str());
    }
    ImGui::EndCombo();
}

// A few releases whose accounting differs, each with what it changed; a version set from the page
// that is not among them is shown as it is.
struct VersionChoice {
    const char* version;
    const char* note;
};
const VersionChoice versions[] = {
    {"0.6.3", "V0 engine: profiles max(max_model_len, 2,048) tokens; the server turns chunked prefill on above 32K (512)"},
    {"0.8.5", "V1 engine: profiles max_num_batched_tokens"},
    {"0.10.1", "V1, sliding-window layers keep only their window"},
    {"0.13.0", "V1, CUDA graphs still outside the budget"},
    {"0.21.0", "V1, CUDA graphs inside the budget"},
};

void version_picker(kvapp::Panel& panel) {
    const std::string& current = panel.scenario.vllm_version;
    const std::string preview = current + (panel.result.rules.v1_engine ? "  (V1)" : "  (V0)");
    if (!ImGui::BeginCombo("##vllm_version", preview.c_str())) return;
    for (const VersionChoice& v : versions) {
        const bool selected = current == v.version;
        const std::string label = std::string(v.version) + "  " + v.note;
        if (ImGui::Selectable(label.c_str(), selected) && !selected)
            kvapp::edit(panel, [&](kv::Scenario& next) { next.vllm_version = v.version; });
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

//-----------------------------------------------------------------------------
// [SECTION] The knob grid
//-----------------------------------------------------------------------------

struct KnobRow {
    Knob knob;
    const char* field;  // the scenario field it sets
    const char* label;
    const char* help;
};

const KnobRow rows[] = {
    {knob_model, "model", "model", help_model},
    {knob_gpu, "gpu", "GPU", help_gpu},
    {knob_prompt_tokens, "prompt_tokens", "prompt tokens", help_prompt},
    {knob_output_tokens, "output_tokens", "output tokens", help_output},
    {knob_concurrent_requests, "concurrent_requests", "concurrent requests", help_concurrent},
    {knob_gpu_memory_utilization, "gpu_memory_utilization", "gpu_memory_utilization", help_utilization},
    {knob_kv_cache_dtype, "kv_cache_dtype", "kv cache precision", help_kv_dtype},
    {knob_weight_dtype, "weight_dtype", "weight precision", help_weight_dtype},
    {knob_max_num_seqs, "max_num_seqs", "max_num_seqs", help_max_num_seqs},
    {knob_max_num_batched_tokens, "max_num_batched_tokens", "max_num_batched_tokens", help_batched_tokens},
    {knob_max_model_len, "max_model_len", "max_model_len", help_max_model_len},
    {knob_tensor_parallel_size, "tensor_parallel_size", "tensor parallel size", help_tp},
    {knob_vllm_version, "vllm_version", "vLLM version", help_vllm_version},
    {knob_enforce_eager, "enforce_eager", "enforce_eager", help_enforce_eager},
    {knob_force_mha, "force_mha", "force multi-head attention", help_force_mha},
    {knob_workload, "workload", "workload", help_workload},
    {knob_rate_per_s, "rate_per_s", "arrival rate", help_rate},
    {knob_requests, "requests", "requests", help_requests},
    {knob_shared_prefix_tokens, "shared_prefix_tokens", "shared prefix", help_shared_prefix},
    {knob_prefix_caching, "prefix_caching", "prefix caching", help_prefix_caching},
    {knob_seed, "seed", "seed", help_seed},
};

// The stops of the log-stepped knobs, computed once.
using L = kv::ScenarioLimits;
const std::vector<int64_t> prompt_stops = log_stops(128, 131072);
const std::vector<int64_t> output_stops = log_stops(1, 32768);
const std::vector<int64_t> concurrent_stops = log_stops(1, L::max_concurrent);
const std::vector<int64_t> num_seqs_stops = log_stops(1, L::max_num_seqs);
const std::vector<int64_t> batched_tokens_stops = log_stops(256, 131072);
const std::vector<int64_t> model_len_stops = log_stops(256, L::max_model_len);

// The workload knobs' stops: round numbers, so the lesson's figures (2,000 requests, a 2,000-token
// system prompt, 8 requests/s) are exact stops. The requests slider stops at 5,000 (a run of
// 20,000, the core's limit, takes long enough to stall a drag); the page can set more.
const std::vector<double> rate_stops = {0, 0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1000};
const std::vector<int64_t> request_stops = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
const std::vector<int64_t> prefix_stops = {0, 100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000};
const char* const workload_names[] = {"chat", "summarise", "reasoning", "fixed"};
const int64_t tensor_parallel_sizes[] = {1, 2, 4, 8};

// A log-stepped integer knob writing one scenario field.
void stepped_knob(kvapp::Panel& panel, const char* id, int64_t kv::Scenario::*field, const std::vector<int64_t>& stops) {
    int64_t v = panel.scenario.*field;
    if (stop_slider(id, v, stops)) kvapp::edit(panel, [&](kv::Scenario& next) { next.*field = v; });
}

// The same for a field the engine defaults when unset: the slider shows the value the engine
// resolved (the evaluated scenario has every default filled in), and a button unsets the field.
void optional_stepped_knob(kvapp::Panel& panel, const char* id, std::optional<int64_t> kv::Scenario::*field,
                           const std::vector<int64_t>& stops) {
    const bool defaulted = !(panel.scenario.*field).has_value();
    int64_t v = (panel.scenario.*field).value_or((panel.result.scenario.*field).value_or(stops.front()));
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button = ImGui::CalcTextSize("default").x + 2 * style.FramePadding.x;
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - button - style.ItemInnerSpacing.x));
    if (stop_slider(id, v, stops, defaulted ? "  (default)" : "")) kvapp::edit(panel, [&](kv::Scenario& next) { next.*field = v; });
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::BeginDisabled(defaulted);
    if (ImGui::Button("default")) kvapp::edit(panel, [&](kv::Scenario& next) { (next.*field).reset(); });
    ImGui::EndDisabled();
}

void dtype_knob(kvapp::Panel& panel, const char* id, kv::DType kv::Scenario::*field) {
    kv::DType d = panel.scenario.*field;
    if (dtype_radio(id, d)) kvapp::edit(panel, [&](kv::Scenario& next) { next.*field = d; });
}

void workload_picker(kvapp::Panel& panel) {
    const std::string& current = panel.workload.name;
    if (!ImGui::BeginCombo("##workload", current.c_str())) return;
    for (const char* name : workload_names) {
        const bool selected = current == name;
        if (ImGui::Selectable(name, selected) && !selected) kvapp::edit_workload(panel, [&](kv::Workload& next) { next.name = name; });
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

// "8 requests/s", or "burst (all at once)" for 0: the rate slider's text and its stops' in the twin.
std::string rate_text(double rate) {
    return rate == 0 ? std::string("burst (all at once)") : kv::format_significant(rate, 3) + " requests/s";
}

void rate_knob(kvapp::Panel& panel) {
    const double rate = panel.workload.rate_per_s;
    int index = static_cast<int>(std::upper_bound(rate_stops.begin(), rate_stops.end(), rate + 1e-9) - rate_stops.begin()) - 1;
    index = std::clamp(index, 0, static_cast<int>(rate_stops.size()) - 1);
    const std::string shown = escape_format(rate_text(rate));
    if (ImGui::SliderInt("##rate_per_s", &index, 0, static_cast<int>(rate_stops.size()) - 1, shown.c_str(),
                         ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
        rate_stops[static_cast<size_t>(index)] != rate)
        kvapp::edit_workload(panel, [&](kv::Workload& next) { next.rate_per_s = rate_stops[static_cast<size_t>(index)]; });
}

void workload_count_knob(kvapp::Panel& panel, const char* id, int64_t kv::Workload::*field, const std::vector<int64_t>& stops,
                         const char* suffix) {
    int64_t v = panel.workload.*field;
    if (stop_slider(id, v, stops, suffix)) kvapp::edit_workload(panel, [&](kv::Workload& next) { next.*field = v; });
}

// Draws one knob's control; a change goes straight to kvapp::edit() (kvapp::edit_workload()).
void control(kvapp::Panel& panel, Knob knob) {
    const kv::Scenario& s = panel.scenario;
    switch (knob) {
        case knob_model:
            model_picker(panel);
            break;
        case knob_gpu:
            gpu_picker(panel);
            break;
        case knob_prompt_tokens:
            stepped_knob(panel, "##prompt_tokens", &kv::Scenario::prompt_tokens, prompt_stops);
            break;
        case knob_output_tokens:
            stepped_knob(panel, "##output_tokens", &kv::Scenario::output_tokens, output_stops);
            break;
        case knob_concurrent_requests:
            stepped_knob(panel, "##concurrent_requests", &kv::Scenario::concurrent_requests, concurrent_stops);
            break;
        case knob_gpu_memory_utilization: {
            // Hundredths, so 0.72 and 0.90 are exact and an arrow key moves 0.01.
            int hundredths = static_cast<int>(std::lround(panel.result.scenario.gpu_memory_utilization.value_or(0.9) * 100.0));
            const std::string shown = escape_format(kv::format_fixed(hundredths / 100.0, 2));
            if (ImGui::SliderInt("##gpu_memory_utilization", &hundredths, static_cast<int>(L::min_utilization * 100),
                                 static_cast<int>(L::max_utilization * 100), shown.c_str(),
                                 ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
                std::lround(panel.result.scenario.gpu_memory_utilization.value_or(0.9) * 100.0) != hundredths)
                kvapp::edit(panel, [&](kv::Scenario& next) { next.gpu_memory_utilization = hundredths / 100.0; });
            break;
        }
        case knob_kv_cache_dtype:
            dtype_knob(panel, "kv_cache_dtype", &kv::Scenario::kv_cache_dtype);
            break;
        case knob_weight_dtype:
            dtype_knob(panel, "weight_dtype", &kv::Scenario::weight_dtype);
            break;
        case knob_force_mha: {
            bool on = s.force_mha;
            if (ImGui::Checkbox("##force_mha", &on)) kvapp::edit(panel, [&](kv::Scenario& next) { next.force_mha = on; });
            ImGui::SameLine();
            text_muted("kv_heads " + kv::format_count(panel.result.model.num_key_value_heads) + " of " +
                       kv::format_count(panel.result.model.num_attention_heads));
            break;
        }
        case knob_max_num_seqs:
            optional_stepped_knob(panel, "##max_num_seqs", &kv::Scenario::max_num_seqs, num_seqs_stops);
            break;
        case knob_max_num_batched_tokens:
            optional_stepped_knob(panel, "##max_num_batched_tokens", &kv::Scenario::max_num_batched_tokens, batched_tokens_stops);
            break;
        case knob_max_model_len:
            optional_stepped_knob(panel, "##max_model_len", &kv::Scenario::max_model_len, model_len_stops);
            break;
        case knob_vllm_version:
            version_picker(panel);
            break;
        case knob_enforce_eager: {
            bool on = s.enforce_eager;
            if (ImGui::Checkbox("##enforce_eager", &on)) kvapp::edit(panel, [&](kv::Scenario& next) { next.enforce_eager = on; });
            ImGui::SameLine();
            const kv::MemoryPlan& m = panel.result.memory;
            if (s.enforce_eager) text_muted("no CUDA graphs");
            else text_muted("graphs " + kv::format_gib(m.cuda_graph_bytes, 2) + (m.cuda_graph_in_budget ? "" : " (outside)"));
            break;
        }
        case knob_tensor_parallel_size: {
            ImGui::PushID("tensor_parallel_size");
            for (int64_t tp : tensor_parallel_sizes) {
                if (tp != 1) ImGui::SameLine(0, 10);
                const std::string label = kv::format_count(tp);
                if (ImGui::RadioButton(label.c_str(), s.tensor_parallel_size == tp) && s.tensor_parallel_size != tp)
                    kvapp::edit(panel, [&](kv::Scenario& next) { next.tensor_parallel_size = tp; });
            }
            ImGui::PopID();
            break;
        }
        case knob_workload:
            workload_picker(panel);
            break;
        case knob_rate_per_s:
            rate_knob(panel);
            break;
        case knob_requests:
            workload_count_knob(panel, "##requests", &kv::Workload::requests, request_stops, "");
            break;
        case knob_shared_prefix_tokens:
            workload_count_knob(panel, "##shared_prefix_tokens", &kv::Workload::shared_prefix_tokens, prefix_stops, " tokens");
            break;
        case knob_prefix_caching: {
            bool on = panel.workload.prefix_caching;
            if (ImGui::Checkbox("##prefix_caching", &on))
                kvapp::edit_workload(panel, [&](kv::Workload& next) { next.prefix_caching = on; });
            ImGui::SameLine();
            if (!panel.simulation_error && panel.workload.prefix_caching)
                text_muted("hit rate " + kv::format_percent(panel.simulation.summary.prefix_hit_rate, 0));
            break;
        }
        case knob_seed: {
            // 1 to 99 on the slider; a seed set from the page is shown as it is until the slider moves.
            const uint64_t seed = panel.workload.seed;
            int v = static_cast<int>(std::min<uint64_t>(seed, 99));
            const std::string shown = escape_format(kv::format_count(static_cast<int64_t>(std::min<uint64_t>(seed, INT64_MAX))));
            if (ImGui::SliderInt("##seed", &v, 1, 99, shown.c_str(), ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
                static_cast<uint64_t>(v) != seed)
                kvapp::edit_workload(panel, [&](kv::Workload& next) { next.seed = static_cast<uint64_t>(v); });
            break;
        }
        default:
            break;
    }
}

}  // namespace

void knobs(kvapp::Panel& panel, uint32_t which) {
    panel.knobs_drawn = which;
    std::vector<const KnobRow*> shown;
    for (const KnobRow& row : rows)
        if (which & row.knob) shown.push_back(&row);
    const float marker_width = ImGui::CalcTextSize("(?)").x + 5;
    const auto label_width = [&](int pairs, int column) {
        float w = 0;
        for (size_t i = static_cast<size_t>(column); i < shown.size(); i += static_cast<size_t>(pairs))
            w = std::max(w, ImGui::CalcTextSize(shown[i]->label).x + marker_width);
        return w;
    };
    // Two knobs per row when each control keeps at least 210 pixels (room for four tensor-parallel
    // radios and a GPU name); label beside control when the control keeps 200; otherwise (phones)
    // the label goes above a full-width control.
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool two_per_row = avail - label_width(2, 0) - label_width(2, 1) >= 2 * 210.0f;
    const bool stacked = !two_per_row && avail - label_width(1, 0) < 200.0f;
    const auto draw_control = [&](const KnobRow* row) {
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::PushID(row->field);
        ImGui::BeginGroup();
        control(panel, row->knob);
        ImGui::EndGroup();
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        panel.knob_rects[row->field] = {a.x, a.y, b.x - a.x, b.y - a.y};
        help_tooltip_on_focus(row->help);
        ImGui::PopID();
    };
    if (stacked) {
        for (const KnobRow* row : shown) {
            ImGui::TextUnformatted(row->label);
            help_marker(row->help);
            draw_control(row);
        }
        return;
    }
    const int pairs = two_per_row ? 2 : 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoPadOuterX;
    if (!ImGui::BeginTable("knobs", pairs * 2, flags)) return;
    for (int p = 0; p < pairs; ++p) {
        ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, label_width(pairs, p));
        ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthStretch);
    }
    for (const KnobRow* row : shown) {
        ImGui::TableNextColumn();
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(row->label);
        help_marker(row->help);
        ImGui::TableNextColumn();
        draw_control(row);
    }
    ImGui::EndTable();
}

//-----------------------------------------------------------------------------
// [SECTION] Banners: rejected input, failing scenarios
//-----------------------------------------------------------------------------

bool rejected_input_banner(const kvapp::Panel& panel) {
    if (!panel.rejected) return false;
    ImGui::PushFont(font(Font::strong));
    text_in(Colour::failure, "Not applied: " + panel.rejected->field);
    ImGui::PopFont();
    text_wrapped(panel.rejected->message + ". The other settings are unchanged.", Colour::failure);
    return true;
}

namespace {

// Log lines of one kind, without the level prefix ("ERROR ", "LESSON ") the log view prints.
void log_lines(const kv::Result& result, kv::LogKind kind, Colour colour) {
    for (const kv::LogLine& line : kv::engine_log(result))
        if (line.kind == kind) text_wrapped(line.text.substr(line.text.find(' ') + 1), colour);
}

// What would start the engine with every other knob as it is: the smallest utilisation, printed
// rounded up to the hundredth the knob moves by (rounded to nearest, 0.9304 would read 0.93 and
// still fail), and the longest max_model_len the pool would take.
void what_would_start_it(const kv::Result& r) {
    const kv::StartupError& e = *r.memory.startup_error;
    if (e.stage == kv::RefusalStage::configuration) return;  // no memory figure would start it
    std::vector<Figure> figures;
    const double hundredths = std::ceil(r.admission.min_utilization_that_fits * 100.0 - 1e-9) / 100.0;
    if (hundredths > kv::ScenarioLimits::max_utilization)
        figures.push_back({"gpu_memory_utilization", "none", "even 1.00 leaves too little on this GPU", Colour::failure,
                           "The weights, the profile run and one max_model_len request need more than the memory CUDA "
                           "reports: more GPUs (tensor parallel), FP8 weights or a shorter max_model_len."});
    else if (hundredths > *r.scenario.gpu_memory_utilization)  // a figure at or below the setting would not help
        figures.push_back({"gpu_memory_utilization", "≥ " + kv::format_fixed(hundredths, 2),
                           "instead of " + kv::format_fixed(*r.scenario.gpu_memory_utilization, 2) + ", all else as is", Colour::text,
                           "The smallest setting at which the weights, the profile run and one "
                           "max_model_len request all fit in the budget."});
    const int64_t longest = r.memory.estimated_max_model_len;
    if (e.kind == "max_model_len_does_not_fit" && longest > 0 && longest < *r.scenario.max_model_len)
        figures.push_back({"max_model_len", "≤ " + kv::format_count(longest),
                           "instead of " + kv::format_count(*r.scenario.max_model_len) + ", at this utilisation", Colour::text,
                           "The engine's own estimate: the longest request one sequence could hold in the "
                           "pool that is left."});
    if (r.tensor_parallel_that_starts > 0)
        figures.push_back({"tensor_parallel_size", kv::format_count(r.tensor_parallel_that_starts),
                           "GPUs instead of " + kv::format_count(r.scenario.tensor_parallel_size) + ", all else as is", Colour::text,
                           "The fewest GPUs (of 2, 4, 8) whose shards leave room for one max_model_len request."});
    if (r.fp8_weights_start)
        figures.push_back({"weight_dtype", "fp8", "--quantization fp8, all else as is", Colour::text,
                           "FP8 linear layers halve most of the weights; the embedding and lm_head stay 16-bit."});
    if (figures.empty()) return;
    ImGui::Dummy(ImVec2(0, 2));
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted("What would start it");
    ImGui::PopFont();
    figure_row("would_start", figures);
}

}  // namespace

bool failure_banner(const kv::Result& result) {
    if (result.status == kv::Status::ok) return false;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::Indent(10);
    ImGui::PushFont(font(Font::figure));
    text_in(Colour::failure,
            result.status == kv::Status::engine_refused ? "The engine refuses to start" : "The server rejects this request");
    ImGui::PopFont();
    if (result.status == kv::Status::engine_refused && result.memory.startup_error) {
        // The refusal in the engine's words, then the lesson's reading of it.
        text_wrapped(result.memory.startup_error->message, Colour::failure);
        log_lines(result, kv::LogKind::lesson, Colour::accent);
        what_would_start_it(result);
        text_muted("No batch, step time or throughput exists until it starts; change a knob above.");
    } else {
        log_lines(result, kv::LogKind::failure, Colour::failure);
        text_muted("The engine runs, but no request of this length is admitted; change a knob above.");
    }
    ImGui::Unindent(10);
    // A bar in the margin, as the engine log marks its failures.
    const float bottom = ImGui::GetItemRectMax().y;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(start.x, start.y), ImVec2(start.x + 4, bottom), colour(Colour::failure));
    return true;
}

//-----------------------------------------------------------------------------
// [SECTION] The page's twin: the knobs as data, the key results as text
//-----------------------------------------------------------------------------
// site/js/kvtwin.js draws each panel's knobs again as native form controls (for keyboards and
// screen readers) from knob_specs(), read from the same rows and stops as the canvas, and shows
// key_results() in a live strip beside them.

namespace {

nlohmann::json stop_list(const std::vector<int64_t>& stops, const char* suffix = "") {
    nlohmann::json out = nlohmann::json::array();
    for (int64_t v : stops) out.push_back({{"value", v}, {"text", kv::format_count(v) + suffix}});
    return out;
}

nlohmann::json choices(std::initializer_list<std::pair<nlohmann::json, std::string>> list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [value, label] : list) out.push_back({{"value", value}, {"label", label}});
    return out;
}

// The control a native twin needs for one knob: "choice" (options), "stops" (values with their
// text), "range" (min, max, step, format: a format.hpp name) or "checkbox".
nlohmann::json control_spec(Knob knob) {
    using nlohmann::json;
    const auto stepped = [](const std::vector<int64_t>& stops, bool optional = false, const char* suffix = "") {
        return json{{"control", "stops"}, {"stops", stop_list(stops, suffix)}, {"optional", optional}};
    };
    switch (knob) {
        case knob_model: {
            json options = json::array();
            for (const kv::ModelSpec& m : kv::builtin_catalog().models)
                options.push_back({{"value", m.name}, {"label", model_summary(m, m.name)}});
            return {{"control", "choice"}, {"options", options}};
        }
        case knob_gpu: {
            json options = json::array();
            for (const kv::GpuSpec& g : kv::builtin_catalog().gpus) options.push_back({{"value", g.name}, {"label", gpu_summary(g)}});
            return {{"control", "choice"}, {"options", options}};
        }
        case knob_prompt_tokens:
            return stepped(prompt_stops);
        case knob_output_tokens:
            return stepped(output_stops);
        case knob_concurrent_requests:
            return stepped(concurrent_stops);
        case knob_max_num_seqs:
            return stepped(num_seqs_stops, true);
        case knob_max_num_batched_tokens:
            return stepped(batched_tokens_stops, true);
        case knob_max_model_len:
            return stepped(model_len_stops, true);
        case knob_requests:
            return stepped(request_stops);
        case knob_shared_prefix_tokens:
            return stepped(prefix_stops, false, " tokens");
        case knob_gpu_memory_utilization:
            return {{"control", "range"}, {"min", L::min_utilization}, {"max", L::max_utilization}, {"step", 0.01}, {"format", "fixed2"}};
        case knob_seed:
            return {{"control", "range"}, {"min", 1}, {"max", 99}, {"step", 1}, {"format", "count"}};
        case knob_kv_cache_dtype:
        case knob_weight_dtype:
            return {{"control", "choice"},
                    {"options", choices({{kv::dtype_name(kv::DType::bf16), "BF16"}, {kv::dtype_name(kv::DType::fp8), "FP8"}})}};
        case knob_tensor_parallel_size: {
            json options = json::array();
            for (int64_t tp : tensor_parallel_sizes) options.push_back({{"value", tp}, {"label", kv::format_count(tp)}});
            return {{"control", "choice"}, {"options", options}};
        }
        case knob_vllm_version: {
            json options = json::array();
            for (const VersionChoice& v : versions)
                options.push_back({{"value", v.version}, {"label", std::string(v.version) + ": " + v.note}});
            return {{"control", "choice"}, {"options", options}};
        }
        case knob_workload: {
            json options = json::array();
            for (const char* name : workload_names) options.push_back({{"value", name}, {"label", name}});
            return {{"control", "choice"}, {"options", options}};
        }
        case knob_rate_per_s: {
            json stops = json::array();
            for (double r : rate_stops) stops.push_back({{"value", r}, {"text", rate_text(r)}});
            return {{"control", "stops"}, {"stops", stops}, {"optional", false}};
        }
        case knob_force_mha:
        case knob_enforce_eager:
        case knob_prefix_caching:
        default:
            return {{"control", "checkbox"}};
    }
}

struct KeyResult {
    const char* label;
    const char* key;     // the field of panelResult's JSON it formats ("" when it is words)
    const char* format;  // its format.hpp name
    double value;
    std::string text;
};

std::string bound_words(kv::Bound b) { return b == kv::Bound::none ? "no work" : std::string(kv::bound_name(b)) + "-bound"; }

KeyResult key(const char* label, const char* field, const char* format, double value) {
    return {label, field, format, value, kv::format_named(value, format).value_or("")};
}

}  // namespace

nlohmann::json knob_specs(const kvapp::Panel& panel) {
    nlohmann::json out = nlohmann::json::array();
    for (const KnobRow& row : rows) {
        const bool workload = (row.knob & knob_all_workload) != 0;
        if (workload && panel.kind != kvapp::PanelKind::serving) continue;
        // The controls depend on the knob alone (the catalog is fixed): built once per knob.
        static std::map<Knob, nlohmann::json> controls;
        auto [it, fresh] = controls.try_emplace(row.knob);
        if (fresh) it->second = control_spec(row.knob);
        nlohmann::json spec = it->second;
        spec["field"] = row.field;
        spec["label"] = row.label;
        spec["help"] = row.help;
        spec["drawn"] = (panel.knobs_drawn & row.knob) != 0;
        out.push_back(spec);
    }
    return out;
}

nlohmann::json key_results(const kvapp::Panel& panel) {
    const kv::Result& r = panel.result;
    std::vector<KeyResult> keys;
    const char* failure = r.status == kv::Status::engine_refused ? "the engine refuses to start"
                          : r.status != kv::Status::ok           ? "the server rejects this request"
                                                                 : nullptr;
    if (failure) {
        keys.push_back({"result", "", "", 0, failure});
    } else {
        switch (panel.kind) {
            case kvapp::PanelKind::admission:
                keys = {key("running", "running", "count", static_cast<double>(r.admission.running)),
                        key("the pool holds", "max_resident_sequences", "count", static_cast<double>(r.admission.max_resident_sequences)),
                        key("tokens/s", "decode_tokens_per_s", "tokens_per_s", r.steps.decode_tokens_per_s),
                        key("per-stream latency", "itl_s", "duration", r.steps.itl_s)};
                break;
            case kvapp::PanelKind::phases:
                keys = {key("prefill (TTFT)", "ttft_s", "duration", r.steps.prefill.total_s),
                        {"prefill is", "prefill_bound", "", 0, bound_words(r.steps.prefill.bound)},
                        key("decode step", "decode_step_s", "duration", r.steps.decode.total_s),
                        {"decode is", "decode_bound", "", 0, bound_words(r.steps.decode.bound)}};
                break;
            case kvapp::PanelKind::batching:
                keys = {key("batch", "running", "count", static_cast<double>(r.admission.running)),
                        key("tokens/s", "decode_tokens_per_s", "tokens_per_s", r.steps.decode_tokens_per_s),
                        key("per-stream latency", "itl_s", "duration", r.steps.itl_s)};
                break;
            case kvapp::PanelKind::serving: {
                if (panel.simulation_error) {
                    keys.push_back({"result", "", "", 0, "the run did not start: " + panel.simulation_error->message});
                    break;
                }
                const kv::SimSummary& s = panel.simulation.summary;
                keys = {key("median TTFT", "simulation.ttft_s.p50", "duration", s.ttft_s.p50),
                        key("median ITL", "simulation.itl_s.p50", "duration", s.itl_s.p50),
                        key("throughput", "simulation.generation_tokens_per_s", "tokens_per_s", s.generation_tokens_per_s),
                        key("preemptions", "simulation.preemptions", "count", static_cast<double>(s.preemptions))};
                break;
            }
        }
    }
    nlohmann::json out = nlohmann::json::array();
    for (const KeyResult& k : keys) out.push_back({{"label", k.label}, {"key", k.key}, {"format", k.format}, {"text", k.text}});
    return out;
}

}  // namespace kvui
