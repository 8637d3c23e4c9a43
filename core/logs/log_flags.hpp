// The launch settings a log states, under each of their three spellings: the engine config line
// ("max_seq_len=4096, "), the non-default args ("{'max_model_len': 4096, ") and a pasted command
// line ("vllm serve MODEL --max-model-len 4096").
#pragma once
#include <string_view>

#include "logs/log_parser.hpp"

namespace kv {

enum class FlagForm { config_line, args_dict, command_line };

// Every setting `line` states in `form`, over what `log` held.
void read_flags(ParsedLog& log, std::string_view line, FlagForm form);

}  // namespace kv
