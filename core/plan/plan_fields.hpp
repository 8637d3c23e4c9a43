// The plan target's fields, one row each (scenario/fields.hpp). The model, GPU, version and
// lengths are the scenario's own rows, so a bad id or config.json is named exactly as in a scenario.
#pragma once
#include <vector>

#include "plan/plan.hpp"
#include "scenario/fields.hpp"

namespace kv {

const std::vector<Field<PlanTarget>>& plan_target_fields();

}  // namespace kv
