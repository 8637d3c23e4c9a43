// The workload's fields, one row each (scenario/fields.hpp says what a row holds): the JSON
// reader and writer (io/simulate_json.hpp), --catalog and the serving panel's knobs read them.
#pragma once
#include <cstdint>
#include <vector>

#include "scenario/fields.hpp"
#include "serving/simulate.hpp"

namespace kv {

const std::vector<Field<Workload>>& workload_fields();
// The most requests one run serves (the requests row's limit; an explicit list too).
int64_t max_workload_requests();

}  // namespace kv
