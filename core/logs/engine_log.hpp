// The engine log the panels show: vLLM's own start-up and stats lines in vLLM's format, the
// lesson's lines that say what the numbers mean, and failures in plain words. Built from the
// result's numbers only.
#pragma once
#include <string>
#include <vector>

#include "result/evaluate.hpp"

namespace kv {

enum class LogKind { info, warning, failure, lesson };
const char* log_kind_name(LogKind kind);

struct LogLine {
    LogKind kind = LogKind::info;
    std::string text;
};

std::vector<LogLine> engine_log(const Result& result);

}  // namespace kv
