// Figures computed through the core and formatted by core/base/format.hpp, and every way one can fail.
#include <catch2/catch.hpp>

#include "markdown/bindings.hpp"
#include "figures/lesson_data.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "errors.hpp"

using namespace site;
using nlohmann::json;

namespace {

json base_scenario() {
    json base = kv::scenario_to_json(kv::Scenario{});
    base["max_model_len"] = nullptr;
    return base;
}

LessonData lesson() {
    json scenarios = {{"schema_version", 1},
                      {"base", base_scenario()},
                      {"scenarios",
                       {
                           {"start", {{"about", "the defaults"}, {"set", json::object()}}},
                           {"long", {{"about", "32k prompts"}, {"set", {{"prompt_tokens", 32768}}}}},
                           {"big",
                            {{"about", "Qwen3-32B at 0.72"},
                             {"set", {{"model", "Qwen3-32B"}, {"prompt_tokens", 32768}, {"gpu_memory_utilization", 0.72}}}}},
                           {"calm",
                            {{"about", "chat at 4 a second"},
                             {"set", json::object()},
                             {"workload", {{"workload", "chat"}, {"rate_per_s", 4}, {"requests", 300}}}}},
                           {"flood",
                            {{"about", "chat at 64 a second"},
                             {"set", json::object()},
                             {"workload", {{"workload", "chat"}, {"rate_per_s", 64}, {"requests", 600}}}}},
                       }}};
    json facts = {{"schema_version", 1},
                  {"facts",
                   {{"h100_cuda_total", {{"value", 79.2}, {"unit", "GiB"}, {"source", "issue 4"}}},
                    {"block", {{"value", 16}, {"unit", "tokens"}, {"source", "vLLM"}}}}}};
    auto loaded = LessonData::load(scenarios, facts);
    REQUIRE(std::holds_alternative<LessonData>(loaded));
    return std::get<LessonData>(std::move(loaded));
}

FigureBinding binding(const std::string& inner) {
    auto parsed = parse_extension(inner);
    REQUIRE(std::holds_alternative<Item>(parsed));
    return std::get<FigureBinding>(std::get<Item>(parsed));
}

std::string value_of(const LessonData& data, const std::string& inner) {
    auto v = data.compute(binding(inner));
    if (auto* error = std::get_if<Error>(&v)) FAIL(error->message);
    return std::get<FigureValue>(v).formatted;
}

Error error_of(const LessonData& data, const std::string& inner) {
    auto v = data.compute(binding(inner));
    REQUIRE(std::holds_alternative<Error>(v));
    return std::get<Error>(v);
}

ErrorCode code_of(const LessonData& data, const std::string& inner) { return error_of(data, inner).code; }

// The error LessonData::load gives, with the file it names.
BuildError load_error(const json& scenarios, const json& facts) {
    auto loaded = LessonData::load(scenarios, facts);
    REQUIRE(std::holds_alternative<BuildError>(loaded));
    return std::get<BuildError>(loaded);
}

}  // namespace

TEST_CASE("figures equal the core's result formatted by the named format") {
    const LessonData data = lesson();
    auto direct = std::get<kv::Result>(kv::evaluate(kv::Scenario{}));
    CHECK(value_of(data, "start.max_resident_sequences | count") == kv::format_count(direct.admission.max_resident_sequences));
    CHECK(value_of(data, "start.kv_bytes_per_token | kib") == *kv::format_named(direct.memory.layout.kv_bytes_per_token, "kib"));
    CHECK(value_of(data, "start.decode_step_s | duration") == kv::format_duration(direct.steps.decode.total_s));
    CHECK(value_of(data, "start.decode.flops | sig3") == kv::format_significant(direct.steps.decode.flops, 3));
    CHECK(value_of(data, "start.prefill_bound | text") == kv::bound_name(direct.steps.prefill.bound));
    CHECK(value_of(data, "start.model.head_dim | count") == "128");
    CHECK(value_of(data, "long.scenario.prompt_tokens | count") == "32,768");
}

TEST_CASE("arithmetic across scenarios") {
    const LessonData data = lesson();
    auto a = std::get<kv::Result>(kv::evaluate(kv::Scenario{}));
    kv::Scenario s;
    s.prompt_tokens = 32768;
    auto b = std::get<kv::Result>(kv::evaluate(s));
    CHECK(value_of(data, "start.decode_tokens_per_s / long.decode_tokens_per_s | x2") ==
          kv::format_factor(a.steps.decode_tokens_per_s / b.steps.decode_tokens_per_s, 2));
    CHECK(value_of(data, "start.max_resident_sequences - long.max_resident_sequences | count") ==
          kv::format_count(a.admission.max_resident_sequences - b.admission.max_resident_sequences));
    CHECK(value_of(data, "(long.itl_s - start.itl_s) / start.itl_s | percent") ==
          kv::format_percent((b.steps.itl_s - a.steps.itl_s) / a.steps.itl_s, 0));
}

TEST_CASE("facts carry their unit into base units") {
    const LessonData data = lesson();
    CHECK(value_of(data, "fact.h100_cuda_total | gib1") == "79.2 GiB");
    CHECK(value_of(data, "fact.block | count") == "16");
    CHECK(value_of(data, "start.gpu.memory_bytes - fact.h100_cuda_total | gib1") == "0.8 GiB");
}

TEST_CASE("every failure has its code, and names what is unknown and what would be known") {
    const LessonData data = lesson();
    CHECK(code_of(data, "nowhere.ttft_s | ms0") == ErrorCode::unknown_scenario);
    CHECK(code_of(data, "start.ttft | ms0") == ErrorCode::unknown_field);
    CHECK(code_of(data, "start.decode.nope | ms0") == ErrorCode::unknown_field);
    CHECK(code_of(data, "start.ttft_s.x | ms0") == ErrorCode::unknown_field);
    CHECK(code_of(data, "start.ttft_s | ms5") == ErrorCode::unknown_format);
    CHECK(code_of(data, "fact.nope | count") == ErrorCode::unknown_fact);
    CHECK(code_of(data, "start.prefill_bound | count") == ErrorCode::not_a_number);
    CHECK(code_of(data, "start.ttft_s | text") == ErrorCode::number_as_text);
    CHECK(code_of(data, "start.decode | sig3") == ErrorCode::not_a_value);
    CHECK(code_of(data, "start.log.99 | text") == ErrorCode::bad_index);
    CHECK(code_of(data, "start.ttft_s / start.waiting | x2") == ErrorCode::division_by_zero);
    // The alternatives a message lists are the lesson's own: its scenarios, the result's fields, the formats.
    CHECK_THAT(error_of(data, "nowhere.ttft_s | ms0").message, Catch::Contains("big, calm, flood, long, start"));
    CHECK_THAT(error_of(data, "start.ttft | ms0").message, Catch::Contains("ttft_s"));
    CHECK_THAT(error_of(data, "start.ttft_s | ms5").message, Catch::Contains("duration"));
    // A field that is 0 only because the scenario failed is refused; the status itself is fine.
    CHECK(code_of(data, "big.decode_step_s | duration") == ErrorCode::failed_scenario_field);
    CHECK(value_of(data, "big.status | text") == "engine_refused");
    CHECK(value_of(data, "big.weight_bytes | gib0") == "61 GiB");
}

TEST_CASE("a latency of a run whose queue grows without bound is refused; its rates and counts are not") {
    const LessonData data = lesson();
    CHECK(value_of(data, "calm.simulation.load | text") == "stable");
    CHECK(value_of(data, "flood.simulation.load | text") == "overloaded");
    for (const char* growing : {"flood.simulation.ttft_s.p50 | duration", "flood.simulation.itl_s.p99 | duration",
                                "flood.simulation.e2e_s.mean | duration", "flood.simulation.mean_running | sig2"})
        CHECK(code_of(data, growing) == ErrorCode::grows_with_run);
    CHECK_THAT(error_of(data, "flood.simulation.ttft_s.p50 | duration").message, Catch::Contains("requests/s offered"));
    CHECK(value_of(data, "flood.simulation.sustained_rate_per_s | sig2") != "");
    CHECK(value_of(data, "flood.simulation.preemptions | count") != "");
    CHECK(value_of(data, "calm.simulation.ttft_s.p50 | duration") != "");
}

TEST_CASE("a scenario the model rejects fails the load, naming it") {
    json base = base_scenario();
    json scenarios = {{"base", base}, {"scenarios", {{"bad", {{"set", {{"prompt_tokens", 0}}}}}}}};
    const BuildError bad = load_error(scenarios, {{"facts", json::object()}});
    CHECK(bad.code == ErrorCode::scenario_rejected);
    CHECK_THAT(bad.str(), Catch::StartsWith("scenarios.json: scenario_rejected: scenario \"bad\""));

    // A size the engine refuses (3 does not divide the heads) is a result; one out of range is an error.
    json tp = {{"base", base}, {"scenarios", {{"tp0", {{"set", {{"tensor_parallel_size", 0}}}}}}}};
    CHECK(load_error(tp, {{"facts", json::object()}}).code == ErrorCode::scenario_rejected);

    json unknown = {{"base", base}, {"scenarios", {{"x", {{"set", {{"promt_tokens", 5}}}}}}}};
    CHECK(load_error(unknown, {{"facts", json::object()}}).code == ErrorCode::scenario_rejected);

    base.erase("gpu");
    CHECK(load_error({{"base", base}, {"scenarios", json::object()}}, {{"facts", json::object()}}).code == ErrorCode::incomplete_base);
}

TEST_CASE("a negative count or size is a binding written the wrong way round") {
    const LessonData data = lesson();
    CHECK(code_of(data, "0 - start.running | count") == ErrorCode::negative_value);
    CHECK(code_of(data, "start.weight_bytes - start.budget_bytes | gib1") == ErrorCode::negative_value);
    CHECK(value_of(data, "start.running - 0 | count") == "32");
}

TEST_CASE("a data file the lesson cannot use names the file and its code") {
    const json base = base_scenario();
    const json no_facts = {{"facts", json::object()}};
    CHECK(load_error({{"scenarios", json::object()}}, no_facts).code == ErrorCode::bad_scenarios_file);
    CHECK(load_error({{"base", base}, {"scenarios", {{"x", {{"about", "no set"}}}}}}, no_facts).code == ErrorCode::bad_scenarios_file);
    CHECK(load_error({{"base", base}, {"scenarios", {{"fact", {{"set", json::object()}}}}}}, no_facts).code == ErrorCode::reserved_name);
    const json scenarios = {{"base", base}, {"scenarios", json::object()}};
    const BuildError no_file = load_error(scenarios, json::object());
    CHECK(no_file.code == ErrorCode::bad_facts_file);
    CHECK(no_file.where.str() == "facts.json");
    CHECK(load_error(scenarios, {{"facts", {{"x", {{"value", 1}}}}}}).code == ErrorCode::bad_fact);
    CHECK(load_error(scenarios, {{"facts", {{"x", {{"value", 1}, {"unit", "furlongs"}, {"source", "s"}}}}}}).code == ErrorCode::bad_fact);
    const json bad_workload = {{"base", base}, {"scenarios", {{"w", {{"set", json::object()}, {"workload", {{"workload", "nope"}}}}}}}};
    CHECK(load_error(bad_workload, no_facts).code == ErrorCode::workload_rejected);
}
