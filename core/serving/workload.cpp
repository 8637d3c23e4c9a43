// The requests a workload produces: explicit lists as given (sorted by arrival), or named shapes
// drawn with a fixed generator at Poisson arrival times.
#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "serving/simulate.hpp"
#include "serving/workload_fields.hpp"

namespace kv {
namespace {

// splitmix64: the same numbers on every platform (<random>'s distributions differ between
// standard libraries, and the page's module must agree with the native build).
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]
    double normal() {
        constexpr double two_pi = 6.283185307179586;
        return std::sqrt(-2.0 * std::log(uniform())) * std::cos(two_pi * uniform());
    }
};

struct LengthShape {
    const char* name;
    double prompt_median, prompt_sigma, output_median, output_sigma;
};
// Illustrative shapes (log-normal medians and spreads), not fitted to a trace.
constexpr LengthShape shapes[] = {
    {"chat", 600, 0.8, 250, 0.7},
    {"summarise", 6000, 0.5, 300, 0.4},
    {"reasoning", 400, 0.7, 3000, 0.6},
};

int64_t draw_tokens(Rng& rng, double median, double sigma) {
    const double tokens = std::round(median * std::exp(sigma * rng.normal()));
    return std::clamp<int64_t>(static_cast<int64_t>(tokens), 1, 1 << 18);
}

}  // namespace

std::variant<std::vector<RequestSpec>, InputError> workload_requests(const Workload& w, const Scenario& scenario) {
    if (!w.list.empty()) {
        if (static_cast<int64_t>(w.list.size()) > max_workload_requests())
            return InputError{"requests", ErrorCode::out_of_range, "at most " + format_count(max_workload_requests()) + " requests"};
        std::vector<RequestSpec> list = w.list;
        for (const RequestSpec& q : list)
            if (!(q.arrival_s >= 0 && q.arrival_s < 1e9) || q.prompt_tokens < 1 || q.output_tokens < 1 || q.prompt_tokens > (1 << 24) ||
                q.output_tokens > (1 << 24))
                return InputError{"requests", ErrorCode::out_of_range,
                                  "each request needs arrival_s 0 to 1e9, prompt_tokens and output_tokens 1 to 16,777,216"};
        std::stable_sort(list.begin(), list.end(), [](const RequestSpec& a, const RequestSpec& b) { return a.arrival_s < b.arrival_s; });
        return list;
    }
    if (auto error = check_fields(workload_fields(), w)) return *error;
    const LengthShape* shape = nullptr;
    for (const LengthShape& s : shapes)
        if (w.name == s.name) shape = &s;
    Rng rng{w.seed};
    std::vector<RequestSpec> list;
    list.reserve(static_cast<size_t>(w.requests));
    double t = 0;
    for (int64_t i = 0; i < w.requests; ++i) {
        RequestSpec q;
        if (w.rate_per_s > 0 && i > 0) t += -std::log(rng.uniform()) / w.rate_per_s;
        q.arrival_s = t;
        q.prompt_tokens = shape ? draw_tokens(rng, shape->prompt_median, shape->prompt_sigma) : scenario.prompt_tokens;
        q.output_tokens = shape ? draw_tokens(rng, shape->output_median, shape->output_sigma) : scenario.output_tokens;
        q.prompt_tokens += w.shared_prefix_tokens;
        list.push_back(q);
    }
    return list;
}

}  // namespace kv
