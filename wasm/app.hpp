// The panels' one app state and its setters. Each mounted panel holds a scenario and what the core
// computed from it; only the setters below change either, and every accepted change re-evaluates
// through the core, so nothing a panel draws can be stale. Rejected input keeps the previous
// scenario and is kept for the panel to show until the next accepted change.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "evaluate.hpp"
#include "input_error.hpp"
#include "platform_html5.hpp"
#include "sweep.hpp"

namespace kvapp {

enum class PanelKind { admission, phases, batching };
const char* panel_kind_name(PanelKind kind);
std::optional<PanelKind> panel_kind_from_name(const std::string& name);

struct Panel {
    int id = 0;
    int surface = 0;                                   // its canvas (platform_html5.hpp); 0 while mounting
    PanelKind kind = PanelKind::admission;
    kv::Scenario scenario;                             // as the reader set it
    kv::Result result;                                 // kv::evaluate(scenario)
    kv::BatchSweep batch_sweep;                        // kv::sweep_batch(result); batching panel
    std::vector<kv::TensorParallelPoint> tp_sweep;     // kv::sweep_tensor_parallel(result); batching panel
    std::optional<kv::InputError> rejected;            // the last refused change
    // Where each knob was drawn last frame, in CSS pixels of the canvas, by scenario field name:
    // not lesson data, only for tests and tools that drive the controls (KvPanels' layout()).
    std::map<std::string, std::array<float, 4>> knob_rects;
};

// Messages out: (panel id, "change" | "height", JSON payload).
using EventSink = std::function<void(int, const std::string&, const std::string&)>;

struct AppState {
    std::map<int, Panel> panels;
    bool dark = false;
    EventSink sink;
};

AppState& app();

// Mounts a panel on a canvas with `initial_json` applied over the defaults. Returns the panel id,
// or an error (unknown kind, no canvas, no WebGL2). A rejected initial state still mounts the
// panel, on the defaults, with the rejection shown and returned in `rejected`.
std::variant<int, kv::InputError> mount(const std::string& selector, const std::string& kind,
                                        const std::string& initial_json, kvui::SurfaceSize size,
                                        std::optional<kv::InputError>* rejected);
void unmount(int id);
Panel* find_panel(int id);

// [Setters] The only writers of a panel's scenario.
std::optional<kv::InputError> set_scenario(Panel& panel, const kv::Scenario& scenario);
std::optional<kv::InputError> apply_json(Panel& panel, const std::string& partial_json);
template <typename Edit>
void edit(Panel& panel, Edit change) {
    kv::Scenario next = panel.scenario;
    change(next);
    set_scenario(panel, next);
}
void set_theme(bool dark);

}  // namespace kvapp
