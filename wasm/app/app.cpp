// Wiring: the app state, its setters, and which panel function draws which kind of canvas. The
// serving panel's runs are taken here a slice per animation frame (on_work), and played back by
// playback.cpp. (These are the one place outside platform/ that talks to html5.h: the platform's
// frames are drawn on demand and have no notion of a loop that keeps going.)
#include "app/app.hpp"
#include "io/input_text.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "io/json_io.hpp"
#include "io/simulate_json.hpp"
#include "panels/panels.hpp"
#include "platform/platform_html5.hpp"
#include "ui/style.hpp"

namespace kvapp {
namespace {

kv::InputError input_error(std::string field, kv::ErrorCode code, std::string message) {
    return kv::InputError{std::move(field), code, std::move(message)};
}

void emit(int id, const char* event, const std::string& payload) {
    if (app().sink) app().sink(id, event, payload);
}

// One frame of a panel: a borderless window the size of the canvas, the panel's sections, and the
// height the content wants (so the canvas grows instead of scrolling inside).
float frame(int id) {
    Panel* panel = find_panel(id);
    kvui::apply_style(app().dark);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->Pos);
    ImGui::SetNextWindowSize(viewport->Size);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##panel", nullptr, flags);
    if (panel) {
        panel->knob_rects.clear();  // a knob under a closed header has no place this frame
        kvui::begin_concepts(panel->highlight, panel->concept_rects);
        switch (panel->kind) {
            case PanelKind::admission:
                kvui::panel_admission(*panel);
                break;
            case PanelKind::phases:
                kvui::panel_phases(*panel);
                break;
            case PanelKind::batching:
                kvui::panel_batching(*panel);
                break;
            case PanelKind::serving:
                kvui::panel_serving(*panel);
                break;
        }
        panel->concept_rects = kvui::end_concepts();
        // Told only when it changes, so moving within one part of the panel says nothing.
        const std::string hovered = kvui::concept_at(panel->concept_rects, ImGui::GetIO().MousePos);
        if (hovered != panel->hovered_concept) {
            panel->hovered_concept = hovered;
            emit(id, "hover", hovered.empty() ? "null" : kv::json_text(nlohmann::json(hovered)));
        }
    }
    const float height = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + ImGui::GetStyle().WindowPadding.y;
    ImGui::End();
    return height;
}

}  // namespace

AppState& app() {
    static AppState state;
    return state;
}

const char* panel_kind_name(PanelKind kind) {
    static const char* const names[] = {"admission", "phases", "batching", "serving"};
    return names[static_cast<int>(kind)];
}

std::optional<PanelKind> panel_kind_from_name(const std::string& name) {
    for (PanelKind k : {PanelKind::admission, PanelKind::phases, PanelKind::batching, PanelKind::serving})
        if (name == panel_kind_name(k)) return k;
    return std::nullopt;
}

Panel* find_panel(int id) {
    auto it = app().panels.find(id);
    return it == app().panels.end() ? nullptr : &it->second;
}

//-----------------------------------------------------------------------------
// [SECTION] Setters
//-----------------------------------------------------------------------------

namespace {

// A new run replaces the old: playing starts it over, paused keeps the same place in it.
void replace_run(Panel& panel, std::variant<kv::Simulation, kv::InputError> run) {
    Panel::Playback& pb = panel.playback;
    const int old_last = last_frame(panel);
    const double at = old_last > 0 ? static_cast<double>(pb.frame) / old_last : 0.0;
    panel.simulation = kv::Simulation{};
    panel.simulation_error.reset();
    if (auto* error = std::get_if<kv::InputError>(&run)) panel.simulation_error = *error;
    else panel.simulation = std::move(std::get<kv::Simulation>(run));
    pb.clock = 0;
    pb.frame = pb.playing ? 0 : static_cast<int>(at * last_frame(panel) + 0.5);
    if (panel.simulation.frames.empty()) pb.playing = false;
    schedule_tick(panel);
}

void schedule_work(Panel& panel);

// The panel's canvas, its first frame drawn; an error unmounts the panel.
std::optional<kv::InputError> open_surface(int id, const std::string& selector, kvui::SurfaceSize size) {
    std::string error;
    const int surface = kvui::surface_open(
        selector, size, [id] { return frame(id); },
        [id](float height) { emit(id, "height", std::to_string(static_cast<int>(height + 0.999f))); }, &error);
    if (surface < 0) {
        app().panels.erase(id);
        return input_error("canvas", kv::ErrorCode::unknown_value, error);
    }
    Panel& mounted = *find_panel(id);
    mounted.surface = surface;
    schedule_tick(mounted);
    return std::nullopt;
}

// `callback(user)` in a task of its own, as setTimeout(0) runs it: unlike an animation frame it
// runs in a frame the browser does not render (an embed's cross-origin iframe off screen), and
// unlike emscripten_set_timeout it brings no keepalive helpers into the glue (136 bytes gzip).
EM_JS(void, kv_next_task, (void* callback, void* user), {
    var call = getWasmTableEntry(callback);
    setTimeout(
        function() { call(user); }, 0);
});

// The canvas opens in a task after the mount's: its WebGL context, the layout pass and the first
// frame take tens of ms on a software renderer, and the browser takes input between. Then the
// event "open": null, or the error that left the panel unmounted.
void open_now(void* user) {
    const int id = static_cast<int>(reinterpret_cast<intptr_t>(user));
    Panel* opened = find_panel(id);
    if (!opened || !opened->opening) return;  // unmounted meanwhile
    const Panel::Opening opening = *std::exchange(opened->opening, std::nullopt);
    const auto error = open_surface(id, opening.selector, opening.size);
    emit(id, "open", error ? kv::json_text(kv::error_to_json(*error)) : "null");
}

void schedule_open(Panel& panel) {
    kv_next_task(reinterpret_cast<void*>(&open_now), reinterpret_cast<void*>(static_cast<intptr_t>(panel.id)));
}

// The panel's next run: an engine that refuses to start is shown at once, any other run is taken a
// slice per animation frame (on_work) and replaces the drawn one when it ends.
void start_run(Panel& panel, const std::optional<kv::InputError>& refused) {
    if (panel.work_request) emscripten_cancel_animation_frame(panel.work_request);
    panel.work_request = 0;
    panel.pending.reset();
    if (refused) return replace_run(panel, *refused);
    auto started = kv::SimulationRun::start(panel.result, panel.workload);
    if (auto* error = std::get_if<kv::InputError>(&started)) return replace_run(panel, *error);
    panel.pending = std::move(std::get<std::unique_ptr<kv::SimulationRun>>(started));
    schedule_work(panel);
}

// A slice of about 8 ms of the pending run (the clock read every 64 steps): a phone at a quarter
// of a desktop's speed still ends each task well under 50 ms.
EM_BOOL on_work(double, void* user) {
    Panel* panel = find_panel(static_cast<int>(reinterpret_cast<intptr_t>(user)));
    if (!panel || !panel->pending) return EM_FALSE;
    panel->work_request = 0;
    constexpr double slice_ms = 8.0;
    const double start_ms = emscripten_get_now();
    bool ended = false;
    while (!(ended = panel->pending->advance(64)) && emscripten_get_now() - start_ms < slice_ms) {}
    if (!ended) {
        schedule_work(*panel);
        return EM_FALSE;
    }
    const std::unique_ptr<kv::SimulationRun> run = std::move(panel->pending);
    replace_run(*panel, run->take());
    if (std::exchange(panel->first_run, false)) {
        panel->playback.frame = app().reduced_motion ? peak_frame(panel->simulation) : 0;
        panel->playback.playing = !app().reduced_motion && !panel->simulation.frames.empty();
        schedule_tick(*panel);
    }
    if (panel->opening) {
        schedule_open(*panel);
        return EM_FALSE;  // the page has no handle on it yet to tell of the run
    }
    kvui::surface_invalidate(panel->surface);
    emit(panel->id, "run", kv::json_text(state_json(*panel)));  // the same state, its result now with the run
    return EM_FALSE;
}

void schedule_work(Panel& panel) {
    if (panel.pending && !panel.work_request)
        panel.work_request = emscripten_request_animation_frame(on_work, reinterpret_cast<void*>(static_cast<intptr_t>(panel.id)));
}

// The one path every accepted change takes: evaluate, start a run (serving panel, once mounted),
// store, redraw, tell the page. A workload the simulation refuses on a running engine is rejected
// like bad input; an engine that refuses to start is a result the panel shows.
std::optional<kv::InputError> commit(Panel& panel, const kv::Scenario& scenario, const kv::Workload& workload) {
    const bool serving = panel.kind == PanelKind::serving;
    const bool same_scenario = kv::scenario_to_json(scenario) == kv::scenario_to_json(panel.scenario);
    const bool same_workload = !serving || kv::workload_to_json(workload) == kv::workload_to_json(panel.workload);
    // The same state again (a page echoing a change back) changes nothing and says nothing, so
    // panels kept in step by their change hooks cannot ping-pong.
    if (panel.surface && same_scenario && same_workload) {
        if (panel.rejected) {
            panel.rejected.reset();
            kvui::surface_invalidate(panel.surface);
        }
        return std::nullopt;
    }
    std::optional<kv::Result> evaluated;
    if (!same_scenario || !panel.surface) {
        auto outcome = kv::evaluate(scenario);
        if (auto* error = std::get_if<kv::InputError>(&outcome)) {
            panel.rejected = *error;
            kvui::surface_invalidate(panel.surface);
            return *error;
        }
        evaluated = std::move(std::get<kv::Result>(outcome));
    }
    const kv::Result& result = evaluated ? *evaluated : panel.result;
    std::optional<kv::InputError> run_error;
    if (serving && panel.surface) {  // mount() starts the first run once the initial state is in
        // Checked on the new result before anything is stored; the run itself starts on the stored one.
        auto checked = kv::SimulationRun::start(result, workload);
        if (auto* error = std::get_if<kv::InputError>(&checked)) {
            if (result.status != kv::Status::engine_refused) {
                panel.rejected = *error;
                kvui::surface_invalidate(panel.surface);
                return *error;
            }
            run_error = *error;
        }
    }
    panel.scenario = scenario;
    panel.workload = workload;
    if (evaluated) panel.result = std::move(*evaluated);
    if (panel.kind == PanelKind::batching && evaluated) {
        panel.batch_sweep = kv::sweep_batch(panel.result);
        panel.tp_sweep = kv::sweep_tensor_parallel(panel.result);
    }
    if (panel.kind == PanelKind::phases && evaluated) panel.chunk_sweep = kv::sweep_chunk(panel.result);
    if (serving && panel.surface) start_run(panel, run_error);
    panel.rejected.reset();
    kvui::surface_invalidate(panel.surface);
    if (panel.surface) emit(panel.id, "change", kv::json_text(state_json(panel)));
    return std::nullopt;
}

// The workload's fields as the page names them (workload_to_json's keys), so a partial state can
// be split between the scenario reader and the workload reader.
bool is_workload_field(const std::string& key) {
    static const nlohmann::json fields = kv::workload_to_json(kv::Workload{});
    return fields.contains(key);
}

}  // namespace

std::optional<kv::InputError> set_scenario(Panel& panel, const kv::Scenario& scenario) { return commit(panel, scenario, panel.workload); }

std::optional<kv::InputError> set_workload(Panel& panel, const kv::Workload& workload) { return commit(panel, panel.scenario, workload); }

nlohmann::json state_json(const Panel& panel) {
    nlohmann::json state = kv::scenario_to_json(panel.scenario);
    if (panel.kind == PanelKind::serving) state.update(kv::workload_to_json(panel.workload));
    return state;
}

std::optional<kv::InputError> apply_json(Panel& panel, const std::string& partial_json) {
    const auto refuse = [&](const kv::InputError& error) {
        panel.rejected = error;
        kvui::surface_invalidate(panel.surface);
        return error;
    };
    // Parsed once, with the size, NUL, duplicate-key and depth checks every reader needs.
    auto parsed_text = kv::parse_input_text(partial_json, "scenario");
    if (auto* error = std::get_if<kv::InputError>(&parsed_text)) return refuse(*error);
    nlohmann::json partial = std::move(std::get<nlohmann::json>(parsed_text));
    const bool has_workload =
        panel.kind == PanelKind::serving && partial.is_object() &&
        std::any_of(partial.items().begin(), partial.items().end(), [](const auto& item) { return is_workload_field(item.key()); });
    if (!has_workload) {
        auto parsed = kv::scenario_from_json(partial, panel.scenario);
        if (auto* error = std::get_if<kv::InputError>(&parsed)) return refuse(*error);
        return commit(panel, std::get<kv::Scenario>(parsed), panel.workload);
    }
    nlohmann::json workload_part = nlohmann::json::object();
    for (auto it = partial.begin(); it != partial.end();) {
        if (is_workload_field(it.key())) {
            workload_part[it.key()] = it.value();
            it = partial.erase(it);
        } else {
            ++it;
        }
    }
    auto workload = kv::workload_from_json(workload_part, panel.workload);
    if (auto* error = std::get_if<kv::InputError>(&workload)) return refuse(*error);
    auto scenario = kv::scenario_from_json(partial, panel.scenario);
    if (auto* error = std::get_if<kv::InputError>(&scenario)) return refuse(*error);
    return commit(panel, std::get<kv::Scenario>(scenario), std::get<kv::Workload>(workload));
}

void set_theme(bool dark) {
    if (app().dark == dark) return;
    app().dark = dark;
    kvui::surface_invalidate_all();
}

void set_reduced_motion(bool reduce) {
    app().reduced_motion = reduce;
    if (!reduce) return;
    for (auto& [id, panel] : app().panels) play(panel, false);  // a reader who just asked for less motion
}

std::optional<kv::InputError> set_highlight(Panel& panel, const std::string& concept_name) {
    if (!concept_name.empty() && !kvui::concept_from_name(concept_name))
        return input_error("concept", kv::ErrorCode::unknown_value, "\"" + concept_name + "\" is not one of the palette's concepts");
    if (panel.highlight == concept_name) return std::nullopt;
    panel.highlight = concept_name;
    kvui::surface_invalidate(panel.surface);
    return std::nullopt;
}

void set_visible(Panel& panel, bool visible) {
    panel.visible = visible;
    kvui::surface_set_visible(panel.surface, visible);
    schedule_tick(panel);
}

//-----------------------------------------------------------------------------
// [SECTION] Mount and unmount
//-----------------------------------------------------------------------------

std::variant<int, kv::InputError> mount(const std::string& selector, const std::string& kind, const std::string& initial_json,
                                        kvui::SurfaceSize size, std::optional<kv::InputError>* rejected) {
    const auto panel_kind = panel_kind_from_name(kind);
    if (!panel_kind)
        return input_error("panel", kv::ErrorCode::unknown_value,
                           "panel \"" + kind + "\" is not known; use one of admission, phases, batching, serving");
    static int next_id = 1;
    const int id = next_id++;
    Panel& panel = app().panels[id];
    panel.id = id;
    panel.kind = *panel_kind;
    set_scenario(panel, kv::Scenario{});
    std::optional<kv::InputError> refused;
    if (!initial_json.empty()) refused = apply_json(panel, initial_json);
    if (rejected) *rejected = refused;
    panel.opening = Panel::Opening{selector, size};
    if (panel.kind == PanelKind::serving) {
        // One run for the initial state; it plays from the start unless the reader prefers less motion,
        // in which case it rests where the pool is fullest (on_work, when it lands).
        panel.first_run = true;
        start_run(panel, std::nullopt);
        if (panel.pending) return id;
    }
    schedule_open(panel);
    return id;
}

void unmount(int id) {
    Panel* panel = find_panel(id);
    if (!panel) return;
    panel->playback.playing = false;
    schedule_tick(*panel);
    if (panel->work_request) emscripten_cancel_animation_frame(panel->work_request);
    kvui::surface_close(panel->surface);
    app().panels.erase(id);
}

}  // namespace kvapp
