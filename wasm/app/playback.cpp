// The serving panel's playback: one requestAnimationFrame chain per playing panel that advances the
// run and asks the panel's surface for a frame; it stops when the run is paused, reaches its end or
// goes off screen, so a paused or hidden panel requests no frames at all.
#include <emscripten/html5.h>

#include <algorithm>
#include <cstdint>

#include "app/app.hpp"
#include "platform/platform_html5.hpp"

namespace kvapp {

// The frame of the run where the pool is fullest: where a paused panel (reduced motion) rests.
int peak_frame(const kv::Simulation& sim) {
    int best = 0;
    int32_t most = -1;
    for (size_t f = 0; f < sim.frames.size(); ++f) {
        const size_t step = static_cast<size_t>(sim.frames[f].step);
        if (step < sim.steps.size() && sim.steps[step].blocks_used > most) {
            most = sim.steps[step].blocks_used;
            best = static_cast<int>(f);
        }
    }
    return best;
}

int last_frame(const Panel& panel) { return std::max(0, static_cast<int>(panel.simulation.frames.size()) - 1); }

namespace {

// Pool frames per second of playback: the 400 frames of a run take 16 s.
constexpr double frames_per_second = 25.0;

EM_BOOL on_tick(double now_ms, void* user) {
    Panel* panel = find_panel(static_cast<int>(reinterpret_cast<intptr_t>(user)));
    if (!panel) return EM_FALSE;
    Panel::Playback& pb = panel->playback;
    pb.tick_request = 0;
    if (!pb.playing || !panel->visible) {
        pb.last_tick_ms = -1;
        return EM_FALSE;
    }
    const double dt = pb.last_tick_ms < 0 ? 0.0 : std::clamp((now_ms - pb.last_tick_ms) / 1000.0, 0.0, 0.1);
    pb.last_tick_ms = now_ms;
    pb.clock += dt * frames_per_second;
    const int advance = static_cast<int>(pb.clock);
    if (advance > 0) {
        pb.clock -= advance;
        pb.frame = std::min(pb.frame + advance, last_frame(*panel));
        if (pb.frame >= last_frame(*panel)) pb.playing = false;  // stops at the end of the run
        kvui::surface_invalidate(panel->surface);
    }
    schedule_tick(*panel);
    return EM_FALSE;
}

}  // namespace

// Keeps one animation frame pending while the panel plays on screen, none otherwise.
void schedule_tick(Panel& panel) {
    Panel::Playback& pb = panel.playback;
    const bool wanted = pb.playing && panel.visible && panel.surface;
    if (wanted && pb.tick_request == 0) {
        pb.tick_request = emscripten_request_animation_frame(on_tick, reinterpret_cast<void*>(static_cast<intptr_t>(panel.id)));
    } else if (!wanted && pb.tick_request != 0) {
        emscripten_cancel_animation_frame(pb.tick_request);
        pb.tick_request = 0;
    }
    if (!wanted) pb.last_tick_ms = -1;
}

void play(Panel& panel, bool on) {
    panel.first_run = false;  // the reader's (or page's) say wins over the mount's autoplay
    Panel::Playback& pb = panel.playback;
    on = on && !panel.simulation.frames.empty();
    if (on && pb.frame >= last_frame(panel)) pb.frame = 0;  // play at the end starts over
    if (pb.playing == on) return;
    pb.playing = on;
    pb.clock = 0;
    schedule_tick(panel);
    kvui::surface_invalidate(panel.surface);
}

void step(Panel& panel, int frames) {
    play(panel, false);
    seek(panel, panel.playback.frame + frames);
}

void seek(Panel& panel, int frame) {
    play(panel, false);
    const int to = std::clamp(frame, 0, last_frame(panel));
    if (to == panel.playback.frame) return;
    panel.playback.frame = to;
    kvui::surface_invalidate(panel.surface);
}

}  // namespace kvapp
