#include "step_time.hpp"

#include "evaluate.hpp"

#include <algorithm>
#include <cmath>

namespace kv {
namespace {

double peak_flops(const GpuSpec& gpu, DType weight_dtype) {
    return (weight_dtype == DType::fp8 && gpu.fp8_flops_per_s > 0) ? gpu.fp8_flops_per_s
                                                                    : gpu.bf16_flops_per_s;
}

double allreduce_s(double message_bytes, int64_t tp, const GpuSpec& gpu, const Calibration& c) {
    if (tp <= 1) return 0.0;
    const double ring_bytes = 2.0 * static_cast<double>(tp - 1) / static_cast<double>(tp) * message_bytes;
    return ring_bytes / gpu.interconnect_bytes_per_s + c.allreduce_latency_s;
}

// Two all-reduces per layer of `tokens` hidden-width activations.
double layer_allreduces_s(const Result& r, double tokens, int64_t tp, const Calibration& c) {
    const double message = tokens * static_cast<double>(r.model.hidden_size) * c.activation_bytes_per_element;
    return 2.0 * static_cast<double>(r.model.num_hidden_layers) * allreduce_s(message, tp, r.gpu, c);
}

// Attention FLOPs per (query token, context token) pair on one rank.
double attention_flops_per_pair(const Result& r, int64_t tp) {
    return 4.0 * static_cast<double>(r.model.num_hidden_layers) *
           static_cast<double>(r.model.num_attention_heads / tp) * static_cast<double>(r.model.head_dim);
}

// A prefill token folded into a decode step: its matmuls plus attention over, on average, half
// the prompt.
double prefill_flops_per_chunk_token(const Result& r) {
    const int64_t tp = r.scenario.tensor_parallel_size;
    return 2.0 * static_cast<double>(active_parameter_count(r.model)) / static_cast<double>(tp) +
           attention_flops_per_pair(r, tp) * static_cast<double>(r.scenario.prompt_tokens) / 2.0;
}

// Fraction of the experts a batch of `tokens` touches when each picks experts_per_token at random.
double experts_touched(const ModelSpec& m, double tokens) {
    if (m.num_experts <= 0) return 1.0;
    const double miss = 1.0 - static_cast<double>(m.experts_per_token) / static_cast<double>(m.num_experts);
    return 1.0 - std::pow(miss, tokens);
}

// This rank's routed-expert bytes (the weights a step may skip).
double expert_weight_bytes(const Result& r) {
    if (r.model.num_experts <= 0) return 0.0;
    const double share = static_cast<double>(count_parameters(r.model).experts) / static_cast<double>(r.params);
    return r.memory.weight_bytes * share;
}

void settle(PhaseTiming& phase, double flops_per_s, double bytes_per_s) {
    phase.compute_s = phase.flops / flops_per_s;
    phase.memory_s = phase.bytes / bytes_per_s;
    phase.total_s = std::max(phase.compute_s, phase.memory_s) + phase.communication_s;
    phase.bound = phase.compute_s > phase.memory_s ? Bound::compute : Bound::memory;
    phase.arithmetic_intensity = phase.bytes > 0 ? phase.flops / phase.bytes : 0.0;
}

}  // namespace

double achieved_flops_per_s(const GpuSpec& gpu, DType weight_dtype, const Calibration& c) {
    return peak_flops(gpu, weight_dtype) * c.achieved_tensor_fraction;
}

StepTimes time_steps(const Result& r, const Calibration& c) {
    StepTimes t;
    const Scenario& s = r.scenario;
    const int64_t tp = s.tensor_parallel_size;
    const double flops_per_s = achieved_flops_per_s(r.gpu, s.weight_dtype, c);
    const double bytes_per_s = r.gpu.hbm_bytes_per_s * c.achieved_bandwidth_fraction;
    t.achieved_bytes_per_s = bytes_per_s;
    t.achieved_flops_per_s = flops_per_s;
    t.peak_flops_per_s = peak_flops(r.gpu, s.weight_dtype);
    t.ridge_flops_per_byte = flops_per_s / bytes_per_s;
    const double matmul_flops_per_token =
        2.0 * static_cast<double>(active_parameter_count(r.model)) / static_cast<double>(tp);
    const double weight_bytes = r.memory.weight_bytes;
    const double kv_bytes_per_token = r.memory.layout.kv_bytes_per_token;
    const double pair_flops = attention_flops_per_pair(r, tp);
    const auto prompt = static_cast<double>(s.prompt_tokens);
    const double context = static_cast<double>(s.prompt_tokens + s.output_tokens);

    // Prefill one prompt; a prompt longer than max_num_batched_tokens runs in chunks, each of which
    // reads the weights again.
    if (r.status != Status::engine_refused) {
        const int64_t step_tokens = *s.max_num_batched_tokens;
        const auto chunks = static_cast<double>((s.prompt_tokens + step_tokens - 1) / step_tokens);
        t.prefill.flops = matmul_flops_per_token * prompt + pair_flops * prompt * prompt / 2.0;
        t.prefill.bytes = chunks * weight_bytes + prompt * kv_bytes_per_token;
        t.prefill.communication_s = layer_allreduces_s(r, prompt, tp, c);
        settle(t.prefill, flops_per_s, bytes_per_s);
    }

    if (r.running == 0) return t;
    const auto running = static_cast<double>(r.running);
    t.decode.flops = running * (matmul_flops_per_token + pair_flops * context);
    // A mixture of experts reads only the experts the batch routes to (uniform routing).
    const double step_weight_bytes = weight_bytes - expert_weight_bytes(r) * (1.0 - experts_touched(r.model, running));
    t.decode.bytes = step_weight_bytes + running * r.bytes_per_sequence;
    t.decode.communication_s = layer_allreduces_s(r, running, tp, c);
    settle(t.decode, flops_per_s, bytes_per_s);

    t.itl_s = t.decode.total_s;
    t.decode_tokens_per_s = running / t.decode.total_s;
    t.prompt_tokens_per_s = t.decode_tokens_per_s * prompt / static_cast<double>(s.output_tokens);
    t.weight_share = step_weight_bytes / t.decode.bytes;
    t.dram_active = t.decode.bytes / (t.decode.total_s * r.gpu.hbm_bytes_per_s);
    t.tensor_active = t.decode.flops / (t.decode.total_s * peak_flops(r.gpu, s.weight_dtype));
    t.gpu_utilization = 1.0;  // some kernel is resident for the whole step

    // Chunked prefill: prefill tokens folded into this step cost FLOPs (and their KV writes) but
    // no extra weight read, so they are free until compute catches up with memory time.
    t.chunk_budget_tokens = std::max<int64_t>(0, *s.max_num_batched_tokens - r.running);
    const double flops_per_chunk_token = prefill_flops_per_chunk_token(r);
    const double spare_flops = std::max(0.0, t.decode.memory_s - t.decode.compute_s) * flops_per_s;
    t.free_prefill_tokens = std::min<int64_t>(
        t.chunk_budget_tokens, static_cast<int64_t>(std::floor(spare_flops / flops_per_chunk_token)));
    t.step_with_full_chunk_s = decode_step_with_chunk_s(r, t, t.chunk_budget_tokens, c);
    return t;
}

double decode_step_with_chunk_s(const Result& r, const StepTimes& t, int64_t chunk_tokens, const Calibration& c) {
    if (r.running == 0) return 0.0;
    const Scenario& s = r.scenario;
    const auto chunk = static_cast<double>(std::max<int64_t>(0, chunk_tokens));
    const double flops_per_s = achieved_flops_per_s(r.gpu, s.weight_dtype, c);
    const double bytes_per_s = r.gpu.hbm_bytes_per_s * c.achieved_bandwidth_fraction;
    const double compute_s = t.decode.compute_s + chunk * prefill_flops_per_chunk_token(r) / flops_per_s;
    const double memory_s = t.decode.memory_s + chunk * r.memory.layout.kv_bytes_per_token / bytes_per_s;
    const double tokens = static_cast<double>(r.running) + chunk;
    return std::max(compute_s, memory_s) + layer_allreduces_s(r, tokens, s.tensor_parallel_size, c);
}

}  // namespace kv
