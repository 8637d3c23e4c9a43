// platform/platform_html5.hpp's surfaces: one WebGL2 and one ImGui context per canvas, frames
// drawn on demand, and the canvas's mouse, touch, keyboard and focus events through html5.h.
//
// Index of this file:
// [SECTION] Surfaces: one WebGL2 + one ImGui context per canvas
// [SECTION] Drawing: frames on demand
// [SECTION] Mouse and touch
// [SECTION] Keyboard and focus
// [SECTION] Open, close, visibility
#include "platform/platform_html5.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <GLES3/gl3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <memory>

#include "ui/fonts.hpp"

namespace kvui {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Surfaces: one WebGL2 + one ImGui context per canvas
//-----------------------------------------------------------------------------

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

std::map<int, std::unique_ptr<Surface>> surfaces;
int next_surface_id = 1;
DrawStats stats;

Surface* find_surface(int id) {
    auto it = surfaces.find(id);
    return it == surfaces.end() ? nullptr : it->second.get();
}

// Makes the surface's GL and ImGui contexts current and returns its io.
ImGuiIO& use(Surface& s) {
    emscripten_webgl_make_context_current(s.gl);
    ImGui::SetCurrentContext(s.imgui);
    return ImGui::GetIO();
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

void draw(Surface& s) {
    const double start = emscripten_get_now();
    ImGuiIO& io = use(s);
    const Geometry geo = geometry(s);
    const double css_w = geo.css_w, css_h = geo.css_h;
    const int fb_w = geo.fb_w, fb_h = geo.fb_h;
    // Atlas and framebuffer scale from the device pixels the canvas really has (the ratio can be
    // fractional, e.g. 1.25, and differ a hair between axes after rounding).
    const float ratio = static_cast<float>(fb_w / css_w);
    int cur_w = 0, cur_h = 0;
    emscripten_get_canvas_element_size(s.selector.c_str(), &cur_w, &cur_h);
    if (cur_w != fb_w || cur_h != fb_h) emscripten_set_canvas_element_size(s.selector.c_str(), fb_w, fb_h);
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
    io.DisplaySize = ImVec2(static_cast<float>(css_w), static_cast<float>(css_h));
    io.DisplayFramebufferScale = ImVec2(ratio, static_cast<float>(fb_h / css_h));
    io.DeltaTime = static_cast<float>(std::clamp((start - s.last_frame_time) / 1000.0, 1e-4, 0.1));
    s.last_frame_time = start;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
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
    const float content_height = s.frame();
    ImGui::Render();
    const double built = emscripten_get_now();

    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    const double end = emscripten_get_now();
    const double elapsed = end - start;
    stats.frames += 1;
    stats.total_ms += elapsed;
    stats.build_ms += built - start;
    stats.render_ms += end - built;
    stats.last_ms = elapsed;
    stats.max_ms = std::max(stats.max_ms, elapsed);
    if (stats.first_frame_at_ms < 0) stats.first_frame_at_ms = emscripten_get_now();

    s.frame_count += 1;
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
    report_height(s, content_height);
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

void invalidate(Surface& s, int frames = frames_per_event) {
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

//-----------------------------------------------------------------------------
// [SECTION] Mouse and touch
//-----------------------------------------------------------------------------

int imgui_button(unsigned short dom_button) {
    switch (dom_button) {
        case 0:
            return 0;  // primary
        case 1:
            return 2;  // middle
        case 2:
            return 1;  // secondary
        default:
            return -1;
    }
}

EM_BOOL on_document_mouse(int type, const EmscriptenMouseEvent* e, void* user);

void release_capture(Surface& s) {
    if (!s.pointer_captured) return;
    s.pointer_captured = false;
    emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_TRUE, nullptr);
    emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_TRUE, nullptr);
}

EM_BOOL on_canvas_mouse(int type, const EmscriptenMouseEvent* e, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    ImGuiIO& io = use(s);
    io.KeyCtrl = e->ctrlKey;
    io.KeyShift = e->shiftKey;
    io.KeyAlt = e->altKey;
    io.KeySuper = e->metaKey;
    const ImVec2 pos(static_cast<float>(e->targetX - s.size.content_left), static_cast<float>(e->targetY - s.size.content_top));
    switch (type) {
        case EMSCRIPTEN_EVENT_MOUSEDOWN: {
            const int b = imgui_button(e->button);
            if (b < 0) return EM_FALSE;
            io.MousePos = pos;
            io.MouseDown[b] = true;
            s.button_down_frame[b] = s.frame_count;
            s.button_release_pending[b] = false;
            s.last_mousedown_time = emscripten_get_now();
            if (!s.pointer_captured) {
                s.pointer_captured = true;
                s.capture_offset_x = static_cast<double>(e->clientX - e->targetX) + s.size.content_left;
                s.capture_offset_y = static_cast<double>(e->clientY - e->targetY) + s.size.content_top;
                emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, &s, EM_TRUE, on_document_mouse);
                emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, &s, EM_TRUE, on_document_mouse);
            }
            invalidate(s);
            return EM_TRUE;  // no text selection or native drag; the loader focuses the canvas
        }
        case EMSCRIPTEN_EVENT_MOUSEMOVE:
            if (s.pointer_captured) return EM_FALSE;  // the document listener has it
            io.MousePos = pos;
            invalidate(s, frames_per_move);
            return EM_FALSE;
        case EMSCRIPTEN_EVENT_MOUSELEAVE:
            if (s.pointer_captured) return EM_FALSE;
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            invalidate(s, frames_per_move);
            return EM_FALSE;
        default:
            return EM_FALSE;
    }
}

EM_BOOL on_document_mouse(int type, const EmscriptenMouseEvent* e, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    ImGuiIO& io = use(s);
    io.MousePos = ImVec2(static_cast<float>(e->clientX - s.capture_offset_x), static_cast<float>(e->clientY - s.capture_offset_y));
    if (type == EMSCRIPTEN_EVENT_MOUSEUP) {
        const int b = imgui_button(e->button);
        if (b >= 0) {
            if (s.button_down_frame[b] == s.frame_count) s.button_release_pending[b] = true;
            else io.MouseDown[b] = false;
        }
        release_capture(s);
    }
    invalidate(s, type == EMSCRIPTEN_EVENT_MOUSEUP ? frames_per_event : frames_per_move);
    return EM_FALSE;
}

// A touch on a control drives it like a mouse; a touch anywhere else is left to the page, so a
// reader can scroll past a panel with a finger. Which one it is needs a frame with the new
// position, drawn at once so the answer is ready before the browser acts on the event.
EM_BOOL on_touch(int type, const EmscriptenTouchEvent* e, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    const EmscriptenTouchPoint* touch = nullptr;
    for (int i = 0; i < e->numTouches; ++i)
        if (e->touches[i].isChanged) {
            touch = &e->touches[i];
            break;
        }
    if (!touch) return EM_FALSE;
    ImGuiIO& io = use(s);
    const ImVec2 pos(static_cast<float>(touch->targetX - s.size.content_left), static_cast<float>(touch->targetY - s.size.content_top));
    switch (type) {
        case EMSCRIPTEN_EVENT_TOUCHSTART: {
            io.MousePos = pos;
            draw(s);
            const bool on_control = ImGui::GetCurrentContext()->HoveredId != 0;
            if (!on_control) return EM_FALSE;
            use(s).MouseDown[0] = true;
            s.button_down_frame[0] = s.frame_count;
            s.button_release_pending[0] = false;
            s.touch_active = true;
            invalidate(s);
            return EM_TRUE;
        }
        case EMSCRIPTEN_EVENT_TOUCHMOVE:
            if (!s.touch_active) return EM_FALSE;
            io.MousePos = pos;
            invalidate(s, frames_per_move);
            return EM_TRUE;
        default:  // end, cancel
            if (!s.touch_active) return EM_FALSE;
            if (s.button_down_frame[0] == s.frame_count) s.button_release_pending[0] = true;
            else io.MouseDown[0] = false;
            s.touch_active = false;
            invalidate(s);
            return EM_TRUE;
    }
}

//-----------------------------------------------------------------------------
// [SECTION] Keyboard and focus
//-----------------------------------------------------------------------------

// DOM keyCodes ImGui's keyboard navigation uses. Everything else (Tab, Page Up/Down, shortcuts)
// is left to the browser.
constexpr int key_enter = 13, key_escape = 27, key_space = 32;
constexpr int key_left = 37, key_up = 38, key_right = 39, key_down = 40;

bool navigation_key(unsigned long code) {
    return code == key_enter || code == key_escape || code == key_space || (code >= key_left && code <= key_down);
}

EM_BOOL on_key(int type, const EmscriptenKeyboardEvent* e, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    if (!navigation_key(e->keyCode) || e->altKey || e->metaKey) return EM_FALSE;
    ImGuiIO& io = use(s);
    io.KeyCtrl = e->ctrlKey;
    io.KeyShift = e->shiftKey;
    const unsigned long k = e->keyCode;
    if (type == EMSCRIPTEN_EVENT_KEYDOWN) {
        io.KeysDown[k] = true;
        s.key_down_frame[k] = s.frame_count;
        s.key_release_pending[k] = false;
    } else if (s.key_down_frame[k] == s.frame_count) {
        s.key_release_pending[k] = true;
    } else {
        io.KeysDown[k] = false;
    }
    invalidate(s);
    return EM_TRUE;  // arrows and Space would scroll the page under a focused panel
}

EM_BOOL on_focus(int type, const EmscriptenFocusEvent*, void* user) {
    Surface& s = *static_cast<Surface*>(user);
    ImGuiIO& io = use(s);
    const bool focused = (type == EMSCRIPTEN_EVENT_FOCUS);
    io.AddFocusEvent(focused);
    if (focused) {
        // Focus that follows a click is the mouse's; otherwise it came from Tab.
        s.nav_focus_pending = (emscripten_get_now() - s.last_mousedown_time) > 500.0;
    } else {
        s.blur_pending = true;
        s.nav_focus_pending = false;
    }
    invalidate(s);
    return EM_FALSE;
}

void configure_io(ImGuiIO& io) {
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;  // the page's cursor stays the page's
    io.BackendPlatformName = "kv_html5";
    io.KeyMap[ImGuiKey_LeftArrow] = key_left;
    io.KeyMap[ImGuiKey_RightArrow] = key_right;
    io.KeyMap[ImGuiKey_UpArrow] = key_up;
    io.KeyMap[ImGuiKey_DownArrow] = key_down;
    io.KeyMap[ImGuiKey_Space] = key_space;
    io.KeyMap[ImGuiKey_Enter] = key_enter;
    io.KeyMap[ImGuiKey_KeyPadEnter] = key_enter;
    io.KeyMap[ImGuiKey_Escape] = key_escape;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

void register_callbacks(Surface& s, bool on) {
    const char* t = s.selector.c_str();
    void* u = on ? &s : nullptr;
    emscripten_set_mousedown_callback(t, u, EM_FALSE, on ? on_canvas_mouse : nullptr);
    emscripten_set_mousemove_callback(t, u, EM_FALSE, on ? on_canvas_mouse : nullptr);
    emscripten_set_mouseleave_callback(t, u, EM_FALSE, on ? on_canvas_mouse : nullptr);
    emscripten_set_touchstart_callback(t, u, EM_FALSE, on ? on_touch : nullptr);
    emscripten_set_touchmove_callback(t, u, EM_FALSE, on ? on_touch : nullptr);
    emscripten_set_touchend_callback(t, u, EM_FALSE, on ? on_touch : nullptr);
    emscripten_set_touchcancel_callback(t, u, EM_FALSE, on ? on_touch : nullptr);
    emscripten_set_keydown_callback(t, u, EM_FALSE, on ? on_key : nullptr);
    emscripten_set_keyup_callback(t, u, EM_FALSE, on ? on_key : nullptr);
    emscripten_set_focus_callback(t, u, EM_FALSE, on ? on_focus : nullptr);
    emscripten_set_blur_callback(t, u, EM_FALSE, on ? on_focus : nullptr);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Open, close, visibility
//-----------------------------------------------------------------------------

int surface_open(const std::string& selector, SurfaceSize size, FrameFn frame, HeightFn on_height, std::string* error) {
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_FALSE;  // opaque: the panel paints its own background
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;  // ImGui anti-aliases its own geometry
    attributes.preserveDrawingBuffer = EM_FALSE;
    const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = emscripten_webgl_create_context(selector.c_str(), &attributes);
    if (gl <= 0) {
        if (error) *error = "no WebGL2 context on " + selector;
        return -1;
    }
    auto s = std::make_unique<Surface>();
    s->id = next_surface_id++;
    s->selector = selector;
    s->size = size;
    s->gl = gl;
    s->frame = std::move(frame);
    s->on_height = std::move(on_height);
    s->last_frame_time = emscripten_get_now();
    emscripten_webgl_make_context_current(gl);
    // The context does not own its atlas: every panel shares one per pixel ratio (ui/fonts.hpp).
    s->imgui = ImGui::CreateContext(shared_atlas(1.0f));
    ImGui::SetCurrentContext(s->imgui);
    configure_io(ImGui::GetIO());
    ImGui_ImplOpenGL3_Init("#version 300 es");
    register_callbacks(*s, true);
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
    use(*s);
    ImGui_ImplOpenGL3_Shutdown();
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
    if (!s) return;
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
