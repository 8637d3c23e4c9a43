// The scenario's fields, one row each (scenario/fields.hpp says what a row holds): the JSON reader
// and writer, --catalog, the panels' knobs and their page twins, and the page scripts read these
// rows and nothing else. Adding a knob is one row here and one name in a panel's list.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "scenario/fields.hpp"
#include "scenario/scenario.hpp"

namespace kv {

const std::vector<Field<Scenario>>& scenario_fields();
// A scenario field's row by name (a plan target reads its model, GPU, version and lengths by the
// scenario's rows); aborts on a name that is not one, which is a defect of the caller.
const FieldSpec& scenario_field(std::string_view name);

// The tensor-parallel sizes people deploy, which the knob offers and the sweeps, the planner and a
// refusal's remedies try (the reader accepts any size from 1 to 64 that divides the heads).
const std::vector<int64_t>& deployed_tensor_parallel_sizes();

}  // namespace kv
