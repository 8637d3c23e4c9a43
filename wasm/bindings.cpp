// The JS/WASM boundary, all of it: a short list of verbs that take and return JSON text (or plain
// numbers and booleans), so nothing JS holds needs delete(). Errors come back as
// {"error": {"field", "code", "message"}}. One change hook goes out: setEventHook(fn) and the
// module calls fn(panelId, "change" | "height" | "hover", payloadJson).
//
// Core verbs: evaluate, catalog, catalogPart, formatValue, simulate (the log explainer, the planner and the
//             sweeps are the tools' module's: wasm/tools_bindings.cpp).
// Panel verbs: panelMount, panelUnmount, panelGetState, panelSetState, panelResult,
//              panelLayout, panelHighlight, panelConcepts, panelSetVisible, panelResize, panelPlayback, panelPlay, setTheme,
//              setReducedMotion, setEventHook, drawStats, resetDrawStats, palette, prepareFonts.
// Twin verbs:  panelKnobs, panelKeyResults (the panel's knobs and key results for native controls).
// site/js/kvpanels.js wraps the panel verbs in the page's API (KvPanels.mount and handles).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/app.hpp"
#include "io/input_text.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "io/simulate_json.hpp"
#include "panels/panels.hpp"
#include "platform/platform_html5.hpp"
#include "result/evaluate.hpp"
#include "serving/simulate.hpp"
#include "ui/fonts.hpp"
#include "ui/palette.hpp"
#include "verb_text.hpp"

namespace {

using nlohmann::json;

//-----------------------------------------------------------------------------
// Core verbs
//-----------------------------------------------------------------------------

using kvverbs::error_text;
using kvverbs::with_result;

std::string evaluate_scenario(const std::string& scenario_text) {
    return with_result(scenario_text, [](const kv::Result& r) { return kv::result_to_json(r); });
}

std::string catalog() { return kv::json_text(kv::catalog_to_json()); }

// One key of the catalog alone ("fields", "defaults"...): what the page needs as it starts, without
// every model's and GPU's entry.
std::string catalog_part(const std::string& name) {
    json part = kv::catalog_part_json(name);
    if (part.is_null()) return error_text({"part", kv::ErrorCode::unknown_value, "the catalog has no part \"" + name + "\""});
    return kv::json_text(part);
}

// Formats `value` with a named format (base/format.hpp); an unknown name gives "".
std::string format_value(double value, const std::string& format_name) { return kv::format_named(value, format_name).value_or(""); }

// A serving run (serving/simulate.hpp, `kvcache --simulate`): the scenario as evaluate takes it and a
// workload ("" or an object: workload, rate_per_s, requests, seed, shared_prefix_tokens,
// prefix_caching, list); the answer is simulation_to_json's summary, or the error naming the field
// (an engine that refuses to start is an error here: there is nothing to run).
std::string simulate_workload(const std::string& scenario_text, const std::string& workload_text) {
    auto evaluated = kv::evaluate_text(scenario_text);
    if (auto* error = std::get_if<kv::InputError>(&evaluated)) return error_text(*error);
    auto workload = kv::workload_from_text(workload_text.empty() ? "{}" : workload_text);
    if (auto* error = std::get_if<kv::InputError>(&workload)) return error_text(*error);
    auto run = kv::simulate(std::get<kv::Result>(evaluated), std::get<kv::Workload>(workload));
    if (auto* error = std::get_if<kv::InputError>(&run)) return error_text(*error);
    return kv::json_text(kv::simulation_to_json(std::get<kv::Simulation>(run)));
}

//-----------------------------------------------------------------------------
// Panel verbs
//-----------------------------------------------------------------------------

std::string unknown_panel(int id) {
    return error_text({"panel", kv::ErrorCode::unknown_value, "no panel " + std::to_string(id) + " is mounted"});
}

// {"id": n, "rejected": null | error}, or {"error": ...} when nothing was mounted; the canvas opens in a
// later task, the serving panel's when its first run lands (event "open"). The geometry:
// the canvas's content box in CSS pixels, the device pixels it covers, and its offset inside the
// border box (border + padding).
std::string panel_mount(const std::string& selector, const std::string& kind, const std::string& state_json, double css_width,
                        double css_height, int pixel_width, int pixel_height, double content_left, double content_top) {
    std::optional<kv::InputError> rejected;
    auto mounted =
        kvapp::mount(selector, kind, state_json, {css_width, css_height, pixel_width, pixel_height, content_left, content_top}, &rejected);
    if (auto* error = std::get_if<kv::InputError>(&mounted)) return error_text(*error);
    const int id = std::get<int>(mounted);
    json out = {{"id", id}, {"rejected", nullptr}};
    if (rejected) out["rejected"] = kv::error_to_json(*rejected)["error"];
    return kv::json_text(out);
}

void panel_unmount(int id) { kvapp::unmount(id); }

std::string panel_get_state(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    return panel ? kv::json_text(kvapp::state_json(*panel)) : unknown_panel(id);
}

std::string panel_set_state(int id, const std::string& partial_json) {
    kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    if (auto error = kvapp::apply_json(*panel, partial_json)) return error_text(*error);
    return kv::json_text(json{{"ok", true}});
}

// The evaluated result; the serving panel's carries its workload and its run's summary as
// "simulation" (null when the run did not start, "simulation_error" then says why).
std::string panel_result(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    json out = kv::result_to_json(panel->result);
    if (panel->kind == kvapp::PanelKind::serving) {
        out["workload"] = kv::workload_to_json(panel->workload);
        // While a run is under way ("simulating"), the last one that landed, if any.
        out["simulating"] = panel->pending != nullptr;
        const bool none = panel->simulation_error || (panel->pending && panel->simulation.frames.empty());
        out["simulation"] = none ? json(nullptr) : kv::simulation_to_json(panel->simulation);
        out["simulation_error"] = panel->simulation_error ? kv::error_to_json(*panel->simulation_error)["error"] : json(nullptr);
    }
    return kv::json_text(out);
}

// The serving panel's playback: {"playing", "frame", "frames", "time_s", "reduced_motion"}.
std::string panel_playback(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    const kv::Simulation& sim = panel->simulation;
    double time_s = 0;
    if (!sim.frames.empty()) {
        const size_t f = static_cast<size_t>(std::clamp(panel->playback.frame, 0, static_cast<int>(sim.frames.size()) - 1));
        const size_t step = static_cast<size_t>(sim.frames[f].step);
        if (step < sim.steps.size()) time_s = sim.steps[step].start_s;
    }
    return kv::json_text(json{{"playing", panel->playback.playing},
                              {"frame", panel->playback.frame},
                              {"frames", sim.frames.size()},
                              {"time_s", time_s},
                              {"reduced_motion", kvapp::app().reduced_motion}});
}

// Plays or pauses the serving panel's run, from `frame` when it is 0 or more.
void panel_play(int id, bool playing, int frame) {
    kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return;
    if (frame >= 0) kvapp::seek(*panel, frame);
    kvapp::play(*panel, playing);
}

// {"prompt_tokens": [x, y, width, height], ...}: where each knob was drawn, in canvas CSS pixels.
std::string panel_layout(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    json out = json::object();
    for (const auto& [field, rect] : panel->knob_rects) out[field] = rect;
    return kv::json_text(out);
}

// [Linked reading] panelHighlight(id, concept): emphasises a palette concept's parts ("" for none);
// {"ok": true} or the error. panelConcepts(id): {"highlight", "hovered", "rects": {concept:
// [[x, y, width, height], ...]}} as last drawn, in canvas CSS pixels.
std::string panel_highlight(int id, const std::string& concept_name) {
    kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    if (auto error = kvapp::set_highlight(*panel, concept_name)) return error_text(*error);
    return kv::json_text(json{{"ok", true}});
}

// Where the focused part of the panel ended in the last frame, in canvas CSS pixels (its whole
// height without a focus): what a reader sees of the section's knobs and results without opening
// "All controls and results".
double panel_focus_bottom(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    return panel ? panel->focus_bottom_px : -1.0;
}

std::string panel_focus(int id, const std::string& focus_json) {
    kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    if (auto error = kvapp::set_focus(*panel, focus_json)) return error_text(*error);
    return kv::json_text(json{{"ok", true}});
}

std::string panel_concepts(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    if (!panel) return unknown_panel(id);
    const auto or_null = [](const std::string& name) { return name.empty() ? json(nullptr) : json(name); };
    return kv::json_text(
        json{{"highlight", or_null(panel->highlight)}, {"hovered", or_null(panel->hovered_concept)}, {"rects", panel->concept_rects}});
}

void panel_set_visible(int id, bool visible) {
    if (kvapp::Panel* panel = kvapp::find_panel(id)) kvapp::set_visible(*panel, visible);
}

void panel_resize(int id, double css_width, double css_height, int pixel_width, int pixel_height, double content_left, double content_top) {
    if (const kvapp::Panel* panel = kvapp::find_panel(id))
        kvui::surface_resize(panel->surface, {css_width, css_height, pixel_width, pixel_height, content_left, content_top});
}

void set_theme(const std::string& theme) { kvapp::set_theme(theme == "dark"); }

// The glyph atlas at a pixel ratio (the browser draws every glyph: the larger part of a first
// mount), built before panelMount a step a call, each in a task of the page's; true once built.
bool prepare_fonts(double pixel_ratio) {
    return !(pixel_ratio > 0 && pixel_ratio <= 8) || kvui::prepare_atlas(static_cast<float>(pixel_ratio));
}

// prefers-reduced-motion: no autoplay (playing panels pause; play and step still work).
void set_reduced_motion(bool reduce) { kvapp::set_reduced_motion(reduce); }

// The one hook out. Calls from C++ are synchronous; the loader defers them to a microtask.
emscripten::val event_hook = emscripten::val::undefined();

void set_event_hook(emscripten::val hook) {
    event_hook = hook;
    kvapp::app().sink = [](int id, const std::string& event, const std::string& payload) {
        if (event_hook.isUndefined() || event_hook.isNull()) return;
        event_hook(id, event, payload);
    };
}

std::string draw_stats() {
    const kvui::DrawStats& s = kvui::draw_stats();
    return kv::json_text(json{{"frames", s.frames},
                              {"animation_requests", s.animation_requests},
                              {"layout_passes", s.layout_passes},
                              {"total_ms", s.total_ms},
                              {"last_ms", s.last_ms},
                              {"max_ms", s.max_ms},
                              {"mean_ms", s.frames ? s.total_ms / static_cast<double>(s.frames) : 0.0},
                              {"first_frame_at_ms", s.first_frame_at_ms},
                              {"build_ms", s.build_ms},
                              {"render_ms", s.render_ms},
                              {"mean_build_ms", s.frames ? s.build_ms / static_cast<double>(s.frames) : 0.0},
                              {"atlases", kvui::atlas_count()}});
}

void reset_draw_stats() { kvui::reset_draw_stats(); }

// {"light": {"weights": "#1c7ed6", ...}, "dark": {...}}: the source of site/css/palette.css.
std::string palette() {
    json out = {{"light", json::object()}, {"dark", json::object()}};
    for (const kvui::Swatch& s : kvui::palette) {
        char light[8], dark[8];
        std::snprintf(light, sizeof light, "#%06x", static_cast<unsigned>(s.light));
        std::snprintf(dark, sizeof dark, "#%06x", static_cast<unsigned>(s.dark));
        out["light"][s.name] = light;
        out["dark"][s.name] = dark;
    }
    return kv::json_text(out);
}

//-----------------------------------------------------------------------------
// The accessible twin (site/js/kvtwin.js)
//-----------------------------------------------------------------------------

// [{field, label, help, drawn, control, options | stops | min/max/step/format, optional}]: every
// knob of the panel's kind and whether its canvas draws it, for native controls sharing its state.
std::string panel_knobs(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    return panel ? kv::json_text(kvui::knob_specs(*panel)) : unknown_panel(id);
}

// [{label, key, format, text}]: the panel's key results, formatted by core/base/format.hpp.
std::string panel_key_results(int id) {
    const kvapp::Panel* panel = kvapp::find_panel(id);
    return panel ? kv::json_text(kvui::key_results(*panel)) : unknown_panel(id);
}

}  // namespace

EMSCRIPTEN_BINDINGS(kvcache) {
    emscripten::function("evaluate", &evaluate_scenario);
    emscripten::function("catalog", &catalog);
    emscripten::function("catalogPart", &catalog_part);
    emscripten::function("formatValue", &format_value);
    emscripten::function("simulate", &simulate_workload);

    emscripten::function("panelMount", &panel_mount);
    emscripten::function("panelUnmount", &panel_unmount);
    emscripten::function("panelGetState", &panel_get_state);
    emscripten::function("panelSetState", &panel_set_state);
    emscripten::function("panelResult", &panel_result);
    emscripten::function("panelLayout", &panel_layout);
    emscripten::function("panelHighlight", &panel_highlight);  // linked reading
    emscripten::function("panelConcepts", &panel_concepts);
    emscripten::function("panelFocus", &panel_focus);  // compact reading
    emscripten::function("panelFocusBottom", &panel_focus_bottom);
    emscripten::function("panelSetVisible", &panel_set_visible);
    emscripten::function("panelResize", &panel_resize);
    emscripten::function("panelPlayback", &panel_playback);
    emscripten::function("panelPlay", &panel_play);
    emscripten::function("setTheme", &set_theme);
    emscripten::function("setReducedMotion", &set_reduced_motion);
    emscripten::function("setEventHook", &set_event_hook);
    emscripten::function("drawStats", &draw_stats);
    emscripten::function("resetDrawStats", &reset_draw_stats);
    emscripten::function("palette", &palette);
    emscripten::function("prepareFonts", &prepare_fonts);

    emscripten::function("panelKnobs", &panel_knobs);
    emscripten::function("panelKeyResults", &panel_key_results);
}
