// Every number the lesson prints goes through here: panels, CLI, site generator and tests share it.
// Memory is binary (KiB, MiB, GiB: what vLLM and nvidia-smi print); rates and bandwidth are
// decimal. Times are printed in ms below one second with three significant digits.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kv {

std::string format_count(int64_t value);                           // 1,048,576
std::string format_counted(int64_t value, std::string_view noun);  // "1 layer", "36 layers" (noun singular; plural adds s)
std::string format_fixed(double value, int decimals);              // 0.90 (no separators)
std::string format_grouped(double value, int decimals);            // 2,322.4
std::string format_significant(double value, int digits);          // 2,300 for (2322, 2)
std::string format_bytes(double bytes);                            // 144 KiB, 55.7 GiB
std::string format_gib(double bytes, int decimals);                // 55.66 GiB
std::string format_duration(double seconds);                       // 27.9 ms, 1.23 s
std::string format_percent(double fraction, int decimals);         // 83%
std::string format_band(double fraction);                          // ±12%, ±0.6%: a median error, to two digits
std::string format_factor(double ratio, int decimals);             // 3.17×; 41,591× from 100 on
std::string format_params(double params);                          // 8.19B
std::string format_tokens_per_s(double rate);                      // 2,322 tokens/s
std::string format_flops_per_s(double rate);                       // 989 TFLOP/s (decimal, as data sheets)
std::string format_bandwidth(double bytes_per_s);                  // 3.35 TB/s (decimal, as data sheets)
std::string format_intensity(double flops_per_byte);               // 295 FLOP/B (arithmetic intensity)
// Text a reader gave, as a message echoes it: at most 60 bytes, cut at a character's start with "..."
// (a 10 MB model name is never echoed whole, and the message stays valid UTF-8).
std::string format_excerpt(std::string_view text);

// Named formats, used by the lesson's figure bindings: `count`, `sig2`, `sig3`, `fixed0..3`,
// `bytes`, `bytes_exact`, `kib`, `mib`, `gib0`, `gib1`, `gib2`, `ms0`, `ms1`, `duration`,
// `percent`, `percent1`, `band`, `x1`, `x2`, `params`, `tokens_per_s`, `flops_per_s`, `bandwidth`,
// `intensity`.
std::optional<std::string> format_named(double value, std::string_view format_name);
const std::vector<std::string>& named_formats();

}  // namespace kv
