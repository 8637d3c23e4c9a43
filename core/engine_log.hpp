// The engine log the panels show: vLLM's own start-up and stats lines in vLLM's format, the
// lesson's lines that say what the numbers mean, and failures in plain words. Built from the
// result's numbers only.
#pragma once
#include "evaluate.hpp"

namespace kv {

void write_engine_log(Result& result);

}  // namespace kv
