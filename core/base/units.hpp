// Binary sizes for memory (GiB, as nvidia-smi and vLLM print them), decimal rates for bandwidth and
// FLOP/s (TB/s, TFLOP/s, as vendors print them). Decided once; format.hpp prints accordingly.
#pragma once

namespace kv {
inline constexpr double KiB = 1024.0;
inline constexpr double MiB = 1024.0 * KiB;
inline constexpr double GiB = 1024.0 * MiB;
inline constexpr double TB = 1e12;
}  // namespace kv
