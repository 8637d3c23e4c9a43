#include "logs/log_flags.hpp"

#include <array>
#include <string>

#include "logs/log_scan.hpp"

namespace kv {
namespace {

struct Spellings {
    std::string_view config, args, command;
};
template <typename T>
struct Setting {
    Spellings names;
    std::optional<T> ParsedLog::*slot;
};

constexpr std::array<Setting<int64_t>, 10> integer_settings{{
    {{"max_seq_len", "max_model_len", "--max-model-len"}, &ParsedLog::max_model_len},
    {{"tensor_parallel_size", "tensor_parallel_size", "--tensor-parallel-size"}, &ParsedLog::tensor_parallel_size},
    {{"pipeline_parallel_size", "pipeline_parallel_size", "--pipeline-parallel-size"}, &ParsedLog::pipeline_parallel_size},
    {{"data_parallel_size", "data_parallel_size", "--data-parallel-size"}, &ParsedLog::data_parallel_size},
    {{"max_num_seqs", "max_num_seqs", "--max-num-seqs"}, &ParsedLog::max_num_seqs},
    {{"max_num_batched_tokens", "max_num_batched_tokens", "--max-num-batched-tokens"}, &ParsedLog::max_num_batched_tokens},
    {{"block_size", "block_size", "--block-size"}, &ParsedLog::block_size},
    // Not on the engine's config line; in the non-default args and the command (0.11+, PR #21489).
    {{"", "kv_cache_memory_bytes", "--kv-cache-memory-bytes"}, &ParsedLog::kv_cache_memory_bytes},
    {{"", "max_loras", "--max-loras"}, &ParsedLog::max_loras},
    {{"", "max_lora_rank", "--max-lora-rank"}, &ParsedLog::max_lora_rank},
}};
constexpr std::array<Setting<std::string>, 6> word_settings{{
    {{"model", "model", "--model"}, &ParsedLog::model},
    {{"", "model_tag", ""}, &ParsedLog::model},  // `vllm serve MODEL`'s positional argument
    {{"kv_cache_dtype", "kv_cache_dtype", "--kv-cache-dtype"}, &ParsedLog::kv_cache_dtype},
    {{"quantization", "quantization", "--quantization"}, &ParsedLog::quantization},
    {{"dtype", "dtype", "--dtype"}, &ParsedLog::dtype},
    {{"", "mamba_ssm_cache_dtype", "--mamba-ssm-cache-dtype"}, &ParsedLog::mamba_ssm_cache_dtype},
}};
constexpr std::array<Setting<bool>, 4> switch_settings{{
    {{"enforce_eager", "enforce_eager", "--enforce-eager"}, &ParsedLog::enforce_eager},
    {{"disable_custom_all_reduce", "disable_custom_all_reduce", "--disable-custom-all-reduce"}, &ParsedLog::disable_custom_all_reduce},
    {{"enable_expert_parallel", "enable_expert_parallel", "--enable-expert-parallel"}, &ParsedLog::enable_expert_parallel},
    {{"", "enable_lora", "--enable-lora"}, &ParsedLog::enable_lora},
}};

std::string_view name_in(const Spellings& s, FlagForm form) {
    return form == FlagForm::config_line ? s.config : form == FlagForm::args_dict ? s.args : s.command;
}

std::string joined(std::string_view a, std::string_view b, std::string_view c) {
    std::string out;
    out.reserve(a.size() + b.size() + c.size());
    out.append(a).append(b).append(c);
    return out;
}

// The word a setting is given: "key=word", "'key': word", "--flag word" or "--flag=word".
std::optional<std::string> given(std::string_view line, std::string_view name, FlagForm form) {
    if (name.empty()) return std::nullopt;
    if (form == FlagForm::args_dict) return word_after(line, joined("'", name, "':"));
    if (form == FlagForm::config_line) return word_after(line, joined("", name, "="));
    for (std::string_view joint : {" ", "="})
        if (auto w = word_after(line, joined("", name, joint)); w && w->front() != '-') return w;
    return std::nullopt;
}

// --speculative-config as the engine config line (SpeculativeConfig(method='eagle', ...,
// num_spec_tokens=3)), the non-default args' nested dict or the command's JSON writes it.
void read_speculative(ParsedLog& p, std::string_view line) {
    const size_t at = line.find("speculative");
    if (at == std::string_view::npos || contains(line, "speculative_config=None") || contains(line, "'speculative_config': None")) return;
    const std::string_view rest = line.substr(at);
    std::optional<std::string> method;
    for (std::string_view marker : {"method='", "'method': '", "\"method\": \"", "\"method\":\""}) keep(method, word_after(rest, marker));
    if (method) {
        const bool mtp = method->size() >= 3 && method->compare(method->size() - 3, 3, "mtp") == 0;  // deepseek_mtp, qwen3_next_mtp...
        if (mtp || *method == "ngram" || *method == "eagle" || *method == "eagle3" || *method == "draft_model")
            p.speculative_method = mtp ? "mtp" : *method;
    }
    for (std::string_view marker :
         {"num_spec_tokens=", "'num_speculative_tokens': ", "\"num_speculative_tokens\": ", "\"num_speculative_tokens\":"})
        keep(p.num_speculative_tokens, integer_after(rest, marker));
}

}  // namespace

void read_flags(ParsedLog& p, std::string_view line, FlagForm form) {
    read_speculative(p, line);
    if (form == FlagForm::command_line) {
        // `vllm serve MODEL ...`: the model comes first, without a flag.
        if (const size_t serve = line.find("vllm serve "); serve != std::string_view::npos) {
            size_t i = serve + 11;
            while (i < line.size() && line[i] == ' ') ++i;
            if (i < line.size() && line[i] != '-') keep(p.model, word_after(line.substr(i), ""));
        }
        keep(p.tensor_parallel_size, integer_after(line, " -tp "));
        keep(p.data_parallel_size, integer_after(line, " -dp "));
    }
    for (const auto& s : integer_settings)
        if (auto w = given(line, name_in(s.names, form), form)) keep(p.*s.slot, integer_after(*w, ""));
    for (const auto& s : word_settings) keep(p.*s.slot, given(line, name_in(s.names, form), form));
    for (const auto& s : switch_settings) {
        const std::string_view name = name_in(s.names, form);
        if (form == FlagForm::command_line) {
            if (contains(line, name)) p.*s.slot = true;
        } else if (auto w = given(line, name, form)) {
            p.*s.slot = *w == "True" || *w == "true";
        }
    }
    const std::string_view utilisation = form == FlagForm::command_line ? "--gpu-memory-utilization" : "gpu_memory_utilization";
    if (auto w = given(line, utilisation, form)) keep(p.gpu_memory_utilization, number_after(*w, ""));
    // Not on the engine's config line (it becomes the KV transfer config's cpu_bytes_to_use).
    static constexpr std::string_view offloading_names[] = {"kv_offloading_size", "--kv-offloading-size", "--kv_offloading_size"};
    if (form == FlagForm::args_dict) {
        if (auto w = given(line, offloading_names[0], form)) keep(p.kv_offloading_size_gib, number_after(*w, ""));
    } else if (form == FlagForm::command_line) {
        for (std::string_view name : {offloading_names[1], offloading_names[2]})
            if (auto w = given(line, name, form)) keep(p.kv_offloading_size_gib, number_after(*w, ""));
    }
}

}  // namespace kv
