// The JSON room's front door: everything the core reads or writes as JSON (scenarios, results,
// config.json files, GPUs, the catalog). The only room that includes nlohmann/json; every
// rejection names the field and its allowed range.
#pragma once
#include "io/catalog_json.hpp"
#include "io/explain_json.hpp"
#include "io/fields_json.hpp"
#include "io/input_text.hpp"
#include "io/plan_json.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "io/simulate_json.hpp"
#include "io/validation_json.hpp"
