#include "base/format.hpp"

#include <cmath>
#include <cstdio>

#include "base/units.hpp"

namespace kv {
namespace {

// Thousands separators on the integer part of an already-rounded decimal string.
std::string group_digits(const std::string& plain) {
    size_t start = (plain[0] == '-') ? 1 : 0;
    size_t dot = plain.find('.');
    size_t int_end = (dot == std::string::npos) ? plain.size() : dot;
    std::string out = plain.substr(0, start);
    for (size_t i = start; i < int_end; ++i) {
        out += plain[i];
        size_t left = int_end - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out + plain.substr(int_end);
}

double finite_or_zero(double v) { return std::isfinite(v) ? v : 0.0; }

}  // namespace

std::string format_fixed(double value, int decimals) {
    // Halves round away from zero (1.125 -> 1.13), as people round; printf alone rounds to even.
    const double scale = std::pow(10.0, decimals);
    value = std::round(finite_or_zero(value) * scale) / scale;
    if (value == 0.0) value = 0.0;  // no "-0.0"
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string format_grouped(double value, int decimals) { return group_digits(format_fixed(value, decimals)); }

std::string format_count(int64_t value) { return group_digits(std::to_string(value)); }

std::string format_counted(int64_t value, std::string_view noun) {
    return format_count(value) + " " + std::string(noun) + (value == 1 ? "" : "s");
}

std::string format_significant(double value, int digits) {
    value = finite_or_zero(value);
    if (value == 0) return "0";
    int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    int decimals = digits - 1 - magnitude;
    if (decimals >= 0) return format_grouped(value, decimals);
    double scale = std::pow(10.0, -decimals);
    return format_grouped(std::round(value / scale) * scale, 0);
}

std::string format_gib(double bytes, int decimals) { return format_fixed(bytes / GiB, decimals) + " GiB"; }

std::string format_bytes(double bytes) {
    bytes = finite_or_zero(bytes);
    struct Unit {
        double size;
        const char* name;
    };
    static const Unit units[] = {{GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}};
    for (const Unit& unit : units) {
        if (std::fabs(bytes) >= unit.size) {
            double v = bytes / unit.size;
            // Three significant digits, but whole numbers stay whole (144 KiB, 2 MiB).
            int decimals = (std::fabs(v - std::round(v)) < 1e-9) ? 0 : (v < 10 ? 2 : v < 100 ? 1 : 0);
            return format_grouped(v, decimals) + " " + unit.name;
        }
    }
    return format_grouped(bytes, 0) + " bytes";
}

std::string format_duration(double seconds) {
    seconds = finite_or_zero(seconds);
    if (seconds >= 1.0) return format_significant(seconds, 3) + " s";
    double ms = seconds * 1e3;
    if (ms >= 1.0 || ms == 0) return format_significant(ms, 3) + " ms";
    return format_significant(ms * 1e3, 3) + " µs";
}

std::string format_excerpt(std::string_view text) {
    constexpr size_t max_bytes = 60;
    if (text.size() <= max_bytes) return std::string(text);
    size_t cut = max_bytes - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 continuation byte
    return std::string(text.substr(0, cut)) + "...";
}

std::string format_percent(double fraction, int decimals) { return format_fixed(finite_or_zero(fraction) * 100.0, decimals) + "%"; }

std::string format_band(double fraction) {
    const double percent = std::fabs(finite_or_zero(fraction)) * 100.0;
    return "±" + format_fixed(percent, percent < 9.95 ? 1 : 0) + "%";
}

// From a hundred on, whole and grouped (41,591×, not 41591.00×): the decimals say nothing there.
std::string format_factor(double ratio, int decimals) { return format_grouped(ratio, std::fabs(ratio) >= 100 ? 0 : decimals) + "×"; }

std::string format_params(double params) {
    params = finite_or_zero(params);
    if (params >= 1e9) return format_fixed(params / 1e9, 2) + "B";
    return format_fixed(params / 1e6, 1) + "M";
}

std::string format_tokens_per_s(double rate) { return format_grouped(rate, 0) + " tokens/s"; }

std::string format_flops_per_s(double rate) {
    rate = finite_or_zero(rate);
    if (std::fabs(rate) >= 1e12) return format_significant(rate / 1e12, 3) + " TFLOP/s";
    return format_significant(rate / 1e9, 3) + " GFLOP/s";
}

std::string format_bandwidth(double bytes_per_s) {
    bytes_per_s = finite_or_zero(bytes_per_s);
    if (std::fabs(bytes_per_s) >= TB) return format_significant(bytes_per_s / TB, 3) + " TB/s";
    return format_significant(bytes_per_s / 1e9, 3) + " GB/s";
}

std::string format_intensity(double flops_per_byte) { return format_significant(flops_per_byte, 3) + " FLOP/B"; }

const std::vector<std::string>& named_formats() {
    static const std::vector<std::string> names = {"count", "sig2",        "sig3",         "fixed0",      "fixed1",    "fixed2",   "fixed3",
                                                   "bytes", "bytes_exact", "kib",          "mib",         "gib0",      "gib1",     "gib2",
                                                   "ms0",   "ms1",         "duration",     "percent",     "percent1",  "band",     "x1",
                                                   "x2",    "params",      "tokens_per_s", "flops_per_s", "bandwidth", "intensity"};
    return names;
}

std::optional<std::string> format_named(double v, std::string_view name) {
    if (name == "count") return format_count(static_cast<int64_t>(std::llround(finite_or_zero(v))));
    if (name == "sig2") return format_significant(v, 2);
    if (name == "sig3") return format_significant(v, 3);
    if (name.size() == 6 && name.substr(0, 5) == "fixed" && name[5] >= '0' && name[5] <= '3') return format_fixed(v, name[5] - '0');
    if (name == "bytes") return format_bytes(v);
    if (name == "bytes_exact") return format_grouped(v, 0) + " bytes";
    if (name == "kib") return format_grouped(v / KiB, 0) + " KiB";
    if (name == "mib") return format_grouped(v / MiB, 0) + " MiB";
    if (name == "gib0") return format_gib(v, 0);
    if (name == "gib1") return format_gib(v, 1);
    if (name == "gib2") return format_gib(v, 2);
    if (name == "ms0") return format_grouped(v * 1e3, 0) + " ms";
    if (name == "ms1") return format_grouped(v * 1e3, 1) + " ms";
    if (name == "duration") return format_duration(v);
    if (name == "percent") return format_percent(v, 0);
    if (name == "percent1") return format_percent(v, 1);
    if (name == "band") return format_band(v);
    if (name == "x1") return format_factor(v, 1);
    if (name == "x2") return format_factor(v, 2);
    if (name == "params") return format_params(v);
    if (name == "tokens_per_s") return format_tokens_per_s(v);
    if (name == "flops_per_s") return format_flops_per_s(v);
    if (name == "bandwidth") return format_bandwidth(v);
    if (name == "intensity") return format_intensity(v);
    return std::nullopt;
}

}  // namespace kv
