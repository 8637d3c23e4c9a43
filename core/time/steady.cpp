// The serving steady state: continuous batching with chunked prefill, the running sequences'
// decodes and the prompt tokens that keep them fed in each step (step_time.hpp's ServingSteady).
#include <algorithm>
#include <cmath>

#include "time/step_time.hpp"

namespace kv {

ServingSteady serve_steadily(const StepEngine& r, const Admission& a, const Calibration& c) {
    ServingSteady v;
    const Scenario& s = r.scenario;
    const auto prompt = static_cast<double>(s.prompt_tokens), output = static_cast<double>(s.output_tokens);
    const auto budget = static_cast<double>(*s.max_num_batched_tokens);
    // D decodes gain D x tau tokens a step (tau: 1, or a speculative step's mean acceptance length)
    // and need D x tau x prompt/output prompt tokens; each takes 1 + k tokens of the budget.
    const double tau = tokens_per_decode_step(r);
    const double scored = 1.0 + static_cast<double>(r.memory.drafter.num_speculative_tokens);
    const double budget_decodes = budget * output / (scored * output + tau * prompt);
    v.token_budget_binds = static_cast<double>(a.running) > budget_decodes;
    v.decode_tokens_per_step = std::min(static_cast<double>(a.running), budget_decodes);
    v.prefill_tokens_per_step = v.decode_tokens_per_step * tau * prompt / output;
    const double chunk = std::max(1.0, budget - v.decode_tokens_per_step * scored);
    // A step that carries prompt tokens carries at least one whole prompt (or a full chunk).
    v.prefill_tokens_per_prefill_step = std::min(chunk, std::max(prompt, v.prefill_tokens_per_step));
    v.prefill_step_share = std::min(1.0, v.prefill_tokens_per_step / v.prefill_tokens_per_prefill_step);
    const int64_t average_context = s.prompt_tokens + s.output_tokens / 2;
    StepLoad load = decode_load(r, v.decode_tokens_per_step, average_context);
    v.decode_step = time_step(r, load, c);
    add_prefill(load, v.prefill_tokens_per_prefill_step, s.prompt_tokens, static_cast<int64_t>(chunk));
    v.step_with_prefill = time_step(r, load, c);
    v.mean_step_s = v.prefill_step_share * v.step_with_prefill.total_s + (1.0 - v.prefill_step_share) * v.decode_step.total_s;
    v.itl_s = v.mean_step_s / tau;
    v.generation_tokens_per_s = v.decode_tokens_per_step * tau / v.mean_step_s;
    v.prompt_tokens_per_s = v.prefill_tokens_per_step / v.mean_step_s;
    v.queue_s = static_cast<double>(a.waiting) * output / v.generation_tokens_per_s;
    v.prefill_steps = static_cast<int64_t>(std::ceil(prompt / chunk));
    v.ttft_s = v.queue_s + static_cast<double>(v.prefill_steps) * v.step_with_prefill.total_s;
    v.decode_only_tokens_per_s = v.decode_tokens_per_step * tau / v.decode_step.total_s;
    StepLoad prefill_only;
    add_prefill(prefill_only, budget, s.prompt_tokens, *s.max_num_batched_tokens);
    v.prefill_only_tokens_per_s = budget / time_step(r, prefill_only, c).total_s;
    return v;
}

}  // namespace kv
