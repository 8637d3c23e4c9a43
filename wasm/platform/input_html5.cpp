// The canvas's input, as platform/platform_html5.hpp describes it: mouse and touch (a held button
// followed on the document, a touch off the controls left to the page's scrolling), and the
// keys ImGui's keyboard navigation needs, with focus and blur. Every event asks for frames.
//
// Index of this file:
// [SECTION] Mouse and touch
// [SECTION] Keyboard and focus
// [SECTION] Set-up: io and callbacks
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>

#include "platform/surface.hpp"

namespace kvui::platform {
namespace {

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

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Set-up: io and callbacks
//-----------------------------------------------------------------------------

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

void release_capture(Surface& s) {
    if (!s.pointer_captured) return;
    s.pointer_captured = false;
    emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_TRUE, nullptr);
    emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_TRUE, nullptr);
}

}  // namespace kvui::platform
