// The reader's knobs, shared by the four panels and drawn from the core's field tables: each knob
// is its row's label, a (?) tooltip with the row's help in vLLM's terms, and the control the row's
// type calls for, writing through kvapp::edit() (kvapp::edit_workload() for the serving panel's
// workload). Integer knobs move along the row's stops (log-spaced powers of two and their quarter
// steps, or round numbers), so the lesson's values (128, 4,096, 32,768) are exact stops and the
// arrow keys step one stop at a time; a row with four stops or fewer is a set of radio buttons.
// Knobs the engine defaults (max_num_seqs, max_num_batched_tokens, max_model_len) show the value
// the engine resolved, marked "default", until the reader moves them; their "default" button
// unsets them again. The model and GPU pickers list whatever kv::builtin_catalog() holds.
//
// Index of this file:
// [SECTION] Controls by row type
// [SECTION] Notes beside a control (what the knob's value means right now)
// [SECTION] The knob grid
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "base/format.hpp"
#include "knobs/knob_fields.hpp"
#include "panels/panels.hpp"
#include "ui/grid.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Controls by row type
//-----------------------------------------------------------------------------

// A slider over `stops` showing `shown` for the current `value` (which may lie between stops when
// set from the page); true when the reader moved it to another stop, written to `value`.
bool stop_slider(const char* id, double& value, std::span<const double> stops, const std::string& shown) {
    int index = static_cast<int>(std::upper_bound(stops.begin(), stops.end(), value + 1e-9) - stops.begin()) - 1;
    index = std::clamp(index, 0, static_cast<int>(stops.size()) - 1);
    const std::string text = escape_format(shown);
    if (!ImGui::SliderInt(id, &index, 0, static_cast<int>(stops.size()) - 1, text.c_str(),
                          ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput))
        return false;
    if (stops[static_cast<size_t>(index)] == value) return false;
    value = stops[static_cast<size_t>(index)];
    return true;
}

// A stepped knob; a nullable one shows the engine's resolved default and a "default" button.
void stepped_knob(kvapp::Panel& panel, const KnobField& knob, const std::string& id) {
    const kv::FieldSpec& spec = knob.spec();
    const bool defaulted = spec.nullable && !knob_number(panel, knob, false);
    double v = knob_number(panel, knob, true).value_or(spec.stops.front());
    const std::string shown = kv::stop_text(spec, v) + (defaulted ? "  (default)" : "");
    if (!spec.nullable) {
        if (stop_slider(id.c_str(), v, spec.stops, shown)) set_knob_number(panel, knob, v);
        return;
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button = ImGui::CalcTextSize("default").x + 2 * style.FramePadding.x;
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - button - style.ItemInnerSpacing.x));
    if (stop_slider(id.c_str(), v, spec.stops, shown)) set_knob_number(panel, knob, v);
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::BeginDisabled(defaulted);
    if (ImGui::Button("default")) set_knob_number(panel, knob, std::nullopt);
    ImGui::EndDisabled();
}

// A few stops as radio buttons (the tensor-parallel sizes).
void radio_stops(kvapp::Panel& panel, const KnobField& knob) {
    const double current = knob_number(panel, knob, true).value_or(0);
    for (size_t i = 0; i < knob.spec().stops.size(); ++i) {
        const double v = knob.spec().stops[i];
        if (i > 0) ImGui::SameLine(0, 10);
        if (ImGui::RadioButton(kv::stop_text(knob.spec(), v).c_str(), current == v) && current != v) set_knob_number(panel, knob, v);
    }
}

// A plain range: numbers in steps of their last decimal (gpu_memory_utilization in hundredths, so
// 0.72 and 0.90 are exact and an arrow key moves 0.01), integers one by one over the knob's range
// (a value set from the page outside it is shown as it is until the slider moves).
void range_knob(kvapp::Panel& panel, const KnobField& knob, const std::string& id) {
    const kv::FieldSpec& spec = knob.spec();
    const double scale = std::pow(10.0, spec.decimals);
    const double lo = spec.knob_hi > spec.knob_lo ? spec.knob_lo : spec.lo, hi = spec.knob_hi > spec.knob_lo ? spec.knob_hi : spec.hi;
    const double value = knob_number(panel, knob, true).value_or(lo);
    int steps = static_cast<int>(std::lround(std::clamp(value, lo, hi) * scale));
    const std::string shown = escape_format(spec.type == kv::FieldType::number ? kv::format_fixed(steps / scale, spec.decimals)
                                                                               : kv::format_count(static_cast<int64_t>(value)));
    if (ImGui::SliderInt(id.c_str(), &steps, static_cast<int>(std::lround(lo * scale)), static_cast<int>(std::lround(hi * scale)),
                         shown.c_str(), ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput) &&
        std::lround(value * scale) != steps)
        set_knob_number(panel, knob, steps / scale);
}

// Two choices as radio buttons (BF16 / FP8), more as a combo (the workloads).
void choice_knob(kvapp::Panel& panel, const KnobField& knob, const std::string& id) {
    const kv::FieldSpec& spec = knob.spec();
    const std::string current = knob_text(panel, knob);
    if (spec.choices.size() <= 2) {
        for (size_t i = 0; i < spec.choices.size(); ++i) {
            if (i > 0) ImGui::SameLine(0, 16);
            const kv::Choice& c = spec.choices[i];
            if (ImGui::RadioButton(c.label, current == c.value) && current != c.value) set_knob_text(panel, knob, c.value);
        }
        return;
    }
    if (!ImGui::BeginCombo(id.c_str(), current.c_str())) return;
    for (const kv::Choice& c : spec.choices) {
        const bool selected = current == c.value;
        if (ImGui::Selectable(c.label, selected) && !selected) set_knob_text(panel, knob, c.value);
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

//-----------------------------------------------------------------------------
// [SECTION] Notes beside a control (what the knob's value means right now)
//-----------------------------------------------------------------------------

void knob_note(const kvapp::Panel& panel, std::string_view field) {
    if (field == "force_mha") {
        ImGui::SameLine();
        text_muted("kv_heads " + kv::format_count(panel.result.model.num_key_value_heads) + " of " +
                   kv::format_count(panel.result.model.num_attention_heads));
    } else if (field == "enforce_eager") {
        ImGui::SameLine();
        const kv::MemoryPlan& m = panel.result.memory;
        if (panel.scenario.enforce_eager) text_muted("no CUDA graphs");
        else text_muted("graphs " + kv::format_gib(m.cuda_graph_bytes, 2) + (m.cuda_graph_in_budget ? "" : " (outside)"));
    } else if (field == "prefix_caching") {
        ImGui::SameLine();
        if (!panel.simulation_error && panel.workload.prefix_caching)
            text_muted("hit rate " + kv::format_percent(panel.simulation.summary.prefix_hit_rate, 0));
    }
}

// One knob's control, chosen by its row; a change goes straight to the panel's setters.
void control(kvapp::Panel& panel, const KnobField& knob) {
    const kv::FieldSpec& spec = knob.spec();
    const std::string id = std::string("##") + spec.name;
    const std::string_view name = spec.name;
    if (name == "model") return model_picker(panel);
    if (name == "gpu") return gpu_picker(panel);
    switch (spec.type) {
        case kv::FieldType::text:
            return version_picker(panel, knob);
        case kv::FieldType::choice:
            return choice_knob(panel, knob, id);
        case kv::FieldType::boolean: {
            bool on = knob_flag(panel, knob);
            if (ImGui::Checkbox(id.c_str(), &on)) set_knob_flag(panel, knob, on);
            return knob_note(panel, name);
        }
        case kv::FieldType::integer:
        case kv::FieldType::number:
            if (spec.stops.empty()) return range_knob(panel, knob, id);
            if (spec.stops.size() <= 4) return radio_stops(panel, knob);
            return stepped_knob(panel, knob, id);
        case kv::FieldType::object:
            break;
    }
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] The knob grid
//-----------------------------------------------------------------------------

void knobs(kvapp::Panel& panel, const std::vector<std::string_view>& fields) {
    std::vector<const KnobField*> shown;
    for (const KnobField& knob : knob_fields())
        if (std::find(fields.begin(), fields.end(), std::string_view(knob.spec().name)) != fields.end()) {
            shown.push_back(&knob);
            panel.knobs_drawn.emplace_back(knob.spec().name);
        }
    const float marker_width = ImGui::CalcTextSize("(?)").x + 5;
    const auto label_width = [&](int pairs, int column) {
        float w = 0;
        for (size_t i = static_cast<size_t>(column); i < shown.size(); i += static_cast<size_t>(pairs))
            w = std::max(w, ImGui::CalcTextSize(shown[i]->spec().label).x + marker_width);
        return w;
    };
    // Two knobs per row when each control keeps at least 210 pixels (room for four tensor-parallel
    // radios and a GPU name); label beside control when the control keeps 200; otherwise (phones)
    // the label goes above a full-width control.
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool two_per_row = avail - label_width(2, 0) - label_width(2, 1) >= 2 * 210.0f;
    const bool stacked = !two_per_row && avail - label_width(1, 0) < 200.0f;
    const auto draw_control = [&](const KnobField* knob) {
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::PushID(knob->spec().name);
        ImGui::BeginGroup();
        control(panel, *knob);
        ImGui::EndGroup();
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        panel.knob_rects[knob->spec().name] = {a.x, a.y, b.x - a.x, b.y - a.y};
        help_tooltip_on_focus(knob->spec().help);
        ImGui::PopID();
    };
    const auto draw_label = [](const KnobField* knob) {
        ImGui::TextUnformatted(knob->spec().label);
        help_marker(knob->spec().help);
    };
    if (stacked) {
        for (const KnobField* knob : shown) {
            draw_label(knob);
            draw_control(knob);
        }
        return;
    }
    const int pairs = two_per_row ? 2 : 1;
    std::vector<GridColumn> columns;
    for (int p = 0; p < pairs; ++p) {
        columns.push_back({.fixed_width = label_width(pairs, p)});
        columns.push_back({});
    }
    Grid grid(columns);
    for (const KnobField* knob : shown) {
        grid.next_cell();
        ImGui::AlignTextToFramePadding();
        draw_label(knob);
        grid.next_cell();
        draw_control(knob);
    }
    grid.end();
}

}  // namespace kvui
