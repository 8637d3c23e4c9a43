// The knobs' view of the core's field tables: a knob is a labelled row of the scenario's table
// (core/scenario/scenario_fields.hpp) or the workload's (core/serving/workload_fields.hpp), read
// from and written to the panel's scenario or workload. Shared by the knob grid (knobs.cpp) and
// the page's twin (twin.cpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "app/app.hpp"
#include "scenario/fields.hpp"

namespace kvui {

struct KnobField {
    const kv::Field<kv::Scenario>* scenario = nullptr;  // one of the two is set
    const kv::Field<kv::Workload>* workload = nullptr;
    const kv::FieldSpec& spec() const { return scenario ? *scenario->spec : *workload->spec; }
};

// Every knob, scenario rows first, in the tables' order; a row is a knob when it has a label.
const std::vector<KnobField>& knob_fields();

// A knob's value as a number (the resolved engine default when `resolved` and the field is unset),
// as a flag, as text (a choice's value, a text field's text).
std::optional<double> knob_number(const kvapp::Panel& panel, const KnobField& knob, bool resolved);
bool knob_flag(const kvapp::Panel& panel, const KnobField& knob);
std::string knob_text(const kvapp::Panel& panel, const KnobField& knob);
// Writes through kvapp::edit() or kvapp::edit_workload(), which re-evaluate.
void set_knob_number(kvapp::Panel& panel, const KnobField& knob, std::optional<double> value);
void set_knob_flag(kvapp::Panel& panel, const KnobField& knob, bool value);
void set_knob_text(kvapp::Panel& panel, const KnobField& knob, const std::string& value);

// "Qwen3-8B  8.19B, 8 KV heads"; "H100  79.2 GiB visible, 3.35 TB/s" (the closed combo drops
// "visible" to keep the bandwidth in view).
std::string model_summary(const kv::ModelSpec& model, const std::string& name);
std::string gpu_summary(const kv::GpuSpec& gpu, bool in_list = true);

// Pickers with a control of their own: the catalog's models (grouped) and GPUs, the version list.
void model_picker(kvapp::Panel& panel);
void gpu_picker(kvapp::Panel& panel);
void version_picker(kvapp::Panel& panel, const KnobField& knob);

}  // namespace kvui
