// The browser side of the panels, all of it: for each canvas one WebGL2 context and one Dear ImGui
// context, input from Emscripten's html5.h callbacks registered on that canvas only, and frames
// drawn on events. Nothing runs while a page is idle: an input event or a state change asks for a
// few frames (ImGui settles hover and active states over two), then the loop stops. A canvas the
// loader reports off screen draws nothing (a state change there only re-measures its height, with
// no GL work) and draws when it comes back.
//   Mouse: down/move/up on the canvas; while a button is held, move/up on the document too (a
//   slider dragged past the edge still follows and releases). Wheel: not listened to, so the page
//   scrolls under a panel. Keyboard: the canvas is focusable (the loader gives it tabindex); arrows,
//   Space, Enter, Escape drive ImGui's keyboard navigation; Tab is left to the page so focus can
//   leave the panel. Touch: a touch on a control drags it; a touch elsewhere scrolls the page.
// Sizes: ImGui lays out in CSS pixels; the canvas backing store is the device pixels of its content
// box, and the font atlas is rasterised at that ratio (io.DisplayFramebufferScale), so text is crisp.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace kvui {

// Builds one ImGui frame for the surface (between NewFrame and Render) and returns the height in
// CSS pixels its content wants.
using FrameFn = std::function<float()>;
// The content height changed (the loader sizes the canvas to it, so the page, not the panel, scrolls).
using HeightFn = std::function<void(float)>;

// The canvas's content box in CSS pixels, the device pixels it covers, and where it starts inside
// the border box that mouse coordinates are measured from (border + padding). The loader reads
// them from the DOM and ResizeObserver; zero sizes mean "ask the DOM".
struct SurfaceSize {
    double css_width = 0, css_height = 0;
    int pixel_width = 0, pixel_height = 0;
    double content_left = 0, content_top = 0;
    bool operator==(const SurfaceSize&) const = default;
};

// Opens a surface on the canvas matching `selector` ("#id"). Returns its id, or -1 and `error`.
int surface_open(const std::string& selector, SurfaceSize size, FrameFn frame, HeightFn on_height, std::string* error);
void surface_close(int surface);
void surface_invalidate(int surface);  // something changed: draw (when on screen)
void surface_invalidate_all();
void surface_set_visible(int surface, bool visible);
void surface_resize(int surface, SurfaceSize size);  // CSS size or devicePixelRatio changed

struct DrawStats {
    int64_t frames = 0;              // frames drawn, all surfaces
    int64_t animation_requests = 0;  // requestAnimationFrame calls made
    int64_t layout_passes = 0;       // off-screen frames built for their height only (no GL)
    double total_ms = 0;             // CPU time inside frames (ImGui, panels, core, GL submission)
    double last_ms = 0;
    double max_ms = 0;
    double first_frame_at_ms = -1;  // performance.now() when the first frame finished
    double build_ms = 0;            // of which building the frame: ImGui, the panels, core calls
    double render_ms = 0;           // of which GL submission (it waits when the GPU falls behind)
};
const DrawStats& draw_stats();
void reset_draw_stats();

}  // namespace kvui
