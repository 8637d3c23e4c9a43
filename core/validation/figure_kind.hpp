// Which validation table judges a result field: a memory figure (the start-ups) or a time figure
// (the benchmark runs). Inputs and shapes (bytes per token, parameter counts) are exact arithmetic
// and carry no band; a figure the model does not check against a real engine carries none either.
#pragma once
#include <string_view>

namespace kv {

enum class FigureKind { exact, memory, time };
const char* figure_kind_name(FigureKind kind);  // "exact", "memory", "time"

// `path` as the result JSON spells it: "max_resident_sequences", "simulation.ttft_s.p50".
FigureKind figure_kind(std::string_view path);

}  // namespace kv
