#include "io/calibration_json.hpp"

#include <cmath>
#include <string>

#include "base/format.hpp"

namespace kv {
namespace {

struct Constant {
    const char* name;
    double Calibration::*member;
};
// Every double of calibration.hpp (activation_bytes_per_element is a data type, not a constant to fit).
const Constant constants[] = {
    {"step_bandwidth_efficiency", &Calibration::step_bandwidth_efficiency},
    {"step_matmul_efficiency", &Calibration::step_matmul_efficiency},
    {"matmul_roofline_exponent", &Calibration::matmul_roofline_exponent},
    {"nvidia_hbm_fraction", &Calibration::nvidia_hbm_fraction},
    {"amd_hbm_fraction", &Calibration::amd_hbm_fraction},
    {"nvidia_matmul_fraction", &Calibration::nvidia_matmul_fraction},
    {"amd_matmul_fraction", &Calibration::amd_matmul_fraction},
    {"nvidia_attention_read_efficiency", &Calibration::nvidia_attention_read_efficiency},
    {"amd_attention_read_efficiency", &Calibration::amd_attention_read_efficiency},
    {"fp8_kv_read_share", &Calibration::fp8_kv_read_share},
    {"layer_floor_graph_s", &Calibration::layer_floor_graph_s},
    {"layer_floor_eager_s", &Calibration::layer_floor_eager_s},
    {"piecewise_split_s", &Calibration::piecewise_split_s},
    {"moe_layer_floor_s", &Calibration::moe_layer_floor_s},
    {"moe_expert_floor_s", &Calibration::moe_expert_floor_s},
    {"moe_grouped_gemm_efficiency", &Calibration::moe_grouped_gemm_efficiency},
    {"allreduce_custom_s", &Calibration::allreduce_custom_s},
    {"allreduce_nccl_s", &Calibration::allreduce_nccl_s},
    {"allreduce_pcie_s", &Calibration::allreduce_pcie_s},
    {"host_v0_early_step_s", &Calibration::host_v0_early_step_s},
    {"host_v0_early_per_sequence_s", &Calibration::host_v0_early_per_sequence_s},
    {"host_v0_step_s", &Calibration::host_v0_step_s},
    {"host_v0_per_sequence_s", &Calibration::host_v0_per_sequence_s},
    {"host_v1_step_s", &Calibration::host_v1_step_s},
    {"host_v1_per_sequence_s", &Calibration::host_v1_per_sequence_s},
    {"forward_hidden_buffers", &Calibration::forward_hidden_buffers},
    {"forward_mlp_buffers", &Calibration::forward_mlp_buffers},
    {"forward_qkv_buffers", &Calibration::forward_qkv_buffers},
    {"v1_forward_scale", &Calibration::v1_forward_scale},
    {"sorting_sampler_bytes_per_logit", &Calibration::sorting_sampler_bytes_per_logit},
    {"sampler_bytes_per_logit", &Calibration::sampler_bytes_per_logit},
    {"moe_workspace_buffers", &Calibration::moe_workspace_buffers},
    {"non_torch_bytes", &Calibration::non_torch_bytes},
    {"non_torch_tensor_parallel_bytes", &Calibration::non_torch_tensor_parallel_bytes},
    {"non_torch_tensor_parallel_bytes_before_newer_profile", &Calibration::non_torch_tensor_parallel_bytes_before_newer_profile},
    {"startup_context_bytes", &Calibration::startup_context_bytes},
    {"cuda_graph_fixed_bytes", &Calibration::cuda_graph_fixed_bytes},
    {"cuda_graph_bytes_per_layer", &Calibration::cuda_graph_bytes_per_layer},
};

}  // namespace

std::variant<Calibration, InputError> calibration_from_json(const nlohmann::json& overrides, const Calibration& base) {
    if (!overrides.is_object()) return InputError{"calibration", ErrorCode::wrong_type, "the calibration must be a JSON object"};
    Calibration c = base;
    for (const auto& [key, value] : overrides.items()) {
        const Constant* found = nullptr;
        for (const Constant& k : constants)
            if (key == k.name) found = &k;
        const std::string shown = format_excerpt(key);
        if (!found) return InputError{shown, ErrorCode::unknown_field, "\"" + shown + "\" is not a calibration constant (calibration.hpp)"};
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
            return InputError{shown, ErrorCode::out_of_range, shown + " must be a finite number of at least 0"};
        c.*(found->member) = value.get<double>();
    }
    return c;
}

nlohmann::json calibration_to_json(const Calibration& c) {
    nlohmann::json out = nlohmann::json::object();
    for (const Constant& k : constants) out[k.name] = c.*(k.member);
    return out;
}

}  // namespace kv
