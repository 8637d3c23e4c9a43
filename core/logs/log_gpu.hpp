// Which card a start-up log ran on, read from the memory it reports.
#pragma once
#include <string>
#include <vector>

#include "logs/log_parser.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// The card a log names by its memory (the logged total, else the one its CUDA-graph advice implies)
// into s.gpu, the match said in `assumptions` where it is not exact; false, and the starting
// point's card (an H100), where the log names neither.
bool gpu_by_memory(const ParsedLog& p, Scenario& s, std::vector<std::string>& assumptions);

}  // namespace kv
