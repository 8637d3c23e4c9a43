// Inside platform/ only: a canvas's surface, which platform_html5.cpp opens and draws and
// input_html5.cpp feeds with the canvas's events. Nothing outside platform/ includes this; the
// rest of wasm/ sees platform/platform_html5.hpp's surface ids.
#pragma once
#include <emscripten/html5.h>
#include <imgui.h>

#include <cstdint>
#include <string>

#include "platform/platform_html5.hpp"

namespace kvui::platform {

// Frames drawn after an event: ImGui shows the effect of an input one frame after it sees it
// (a value changed mid-frame reaches the items above it next frame), and a popup opened by a click
// or a key sizes itself hidden for one frame more.
constexpr int frames_per_move = 2;
constexpr int frames_per_event = 3;

struct Surface {
    int id = 0;
    std::string selector;
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = 0;
    ImGuiContext* imgui = nullptr;
    FrameFn frame;
    HeightFn on_height;

    bool visible = true;         // until the loader's IntersectionObserver says otherwise
    bool missed_frames = false;  // something changed while off screen
    bool context_lost = false;   // the browser took the WebGL context back; frames wait for its return
    SurfaceSize size;            // from the loader: CSS content box and device pixels
    int frames_pending = 0;
    long animation_frame = 0;  // pending requestAnimationFrame id, 0 when none
    double last_frame_time = 0;
    float atlas_pixel_ratio = 0;
    ImTextureID font_texture = nullptr;  // this context's upload of the shared atlas
    float reported_height = -1;

    bool pointer_captured = false;  // a button went down on the canvas and is still held
    double capture_offset_x = 0;    // content-box origin in client coordinates, at mouse down
    double capture_offset_y = 0;
    bool touch_active = false;
    double last_mousedown_time = -1e9;
    bool nav_focus_pending = false;  // focused from the keyboard: show ImGui's nav cursor
    bool blur_pending = false;       // focus left: close popups, hide the nav cursor

    // A key or button released before any frame saw it pressed is released one frame later, so a
    // quick press (down and up within one animation frame) still counts once.
    int64_t frame_count = 0;
    int64_t key_down_frame[512] = {};
    bool key_release_pending[512] = {};
    int64_t button_down_frame[3] = {};
    bool button_release_pending[3] = {};
};

// Makes the surface's GL and ImGui contexts current and returns its io.
ImGuiIO& use(Surface& s);
// Builds and renders one frame now (also off the animation loop, e.g. to hit-test a touch).
void draw(Surface& s);
// Asks for `frames` frames, drawn on animation frames while the surface is on screen.
void invalidate(Surface& s, int frames = frames_per_event);

// [Input] (input_html5.cpp)
void configure_io(ImGuiIO& io);                // ImGui's io for a new context: keyboard navigation, the DOM's key codes
void register_callbacks(Surface& s, bool on);  // the canvas's html5.h callbacks, on or off
void release_capture(Surface& s);              // stops following the mouse on the document

}  // namespace kvui::platform
