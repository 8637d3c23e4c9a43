#include "memory/weight_bytes.hpp"

#include <algorithm>

#include "memory/parallelism.hpp"

namespace kv {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
double to_d(int64_t v) { return static_cast<double>(v); }

}  // namespace

double linear_bytes_per_param(const ModelSpec& m, DType weight_dtype, bool experts) {
    // --quantization fp8 on a 16-bit checkpoint (on a quantised one the engine refuses).
    if (weight_dtype == DType::fp8 && m.weight_format == WeightFormat::bf16) return 1.0;
    switch (m.weight_format) {
        case WeightFormat::bf16:
            return 2.0;
        case WeightFormat::fp8:
            return 1.0;
        case WeightFormat::int4_grouped:
            // 4-bit weights plus a 16-bit scale and a 4-bit zero point per group.
            return 0.5 + (m.quant_group_size > 0 ? 2.5 / to_d(m.quant_group_size) : 0.0);
        case WeightFormat::mxfp4_experts:
            return experts ? 0.5 + 1.0 / 32.0 : 2.0;  // E8M0 scale per 32 weights
    }
    return 2.0;
}

double vocab_table_bytes(const ModelSpec& m, const Scenario& s) {
    return to_d(ceil_div(m.vocab_size, 64) * 64) / to_d(s.tensor_parallel_size) * to_d(m.hidden_size) * 2.0;
}

double routed_expert_bytes(const ModelSpec& m, const Scenario& s, int64_t layers) {
    if (m.num_experts <= 0 || m.num_hidden_layers <= 0) return 0.0;
    const ParameterCount p = count_parameters(m);
    // The routed experts over TP x DP GPUs, sliced or whole (memory/parallelism.hpp).
    const ExpertPlacement experts = place_experts(m, s);
    // MXFP4 expert kernels pad each rank's expert width to a multiple of 256 (gpt-oss: 2,880 to
    // 3,072), which the logged weights of gpt-oss-20b and -120b show.
    double expert_padding = 1.0;
    if (m.weight_format == WeightFormat::mxfp4_experts && m.moe_intermediate_size > 0) {
        const int64_t width = experts.expert_width;
        expert_padding = to_d(ceil_div(width, 256) * 256) / to_d(std::max<int64_t>(1, width));
    }
    const double expert_params = experts.whole_experts ? to_d(p.experts) / to_d(m.num_experts) * to_d(experts.experts_per_gpu)
                                                       : to_d(p.experts) / to_d(experts.gpus);
    return to_d(layers) / to_d(m.num_hidden_layers) * expert_params * linear_bytes_per_param(m, s.weight_dtype, true) * expert_padding;
}

}  // namespace kv
