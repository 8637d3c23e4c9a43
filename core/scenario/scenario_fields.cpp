#include "scenario/scenario_fields.hpp"

#include <cstdio>
#include <cstdlib>

namespace kv {
namespace {

// The rows' lists, constant data (nothing runs at start-up).
constexpr Choice bf16_or_fp8[] = {{"bf16", "BF16"}, {"fp8", "FP8"}};
constexpr Choice ssm_state_dtypes[] = {{"auto", "auto"}, {"float32", "float32"}, {"float16", "float16"}};
constexpr Choice engines[] = {{"auto", "auto"}, {"v0", "V0"}, {"v1", "V1"}};
constexpr Choice entries[] = {{"serve", "vllm serve"}, {"offline", "LLM class"}};
constexpr Choice speculative_methods[] = {{"none", "none"},      {"ngram", "n-gram"}, {"eagle", "EAGLE"},
                                          {"eagle3", "EAGLE-3"}, {"mtp", "MTP"},      {"draft_model", "draft model"}};
constexpr Choice versions[] = {
    {"0.6.3", "0.6.3", "V0 engine: profiles max(max_model_len, 2,048) tokens; the server turns chunked prefill on above 32K (512)"},
    {"0.8.5", "0.8.5", "V1 engine: profiles max_num_batched_tokens"},
    {"0.10.1", "0.10.1", "V1, sliding-window layers keep only their window"},
    {"0.13.0", "0.13.0", "V1, CUDA graphs still outside the budget"},
    {"0.20.0", "0.20.0", "CUDA graphs inside the budget, utilisation 0.92 by default"},
    {"0.21.0", "0.21.0", "the KV cache size line counts the pool's requests x max_model_len"},
    {"0.26.0", "0.26.0", "model runner V2 runs dense models without a CUDA-graph estimate"},
    {"0.28.0", "0.28.0", "GPUs of 160 GiB or more batch 16,384 tokens; one KV cache line"},
    {"0.31.0", "0.31.0", "the newest: model runner V2 estimates its CUDA graphs (from 0.29)"},
};
constexpr LogStops prompt_stops = log_stops(128, 131072), output_stops = log_stops(1, 32768), sequence_stops = log_stops(1, 4096),
                   batched_token_stops = log_stops(256, 131072), model_len_stops = log_stops(256, 1 << 24);
constexpr double deployed_tp[] = {1, 2, 4, 8};
constexpr double offload_stops[] = {0, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};

// The rows, in the order the panels list their knobs; a row with a label is a knob (knobs.cpp).
// Designated initializers follow FieldSpec's member order (scenario/fields.hpp).
constexpr FieldSpec rows[] = {
    {.name = "model",
     .type = FieldType::text,
     .rule = TextRule::model_id,
     .flag = "--model",
     .label = "model",
     .help = "The checkpoint vLLM serves (--model). Its config.json fixes num_hidden_layers, num_key_value_heads and "
             "head_dim (or MLA's latent width), hence the KV bytes per token, and the parameter count, hence the "
             "weights. The lesson page's \"Your own model or GPU\" form (or the model_config field) takes a "
             "config.json of your own."},
    {.name = "model_config",
     .type = FieldType::object,
     .nullable = true,
     .help = "A Hugging Face config.json as published; null goes back to the catalog model named by model."},
    {.name = "gpu",
     .type = FieldType::text,
     .rule = TextRule::gpu_id,
     .label = "GPU",
     .help = "The accelerator. The memory CUDA reports (a little under the marketed size) sets the budget, HBM "
             "bandwidth sets the decode step, tensor-core throughput sets the prefill. The lesson page's \"Your own "
             "model or GPU\" form (or the gpu_config field) describes one of your own."},
    {.name = "gpu_config",
     .type = FieldType::object,
     .nullable = true,
     .help = "A GPU of your own (memory, bandwidth, tensor throughput, interconnect); null goes back to the catalog GPU."},
    {.name = "prompt_tokens",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 1 << 20,
     .stops = prompt_stops.span(),
     .unit = "tokens",
     .label = "prompt tokens",
     .help = "Prompt length of every request, in tokens. With the output tokens it sets the KV cache one sequence "
             "holds: this simulation gives each sequence a block for its full final length."},
    {.name = "output_tokens",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 1 << 20,
     .stops = output_stops.span(),
     .unit = "tokens",
     .label = "output tokens",
     .help = "Tokens generated per request (the request's max_tokens). Adds to each sequence's cache and sets how many "
             "decode steps a request takes."},
    {.name = "concurrent_requests",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 4096,
     .stops = sequence_stops.span(),
     .unit = "requests",
     .label = "concurrent requests",
     .help = "Requests the clients keep in flight. The scheduler runs as many as the KV pool and max_num_seqs allow; "
             "the rest wait (vLLM's \"Waiting: N reqs\")."},
    {.name = "gpu_memory_utilization",
     .type = FieldType::number,
     .lo = 0.05,
     .hi = 1.0,
     .decimals = 2,
     .nullable = true,
     .unit = "fraction",
     .flag = "--gpu-memory-utilization",
     .label = "gpu_memory_utilization",
     .help = "vLLM's --gpu-memory-utilization: the fraction of the memory CUDA reports that the engine may use. Weights, "
             "the profile run's activation peak, memory outside PyTorch, CUDA graphs (from 0.20.0) and the KV pool all "
             "come out of it; the rest is left to the driver and whatever else runs on the GPU."},
    {.name = "kv_cache_dtype",
     .type = FieldType::choice,
     .choices = bf16_or_fp8,
     .alias = "auto",
     .choice_words = "\"bf16\" or \"fp8\"",
     .flag = "--kv-cache-dtype",
     .label = "kv cache precision",
     .help = "vLLM's --kv-cache-dtype: auto keeps the model's BF16; fp8 stores keys and values in one byte, halving the "
             "bytes per token and doubling the sequences the pool holds."},
    {.name = "weight_dtype",
     .type = FieldType::choice,
     .choices = bf16_or_fp8,
     .alias = "auto",
     .choice_words = "\"bf16\" or \"fp8\"",
     .flag = "--quantization",
     .label = "weight precision",
     .help = "Weight precision (--quantization fp8 or an FP8 checkpoint): halves the weight bytes, which enlarges the "
             "KV pool, and runs the matmuls on FP8 tensor cores where the GPU has them."},
    {.name = "max_num_seqs",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 4096,
     .nullable = true,
     .stops = sequence_stops.span(),
     .unit = "sequences",
     .flag = "--max-num-seqs",
     .label = "max_num_seqs",
     .help = "vLLM's --max-num-seqs: the most sequences the scheduler runs in one step. It caps what the scheduler "
             "tries to run; the KV pool caps what it can. Unset, the engine picks it (1,024 on large GPUs, and on all "
             "in V1 before 0.8.4; 256 otherwise); \"default\" goes back to that."},
    {.name = "max_num_batched_tokens",
     .type = FieldType::integer,
     .lo = 16,
     .hi = 1 << 20,
     .nullable = true,
     .stops = batched_token_stops.span(),
     .unit = "tokens",
     .flag = "--max-num-batched-tokens",
     .label = "max_num_batched_tokens",
     .help = "vLLM's --max-num-batched-tokens: the token budget of one forward pass. It sizes the profile run's "
             "activation peak and the prefill chunk that rides along with a decode step (chunked prefill). Unset, the "
             "engine picks it for the version, GPU and entry point; \"default\" goes back to that."},
    {.name = "max_model_len",
     .type = FieldType::integer,
     .lo = 16,
     .hi = 1 << 24,
     .nullable = true,
     .stops = model_len_stops.span(),
     .unit = "tokens",
     .flag = "--max-model-len",
     .label = "max_model_len",
     .help = "vLLM's --max-model-len: the longest request the engine accepts. Unset, it is the model's "
             "max_position_embeddings. At start-up the engine refuses unless one request this long fits in the KV pool, "
             "and its \"Maximum concurrency\" line divides the pool by it. \"default\" goes back to the model's."},
    {.name = "tensor_parallel_size",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 64,
     .stops = deployed_tp,
     .unit = "GPUs",
     .flag = "--tensor-parallel-size",
     .label = "tensor parallel size",
     .help = "vLLM's --tensor-parallel-size: GPUs that split every layer. Each rank holds 1/N of the weights and of "
             "every sequence's cache, and the ranks all-reduce twice per layer over the GPUs' interconnect. The engine "
             "refuses a size that does not divide the attention heads."},
    {.name = "vllm_version",
     .type = FieldType::text,
     .rule = TextRule::vllm_version,
     .choices = versions,
     .choice_words = "a version string such as \"0.6.3\" or \"0.31.0\" (0.2.5 or newer: the first to count memory outside torch)",
     .label = "vLLM version",
     .help = "The vLLM release whose start-up accounting the engine follows. Before 0.8 (V0) the profile run pushes "
             "max(max_model_len, 2048) tokens through without chunked prefill; V1 profiles max_num_batched_tokens. From "
             "0.9 large GPUs get bigger batch defaults, from 0.10 sliding-window layers keep only their window, and from "
             "0.20 the CUDA graphs come out of the budget, except, from 0.22 to 0.28, those of the models model runner V2 "
             "ran."},
    {.name = "enforce_eager",
     .type = FieldType::boolean,
     .flag = "--enforce-eager",
     .label = "enforce_eager",
     .help = "vLLM's --enforce-eager: run without capturing CUDA graphs. Saves their memory (inside the budget from "
             "0.20.0, in the headroom outside it before) and costs some decode speed, which this model leaves out."},
    {.name = "disable_custom_all_reduce",
     .type = FieldType::boolean,
     .flag = "--disable-custom-all-reduce",
     .help = "vLLM's --disable-custom-all-reduce: tensor-parallel all-reduces go through NCCL (RCCL on AMD GPUs) instead "
             "of vLLM's own kernel, which costs latency on every one of them. Upstream vLLM disabled its kernel on AMD GPUs "
             "itself before 0.8.3."},
    {.name = "force_mha",
     .type = FieldType::boolean,
     .label = "force multi-head attention",
     .help = "Not a vLLM flag: a what-if that gives every query head its own K and V head (num_key_value_heads = "
             "num_attention_heads), as the model would be without grouped-query attention. k_proj and v_proj widen too."},
    {.name = "entry",
     .type = FieldType::choice,
     .choices = entries,
     .choice_words = "\"serve\" (vllm serve) or \"offline\" (the LLM class)",
     .help = "How vLLM was started: vllm serve (the OpenAI server) or the offline LLM(...) class; they get different batch defaults."},
    {.name = "block_size",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 256,
     .nullable = true,
     .unit = "tokens",
     .flag = "--block-size",
     .help = "vLLM's --block-size: tokens per KV-cache block. Unset, 16 (64 for MLA models on V1)."},
    {.name = "kv_cache_memory_bytes",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 1LL << 50,
     .nullable = true,
     .unit = "bytes",
     .flag = "--kv-cache-memory-bytes",
     .help = "vLLM's --kv-cache-memory-bytes (from 0.11.0, PR #21489): the KV pool of every GPU, in bytes. The engine "
             "still runs its profile run but sizes nothing from it: gpu_memory_utilization no longer sizes the pool, no "
             "CUDA-graph estimate comes out of it, and nothing checks that the weights and activations fit beside it. "
             "Unset, the pool is what the utilisation leaves."},
    {.name = "pipeline_parallel_size",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 16,
     .unit = "GPUs",
     .flag = "--pipeline-parallel-size",
     .help = "vLLM's --pipeline-parallel-size: GPUs that each hold a consecutive slice of the layers."},
    {.name = "data_parallel_size",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 64,
     .stops = deployed_tp,
     .unit = "engines",
     .flag = "--data-parallel-size",
     .help = "vLLM's --data-parallel-size: engines that each run the whole model on their own tensor x pipeline parallel "
             "GPUs, with their own KV pool, and take their share of the requests. Every figure is one engine's (the pool "
             "each prints); the deployment holds data_parallel_size times as many sequences on tensor x pipeline x data "
             "parallel GPUs. An MoE's routed experts are split over the tensor x data parallel GPUs of all engines."},
    {.name = "enable_expert_parallel",
     .type = FieldType::boolean,
     .flag = "--enable-expert-parallel",
     .help = "vLLM's --enable-expert-parallel: an MoE's routed experts are dealt out whole over the tensor x data parallel "
             "GPUs (the first GPUs take one more when they do not divide evenly) instead of every GPU holding a slice of "
             "every expert. The other weights stay split by tensor parallelism alone. A dense model ignores it."},
    {.name = "engine",
     .type = FieldType::choice,
     .choices = engines,
     .choice_words = "auto, v0 or v1",
     .help = "Which of vLLM's engines runs, as the VLLM_USE_V1 environment variable chose it. auto: the release's own "
             "choice, V0 before 0.8.0 and V1 from it, except that V1 lacked features and fell back to V0 for them until "
             "0.11.0: a GPU before Ampere (compute capability under 8.0: T4, V100) until 0.10.2, num_scheduler_steps above "
             "1, and others the model does not follow (an FP8 cache some GPUs' V1 attention could not read). v0: "
             "VLLM_USE_V1=0, until 0.11.0 removed V0. v1: VLLM_USE_V1=1, from 0.6.4 (V1's accounting as of 0.8.0)."},
    {.name = "num_scheduler_steps",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 64,
     .unit = "steps",
     .flag = "--num-scheduler-steps",
     .help = "V0's multi-step scheduling (0.5.5 to 0.7, PR #7000): the scheduler and the output processing run once per N "
             "forward passes instead of every pass. V1 ignores it."},
    {.name = "enable_lora",
     .type = FieldType::boolean,
     .flag = "--enable-lora",
     .help = "vLLM's --enable-lora: serve LoRA adapters. At load time the engine allocates, in every layer it wraps "
             "(attention and MLP projections, the embedding and lm_head, from 0.11.1 an MoE's experts), buffers for "
             "max_loras adapters of max_lora_rank, whether or not any adapter is ever loaded. From 0.8.0 they are part of "
             "what \"Model loading took\" reports, so they come out of the KV pool; before, they sat in the headroom."},
    {.name = "max_loras",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 256,
     .unit = "adapters",
     .flag = "--max-loras",
     .help = "vLLM's --max-loras (default 1): how many LoRA adapters one batch may use at once; every LoRA buffer holds "
             "this many. Only with enable_lora."},
    {.name = "max_lora_rank",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 512,
     .unit = "rank",
     .flag = "--max-lora-rank",
     .help = "vLLM's --max-lora-rank (default 16; the engine accepts 1, 8, 16, 32, 64, 128, 256, 320 or 512): the rank "
             "every LoRA buffer is sized for, whatever the adapters' own ranks. Only with enable_lora."},
    {.name = "speculative_method",
     .type = FieldType::choice,
     .choices = speculative_methods,
     .choice_words = "none, ngram, eagle, eagle3, mtp or draft_model",
     .flag = "--speculative-config",
     .help = "The method of vLLM's --speculative-config (V1): a drafter guesses num_speculative_tokens tokens a "
             "sequence and one pass of the model checks them. ngram looks them up in the prompt; eagle and eagle3 "
             "add one layer of the model's shape; mtp runs the checkpoint's prediction layer; draft_model a small "
             "model. Its weights and attention layers take memory from the pool."},
    {.name = "num_speculative_tokens",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 16,
     .nullable = true,
     .unit = "tokens",
     .help = "Tokens drafted per sequence and step. Unset: 1 for mtp; vLLM requires it otherwise."},
    {.name = "draft_model",
     .type = FieldType::text,
     .rule = TextRule::model_id,
     .help = "The draft_model method's catalog model; it must share the model's vocabulary."},
    {.name = "draft_acceptance_rate",
     .type = FieldType::number,
     .lo = 0.0,
     .hi = 0.99,
     .decimals = 2,
     .unit = "fraction",
     .help = "An outcome, not a flag: the chance a drafted token is accepted once the ones before it were; the mean "
             "acceptance length is 1 plus its powers up to k."},
    {.name = "kv_offloading_size_gib",
     .type = FieldType::number,
     .lo = 0.0,
     .hi = 16384.0,
     .decimals = 1,
     .stops = offload_stops,
     .stop_suffix = " GiB",
     .zero_text = "off",
     .unit = "GiB",
     .flag = "--kv-offloading-size",
     .label = "CPU offload",
     .help = "vLLM's --kv-offloading-size (0.14+): GiB of CPU memory, over all of an engine's GPUs, holding a copy of "
             "every full KV block, so a preempted request loads its blocks back instead of computing them again."},
    {.name = "mamba_ssm_cache_dtype",
     .type = FieldType::choice,
     .choices = ssm_state_dtypes,
     .choice_words = "auto, float32 or float16",
     .flag = "--mamba-ssm-cache-dtype",
     .label = "state precision",
     .help = "vLLM's --mamba-ssm-cache-dtype (float32 from 0.10.2, float16 from 0.13.0): the number format of a hybrid "
             "model's recurrent state (Mamba2, Gated DeltaNet). auto keeps the model's 16-bit type, except that Nemotron-H "
             "takes its config's value from 0.13.0; float32 doubles the state's page and with it the attention block."},
};

}  // namespace

const FieldSpec& scenario_field(std::string_view name) {
    for (const FieldSpec& f : rows)
        if (name == f.name) return f;
    std::fprintf(stderr, "scenario_field: \"%.*s\" is not a scenario field\n", static_cast<int>(name.size()), name.data());
    std::abort();
}

const std::vector<Field<Scenario>>& scenario_fields() {
    static const std::vector<Field<Scenario>> fields = {
        {&scenario_field("model"), &Scenario::model},
        {&scenario_field("model_config"), &Scenario::model_config},
        {&scenario_field("gpu"), &Scenario::gpu},
        {&scenario_field("gpu_config"), &Scenario::gpu_config},
        {&scenario_field("prompt_tokens"), &Scenario::prompt_tokens},
        {&scenario_field("output_tokens"), &Scenario::output_tokens},
        {&scenario_field("concurrent_requests"), &Scenario::concurrent_requests},
        {&scenario_field("gpu_memory_utilization"), &Scenario::gpu_memory_utilization},
        {&scenario_field("kv_cache_dtype"), &Scenario::kv_cache_dtype},
        {&scenario_field("weight_dtype"), &Scenario::weight_dtype},
        {&scenario_field("max_num_seqs"), &Scenario::max_num_seqs},
        {&scenario_field("max_num_batched_tokens"), &Scenario::max_num_batched_tokens},
        {&scenario_field("max_model_len"), &Scenario::max_model_len},
        {&scenario_field("tensor_parallel_size"), &Scenario::tensor_parallel_size},
        {&scenario_field("vllm_version"), &Scenario::vllm_version},
        {&scenario_field("enforce_eager"), &Scenario::enforce_eager},
        {&scenario_field("disable_custom_all_reduce"), &Scenario::disable_custom_all_reduce},
        {&scenario_field("force_mha"), &Scenario::force_mha},
        {&scenario_field("entry"), &Scenario::entry},
        {&scenario_field("block_size"), &Scenario::block_size},
        {&scenario_field("kv_cache_memory_bytes"), &Scenario::kv_cache_memory_bytes},
        {&scenario_field("pipeline_parallel_size"), &Scenario::pipeline_parallel_size},
        {&scenario_field("data_parallel_size"), &Scenario::data_parallel_size},
        {&scenario_field("enable_expert_parallel"), &Scenario::enable_expert_parallel},
        {&scenario_field("engine"), &Scenario::engine},
        {&scenario_field("num_scheduler_steps"), &Scenario::num_scheduler_steps},
        {&scenario_field("enable_lora"), &Scenario::enable_lora},
        {&scenario_field("max_loras"), &Scenario::max_loras},
        {&scenario_field("max_lora_rank"), &Scenario::max_lora_rank},
        {&scenario_field("speculative_method"), &Scenario::speculative_method},
        {&scenario_field("num_speculative_tokens"), &Scenario::num_speculative_tokens},
        {&scenario_field("draft_model"), &Scenario::draft_model},
        {&scenario_field("draft_acceptance_rate"), &Scenario::draft_acceptance_rate},
        {&scenario_field("kv_offloading_size_gib"), &Scenario::kv_offloading_size_gib},
        {&scenario_field("mamba_ssm_cache_dtype"), &Scenario::mamba_ssm_cache_dtype},
    };
    return fields;
}

const std::vector<int64_t>& deployed_tensor_parallel_sizes() {
    static const std::vector<int64_t> sizes = [] {
        std::vector<int64_t> out;
        for (double tp : scenario_field("tensor_parallel_size").stops) out.push_back(static_cast<int64_t>(tp));
        return out;
    }();
    return sizes;
}

}  // namespace kv
