#include "engine/model_runner.hpp"

#include <initializer_list>
#include <string>

namespace kv {
namespace {

bool is_one_of(const std::string& type, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (type == name) return true;
    return false;
}

}  // namespace

bool runs_model_runner_v2(const EngineRules& rules, const ModelSpec& m) {
    const std::string& type = m.model_type;
    const bool moe = m.num_experts > 0;
    const bool hybrid = m.num_linear_layers > 0;
    const bool quantised_checkpoint = m.weight_format != WeightFormat::bf16;
    // DeepseekV2ForCausalLM, Qwen2MoeForCausalLM and GraniteMoeForCausalLM: the MoE models listed.
    const auto listed_moe = [&] { return is_one_of(type, {"deepseek_v2", "qwen2_moe", "granitemoe"}); };  // asked only where it counts
    switch (rules.model_runner_v2) {
        case ModelRunnerV2Scope::none:
            return false;
        case ModelRunnerV2Scope::qwen3_dense:
            return type == "qwen3" && !moe && !quantised_checkpoint;
        case ModelRunnerV2Scope::qwen3_llama_dense:
            return is_one_of(type, {"qwen3", "llama", "mistral"}) && !moe && !quantised_checkpoint;
        case ModelRunnerV2Scope::listed:
            return is_one_of(type, {"qwen3", "llama", "mistral"}) || listed_moe();
        case ModelRunnerV2Scope::dense_and_listed_moe:
            return !hybrid && (!moe || listed_moe());
        case ModelRunnerV2Scope::all_models:
            return true;
    }
    return false;
}

bool cuda_graph_estimate_in_budget(const EngineRules& rules, const ModelSpec& m, bool enforce_eager) {
    if (!rules.cuda_graphs_in_budget || enforce_eager) return false;
    return rules.model_runner_v2_estimates_cuda_graphs || !runs_model_runner_v2(rules, m);
}

}  // namespace kv
