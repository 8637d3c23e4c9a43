// The flag planner: any target text in; an error or a plan whose candidates, evaluated again,
// start and run their users.
#include <string>

#include "fuzz_common.hpp"
#include "plan/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto target = kv::plan_target_from_text(text);
    if (!std::holds_alternative<kv::PlanTarget>(target)) return 0;
    auto plan = kv::plan(std::get<kv::PlanTarget>(target));
    if (auto* p = std::get_if<kv::PlanResult>(&plan)) kvfuzz::all_finite(kv::plan_to_json(*p));
    return 0;
}
