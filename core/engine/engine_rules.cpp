#include "engine/engine_rules.hpp"

#include <cctype>

namespace kv {

std::optional<EngineVersion> parse_engine_version(const std::string& text) {
    size_t i = (!text.empty() && (text[0] == 'v' || text[0] == 'V')) ? 1 : 0;
    int parts[3] = {0, 0, 0};
    int count = 0;
    while (count < 3 && i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        int value = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            value = value * 10 + (text[i] - '0');
            if (value > 9999) return std::nullopt;
            ++i;
        }
        parts[count++] = value;
        if (i < text.size() && text[i] == '.') ++i;
        else break;
    }
    if (count < 2) return std::nullopt;
    return EngineVersion{parts[0], parts[1], parts[2]};
}

EngineRules engine_rules(const EngineVersion& v) {
    EngineRules r;
    r.version = v;
    r.v1_engine = !(v < EngineVersion{0, 8, 0});
    r.large_batch_devices = v < EngineVersion{0, 7, 0}   ? LargeBatchDevices::none
                            : v < EngineVersion{0, 8, 5} ? LargeBatchDevices::h100_h200
                            : v < EngineVersion{0, 9, 0} ? LargeBatchDevices::memory
                                                         : LargeBatchDevices::memory_not_a100;
    r.v1_seqs_1024_everywhere = v < EngineVersion{0, 8, 4};
    r.cuda_graphs_in_budget = !(v < EngineVersion{0, 20, 0});
    r.hybrid_kv_allocator = !(v < EngineVersion{0, 10, 0});
    r.startup_free_memory_check = r.v1_engine;
    r.newer_profile = !(v < EngineVersion{0, 14, 0});
    r.larger_default_utilization = r.cuda_graphs_in_budget;
    r.loading_log_says_memory = !(v < EngineVersion{0, 11, 0});
    r.kv_cache_memory_bytes_argument = !(v < first_kv_cache_memory_bytes_version);
    r.kv_offloading_argument = !(v < EngineVersion{0, 14, 0});
    r.kv_tokens_from_concurrency = !(v < EngineVersion{0, 21, 0});
    r.refusals_name_cpu_backend = !(v < EngineVersion{0, 22, 0});
    r.model_runner_v2 = v < EngineVersion{0, 22, 0}   ? ModelRunnerV2Scope::none
                        : v < EngineVersion{0, 23, 0} ? ModelRunnerV2Scope::qwen3_dense
                        : v < EngineVersion{0, 24, 0} ? ModelRunnerV2Scope::qwen3_llama_dense
                        : v < EngineVersion{0, 25, 0} ? ModelRunnerV2Scope::listed
                        : v < EngineVersion{0, 29, 0} ? ModelRunnerV2Scope::dense_and_listed_moe
                                                      : ModelRunnerV2Scope::all_models;
    // PR #53306, first released in 0.29.0 (model_runner.hpp has the sources).
    r.model_runner_v2_estimates_cuda_graphs = !(v < EngineVersion{0, 29, 0});
    r.model_runner_v2_loading_log_says_memory = !(v < EngineVersion{0, 29, 0});
    r.sliding_window_counts_batches_in_flight = !(v < EngineVersion{0, 26, 0});
    r.largest_device_batch_defaults = !(v < EngineVersion{0, 28, 0});
    r.combined_kv_capacity_line = !(v < EngineVersion{0, 28, 0});
    r.v0_overhauled = !(v < EngineVersion{0, 6, 0});
    r.v0_chunk_2048 = !(v < EngineVersion{0, 6, 5});
    r.async_scheduling = !(v < EngineVersion{0, 14, 0});
    r.full_decode_graphs = !(v < EngineVersion{0, 11, 0});
    r.custom_allreduce = !(v < EngineVersion{0, 3, 0}) && (v < EngineVersion{0, 3, 1} || !(v < EngineVersion{0, 4, 1}));
    r.fused_moe = !(v < EngineVersion{0, 3, 0});
    r.custom_allreduce_on_amd = !(v < EngineVersion{0, 8, 3});
    r.out_of_place_all_reduce = !(v < EngineVersion{0, 6, 5});
    r.llama_mlp_rebinds_gate_up = !(v < EngineVersion{0, 6, 4});
    r.mla_attention = !(v < EngineVersion{0, 7, 1});
    r.lora_in_profile = !(v < EngineVersion{0, 8, 0});
    r.fused_moe_lora = !(v < EngineVersion{0, 11, 1});
    r.lora_extra_vocab = v < EngineVersion{0, 12, 0};
    r.ssm_float32_argument = !(v < EngineVersion{0, 10, 2});
    r.ssm_float16_argument = !(v < EngineVersion{0, 13, 0});
    r.nemotron_h_ssm_fallback_bytes = v < EngineVersion{0, 13, 0} ? 0 : v < EngineVersion{0, 20, 0} ? 2 : 4;
    return r;
}

EngineRules engine_rules_of(const std::string& vllm_version) {
    const auto version = parse_engine_version(vllm_version);
    EngineRules r = engine_rules(version ? *version : *parse_engine_version(default_vllm_version));
    if (vllm_version.find("rocm") != std::string::npos) r.custom_allreduce_on_amd = true;
    return r;
}

bool v1_refused_before_ampere(const EngineRules& rules, double compute_capability) {
    return compute_capability > 0 && compute_capability < 8.0 && !(rules.version < first_v1_default_version) &&
           rules.version < first_v1_before_ampere_version;
}

EngineRules engine_rules_for(const EngineRules& release, const std::string& engine, double compute_capability,
                             int64_t num_scheduler_steps) {
    EngineRules r = release;
    const bool fallback = engine == "auto" && (v1_refused_before_ampere(r, compute_capability) ||
                                               (num_scheduler_steps > 1 && r.version < first_v1_only_version));
    if (engine == "v1") r.v1_engine = true;
    else if (engine == "v0" || fallback) r.v1_engine = false;
    r.startup_free_memory_check = r.v1_engine;
    return r;
}

}  // namespace kv
