// How long a forward pass takes, term by term (each a field of PhaseTiming):
//   compute: FLOPs over the rate a serving step's matmuls reach. FLOPs are 2 x active parameters
//   per token, the vocabulary's matrix only for the rows the step samples, plus attention: 4 x layers x
//   heads x head_dim per token and context token (QK^T and AV), halved for the causal prefill triangle
//   (MLA: a decode over the latent's widths, a prefill over the decompressed heads' and kv_b_proj
//   run again over the earlier chunks' latent);
//   memory: bytes over the bandwidth a step's reads reach. Bytes are the rank's weights (for a
//   mixture of experts, the experts the batch routes to; not an embedding it only gathers from), every running sequence's KV blocks (the
//   new query attends over all of them; an FP8 cache's at its measured share of the gather's rate, as
//   the kernel dequantises them) and the prompt tokens' KV written;
//   kernels: the per-layer floors of launch, ramp and tail, in a CUDA graph or eager, per MoE
//   layer its routing and alignment, and in V1's PIECEWISE graphs each attention or mixer layer's
//   eager run between two graph launches;
//   communication: 2 all-reduces per layer, one for the embedding and a logits gather, each a
//   latency plus the ring's bytes over the link;
//   host: the CPU's scheduling, input preparation and output processing for the step;
//   draft: with speculative decoding, the drafter's k passes after the model's (memory/speculative.hpp),
//   each costed by time_step() on the drafter's share of the rank; the model's pass then scores 1 + k
//   tokens per decoding sequence, and each sequence gains the mean acceptance length a step.
// GPU time = max(compute, memory) + kernels + communication + draft; the step takes GPU + host time, or the
// longer of the two once async scheduling overlaps them (step_costs.hpp has each term's sources).
// Every forward pass, whatever it carries, is costed by time_step() from a StepLoad: the single-batch
// views (a decode step, one prompt's prefill), the serving steady state (steady.cpp) and each step of
// the simulation (serving/).
// Leaves out overlap of communication with compute, pipeline-parallel bubbles, the first draft pass's
// extra tokens (it runs over the accepted ones) and the sampler's sort for top-p/top-k (benchmark_latency and benchmark_throughput sample without it).
#pragma once
#include <cstdint>

#include "engine/calibration.hpp"
#include "engine/engine_rules.hpp"
#include "memory/admission.hpp"
#include "memory/memory_plan.hpp"
#include "model/gpu_spec.hpp"
#include "model/model_spec.hpp"
#include "scenario/scenario.hpp"

namespace kv {

// The engine a forward pass runs on, as evaluate() assembled it: a view, nothing is copied.
struct StepEngine {
    const Scenario& scenario;  // every engine default filled in
    const ModelSpec& model;    // after force_mha
    const GpuSpec& gpu;
    const MemoryPlan& memory;
    const EngineRules& rules;  // which host costs and CUDA graphs the release has
    // Counted once for the engine rather than in every step it times (a simulation times thousands).
    ParameterCount parameters = count_parameters(model);
};

enum class Bound { memory, compute, none };
const char* bound_name(Bound bound);

// Prefill and decode through the same lens: work, traffic, and which one sets the time.
struct PhaseTiming {
    double flops = 0;  // per rank
    double bytes = 0;  // per rank, HBM traffic
    double compute_s = 0;
    double memory_s = 0;
    double matmul_s = 0;         // the matmuls: the longer of their FLOPs and their weight reads
    double attention_s = 0;      // attention: the longer of its FLOPs and its cache reads and writes
    double kernel_s = 0;         // per-layer kernel floors (and MoE routing)
    double communication_s = 0;  // tensor-parallel all-reduces
    double draft_s = 0;          // a drafter's passes (speculative decoding)
    double gpu_s = 0;            // matmuls + attention + kernels + communication + draft
    double host_s = 0;           // the CPU's work for the step, before any overlap
    double total_s = 0;          // gpu + host, or the longer of the two with async scheduling
    Bound bound = Bound::none;
    double arithmetic_intensity = 0;  // flops per byte
};

// What one forward pass carries.
struct StepLoad {
    double decode_tokens = 0;           // one query token per decoding sequence
    double decode_context_tokens = 0;   // sum of their contexts (attention FLOPs)
    double decode_kv_bytes = 0;         // the cache those decodes read
    double prefill_tokens = 0;          // prompt tokens computed in this pass
    double prefill_context_pairs = 0;   // (query, context) pairs of their attention
    double prefill_kv_read_tokens = 0;  // earlier chunks' KV that later chunks read
    double prefill_sequences = 0;       // requests whose prompt tokens these are
    double passes = 1;                  // forward passes: a prompt in chunks reads the weights and pays the floors per chunk
};

// Continuous batching with chunked prefill, in steady state. Each sequence's prompt is prefilled
// once per output_tokens decode steps, so a step carries on average prompt/output prompt tokens per
// decode, within max_num_batched_tokens. The prompts come whole (up to the budget): when fewer
// than one request finishes per step, only some steps carry a prompt, and those are slower than the
// decode-only steps between them (the ITL spikes a chat server shows). Decodes read their caches
// at the average length of a running sequence, halfway through its output.
struct ServingSteady {
    double decode_tokens_per_step = 0;
    double prefill_tokens_per_step = 0;  // on average over all steps
    bool token_budget_binds = false;     // prompts cannot keep up: fewer sequences decode per step
    double prefill_step_share = 0;       // fraction of steps that carry prompt tokens
    double prefill_tokens_per_prefill_step = 0;
    PhaseTiming step_with_prefill;  // a step carrying the decodes and a prompt chunk
    PhaseTiming decode_step;        // a step carrying only the decodes
    double mean_step_s = 0;
    double generation_tokens_per_s = 0;  // the stats line's "Avg generation throughput"
    double prompt_tokens_per_s = 0;      // its "Avg prompt throughput" = generation x prompt/output
    double itl_s = 0;                    // mean: one token per decoding sequence per step
    double queue_s = 0;                  // waiting requests / completion rate (Little's law)
    int64_t prefill_steps = 0;           // steps one prompt's prefill spans beside the decodes
    double ttft_s = 0;                   // queue + those steps
    // What the GPU could do with only one kind of work, for comparison.
    double decode_only_tokens_per_s = 0;   // the same decodes with no prefill in the steps
    double prefill_only_tokens_per_s = 0;  // steps full of prompt tokens (max_num_batched_tokens)
};

// A prompt slice "rides free" on a decode step while the step grows by at most this factor.
inline constexpr double free_prefill_step_growth = 1.10;

struct StepTimes {
    // The rates the step times assume: what a serving step's kernels reach of the GPU's measured
    // rates (step_costs.hpp; the panels' roofline and the lesson's stated assumptions read these).
    double achieved_bytes_per_s = 0;
    double achieved_flops_per_s = 0;
    double peak_flops_per_s = 0;      // the tensor roof the weights run at (FP8 where the GPU has it)
    double ridge_flops_per_byte = 0;  // achieved FLOP/s over achieved bytes/s: the roofline's knee

    // Single-batch decode step: one token for every running sequence, each cache at its final
    // length, no prefill (the batching ceiling and the two phases use this view).
    PhaseTiming decode;
    double decode_tokens_per_s = 0;  // aggregate
    double itl_s = 0;                // per-stream inter-token latency (= decode step)
    double weight_share = 0;         // weight bytes / bytes moved
    double dram_active = 0;          // simulated DCGM_FI_PROF_DRAM_ACTIVE
    double tensor_active = 0;        // simulated DCGM_FI_PROF_PIPE_TENSOR_ACTIVE
    double gpu_utilization = 0;      // nvidia-smi "utilization": a kernel is resident

    // Prefill of one prompt (time to first token).
    PhaseTiming prefill;

    // Chunked prefill under max_num_batched_tokens.
    int64_t chunk_budget_tokens = 0;    // max_num_batched_tokens - running
    int64_t free_prefill_tokens = 0;    // ride along for at most a tenth more step time
    double step_with_full_chunk_s = 0;  // decode step with chunk_budget_tokens folded in

    // Serving: the single-batch decode above pays nothing for prefill; this does.
    ServingSteady serving;
};

// Tokens a decoding sequence gains per step: 1, or with speculative decoding the mean acceptance length.
double tokens_per_decode_step(const StepEngine& engine);

// Of a sequence's KV, the part the model's own layers hold (the rest is a drafter's, read in its passes).
double model_kv_share(const KvLayout& layout);

// Decodes only: `sequences` each reading its cache at `context_tokens`.
StepLoad decode_load(const StepEngine& engine, double sequences, int64_t context_tokens);
// `tokens` prompt tokens of `prompt`-token prompts cut into chunks of `chunk` tokens: each attends
// over, on average, half its prompt, and each chunk after the first reads the earlier chunks' KV.
void add_prefill(StepLoad& load, double tokens, int64_t prompt, int64_t chunk);
// The serving steady state (steady.cpp) of the running sequences.
ServingSteady serve_steadily(const StepEngine& engine, const Admission& admission, const Calibration& calibration);

// One forward pass of the evaluated engine carrying `load`.
PhaseTiming time_step(const StepEngine& engine, const StepLoad& load, const Calibration& calibration);

// Step times once the memory plan and admission are done; `started`: the engine starts (else only
// the rates are filled in).
StepTimes time_steps(const StepEngine& engine, const Admission& admission, bool started, const Calibration& calibration);

// Decode step time of `running` sequences with `chunk_tokens` prefill tokens folded into the same
// forward pass.
double decode_step_with_chunk_s(const StepEngine& engine, int64_t running, int64_t chunk_tokens, const Calibration& calibration = {});

// A decode step's two reads, each over the FLOPs it feeds (for the lesson's picture of them): the
// weights feed every sequence's matmuls, so their intensity grows with the batch; a sequence's
// cache feeds only its own attention, so that intensity stays at the query heads per KV head
// (times 2 bytes over the cache's element size), whatever the batch.
struct DecodeIntensities {
    double weight_flops_per_byte = 0;
    double kv_flops_per_byte = 0;
};
DecodeIntensities decode_intensities(const StepEngine& engine, int64_t batch, int64_t context_tokens, const Calibration& calibration = {});

}  // namespace kv
