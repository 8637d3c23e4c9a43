// Nemotron-H (NVIDIA Nemotron 3 Nano and its kin): hybrid_override_pattern gives each layer one
// block, a Mamba2 mixer, attention, an MLP or a mixture of experts, and the Mamba2 layers keep their
// state in the KV pool. Expected values follow vLLM's code (nemotron_h.py, mamba_utils.py
// mamba2_state_shape, config.py's page alignment and NemotronH's mamba_ssm_cache_dtype hook, PRs
// #29978 and #39032) and lines real start-ups printed:
//  - NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 at 0.12.0 on one H100 (NVIDIA's cookbook,
//    github.com/NVIDIA-NeMo/Nemotron @21a3f95, usage-cookbook/Nemotron-3-Nano/vllm_cookbook.ipynb):
//    "Setting attention block size to 1072 tokens", "Padding mamba page size by 1.13%", "Add 1
//    padding layers, may waste at most 4.35% KV cache memory", "Model loading took 58.9076 GiB";
//  - a Nano-30B fine-tune (Nemotron-Cascade-2, NVFP4) at 0.19.1 with --kv-cache-dtype fp8 and a
//    float32 state: 4176 tokens, 0.19% (a committed run log whose repository the search store does
//    not name, store id 59839511370; the conv state stays 16-bit there, as the block shows).
// The config is the published config.json, as copied verbatim in a research brief (github.com/
// aweditya/tt-model-bringup) and agreeing field for field with two fine-tunes' configs on Hugging Face.
#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "base/units.hpp"
#include "io/fields_json.hpp"
#include "memory/memory_plan.hpp"
#include "model/catalog.hpp"
#include "support.hpp"

using namespace kv;
using kvtest::evaluate_ok;
using kvtest::logs;

namespace {

nlohmann::json nano_30b() {
    return {{"architectures", {"NemotronHForCausalLM"}},
            {"model_type", "nemotron_h"},
            {"hidden_size", 2688},
            {"num_hidden_layers", 52},
            {"hybrid_override_pattern", "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"},
            {"num_attention_heads", 32},
            {"num_key_value_heads", 2},
            {"head_dim", 128},
            {"intermediate_size", 1856},
            {"mlp_hidden_act", "relu2"},
            {"mamba_num_heads", 64},
            {"mamba_head_dim", 64},
            {"ssm_state_size", 128},
            {"n_groups", 8},
            {"conv_kernel", 4},
            {"expand", 2},
            {"use_conv_bias", true},
            {"use_bias", false},
            {"mamba_ssm_cache_dtype", "float32"},
            {"n_routed_experts", 128},
            {"num_experts_per_tok", 6},
            {"moe_intermediate_size", 1856},
            {"moe_shared_expert_intermediate_size", 3712},
            {"n_shared_experts", 1},
            {"n_group", 1},
            {"topk_group", 1},
            {"vocab_size", 131072},
            {"tie_word_embeddings", false},
            {"max_position_embeddings", 262144}};
}

Result nano(const nlohmann::json& config, const char* version, const char* kv_cache_dtype = "auto") {
    return evaluate_ok({{"model_config", config}, {"gpu", "H100"}, {"vllm_version", version}, {"kv_cache_dtype", kv_cache_dtype}});
}

bool has_update_line(const Result& r) {
    for (const char* dtype : {"float32", "float16"})
        if (logs(r, std::string("Updating mamba_ssm_cache_dtype to '") + dtype + "' for NemotronH model")) return true;
    return false;
}

}  // namespace

TEST_CASE("Nemotron-H's pattern: one block a layer, relu^2 experts without a gate") {
    const Result r = nano(nano_30b(), "0.12.0");
    const ModelSpec& m = r.model;
    CHECK(m.linear_kind == LinearKind::mamba2);
    CHECK(m.num_linear_layers == 23);
    CHECK(num_kv_cache_layers(m) == 6);
    CHECK(m.num_mlp_only_layers == 23);
    CHECK(num_row_parallel_blocks(m) == 52);
    CHECK(m.num_dense_layers == 0);
    CHECK_FALSE(m.gated_mlp);
    CHECK(m.head_dim == 128);  // the config's head_dim, not hidden_size / heads (84)
    CHECK(m.shared_expert_intermediate_size == 3712);
    // NVIDIA's model card: 31.6B parameters in all.
    CHECK(static_cast<double>(parameter_count(m)) == Approx(31.6e9).epsilon(0.005));
    CHECK(r.memory.weight_bytes / GiB == Approx(58.9076).epsilon(0.005));  // "Model loading took 58.9076 GiB"
    // The catalog's copy of the config (content/data/models.json) reads to the same model.
    const ModelSpec* catalog = find_model("Nemotron-3-Nano-30B-A3B");
    REQUIRE(catalog);
    CHECK(parameter_count(*catalog) == parameter_count(m));
    CHECK(linear_state_bytes(*catalog, 1) == linear_state_bytes(m, 1));
}

TEST_CASE("at 0.12.0 Nemotron-H's state is 16-bit whatever its config says, as the cookbook's start-up printed") {
    const Result r = nano(nano_30b(), "0.12.0");
    CHECK_FALSE(has_update_line(r));
    // conv (4 - 1) x (4096 + 2 x 8 x 128) and 64 x 64 x 128 recurrent, both 16-bit: 1,085,440 bytes;
    // an attention token-layer is 2 x 2 x 128 x 2 = 1,024 bytes, so 67 x 16 tokens hold one.
    CHECK(r.memory.layout.linear_state_bytes == 1085440.0);
    CHECK(r.memory.layout.block_size == 1072);
    CHECK(logs(r, "Padding mamba page size by 1.13% to ensure that mamba page size and attention page size are exactly equal."));
    // 23 Mamba2 layers in groups of 6 (the attention layers' count): one padding layer among them.
    CHECK(logs(r, "Add 1 padding layers, may waste at most 4.35% KV cache memory", "WARNING"));
}

TEST_CASE("from 0.13.0 the config's mamba_ssm_cache_dtype sets the recurrent state; without one, float16, then float32") {
    const Result fp32 = nano(nano_30b(), "0.14.1");
    CHECK(logs(fp32, "Updating mamba_ssm_cache_dtype to 'float32' for NemotronH model"));
    CHECK(fp32.memory.layout.linear_state_bytes == 3.0 * 6144 * 2 + 64.0 * 64 * 128 * 4);
    CHECK(fp32.memory.layout.block_size == 2096);

    nlohmann::json unset = nano_30b();
    unset.erase("mamba_ssm_cache_dtype");
    const Result fp16 = nano(unset, "0.14.1");
    CHECK(logs(fp16, "Updating mamba_ssm_cache_dtype to 'float16' for NemotronH model"));
    CHECK(fp16.memory.layout.block_size == 1072);
    CHECK(logs(nano(unset, "0.20.0"), "Updating mamba_ssm_cache_dtype to 'float32' for NemotronH model"));  // PR #39032
}

TEST_CASE("an fp8 KV cache halves the attention token but not the conv state: Nemotron-Cascade-2's 4176-token block") {
    const Result r = nano(nano_30b(), "0.19.1", "fp8");
    CHECK(r.memory.layout.block_size == 4176);
    CHECK(logs(r, "Setting attention block size to 4176 tokens to ensure that attention page size is >= mamba page size."));
    CHECK(logs(r, "Padding mamba page size by 0.19% to ensure that mamba page size and attention page size are exactly equal."));
}

TEST_CASE("a Nemotron-H config.json written back reads to the same pool") {
    const Result r = nano(nano_30b(), "0.14.1");
    const Result again = nano(model_to_config(r.model), "0.14.1");
    CHECK(again.model.num_linear_layers == r.model.num_linear_layers);
    CHECK(again.model.num_mlp_only_layers == r.model.num_mlp_only_layers);
    CHECK(again.model.mamba_ssm_config_bytes == 4);
    CHECK(again.memory.weight_bytes == r.memory.weight_bytes);
    CHECK(again.memory.kv_cache_tokens == r.memory.kv_cache_tokens);
}

TEST_CASE("a pattern that does not fit the layers, or keys the model cannot follow, are named") {
    auto field_of = [](const nlohmann::json& config) {
        const auto read = model_from_config(config, "model_config");
        REQUIRE(std::holds_alternative<InputError>(read));
        return std::get<InputError>(read).field;
    };
    nlohmann::json config = nano_30b();
    config["num_hidden_layers"] = 51;
    CHECK(field_of(config) == "model_config.hybrid_override_pattern");
    config = nano_30b();
    config["hybrid_override_pattern"] = std::string(52, 'M');  // no attention layer
    CHECK(field_of(config) == "model_config.hybrid_override_pattern");
    config["hybrid_override_pattern"] = 52;
    CHECK(field_of(config) == "model_config.hybrid_override_pattern");
    config = nano_30b();
    config.erase("n_routed_experts");
    CHECK(field_of(config) == "model_config.n_routed_experts");
    config = nano_30b();
    config["moe_latent_size"] = 4096;  // wider than the hidden state it projects down from
    CHECK(field_of(config) == "model_config.moe_latent_size");
    config = nano_30b();
    config["mamba_ssm_cache_dtype"] = "int8";
    CHECK(field_of(config) == "model_config.mamba_ssm_cache_dtype");
    config = nano_30b();
    config.erase("ssm_state_size");
    CHECK(field_of(config) == "model_config.ssm_state_size");
}

// NVIDIA Nemotron 3 Super (120B-A12B): its config.json as published with the NVFP4 checkpoint
// (nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4 @4f0cf9da, read in a verbatim copy whose repository
// the search store does not name; NVIDIA-NeMo/Megatron-Bridge's Nemotron3SuperProvider agrees), at
// 16 bits. Latent experts (nemotron_h.py's NemotronHMoE, PR #30203): fc1_latent_proj takes the
// hidden state down to 1,024, the 512 routed relu^2 experts run there (up 2,688 x 1,024, down
// 1,024 x 2,688), fc2_latent_proj takes it back; router and shared expert read the full width.
TEST_CASE("Nemotron 3 Super's latent experts: 120.6B parameters, the projections whole on every rank") {
    nlohmann::json super = nano_30b();
    super.update({{"hidden_size", 4096},
                  {"num_hidden_layers", 88},
                  {"hybrid_override_pattern", "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME"},
                  {"intermediate_size", 2688},
                  {"mamba_num_heads", 128},
                  {"n_routed_experts", 512},
                  {"num_experts_per_tok", 22},
                  {"moe_intermediate_size", 2688},
                  {"moe_shared_expert_intermediate_size", 5376},
                  {"moe_latent_size", 1024}});
    const auto read = model_from_config(super, "model_config");
    REQUIRE(std::holds_alternative<ModelSpec>(read));
    const ModelSpec& m = std::get<ModelSpec>(read);
    const ParameterCount p = count_parameters(m);
    CHECK(p.experts == 40LL * 512 * 2 * 1024 * 2688);
    CHECK(p.latent_projections == 40LL * 2 * 4096 * 1024);
    // NVIDIA's report (NVIDIA-NeMo/Nemotron docs/nemotron/super3/README.md): 120.6B in all, 12.7B
    // active. The sum of the checkpoint's tensor shapes (the NVFP4 release's, per MoE layer: experts
    // 2,818,572,288, shared 44,040,192, projections 8,388,608, router 2,097,152 and a 512-entry
    // score bias this count leaves out) is 120,668,707,840.
    CHECK(parameter_count(m) == 120'668'707'840 - 40 * 512);
    CHECK(parameter_count(m) == Approx(120.6e9).epsilon(0.001));
    CHECK(active_parameter_count(m) == Approx(12.7e9).epsilon(0.01));
    // At TP 8 the projections stay whole on each rank: 671 MB, where a split would leave 84 MB.
    const Result tp8 = evaluate_ok({{"model_config", super}, {"gpu", "H200"}, {"vllm_version", "0.17.1"}, {"tensor_parallel_size", 8}});
    const Result tp4 = evaluate_ok({{"model_config", super}, {"gpu", "H200"}, {"vllm_version", "0.17.1"}, {"tensor_parallel_size", 4}});
    const double replicated = 2.0 * static_cast<double>(p.latent_projections);
    CHECK(tp4.memory.weight_bytes - replicated == Approx(2.0 * (tp8.memory.weight_bytes - replicated)).epsilon(0.001));
    // Written back, it reads the same.
    CHECK(evaluate_ok(
              {{"model_config", model_to_config(tp8.model)}, {"gpu", "H200"}, {"vllm_version", "0.17.1"}, {"tensor_parallel_size", 8}})
              .memory.num_gpu_blocks == tp8.memory.num_gpu_blocks);
}

TEST_CASE("mamba_ssm_cache_dtype set replaces the release's choice and no update is logged, and too new a value is refused") {
    nlohmann::json scenario = {
        {"model_config", nano_30b()}, {"gpu", "H100"}, {"vllm_version", "0.12.0"}, {"mamba_ssm_cache_dtype", "float32"}};
    const Result fp32 = evaluate_ok(scenario);
    CHECK(fp32.memory.layout.block_size == 2096);  // the 0.12.0 release would have kept it 16-bit
    CHECK_FALSE(has_update_line(fp32));
    scenario["mamba_ssm_cache_dtype"] = "float16";  // a value PR #29978 added (0.13.0)
    CHECK(kvtest::evaluate_error(scenario.dump()).field == "mamba_ssm_cache_dtype");
    scenario["vllm_version"] = "0.14.1";
    const Result fp16 = evaluate_ok(scenario);
    CHECK(fp16.memory.layout.block_size == 1072);  // the config's float32 is overridden
    CHECK_FALSE(has_update_line(fp16));
}

TEST_CASE("a start-up's --mamba-ssm-cache-dtype is read from its arguments") {
    const std::string paste =
        "(APIServer pid=1) INFO 04-26 11:12:49 [utils.py:299]  vLLM API server version 0.19.1\n"
        "(APIServer pid=1) INFO 04-26 11:12:50 [utils.py:233] non-default args: {'model': '/data/models/Qwen3-Next-80B-A3B-Instruct', "
        "'tensor_parallel_size': 2, 'mamba_ssm_cache_dtype': 'float32'}\n"
        "(Worker_TP0 pid=2) INFO 04-26 11:14:04 [gpu_worker.py:436] Available KV cache memory: 44.59 GiB\n";
    CHECK(kvtest::explained(paste).scenario.mamba_ssm_cache_dtype == "float32");
}
