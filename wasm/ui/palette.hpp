// One colour per concept, in one place: the panels draw with these and the page's prose uses the
// same values as CSS custom properties (site/css/palette.css is generated from this table by
// wasm/palette_css.mjs and checked by tests/browser/panels.test.mjs). Colours are sRGB 0xRRGGBB,
// a light and a dark value each; the module picks one by the reader's prefers-color-scheme.
#pragma once
#include <cstdint>

namespace kvui {

enum class Colour {
    // Concepts of the lesson, in the order the HBM bar draws them first.
    outside_budget,  // HBM left to the CUDA context, allocator and driver
    weights,         // the model's parameters (this rank's shard)
    activation,      // the profile run's activation peak (the largest forward pass)
    non_torch,       // memory outside PyTorch's allocator: CUDA context growth, NCCL buffers
    cuda_graphs,     // captured CUDA graphs (inside the budget from vLLM 0.20.0)
    kv_used,         // KV pool held by running sequences
    kv_free,         // KV pool nobody holds
    prefill,         // the prompt's forward pass (time to first token)
    decode,          // one token per sequence per step (inter-token latency)
    memory,          // HBM traffic and the time it takes; the roofline's bandwidth slope
    compute,         // tensor-core work and its time; the roofline's compute roof
    communication,   // tensor-parallel all-reduces
    failure,         // a scenario that cannot run; rejected input
    warning,         // engine warnings
    // The panels' own chrome.
    background,
    surface,  // knob frames, chart plot areas
    surface_hover,
    surface_active,
    border,
    text,
    text_muted,
    accent,  // slider grabs, checks, keyboard focus
    count
};

struct Swatch {
    const char* name;  // CSS: --kv-<name>
    uint32_t light;
    uint32_t dark;
};

inline constexpr Swatch palette[static_cast<int>(Colour::count)] = {
    {"outside-budget", 0xADB5BD, 0x5C636A}, {"weights", 0x1C7ED6, 0x4DABF7},       {"activation", 0xF59F00, 0xFCC419},
    {"non-torch", 0x495057, 0x868E96},      {"cuda-graphs", 0xAE3EC9, 0xDA77F2},   {"kv-used", 0x2B8A3E, 0x51CF66},
    {"kv-free", 0xB2F2BB, 0x2F5D3A},        {"prefill", 0x7048E8, 0x9775FA},       {"decode", 0xD6336C, 0xF06595},
    {"memory", 0x0C8599, 0x3BC9DB},         {"compute", 0xE8590C, 0xFF922B},       {"communication", 0x8D6E63, 0xBCAAA4},
    {"failure", 0xC92A2A, 0xFF6B6B},        {"warning", 0xB35C00, 0xFFA94D},       {"background", 0xFFFFFF, 0x1A1B1E},
    {"surface", 0xF1F3F5, 0x25262B},        {"surface-hover", 0xE9ECEF, 0x2C2E33}, {"surface-active", 0xDEE2E6, 0x373A40},
    {"border", 0xCED4DA, 0x40434A},         {"text", 0x212529, 0xE9ECEF},          {"text-muted", 0x626A72, 0xA0A7AF},
    {"accent", 0x3B5BDB, 0x91A7FF},
};

constexpr uint32_t rgb(Colour c, bool dark) {
    const Swatch& s = palette[static_cast<int>(c)];
    return dark ? s.dark : s.light;
}

}  // namespace kvui
