// The median of a list of numbers (the validation tables' summary statistic); 0 for none.
#pragma once
#include <algorithm>
#include <vector>

namespace kv {

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

}  // namespace kv
