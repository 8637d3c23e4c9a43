#include "logs/log_scan.hpp"

#include <cctype>
#include <cstdlib>

namespace kv {

// The number right after `marker` (spaces, '(' and '=' skipped; thousands separators dropped).
std::optional<double> number_after(std::string_view line, std::string_view marker) {
    const size_t at = line.find(marker);
    if (at == std::string_view::npos) return std::nullopt;
    size_t i = at + marker.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == '(' || line[i] == '=')) ++i;
    std::string digits;
    for (; i < line.size(); ++i) {
        const char c = line[i];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || (c == '-' && digits.empty())) digits += c;
        else if (c == ',' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])) && !digits.empty() &&
                 i + 3 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 3])))
            continue;  // 1,048,576
        else break;
    }
    if (digits.empty() || digits == "-" || digits == ".") return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    return end && *end == '\0' ? std::optional<double>(v) : std::nullopt;
}

std::optional<int64_t> integer_after(std::string_view line, std::string_view marker) {
    auto v = number_after(line, marker);
    if (!v || *v < 0 || *v > 9.0e15) return std::nullopt;
    return static_cast<int64_t>(*v);
}

// A word after `marker`, up to a comma, space, quote or closing bracket.
std::optional<std::string> word_after(std::string_view line, std::string_view marker) {
    const size_t at = line.find(marker);
    if (at == std::string_view::npos) return std::nullopt;
    size_t i = at + marker.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == '\'' || line[i] == '"')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ',' && line[j] != ' ' && line[j] != '\'' && line[j] != '"' && line[j] != ')' && line[j] != '}')
        ++j;
    if (j == i) return std::nullopt;
    return std::string(line.substr(i, j - i));
}

namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "2026-05-14 12:43:20.134 " or "2024-05-01T10:00:00.123456789Z ": a date-time a collector or
// `docker logs -t` put first; its length, else 0.
size_t timestamp_length(std::string_view line) {
    if (line.size() < 19 || !digit(line[0]) || !digit(line[3]) || line[4] != '-' || line[7] != '-' ||
        (line[10] != ' ' && line[10] != 'T') || line[13] != ':' || line[16] != ':')
        return 0;
    size_t i = 19;
    while (i < line.size() && line[i] != ' ' && line[i] != '|') ++i;
    return i;
}

// "qwen3-1  | ", "vllm-server | " (docker compose) or a timestamp and " | ": the part before the
// first '|', if it is a service name or a time; its length with the bar and a space, else 0.
size_t bar_prefix_length(std::string_view line) {
    const size_t bar = line.find('|');
    if (bar == std::string_view::npos || bar == 0 || bar > 64) return 0;
    for (size_t i = 0; i < bar; ++i) {
        const char c = line[i];
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == ':' || c == ' ' || c == '/'))
            return 0;
    }
    return bar + 1 + (bar + 1 < line.size() && line[bar + 1] == ' ' ? 1 : 0);
}

// "[pod/vllm-0/vllm] " (kubectl logs --prefix).
size_t kubectl_prefix_length(std::string_view line) {
    if (!starts_with(line, "[pod/")) return 0;
    const size_t close = line.find("] ");
    return close == std::string_view::npos || close > 200 ? 0 : close + 2;
}

// "Mar 03 10:00:00 host vllm[1234]: " (journald, syslog).
size_t journal_prefix_length(std::string_view line) {
    if (line.size() < 16 || !std::isupper(static_cast<unsigned char>(line[0])) || line[3] != ' ' || line[9] != ':' || line[12] != ':')
        return 0;
    const size_t end = line.find("]: ");
    return end == std::string_view::npos || end > 160 ? 0 : end + 3;
}

// "vLLM STDOUT: INFO ..." (a launcher that relays the server's output, such as Unsloth's): a short
// label and ": " right before vLLM's own level; its length, else 0.
size_t relay_prefix_length(std::string_view line) {
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 40) return 0;
    for (size_t i = 0; i < colon; ++i)
        if (!(std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == ' ' || line[i] == '-' || line[i] == '_')) return 0;
    const std::string_view rest = line.substr(colon + 2);
    for (std::string_view level : {"INFO ", "WARNING ", "ERROR ", "DEBUG "})
        if (starts_with(rest, level)) return colon + 2;
    return 0;
}

}  // namespace

std::string_view strip_prefixes(std::string_view line) {
    // A paste can carry several: a collector's time before docker compose's service name.
    for (int round = 0; round < 3; ++round) {
        size_t skip = timestamp_length(line);
        if (skip == 0) skip = kubectl_prefix_length(line);
        if (skip == 0) skip = journal_prefix_length(line);
        if (skip == 0) skip = bar_prefix_length(line);
        if (skip == 0) skip = relay_prefix_length(line);
        if (skip == 0) break;
        line = line.substr(skip);
        while (!line.empty() && (line.front() == ' ' || line.front() == '|')) line.remove_prefix(1);
    }
    return line;
}

std::optional<int64_t> data_parallel_rank(std::string_view line) {
    for (std::string_view tag : {"EngineCore_DP", "Worker_DP", "EngineCore_"}) {
        const size_t at = line.find(tag);
        if (at == std::string_view::npos || at > 4) continue;
        const size_t i = at + tag.size();
        if (i < line.size() && digit(line[i])) return integer_after(line.substr(at), tag);
    }
    return std::nullopt;
}

// A line that says the GPU ran out of memory (CUDA or HIP, PyTorch's words or the driver's).
bool out_of_memory(std::string_view line) {
    for (std::string_view m :
         {"CUDA out of memory", "HIP out of memory", "OutOfMemoryError", "CUDA error: out of memory", "HIP error: out of memory"})
        if (contains(line, m)) return true;
    return false;
}

// A line that says a collective failed: NCCL's errors, or its watchdog's timeout.
bool nccl_failure(std::string_view line) {
    for (std::string_view m : {"NCCL error", "ncclUnhandledCudaError", "ncclInternalError", "ncclSystemError", "ncclInvalidUsage",
                               "ncclRemoteError", "Watchdog caught collective operation timeout"})
        if (contains(line, m)) return true;
    return false;
}

}  // namespace kv
