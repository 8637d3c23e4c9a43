// The knobs' view of the core's field tables, and the pickers that list the catalog.
#include "knobs/knob_fields.hpp"

#include <imgui.h>

#include "base/format.hpp"
#include "model/catalog.hpp"
#include "scenario/scenario_fields.hpp"
#include "serving/workload_fields.hpp"
#include "ui/widgets.hpp"

namespace kvui {

const std::vector<KnobField>& knob_fields() {
    static const std::vector<KnobField> knobs = [] {
        std::vector<KnobField> out;
        for (const auto& f : kv::scenario_fields())
            if (*f.spec->label && f.spec->type != kv::FieldType::object) out.push_back({&f, nullptr});
        for (const auto& f : kv::workload_fields())
            if (*f.spec->label && f.spec->type != kv::FieldType::object) out.push_back({nullptr, &f});
        return out;
    }();
    return knobs;
}

std::optional<double> knob_number(const kvapp::Panel& panel, const KnobField& knob, bool resolved) {
    if (knob.workload) return kv::field_number(*knob.workload, panel.workload);
    const auto set = kv::field_number(*knob.scenario, panel.scenario);
    return set || !resolved ? set : kv::field_number(*knob.scenario, panel.result.scenario);
}
bool knob_flag(const kvapp::Panel& panel, const KnobField& knob) {
    return knob.workload ? kv::field_flag(*knob.workload, panel.workload) : kv::field_flag(*knob.scenario, panel.scenario);
}
std::string knob_text(const kvapp::Panel& panel, const KnobField& knob) {
    return knob.workload ? kv::field_text(*knob.workload, panel.workload) : kv::field_text(*knob.scenario, panel.scenario);
}

void set_knob_number(kvapp::Panel& panel, const KnobField& knob, std::optional<double> value) {
    if (knob.workload) kvapp::edit_workload(panel, [&](kv::Workload& next) { kv::set_field_number(*knob.workload, next, value); });
    else kvapp::edit(panel, [&](kv::Scenario& next) { kv::set_field_number(*knob.scenario, next, value); });
}
void set_knob_flag(kvapp::Panel& panel, const KnobField& knob, bool value) {
    if (knob.workload) kvapp::edit_workload(panel, [&](kv::Workload& next) { kv::set_field_flag(*knob.workload, next, value); });
    else kvapp::edit(panel, [&](kv::Scenario& next) { kv::set_field_flag(*knob.scenario, next, value); });
}
void set_knob_text(kvapp::Panel& panel, const KnobField& knob, const std::string& value) {
    if (knob.workload) kvapp::edit_workload(panel, [&](kv::Workload& next) { kv::set_field_text(*knob.workload, next, value); });
    else kvapp::edit(panel, [&](kv::Scenario& next) { kv::set_field_text(*knob.scenario, next, value); });
}

std::string model_summary(const kv::ModelSpec& model, const std::string& name) {
    std::string text = name + "  " + kv::format_params(static_cast<double>(kv::parameter_count(model)));
    if (model.num_experts > 0) text += " (" + kv::format_params(static_cast<double>(kv::active_parameter_count(model))) + " active)";
    if (model.attention == kv::AttentionKind::mla) return text + ", MLA";
    return text + ", " + kv::format_count(model.num_key_value_heads) + " KV heads";
}

std::string gpu_summary(const kv::GpuSpec& gpu, bool in_list) {
    return gpu.name + "  " + kv::format_gib(gpu.visible_memory_bytes, 1) + (in_list ? " visible, " : ", ") +
           kv::format_bandwidth(gpu.hbm_bytes_per_s);
}

namespace {

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

}  // namespace

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

// A few releases whose accounting differs, each with what it changed (the row's choices); a
// version set from the page that is not among them is shown as it is.
void version_picker(kvapp::Panel& panel, const KnobField& knob) {
    const std::string& current = panel.scenario.vllm_version;
    const std::string preview = current + (panel.result.rules.v1_engine ? "  (V1)" : "  (V0)");
    if (!ImGui::BeginCombo("##vllm_version", preview.c_str())) return;
    for (const kv::Choice& v : knob.spec().choices) {
        const bool selected = current == v.value;
        const std::string label = std::string(v.value) + "  " + v.note;
        if (ImGui::Selectable(label.c_str(), selected) && !selected) set_knob_text(panel, knob, v.value);
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

}  // namespace kvui
