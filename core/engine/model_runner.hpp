// Which of vLLM's two GPU model runners starts a model, and so whether a CUDA-graph estimate comes
// out of its KV budget. Model runner V2 (vllm/v1/worker/gpu/model_runner.py) became the default
// for some models from 0.22.0, for more in each release after (EngineRules::model_runner_v2, from
// vllm/config/vllm.py's _is_default_v2_model_runner_model at each release's commit). Its
// profile_cudagraph_memory was a placeholder returning 0 (PR #36520) until PR #53306 measured its
// graphs (merged after 0.28.0's release commit of 2026-08-26; 0.29.0's notes list "CUDA graph
// memory profiling" for V2 and make it the default for all models; syv-ai/qwen38-27b-rtx3090's
// docs/vllm-0.29.md retires its own graph-memory reserve patch at 0.29.0 because "0.29 profiles
// graph memory natively"): in between the budget kept no room for a V2 model's graphs, whose
// capture then had to fit outside it (issue #49224: a 0.25.1 Llama-3.1-70B FP8 on 8 L40S runs out
// of memory capturing). A 0.26.0 log of Qwen2.5-0.5B says "Using V2 Model Runner" and prints no
// estimate; 0.30 logs of V2 runs on GB10 print one.
// The architecture is read from config.json's model_type (qwen3 is Qwen3ForCausalLM, and so on),
// an MoE has experts, a hybrid has linear-attention layers (Qwen3-Next), and a quantised
// checkpoint has a weight format other than 16-bit (vLLM's is_quantized reads the checkpoint's
// quantization_config, so --quantization fp8 on a BF16 checkpoint is not one).
// Leaves out VLLM_USE_V2_MODEL_RUNNER, the features that send a model back to V1 (ngram
// speculative decoding, sequence parallelism, a KV connector), and MoE architectures outside the
// catalog that later releases list (DeepseekV4, KimiK3...).
#pragma once
#include "engine/engine_rules.hpp"
#include "model/model_spec.hpp"

namespace kv {

bool runs_model_runner_v2(const EngineRules& rules, const ModelSpec& model);

// Whether the engine subtracts its CUDA-graph estimate from the budget for this model: from 0.20.0,
// unless the graphs are not captured (enforce_eager) or a V2 runner without an estimator runs it.
bool cuda_graph_estimate_in_budget(const EngineRules& rules, const ModelSpec& model, bool enforce_eager);

}  // namespace kv
