// A GPU as JSON: a catalog entry (content/data/gpus.json) or the reader's own description, with
// every number range-checked and the interconnect read in either of its two spellings.
#include <cmath>
#include <optional>

#include "base/format.hpp"
#include "base/units.hpp"
#include "io/fields_json.hpp"

namespace kv {

using nlohmann::json;

namespace {

InputError fail(std::string field, ErrorCode code, std::string message) { return InputError{std::move(field), code, std::move(message)}; }

std::string text_or(const json& object, const char* key, const std::string& fallback) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return fallback;
    return object[key].get<std::string>();
}

// What public benchmarks measured ("achieved": {hbm_tb_per_s, bf16_tflops, fp8_tflops}); absent
// figures stay 0. A matmul may pass its data sheet by what GPU Boost runs above the rated clock (an
// RTX 4090 measures 178.8 of 165.2 TFLOPS), never by more than a tenth; a read never passes it.
std::optional<InputError> read_achieved(const json& entry, const std::string& prefix, GpuSpec& g) {
    if (!entry.contains("achieved") || entry["achieved"].is_null()) return std::nullopt;
    const json& a = entry["achieved"];
    if (!a.is_object()) return fail(prefix + ".achieved", ErrorCode::wrong_type, prefix + ".achieved must be an object");
    struct Measured {
        const char* key;
        double peak;
        double GpuSpec::*member;
    };
    const Measured measured[] = {{"hbm_tb_per_s", g.hbm_bytes_per_s, &GpuSpec::achieved_hbm_bytes_per_s},
                                 {"bf16_tflops", g.bf16_flops_per_s * 1.1, &GpuSpec::achieved_bf16_flops_per_s},
                                 {"fp8_tflops", g.fp8_flops_per_s * 1.1, &GpuSpec::achieved_fp8_flops_per_s}};
    for (const Measured& m : measured) {
        if (!a.contains(m.key) || a[m.key].is_null()) continue;
        const std::string f = prefix + ".achieved." + m.key;
        const json& v = a[m.key];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0 || v.get<double>() * 1e12 > m.peak * 1.0001)
            return fail(f, v.is_number() ? ErrorCode::out_of_range : ErrorCode::wrong_type,
                        f + " must be a positive number no larger than the data sheet's peak (a matmul: 1.1 times it)");
        g.*m.member = v.get<double>() * 1e12;
    }
    return std::nullopt;
}

// The link KV offloading copies over ("host_link": {kind, gb_per_s one way}); PCIe 4.0 x16 when absent.
std::optional<InputError> read_host_link(const json& entry, const std::string& prefix, GpuSpec& g) {
    const auto link = entry.find("host_link");
    if (link == entry.end() || link->is_null()) return std::nullopt;
    const std::string f = prefix + ".host_link";
    const std::string kind = text_or(*link, "kind", "");
    if (kind != "pcie3" && kind != "pcie4" && kind != "pcie5" && kind != "pcie6" && kind != "c2c" && kind != "unified")
        return fail(f + ".kind", ErrorCode::unknown_value, f + ".kind must be pcie3, pcie4, pcie5, pcie6, c2c or unified");
    const auto rate = link->find("gb_per_s");
    const double gb = rate != link->end() && rate->is_number() ? rate->get<double>() : 0.0;
    if (!(gb >= 1 && gb <= 2000))
        return fail(f + ".gb_per_s", ErrorCode::out_of_range, f + ".gb_per_s (one direction) must be a number from 1 to 2,000");
    g.host_link = kind;
    g.host_link_bytes_per_s = gb * 1e9;
    return std::nullopt;
}

// CUDA's compute capability (8.0 for an A100), NVIDIA GPUs only; absent: 0.
std::optional<InputError> read_compute_capability(const json& entry, const std::string& prefix, GpuSpec& g) {
    if (!entry.contains("compute_capability") || entry["compute_capability"].is_null()) return std::nullopt;
    const json& v = entry["compute_capability"];
    const std::string f = prefix + ".compute_capability";
    if (!v.is_number() || !(v.get<double>() >= 1 && v.get<double>() <= 20))
        return fail(f, v.is_number() ? ErrorCode::out_of_range : ErrorCode::wrong_type,
                    f + " (CUDA's, 8.0 for an A100) must be a number from 1 to 20");
    if (g.vendor != "nvidia") return fail(f, ErrorCode::unknown_field, f + " is CUDA's; an AMD GPU has none");
    g.compute_capability = v.get<double>();
    return std::nullopt;
}

}  // namespace

std::variant<GpuSpec, InputError> gpu_from_json(const json& entry, const std::string& prefix) {
    if (!entry.is_object()) return fail(prefix, ErrorCode::wrong_type, prefix + " must be an object describing the GPU");
    GpuSpec g;
    g.name = text_or(entry, "id", "custom");
    g.label = text_or(entry, "label", g.name);
    struct Number {
        const char* key;
        double lo, hi;
        bool required;
    } const numbers[] = {
        // The largest single devices of 2026 (B300, MI355X) carry 288 GB; 1,024 GiB leaves room for
        // the next without letting a typo size a pool of millions of blocks.
        {"memory_gib", 1, 1024, true},          {"visible_memory_mib", 512, 1024.0 * 1024, false},
        {"hbm_tb_per_s", 0.01, 100, true},      {"bf16_dense_tflops", 1, 100000, true},
        {"fp8_dense_tflops", 0, 100000, false}, {"interconnect_gb_per_s", 0, 100000, false},
    };
    double values[6] = {0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < 6; ++i) {
        const Number& n = numbers[i];
        const std::string f = prefix + "." + n.key;
        if (!entry.contains(n.key) || entry[n.key].is_null()) {
            if (n.required) return fail(f, ErrorCode::missing_field, f + " is missing");
            continue;
        }
        const json& v = entry[n.key];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < n.lo || v.get<double>() > n.hi)
            return fail(f, v.is_number() ? ErrorCode::out_of_range : ErrorCode::wrong_type,
                        f + " must be a number from " + format_grouped(n.lo, n.lo < 1 ? 2 : 0) + " to " + format_grouped(n.hi, 0));
        values[i] = v.get<double>();
    }
    g.memory_bytes = values[0] * GiB;
    // Without a measured total, CUDA shows about 1% less than the marketed size (79.19 of 80 GiB).
    g.visible_memory_bytes = values[1] > 0 ? values[1] * MiB : g.memory_bytes * 0.9899;
    g.hbm_bytes_per_s = values[2] * 1e12;
    g.bf16_flops_per_s = values[3] * 1e12;
    g.fp8_flops_per_s = values[4] * 1e12;
    double link = values[5];
    if (entry.contains("interconnect") && entry["interconnect"].is_object()) {
        const json& ic = entry["interconnect"];
        g.interconnect = text_or(ic, "kind", "nvlink");
        if (ic.contains("bidirectional_gb_per_s") && ic["bidirectional_gb_per_s"].is_number())
            link = ic["bidirectional_gb_per_s"].get<double>();
    } else if (entry.contains("nvlink_bidirectional_gb_per_s") && entry["nvlink_bidirectional_gb_per_s"].is_number()) {
        link = entry["nvlink_bidirectional_gb_per_s"].get<double>();
    }
    // PCIe 4.0 x16 when nothing is said: 64 GB/s both ways.
    g.interconnect_bytes_per_s = (link > 0 ? link : 64.0) * 1e9 / 2.0;
    if (link <= 0) g.interconnect = "pcie";
    g.vendor = text_or(entry, "vendor", g.interconnect == "xgmi" ? "amd" : "nvidia");
    if (g.vendor != "nvidia" && g.vendor != "amd")
        return fail(prefix + ".vendor", ErrorCode::unknown_value, prefix + ".vendor must be \"nvidia\" or \"amd\"");
    if (entry.contains("nvml_memory_total")) {
        if (!entry["nvml_memory_total"].is_boolean())
            return fail(prefix + ".nvml_memory_total", ErrorCode::wrong_type, prefix + ".nvml_memory_total must be true or false");
        g.nvml_memory_total = entry["nvml_memory_total"].get<bool>();
    }
    for (auto* read : {read_compute_capability, read_achieved, read_host_link})
        if (auto error = read(entry, prefix, g)) return *error;
    return g;
}

json gpu_to_json(const GpuSpec& g) {
    return {{"id", g.name},
            {"label", g.label},
            {"memory_gib", g.memory_bytes / GiB},
            {"visible_memory_mib", g.visible_memory_bytes / MiB},
            {"hbm_tb_per_s", g.hbm_bytes_per_s / 1e12},
            {"bf16_dense_tflops", g.bf16_flops_per_s / 1e12},
            {"fp8_dense_tflops", g.fp8_flops_per_s / 1e12},
            {"interconnect", {{"kind", g.interconnect}, {"bidirectional_gb_per_s", g.interconnect_bytes_per_s * 2 / 1e9}}},
            {"vendor", g.vendor},
            {"nvml_memory_total", g.nvml_memory_total},
            {"compute_capability", g.compute_capability > 0 ? json(g.compute_capability) : json(nullptr)},
            {"host_link", {{"kind", g.host_link}, {"gb_per_s", g.host_link_bytes_per_s / 1e9}}},
            {"achieved",
             {{"hbm_tb_per_s", g.achieved_hbm_bytes_per_s > 0 ? json(g.achieved_hbm_bytes_per_s / 1e12) : json(nullptr)},
              {"bf16_tflops", g.achieved_bf16_flops_per_s > 0 ? json(g.achieved_bf16_flops_per_s / 1e12) : json(nullptr)},
              {"fp8_tflops", g.achieved_fp8_flops_per_s > 0 ? json(g.achieved_fp8_flops_per_s / 1e12) : json(nullptr)}}}};
}

}  // namespace kv
