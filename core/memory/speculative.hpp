// Speculative decoding (--speculative-config, V1 engine): a drafter proposes k tokens per sequence,
// and one forward pass of the model scores all of them with the sequence's last token; the
// rejection sampler keeps the longest accepted run and adds one token of its own. What it changes:
//   - weights: the drafter loads with the model, inside "Model loading took" (the V1 runner logs
//     "Loading drafter model..." within the same measurement). EAGLE and EAGLE-3 heads are one
//     decoder layer of the model's shape with a replicated fc over two (three) hidden states
//     (vllm/model_executor/models/llama_eagle.py, llama_eagle3.py); MTP is the checkpoint's own
//     prediction layer with its eh_proj (deepseek_mtp.py). All three share the model's embedding,
//     and EAGLE and MTP its lm_head too (vllm/v1/spec_decode/eagle.py, load_model); an EAGLE-3 head
//     carries its own lm_head over a 32,000-token draft vocabulary. A draft model loads whole;
//   - KV: the drafter's attention layers are attention layers of the engine like any other, so
//     every block holds their keys and values too (Llama-3.1-8B with EAGLE on an H100, vLLM #19996:
//     51.63 GiB for 410,128 tokens, 33 layers of 4 KiB). A draft model with narrower layers has its
//     blocks grown until its pages match the model's (kv_cache_utils.unify_kv_cache_spec_page_size),
//     which costs the same bytes per token as counting it in the model's layer widths;
//   - time: the scoring pass carries 1 + k tokens per sequence; the drafter runs k passes of its
//     own (an EAGLE head or draft model on the GPU, n-gram lookup on the CPU, left out); a step
//     emits the mean acceptance length per sequence instead of one token.
// Leaves out the lookahead slots the scheduler reserves per request (k tokens), the drafter's
// share of the profile run and of the CUDA graphs, and tree drafting.
#pragma once
#include <cstdint>
#include <optional>

#include "base/input_error.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

enum class SpecMethod { none, ngram, eagle, eagle3, mtp, draft_model };
SpecMethod spec_method(const Scenario& scenario);

// What the drafter adds to the last pipeline stage's rank, and what one draft pass runs.
struct Drafter {
    SpecMethod method = SpecMethod::none;
    int64_t num_speculative_tokens = 0;  // k
    double acceptance_length = 1.0;      // tokens a step emits per sequence: 1 + a + a^2 + ... + a^k
    ModelSpec model;                     // the network a draft pass runs (none for n-gram)
    bool runs_on_gpu = false;
    bool own_embedding = false;  // loaded beside the model's (a draft model's)
    bool own_lm_head = false;    // loaded beside the model's (a draft model's, an EAGLE-3 head's)
    double fc_params = 0;        // the replicated fc / eh_proj that joins the hidden states
    int64_t kv_layers = 0;  // attention layers it adds to each block, in the model's layer widths (plan_memory converts a draft model's)
};

// The mean acceptance length of k drafted tokens when each is accepted with probability `rate`
// once the ones before it were.
double mean_acceptance_length(double rate, int64_t k);

// The scenario's drafter for `target` (method none: an empty one). Call check_speculative first.
Drafter make_drafter(const Scenario& scenario, const ModelSpec& target);

// What the engine refuses before it starts: no method on V0, no token count where vLLM needs one,
// an unknown or differently tokenised draft model, MTP on a checkpoint without the layer.
std::optional<InputError> check_speculative(const Scenario& scenario, const ModelSpec& target, bool v1_engine);

}  // namespace kv
