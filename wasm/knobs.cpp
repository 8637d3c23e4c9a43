// The reader's knobs, shared by the three panels. Every knob is a label, a (?) tooltip saying what
// it is in vLLM's terms and what it changes, and a control that writes through kvapp::edit().
// Token counts move along log-spaced stops (powers of two and their quarter steps) so the brief's
// values (128, 4,096, 32,768) are exact stops and the arrow keys step one stop at a time.
//
// Index of this file:
// [SECTION] Tooltips (vLLM's terms)
// [SECTION] Controls
// [SECTION] The knob grid
// [SECTION] Banners: rejected input, failing scenarios
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "format.hpp"
#include "panels.hpp"
#include "style.hpp"
#include "widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Tooltips (vLLM's terms)
//-----------------------------------------------------------------------------

const char* const help_model =
    "The checkpoint vLLM serves (--model). Its config.json fixes num_hidden_layers, num_key_value_heads and "
    "head_dim, hence the KV bytes per token, and the parameter count, hence the weights.";
const char* const help_gpu =
    "The accelerator. HBM capacity sets the budget, HBM bandwidth sets the decode step, tensor-core throughput "
    "sets the prefill.";
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
    "vLLM's --gpu-memory-utilization: the fraction of HBM the engine may use. Weights, the activation reserve "
    "and the KV pool all come out of it; the rest is left to the CUDA context, the allocator and the driver.";
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
    "tries to run; the KV pool caps what it can.";
const char* const help_batched_tokens =
    "vLLM's --max-num-batched-tokens: the token budget of one forward pass. It sizes the activation reserve and "
    "the prefill chunk that rides along with a decode step (chunked prefill).";
const char* const help_tp =
    "vLLM's --tensor-parallel-size: GPUs that split every layer. Each rank holds 1/N of the weights and of "
    "every sequence's cache, and the ranks all-reduce twice per layer over NVLink.";

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

// A slider over `stops` showing `value` (which may lie between stops when set from the page).
bool stop_slider(const char* id, int64_t& value, const std::vector<int64_t>& stops) {
    int index = static_cast<int>(std::upper_bound(stops.begin(), stops.end(), value) - stops.begin()) - 1;
    index = std::clamp(index, 0, static_cast<int>(stops.size()) - 1);
    const std::string shown = escape_format(kv::format_count(value));
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
    if (ImGui::RadioButton("BF16", dtype == kv::DType::bf16)) { dtype = kv::DType::bf16; changed = true; }
    ImGui::SameLine(0, 16);
    if (ImGui::RadioButton("FP8", dtype == kv::DType::fp8)) { dtype = kv::DType::fp8; changed = true; }
    ImGui::PopID();
    return changed;
}

std::string gpu_summary(const kv::GpuSpec& gpu) {
    return gpu.name + "  " + kv::format_gib(gpu.memory_bytes, 0) + ", " + kv::format_bandwidth(gpu.hbm_bytes_per_s);
}

std::string model_summary(const kv::ModelSpec& model) {
    return model.name + "  " + kv::format_params(static_cast<double>(kv::parameter_count(model))) + ", " +
           kv::format_count(model.num_key_value_heads) + " KV heads";
}

//-----------------------------------------------------------------------------
// [SECTION] The knob grid
//-----------------------------------------------------------------------------

struct KnobRow {
    Knob knob;
    const char* field;   // the scenario field it sets
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
    {knob_tensor_parallel_size, "tensor_parallel_size", "tensor parallel size", help_tp},
    {knob_force_mha, "force_mha", "force multi-head attention", help_force_mha},
};

// The stops of the log-stepped knobs, computed once.
using L = kv::ScenarioLimits;
const std::vector<int64_t> prompt_stops = log_stops(128, 131072);
const std::vector<int64_t> output_stops = log_stops(1, 32768);
const std::vector<int64_t> concurrent_stops = log_stops(1, L::max_concurrent);
const std::vector<int64_t> num_seqs_stops = log_stops(1, L::max_num_seqs);
const std::vector<int64_t> batched_tokens_stops = log_stops(256, 131072);

// A log-stepped integer knob writing one scenario field.
void stepped_knob(kvapp::Panel& panel, const char* id, int64_t kv::Scenario::*field,
                  const std::vector<int64_t>& stops) {
    int64_t v = panel.scenario.*field;
    if (stop_slider(id, v, stops)) kvapp::edit(panel, [&](kv::Scenario& next) { next.*field = v; });
}

void dtype_knob(kvapp::Panel& panel, const char* id, kv::DType kv::Scenario::*field) {
    kv::DType d = panel.scenario.*field;
    if (dtype_radio(id, d)) kvapp::edit(panel, [&](kv::Scenario& next) { next.*field = d; });
}

// Draws one knob's control; a change goes straight to kvapp::edit().
void control(kvapp::Panel& panel, Knob knob) {
    const kv::Scenario& s = panel.scenario;
    switch (knob) {
    case knob_model: {
        const std::string preview = s.model_config ? std::string("config.json (from the page)") : s.model;
        if (ImGui::BeginCombo("##model", preview.c_str())) {
            for (const kv::ModelSpec& m : kv::builtin_catalog().models) {
                const bool selected = !s.model_config && m.name == s.model;
                if (ImGui::Selectable(model_summary(m).c_str(), selected) && !selected)
                    kvapp::edit(panel, [&](kv::Scenario& next) { next.model = m.name; next.model_config.reset(); });
                if (selected) ImGui::SetItemDefaultFocus();
            }
            ImGui::EndCombo();
        }
        break;
    }
    case knob_gpu: {
        if (ImGui::BeginCombo("##gpu", gpu_summary(panel.result.gpu).c_str())) {
            for (const kv::GpuSpec& g : kv::builtin_catalog().gpus) {
                const bool selected = g.name == s.gpu;
                if (ImGui::Selectable(gpu_summary(g).c_str(), selected) && !selected)
                    kvapp::edit(panel, [&](kv::Scenario& next) { next.gpu = g.name; });
                if (selected) ImGui::SetItemDefaultFocus();
            }
            ImGui::EndCombo();
        }
        break;
    }
    case knob_prompt_tokens: stepped_knob(panel, "##prompt_tokens", &kv::Scenario::prompt_tokens, prompt_stops); break;
    case knob_output_tokens: stepped_knob(panel, "##output_tokens", &kv::Scenario::output_tokens, output_stops); break;
    case knob_concurrent_requests:
        stepped_knob(panel, "##concurrent_requests", &kv::Scenario::concurrent_requests, concurrent_stops);
        break;
    case knob_gpu_memory_utilization: {
        // Hundredths, so 0.72 and 0.90 are exact and an arrow key moves 0.01.
        int hundredths = static_cast<int>(std::lround(s.gpu_memory_utilization * 100.0));
        const std::string shown = escape_format(kv::format_fixed(s.gpu_memory_utilization, 2));
        if (ImGui::SliderInt("##gpu_memory_utilization", &hundredths, static_cast<int>(L::min_utilization * 100),
                             static_cast<int>(L::max_utilization * 100), shown.c_str(),
                             ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
            std::lround(s.gpu_memory_utilization * 100.0) != hundredths)
            kvapp::edit(panel, [&](kv::Scenario& next) { next.gpu_memory_utilization = hundredths / 100.0; });
        break;
    }
    case knob_kv_cache_dtype: dtype_knob(panel, "kv_cache_dtype", &kv::Scenario::kv_cache_dtype); break;
    case knob_weight_dtype: dtype_knob(panel, "weight_dtype", &kv::Scenario::weight_dtype); break;
    case knob_force_mha: {
        bool on = s.force_mha;
        if (ImGui::Checkbox("##force_mha", &on)) kvapp::edit(panel, [&](kv::Scenario& next) { next.force_mha = on; });
        ImGui::SameLine();
        text_muted("kv_heads " + kv::format_count(panel.result.model.num_key_value_heads) + " of " +
                   kv::format_count(panel.result.model.num_attention_heads));
        break;
    }
    case knob_max_num_seqs: stepped_knob(panel, "##max_num_seqs", &kv::Scenario::max_num_seqs, num_seqs_stops); break;
    case knob_max_num_batched_tokens:
        stepped_knob(panel, "##max_num_batched_tokens", &kv::Scenario::max_num_batched_tokens, batched_tokens_stops);
        break;
    case knob_tensor_parallel_size: {
        ImGui::PushID("tensor_parallel_size");
        for (int64_t tp : {1, 2, 4, 8}) {
            if (tp != 1) ImGui::SameLine(0, 10);
            const std::string label = kv::format_count(tp);
            if (ImGui::RadioButton(label.c_str(), s.tensor_parallel_size == tp) && s.tensor_parallel_size != tp)
                kvapp::edit(panel, [&](kv::Scenario& next) { next.tensor_parallel_size = tp; });
        }
        ImGui::PopID();
        break;
    }
    default: break;
    }
}

}  // namespace

void knobs(kvapp::Panel& panel, uint32_t which) {
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

bool failure_banner(const kv::Result& result) {
    if (result.status == kv::Status::ok) return false;
    ImGui::PushFont(font(Font::figure));
    text_in(Colour::failure, result.status == kv::Status::weights_do_not_fit ? "The weights do not fit"
                                                                              : "One request does not fit");
    ImGui::PopFont();
    for (const kv::LogLine& line : result.log)
        if (line.kind == kv::LogKind::failure) text_wrapped(line.text.substr(line.text.find(' ') + 1));
    text_muted("No batch, step time or throughput exists for this scenario; change a knob above.");
    return true;
}

}  // namespace kvui
