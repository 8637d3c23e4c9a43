// Wiring: the app state, its setters, and which panel function draws which kind of canvas.
#include "app.hpp"

#include <imgui.h>

#include "json_io.hpp"
#include "panels.hpp"
#include "platform_html5.hpp"
#include "style.hpp"

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
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##panel", nullptr, flags);
    if (panel) {
        switch (panel->kind) {
        case PanelKind::admission: kvui::panel_admission(*panel); break;
        case PanelKind::phases: kvui::panel_phases(*panel); break;
        case PanelKind::batching: kvui::panel_batching(*panel); break;
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
    static const char* const names[] = {"admission", "phases", "batching"};
    return names[static_cast<int>(kind)];
}

std::optional<PanelKind> panel_kind_from_name(const std::string& name) {
    for (PanelKind k : {PanelKind::admission, PanelKind::phases, PanelKind::batching})
        if (name == panel_kind_name(k)) return k;
    return std::nullopt;
}

Panel* find_panel(int id) {
    auto it = app().panels.find(id);
    return it == app().panels.end() ? nullptr : &it->second;
}

std::optional<kv::InputError> set_scenario(Panel& panel, const kv::Scenario& scenario) {
    // The same scenario again (a page echoing a change back) changes nothing and says nothing, so
    // panels kept in step by their change hooks cannot ping-pong.
    if (panel.surface && kv::scenario_to_json(scenario) == kv::scenario_to_json(panel.scenario)) {
        if (panel.rejected) {
            panel.rejected.reset();
            kvui::surface_invalidate(panel.surface);
        }
        return std::nullopt;
    }
    auto outcome = kv::evaluate(scenario);
    if (auto* error = std::get_if<kv::InputError>(&outcome)) {
        panel.rejected = *error;
        kvui::surface_invalidate(panel.surface);
        return *error;
    }
    panel.scenario = scenario;
    panel.result = std::move(std::get<kv::Result>(outcome));
    if (panel.kind == PanelKind::batching) {
        panel.batch_sweep = kv::sweep_batch(panel.result);
        panel.tp_sweep = kv::sweep_tensor_parallel(panel.result);
    }
    panel.rejected.reset();
    kvui::surface_invalidate(panel.surface);
    if (panel.surface) emit(panel.id, "change", kv::scenario_to_json(panel.scenario).dump());
    return std::nullopt;
}

std::optional<kv::InputError> apply_json(Panel& panel, const std::string& partial_json) {
    auto parsed = kv::scenario_from_text(partial_json, panel.scenario);
    if (auto* error = std::get_if<kv::InputError>(&parsed)) {
        panel.rejected = *error;
        kvui::surface_invalidate(panel.surface);
        return *error;
    }
    return set_scenario(panel, std::get<kv::Scenario>(parsed));
}

void set_theme(bool dark) {
    if (app().dark == dark) return;
    app().dark = dark;
    kvui::surface_invalidate_all();
}

std::variant<int, kv::InputError> mount(const std::string& selector, const std::string& kind,
                                        const std::string& initial_json, kvui::SurfaceSize size,
                                        std::optional<kv::InputError>* rejected) {
    const auto panel_kind = panel_kind_from_name(kind);
    if (!panel_kind)
        return input_error("panel", kv::ErrorCode::unknown_value,
                           "panel \"" + kind + "\" is not known; use one of admission, phases, batching");
    static int next_id = 1;
    const int id = next_id++;
    Panel& panel = app().panels[id];
    panel.id = id;
    panel.kind = *panel_kind;
    set_scenario(panel, kv::Scenario{});
    std::optional<kv::InputError> refused;
    if (!initial_json.empty()) refused = apply_json(panel, initial_json);
    if (rejected) *rejected = refused;

    std::string error;
    const int surface = kvui::surface_open(
        selector, size, [id] { return frame(id); },
        [id](float height) { emit(id, "height", std::to_string(static_cast<int>(height + 0.999f))); }, &error);
    if (surface < 0) {
        app().panels.erase(id);
        return input_error("canvas", kv::ErrorCode::unknown_value, error);
    }
    find_panel(id)->surface = surface;
    return id;
}

void unmount(int id) {
    Panel* panel = find_panel(id);
    if (!panel) return;
    kvui::surface_close(panel->surface);
    app().panels.erase(id);
}

}  // namespace kvapp
