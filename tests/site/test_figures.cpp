// Figures computed through the core and formatted by core/base/format.hpp, and every way one can fail.
#include <catch2/catch.hpp>

#include "markdown/bindings.hpp"
#include "figures/lesson_data.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"

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
    if (auto* message = std::get_if<std::string>(&v)) FAIL(*message);
    return std::get<FigureValue>(v).formatted;
}

std::string error_of(const LessonData& data, const std::string& inner) {
    auto v = data.compute(binding(inner));
    REQUIRE(std::holds_alternative<std::string>(v));
    return std::get<std::string>(v);
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

TEST_CASE("every failure names what is unknown and what would be known") {
    const LessonData data = lesson();
    CHECK_THAT(error_of(data, "nowhere.ttft_s | ms0"),
               Catch::Contains("unknown scenario \"nowhere\"") && Catch::Contains("big, long, start"));
    CHECK_THAT(error_of(data, "start.ttft | ms0"), Catch::Contains("unknown field \"ttft\"") && Catch::Contains("ttft_s"));
    CHECK_THAT(error_of(data, "start.decode.nope | ms0"), Catch::Contains("in start.decode"));
    CHECK_THAT(error_of(data, "start.ttft_s | ms5"), Catch::Contains("unknown format \"ms5\"") && Catch::Contains("duration"));
    CHECK_THAT(error_of(data, "fact.nope | count"), Catch::Contains("unknown fact"));
    CHECK_THAT(error_of(data, "start.prefill_bound | count"), Catch::Contains("not a number"));
    CHECK_THAT(error_of(data, "start.ttft_s | text"), Catch::Contains("numeric format"));
    CHECK_THAT(error_of(data, "start.decode | sig3"), Catch::Contains("not a single value"));
    CHECK_THAT(error_of(data, "start.log.99 | text"), Catch::Contains("not an index"));
    CHECK_THAT(error_of(data, "start.ttft_s / start.waiting | x2"), Catch::Contains("division by zero"));
    // A field that is 0 only because the scenario failed is refused; the status itself is fine.
    CHECK_THAT(error_of(data, "big.decode_step_s | duration"), Catch::Contains("engine_refused"));
    CHECK(value_of(data, "big.status | text") == "engine_refused");
    CHECK(value_of(data, "big.weight_bytes | gib0") == "61 GiB");
}

TEST_CASE("a scenario the model rejects fails the load, naming it") {
    json base = base_scenario();
    json scenarios = {{"base", base}, {"scenarios", {{"bad", {{"set", {{"prompt_tokens", 0}}}}}}}};
    auto loaded = LessonData::load(scenarios, {{"facts", json::object()}});
    REQUIRE(std::holds_alternative<std::string>(loaded));
    CHECK_THAT(std::get<std::string>(loaded), Catch::Contains("scenario \"bad\"") && Catch::Contains("prompt_tokens"));

    // A size the engine refuses (3 does not divide the heads) is a result; one out of range is an error.
    json tp = {{"base", base}, {"scenarios", {{"tp0", {{"set", {{"tensor_parallel_size", 0}}}}}}}};
    CHECK_THAT(std::get<std::string>(LessonData::load(tp, {{"facts", json::object()}})),
               Catch::Contains("tensor_parallel_size") && Catch::Contains("1 to 64"));

    json unknown = {{"base", base}, {"scenarios", {{"x", {{"set", {{"promt_tokens", 5}}}}}}}};
    CHECK_THAT(std::get<std::string>(LessonData::load(unknown, {{"facts", json::object()}})), Catch::Contains("promt_tokens"));

    base.erase("gpu");
    CHECK_THAT(std::get<std::string>(LessonData::load({{"base", base}, {"scenarios", json::object()}}, {{"facts", json::object()}})),
               Catch::Contains("base lacks \"gpu\""));
}

TEST_CASE("a negative count or size is a binding written the wrong way round") {
    const LessonData data = lesson();
    CHECK_THAT(error_of(data, "0 - start.running | count"), Catch::Contains("negative"));
    CHECK_THAT(error_of(data, "start.weight_bytes - start.budget_bytes | gib1"), Catch::Contains("negative"));
    CHECK(value_of(data, "start.running - 0 | count") == "32");
}
