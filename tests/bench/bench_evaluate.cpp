// Benchmark, not a test: how long one evaluation and a 1,000-point sweep take natively. The panels
// re-evaluate on every knob change, so one evaluation must stay far below a frame (16 ms).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "result/evaluate.hpp"
#include "serving/simulate.hpp"
#include "result/sweep.hpp"

namespace {

template <typename F>
double median_seconds(int repeats, F&& body) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        body();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(times.begin(), times.begin() + repeats / 2, times.end());
    return times[repeats / 2];
}

}  // namespace

int main() {
    const kv::Scenario scenario;
    volatile double sink = 0;
    const double one = median_seconds(2001, [&] { sink = sink + std::get<kv::Result>(kv::evaluate(scenario)).steps.decode.total_s; });

    const kv::Result base = std::get<kv::Result>(kv::evaluate(scenario));
    const double sweep = median_seconds(21, [&] {
        for (int i = 1; i <= 1000; ++i) {
            kv::Scenario s = base.scenario;
            s.prompt_tokens = 128 * i;
            sink = sink + kv::evaluate_resolved(s, base.model, base.gpu).steps.decode.total_s;
        }
    });
    const double batch_curve = median_seconds(51, [&] { sink = sink + static_cast<double>(kv::sweep_batch(base).points.size()); });
    // Serving over time: 2,000 chat requests at 8 a second on the starting point (budget 50 ms).
    kv::Workload chat;
    double steps = 0;
    const double simulation = median_seconds(11, [&] {
        const auto sim = std::get<kv::Simulation>(kv::simulate(base, chat));
        steps = static_cast<double>(sim.steps.size());
    });
    std::printf("one evaluation:         %8.2f us (median of 2,001)\n", one * 1e6);
    std::printf("1,000-point sweep:      %8.2f ms (median of 21)\n", sweep * 1e3);
    std::printf("batch curve (panel 3):  %8.2f ms (median of 51)\n", batch_curve * 1e3);
    std::printf("evaluations per 16 ms frame: %.0f\n", 0.016 / one);
    std::printf("simulation, 2,000 chat requests: %8.2f ms (median of 11; %.0f steps)\n", simulation * 1e3, steps);
    return 0;
}
