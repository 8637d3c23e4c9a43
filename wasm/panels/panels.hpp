// The lesson's panels, one function per panel, each in its own file laid out like imgui_demo.cpp:
// a function per lesson section, its marker naming that function and the lesson anchors it serves,
// as content/lesson/FILE.md#ID (ID: the id the site gives that chapter's heading; the Node test
// tests/node/panel_anchors.test.mjs checks every one the panels cite).
//   panel_admission()  panels/panel_admission.cpp  01-intro.md#bytes-per-token
//                                                  02-memory-order.md#why-the-batch-stops-where-it-does
//                                                  05-gqa.md#what-grouped-query-attention-buys
//                                                  06-fp8.md#fp8-cache-or-fp8-weights
//   panel_phases()     panels/panel_phases.cpp     03-two-phases.md#two-phases-opposite-bottlenecks
//                                                  04-chunked-prefill.md#chunked-prefill-and-speculative-decoding
//   dcgm_readout()     panels/panel_phases.cpp     09-real-system.md#checking-the-arithmetic-on-a-real-system
//   panel_batching()   panels/panel_batching.cpp   07-batching-ceiling.md#the-batching-ceiling-and-tensor-parallelism
//   panel_serving()    panels/panel_serving.cpp    07-serving-over-time.md#serving-over-time-pages-preemption-and-a-shared-prompt
//                      (its block pool: panels/panel_serving_pool.cpp)
//   knobs()            knobs.cpp                   the reader's knobs, shared by all four (the workload's on the serving panel)
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "app/app.hpp"

namespace kvui {

void panel_admission(kvapp::Panel& panel);
void panel_phases(kvapp::Panel& panel);
void panel_batching(kvapp::Panel& panel);
void panel_serving(kvapp::Panel& panel);

// What DCGM would show during decode (simulated): drawn by the phases panel and by the admission
// panel beside the real-system section (panels/panel_phases.cpp).
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
