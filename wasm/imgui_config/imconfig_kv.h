// Dear ImGui build options for the panels (IMGUI_USER_CONFIG): the same for the imgui library and
// our code, so the ABI agrees.
#pragma once

#define IMGUI_DISABLE_OBSOLETE_FUNCTIONS   // only the 1.86 API
#define IMGUI_DISABLE_FILE_FUNCTIONS       // no imgui.ini and no fopen: the module has no filesystem
#define IMGUI_DISABLE_METRICS_WINDOW       // debug windows are never shown to readers
#define IMGUI_DISABLE_DEMO_WINDOWS
#define ImDrawIdx unsigned int             // WebGL2 draws 32-bit indices; text-heavy panels pass 64k vertices
