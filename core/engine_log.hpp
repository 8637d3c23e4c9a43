// The engine log the panels show: vLLM's own start-up and stats lines in vLLM's format, the
// lesson's lines that say what the numbers mean, and failures in plain words. Built from the
// result's numbers only.
#pragma once
#include <vector>

#include "evaluate.hpp"

namespace kv {

std::vector<LogLine> engine_log(const Result& result);

}  // namespace kv
