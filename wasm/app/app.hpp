// The panels' one app state and its setters. Each mounted panel holds a scenario and what the core
// computed from it; only the setters below change either, and every accepted change re-evaluates
// through the core, so nothing a panel draws can be stale. Rejected input keeps the previous
// scenario and is kept for the panel to show until the next accepted change.
// The serving panel also holds a workload and the simulated run of it on that scenario
// (core/serving/simulate.hpp), re-run by the same setters a slice per animation frame (the drawn
// run stays until the new one lands), and where its playback stands: playing advances
// one pool frame per tick of an animation loop that runs only while the panel plays and is on
// screen; a reader who prefers reduced motion gets no autoplay (play and step still work).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/input_error.hpp"
#include "platform/platform_html5.hpp"
#include "result/evaluate.hpp"
#include "result/sweep.hpp"
#include "serving/simulate.hpp"

namespace kvapp {

enum class PanelKind { admission, phases, batching, serving };
const char* panel_kind_name(PanelKind kind);
std::optional<PanelKind> panel_kind_from_name(const std::string& name);

struct Panel {
    int id = 0;
    int surface = 0;  // its canvas (platform/platform_html5.hpp); 0 while mounting
    PanelKind kind = PanelKind::admission;
    kv::Scenario scenario;                          // as the reader set it
    kv::Result result;                              // kv::evaluate(scenario)
    kv::BatchSweep batch_sweep;                     // kv::sweep_batch(result); batching panel
    std::vector<kv::TensorParallelPoint> tp_sweep;  // kv::sweep_tensor_parallel(result); batching panel
    kv::ChunkSweep chunk_sweep;                     // kv::sweep_chunk(result); phases panel
    std::optional<kv::InputError> rejected;         // the last refused change
    // Serving panel: the workload, kv::simulate(result, workload), or why it could not run.
    kv::Workload workload;
    kv::Simulation simulation;
    std::optional<kv::InputError> simulation_error;
    // The next run while it is under way (over `result`, which it reads): a slice per animation frame,
    // so no task runs long; the previous run stays drawn until it lands. The mount's run lands at
    // its start, or where the pool is fullest for a reader who prefers reduced motion.
    std::unique_ptr<kv::SimulationRun> pending;
    bool first_run = false;
    long work_request = 0;  // the animation frame of its next slice, 0 when none
    // Where the canvas opens, in a task after the mount's; the serving panel's once its first run
    // lands: measured then, at the height the run's sections need, it is not resized a moment after
    // its first frame (a WebGL canvas reallocates its drawing buffer on every resize, a long task on
    // a phone). Empty once open.
    struct Opening {
        std::string selector;
        kvui::SurfaceSize size;
    };
    std::optional<Opening> opening;
    struct Playback {
        int frame = 0;  // index into simulation.frames
        bool playing = false;
        double clock = 0;  // fraction of a frame accumulated while playing
        double last_tick_ms = -1;
        long tick_request = 0;  // pending animation frame, 0 when none
    } playback;
    bool visible = true;  // until the loader's IntersectionObserver says otherwise
    // Where each knob was drawn last frame, in CSS pixels of the canvas, by scenario field name:
    // not lesson data, only for tests and tools that drive the controls (KvPanels' layout()).
    std::map<std::string, std::array<float, 4>> knob_rects;
    std::vector<std::string> knobs_drawn;  // the fields whose knobs the last frame drew (knobs.cpp): the page's twin controls
    // Linked reading: the concept the page asks the panel to emphasise ("" for none), where each
    // concept was drawn last frame, and the one under the pointer (reported as a "hover" event).
    std::string highlight;
    std::map<std::string, std::vector<std::array<float, 4>>> concept_rects;
    std::string hovered_concept;
    // Compact reading: the knobs (scenario and workload fields) and the result paths the section
    // beside the panel uses. With a focus the panel draws those first and the rest under "All
    // controls and results", closed; with none (embeds, tools) it draws everything in its order.
    struct Focus {
        std::vector<std::string> knobs, reads;
        bool empty() const { return knobs.empty() && reads.empty(); }
    } focus;
    float focus_bottom_px = 0;  // where the focused part ended last frame (CSS px from the canvas top)
};

// Messages out: (panel id, "change" | "run" | "height" | "hover", JSON payload); "run" carries the
// state again when a serving panel's new run lands; "hover" carries the concept under the pointer
// as a JSON string, or null when it leaves it.
using EventSink = std::function<void(int, const std::string&, const std::string&)>;

struct AppState {
    std::map<int, Panel> panels;
    bool dark = false;
    bool reduced_motion = false;  // prefers-reduced-motion: no autoplay
    EventSink sink;
};

AppState& app();

// Mounts a panel on a canvas with `initial_json` applied over the defaults. Returns the panel id,
// or an error (unknown kind). A rejected initial state still mounts the panel, on the defaults,
// with the rejection shown and returned in `rejected`. The canvas opens in a task of its own
// (Panel::opening), a serving panel's when its first run lands, and then sends the event "open"
// with null, or with the error that left the panel unmounted (no canvas, no WebGL2).
std::variant<int, kv::InputError> mount(const std::string& selector, const std::string& kind, const std::string& initial_json,
                                        kvui::SurfaceSize size, std::optional<kv::InputError>* rejected);
void unmount(int id);
Panel* find_panel(int id);

// [Setters] The only writers of a panel's scenario and workload.
std::optional<kv::InputError> set_scenario(Panel& panel, const kv::Scenario& scenario);
std::optional<kv::InputError> set_workload(Panel& panel, const kv::Workload& workload);
// A partial state: scenario fields and, for the serving panel, workload fields. All or nothing.
std::optional<kv::InputError> apply_json(Panel& panel, const std::string& partial_json);
// What getState returns and the change hook carries: the scenario's fields, plus the workload's on
// the serving panel.
nlohmann::json state_json(const Panel& panel);
template <typename Edit>
void edit(Panel& panel, Edit change) {
    kv::Scenario next = panel.scenario;
    change(next);
    set_scenario(panel, next);
}
template <typename Edit>
void edit_workload(Panel& panel, Edit change) {
    kv::Workload next = panel.workload;
    change(next);
    set_workload(panel, next);
}
void set_theme(bool dark);
void set_reduced_motion(bool reduce);
void set_visible(Panel& panel, bool visible);
// Emphasises a concept's parts of the panel (a palette concept name, "" for none); redraws only on
// a change. An unknown name is refused and changes nothing.
std::optional<kv::InputError> set_highlight(Panel& panel, const std::string& concept_name);
// The section's focus, {"knobs": [field, ...], "reads": [result path, ...]} or null for none;
// redraws only on a change. Anything else is refused and changes nothing.
std::optional<kv::InputError> set_focus(Panel& panel, const std::string& focus_json);

// [Playback] of the serving panel's recorded run.
void play(Panel& panel, bool on);
void step(Panel& panel, int frames);  // pauses, then moves by `frames`
void seek(Panel& panel, int frame);   // pauses, then jumps to `frame`
// Within app/ (playback.cpp): the run's last frame, the frame where its pool is fullest (where a
// reader who prefers reduced motion is shown it), and one animation frame kept pending while the
// panel plays on screen, none otherwise.
int last_frame(const Panel& panel);
int peak_frame(const kv::Simulation& sim);
void schedule_tick(Panel& panel);

}  // namespace kvapp
