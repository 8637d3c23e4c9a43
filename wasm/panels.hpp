// The lesson's panels, one function per panel, each in its own file laid out like imgui_demo.cpp:
// a function per lesson section, marked with the heading of the brief it belongs to.
//   panel_admission.cpp  "Why the batch stops growing where it does" and "What GQA buys"
//   panel_phases.cpp     "Two phases, opposite bottlenecks"
//   panel_batching.cpp   "The boundary" (batching ceiling) and tensor parallelism
//   panel_serving.cpp    serving over time: the simulated run played back (core/serving/simulate.hpp)
//   knobs.cpp            the reader's knobs, shared by all four (the workload's on the serving panel)
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "app.hpp"

namespace kvui {

void panel_admission(kvapp::Panel& panel);
void panel_phases(kvapp::Panel& panel);
void panel_batching(kvapp::Panel& panel);
void panel_serving(kvapp::Panel& panel);

// What DCGM would show during decode (simulated): drawn by the phases panel and by the admission
// panel beside the real-system section (panel_phases.cpp).
void dcgm_readout(const kv::Result& result);

// The knob grid: the knobs named by `fields` (scenario fields, and on the serving panel workload
// fields: core/scenario/scenario_fields.hpp, core/serving/workload_fields.hpp), in the tables'
// order, each a label with a (?) tooltip in vLLM's terms and the control its row calls for, two
// per row when the canvas is wide. Changes go through kvapp::edit() and kvapp::edit_workload().
void knobs(kvapp::Panel& panel, const std::vector<std::string_view>& fields);

// A rejected change from the page (setState) or a scenario the core refused; and the failing
// states: the engine refuses to start (its message, the lesson's reading and what would start it)
// or rejects a request longer than max_model_len. Both return true when they drew something.
bool rejected_input_banner(const kvapp::Panel& panel);
bool failure_banner(const kv::Result& result);

// The page's twin (site/js/kvtwin.js): the knobs of the panel's kind, each with what a native
// form control needs and whether the last frame drew it, and the panel's key results as text formatted by core/base/format.hpp.
nlohmann::json knob_specs(const kvapp::Panel& panel);
nlohmann::json key_results(const kvapp::Panel& panel);

}  // namespace kvui
