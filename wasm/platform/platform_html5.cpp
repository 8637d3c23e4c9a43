// platform/platform_html5.hpp's surfaces: one WebGL2 and one ImGui context per canvas, and frames
// drawn on demand (a few after each event or change, none while idle, only a height measured while
// off screen). The canvas's events are input_html5.cpp's.
//
// Index of this file:
// [SECTION] Surfaces
// [SECTION] Drawing: frames on demand
// [SECTION] Open, close, visibility
#include "platform/platform_html5.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <GLES3/gl3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "platform/surface.hpp"
#include "ui/fonts.hpp"

namespace kvui::platform {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Surfaces
//-----------------------------------------------------------------------------

std::map<int, std::unique_ptr<Surface>> surfaces;
int next_surface_id = 1;
DrawStats stats;

Surface* find_surface(int id) {
    auto it = surfaces.find(id);
    return it == surfaces.end() ? nullptr : it->second.get();
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing: frames on demand
//-----------------------------------------------------------------------------

struct Geometry {
    double css_w, css_h;
    int fb_w, fb_h;
};

Geometry geometry(const Surface& s) {
    Geometry g{s.size.css_width, s.size.css_height, s.size.pixel_width, s.size.pixel_height};
    if (g.css_w <= 0 || g.css_h <= 0 || g.fb_w <= 0 || g.fb_h <= 0) {  // no size from the loader: ask the DOM
        emscripten_get_element_css_size(s.selector.c_str(), &g.css_w, &g.css_h);
        const double dpr = emscripten_get_device_pixel_ratio();
        g.fb_w = static_cast<int>(std::lround(g.css_w * dpr));
        g.fb_h = static_cast<int>(std::lround(g.css_h * dpr));
    }
    g.css_w = std::max(g.css_w, 1.0);
    g.css_h = std::max(g.css_h, 1.0);
    g.fb_w = std::max(g.fb_w, 1);
    g.fb_h = std::max(g.fb_h, 1);
    return g;
}

void report_height(Surface& s, float content_height) {
    if (std::fabs(content_height - s.reported_height) > 0.5f) {
        s.reported_height = content_height;
        if (s.on_height) s.on_height(content_height);
    }
}

// Off screen: build the frame for its height only, with no GL work, so the canvas keeps the
// height its content needs and the page does not jump when it scrolls back into view.
void measure(Surface& s) {
    ImGuiIO& io = use(s);
    const Geometry geo = geometry(s);
    io.DisplaySize = ImVec2(static_cast<float>(geo.css_w), static_cast<float>(geo.css_h));
    io.DeltaTime = 1e-4f;
    ImGui::NewFrame();
    const float content_height = s.frame();
    ImGui::EndFrame();
    stats.layout_passes += 1;
    report_height(s, content_height);
}

// Before the first frame: the height the content needs instead of the height the page reserved for
// it (lesson.css's estimate per width), so that the canvas's backing store is made once, at its
// height, and not again a frame later: a WebGL canvas reallocates its buffers on every resize. The
// loader gives the canvas the reported height in the same task (kvpanels.js, pendingHeights).
void size_to_content(Surface& s) {
    if (s.size.css_width <= 0 || s.size.css_height <= 0 || s.size.pixel_height <= 0) return;  // the DOM decides
    measure(s);
    if (s.reported_height <= 0) return;
    s.size.css_height = std::ceil(s.reported_height);  // as the loader rounds it (applyHeight)
    s.size.pixel_height = std::max(1, static_cast<int>(std::lround(s.size.css_height * emscripten_get_device_pixel_ratio())));
}

// The canvas's backing store at the device pixels it covers, set only when they changed: a WebGL
// canvas reallocates its drawing buffer on every resize.
void size_backing_store(const Surface& s, const Geometry& geo) {
    int cur_w = 0, cur_h = 0;
    emscripten_get_canvas_element_size(s.selector.c_str(), &cur_w, &cur_h);
    if (cur_w != geo.fb_w || cur_h != geo.fb_h) emscripten_set_canvas_element_size(s.selector.c_str(), geo.fb_w, geo.fb_h);
}

// The backing store, the font atlas and the framebuffer scale from the device pixels the canvas
// really has (the ratio can be fractional, e.g. 1.25, and differ a hair between axes after rounding).
void fit_canvas(Surface& s, ImGuiIO& io, const Geometry& geo) {
    const float ratio = static_cast<float>(geo.fb_w / geo.css_w);
    size_backing_store(s, geo);
    if (std::fabs(ratio - s.atlas_pixel_ratio) > 0.01f) {
        // Device objects, not just the font texture: the backend would otherwise make its own at the
        // first NewFrame and leave this texture behind.
        ImGui_ImplOpenGL3_DestroyDeviceObjects();
        use_fonts(ratio);
        ImGui_ImplOpenGL3_CreateDeviceObjects();  // shaders and this WebGL context's texture of the shared atlas
        s.font_texture = io.Fonts->TexID;
        s.atlas_pixel_ratio = ratio;
    }
    io.Fonts->SetTexID(s.font_texture);  // the atlas is shared; its texture is this context's
    io.DisplaySize = ImVec2(static_cast<float>(geo.css_w), static_cast<float>(geo.css_h));
    io.DisplayFramebufferScale = ImVec2(ratio, static_cast<float>(geo.fb_h / geo.css_h));
}

// What the focus events left for this frame (called after NewFrame): a blur closes popups and
// hides the keyboard cursor; focus from the keyboard shows it, on the first item if none has it.
void apply_focus_changes(Surface& s) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    if (s.blur_pending) {
        if (g.OpenPopupStack.Size > 0) ImGui::ClosePopupToLevel(0, false);
        g.NavDisableHighlight = true;
        s.blur_pending = false;
    }
    if (s.nav_focus_pending && g.NavWindow) {
        g.NavDisableHighlight = false;
        if (g.NavId == 0) ImGui::NavInitWindow(g.NavWindow, false);
        s.nav_focus_pending = false;
    }
}

void count_frame(double start, double built, double end) {
    const double elapsed = end - start;
    stats.frames += 1;
    stats.total_ms += elapsed;
    stats.build_ms += built - start;
    stats.render_ms += end - built;
    stats.last_ms = elapsed;
    stats.max_ms = std::max(stats.max_ms, elapsed);
    if (stats.first_frame_at_ms < 0) stats.first_frame_at_ms = emscripten_get_now();
}

// Keys and buttons let go before a frame saw them pressed (Surface's quick presses), released
// now that one has, with two frames more to show it.
void release_quick_presses(Surface& s, ImGuiIO& io) {
    bool released = false;
    for (int k = 0; k < 512; ++k)
        if (s.key_release_pending[k]) {
            io.KeysDown[k] = false;
            s.key_release_pending[k] = false;
            released = true;
        }
    for (int b = 0; b < 3; ++b)
        if (s.button_release_pending[b]) {
            io.MouseDown[b] = false;
            s.button_release_pending[b] = false;
            released = true;
        }
    if (released) s.frames_pending = std::max(s.frames_pending, 2);
}

// A lost context (the GPU reset, the browser reclaiming contexts from a page that holds many, or
// the page giving it back while the panel is far off screen: kvpanels.js) is kept for restoring:
// handled, the loss lets the browser give it back. The GL objects of the old context are gone, so
// the backend lets go of them at the loss (calls on a lost context do nothing and warn of nothing;
// on the restored one each delete would warn) and makes its shaders, buffers and this context's
// atlas texture again on return; the panel's state never left the module.
EM_BOOL on_context_lost(int, const void*, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    if (s.context_lost) return EM_TRUE;
    s.context_lost = true;
    if (s.animation_frame) emscripten_cancel_animation_frame(s.animation_frame);
    s.animation_frame = 0;
    use(s);
    ImGui_ImplOpenGL3_Shutdown();
    return EM_TRUE;
}

EM_BOOL on_context_restored(int, const void*, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    if (!s.context_lost) return EM_TRUE;
    use(s);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    s.atlas_pixel_ratio = 0;  // fit_canvas uploads the atlas again
    s.context_lost = false;
    invalidate(s, frames_per_event);
    return EM_TRUE;
}

void watch_context(Surface& s, bool on) {
    emscripten_set_webglcontextlost_callback(s.selector.c_str(), on ? &s : nullptr, EM_FALSE, on ? on_context_lost : nullptr);
    emscripten_set_webglcontextrestored_callback(s.selector.c_str(), on ? &s : nullptr, EM_FALSE, on ? on_context_restored : nullptr);
}

EM_BOOL on_animation_frame(double, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    s.animation_frame = 0;
    if (!s.visible) {
        s.missed_frames = true;
        return EM_FALSE;
    }
    draw(s);
    if (--s.frames_pending > 0) {
        s.animation_frame = emscripten_request_animation_frame(on_animation_frame, &s);
        stats.animation_requests += 1;
    }
    return EM_FALSE;  // never a continuous loop
}

}  // namespace

ImGuiIO& use(Surface& s) {
    emscripten_webgl_make_context_current(s.gl);
    ImGui::SetCurrentContext(s.imgui);
    return ImGui::GetIO();
}

void draw(Surface& s) {
    if (s.context_lost) {  // nothing to draw with: keep the height, draw on the context's return
        measure(s);
        s.missed_frames = true;
        return;
    }
    const double start = emscripten_get_now();
    ImGuiIO& io = use(s);
    const Geometry geo = geometry(s);
    fit_canvas(s, io, geo);
    io.DeltaTime = static_cast<float>(std::clamp((start - s.last_frame_time) / 1000.0, 1e-4, 0.1));
    s.last_frame_time = start;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    apply_focus_changes(s);
    const float content_height = s.frame();
    ImGui::Render();
    const double built = emscripten_get_now();

    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glViewport(0, 0, geo.fb_w, geo.fb_h);
    glDisable(GL_SCISSOR_TEST);  // the last frame's clip rectangle would limit the clear (the backend restores nothing)
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    count_frame(start, built, emscripten_get_now());

    s.frame_count += 1;
    release_quick_presses(s, io);
    report_height(s, content_height);
}

void invalidate(Surface& s, int frames) {
    s.frames_pending = std::max(s.frames_pending, frames);
    if (!s.visible) {
        s.missed_frames = true;
        return;
    }
    if (s.animation_frame == 0) {
        s.animation_frame = emscripten_request_animation_frame(on_animation_frame, &s);
        stats.animation_requests += 1;
    }
}

}  // namespace kvui::platform

namespace kvui {

using namespace platform;

//-----------------------------------------------------------------------------
// [SECTION] Open, close, visibility
//-----------------------------------------------------------------------------

int surface_open(const std::string& selector, SurfaceSize size, FrameFn frame, HeightFn on_height, std::string* error) {
    auto s = std::make_unique<Surface>();
    s->id = next_surface_id++;
    s->selector = selector;
    s->size = size;
    s->frame = std::move(frame);
    s->on_height = std::move(on_height);
    s->last_frame_time = emscripten_get_now();
    // The context does not own its atlas: every panel shares one per pixel ratio (ui/fonts.hpp). It
    // starts with its canvas's own, which fit_canvas then uses, so a phone (ratio 2 or 3) does not
    // also draw every glyph at ratio 1 for a context that never shows them.
    const float ratio = size.css_width > 0 ? static_cast<float>(size.pixel_width / size.css_width) : 1.0f;
    s->imgui = ImGui::CreateContext(shared_atlas(ratio));
    ImGui::SetCurrentContext(s->imgui);
    configure_io(ImGui::GetIO());
    // Measured and sized before the WebGL context exists, so that its drawing buffer is made once,
    // at the canvas's final size (tens of ms a reallocation on a software renderer).
    size_to_content(*s);
    size_backing_store(*s, geometry(*s));

    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_FALSE;  // opaque: the panel paints its own background
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;  // ImGui anti-aliases its own geometry
    attributes.preserveDrawingBuffer = EM_FALSE;
    s->gl = emscripten_webgl_create_context(selector.c_str(), &attributes);
    if (s->gl <= 0) {  // the canvas keeps its measured size and the loader its height: the page says why
        ImGui::DestroyContext(s->imgui);
        if (error) *error = "no WebGL2 context on " + selector;
        return -1;
    }
    emscripten_webgl_make_context_current(s->gl);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    register_callbacks(*s, true);
    watch_context(*s, true);
    Surface& ref = *s;
    surfaces[ref.id] = std::move(s);
    draw(ref);  // the first frame now: no blank canvas while the page lays out
    invalidate(ref);
    return ref.id;
}

void surface_close(int id) {
    Surface* s = find_surface(id);
    if (!s) return;
    if (s->animation_frame) emscripten_cancel_animation_frame(s->animation_frame);
    release_capture(*s);
    register_callbacks(*s, false);
    watch_context(*s, false);
    use(*s);
    if (!s->context_lost) ImGui_ImplOpenGL3_Shutdown();  // a lost context's backend let go at the loss
    ImGui::DestroyContext(s->imgui);
    emscripten_webgl_destroy_context(s->gl);
    surfaces.erase(id);
}

void surface_invalidate(int id) {
    Surface* s = find_surface(id);
    if (!s) return;
    if (!s->visible) measure(*s);
    invalidate(*s);
}

void surface_invalidate_all() {
    for (auto& [id, s] : surfaces) invalidate(*s);
}

void surface_set_visible(int id, bool visible) {
    Surface* s = find_surface(id);
    if (!s || s->visible == visible) return;
    s->visible = visible;
    if (visible && (s->missed_frames || s->frames_pending > 0)) {
        s->missed_frames = false;
        invalidate(*s);
    }
}

void surface_resize(int id, SurfaceSize size) {
    Surface* s = find_surface(id);
    if (!s || s->size == size) return;  // e.g. the height size_to_content() gave it
    s->size = size;
    // At once: the loader calls this from a ResizeObserver, before the browser paints, so the
    // resized canvas is never shown stretched.
    if (s->visible) draw(*s);
    invalidate(*s);
}

const DrawStats& draw_stats() { return stats; }

void reset_draw_stats() {
    const double first = stats.first_frame_at_ms;
    stats = DrawStats{};
    stats.first_frame_at_ms = first;
}

}  // namespace kvui
