// Plain scans over one log line, shared by the log's readers: no regular expressions, linear in
// the line's length.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kv {

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
inline bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// The number right after `marker` (spaces, '(' and '=' skipped; thousands separators dropped).
std::optional<double> number_after(std::string_view line, std::string_view marker);
std::optional<int64_t> integer_after(std::string_view line, std::string_view marker);
// A word after `marker`, up to a comma, space, quote or closing bracket.
std::optional<std::string> word_after(std::string_view line, std::string_view marker);

// A line without the prefixes a paste adds before vLLM's own: a collector's or `docker logs -t`
// timestamp, docker compose's "service-1  | ", kubectl's "[pod/name/container] ", journald's
// "Mon DD HH:MM:SS host unit[pid]: ", a relaying launcher's "vLLM STDOUT: " (vLLM's own
// "(EngineCore pid=75)" tags stay).
std::string_view strip_prefixes(std::string_view line);
// The data-parallel rank a worker tag names: "(EngineCore_DP1 pid=..)", "(Worker_DP0_EP0 pid=..)".
std::optional<int64_t> data_parallel_rank(std::string_view line);

// Failures a line reports: the GPU out of memory; a collective (NCCL) that failed or timed out.
bool out_of_memory(std::string_view line);
bool nccl_failure(std::string_view line);

template <typename T>
void keep(std::optional<T>& slot, const std::optional<T>& value) {
    if (value) slot = value;
}

}  // namespace kv
