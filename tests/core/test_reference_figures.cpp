// Every figure of the lesson brief, kept as data in tests/reference_figures.json with the brief's
// wording beside it: scenario, result field, named format, expected text.
#include <catch2/catch.hpp>
#include <fstream>

#include "format.hpp"
#include "support.hpp"

namespace {

nlohmann::json field_of(const nlohmann::json& scenario, const std::string& field) {
    const nlohmann::json result = kv::result_to_json(kvtest::evaluate_ok(scenario));
    REQUIRE(result.contains(field));
    return result[field];
}

}  // namespace

TEST_CASE("the brief's figures, reproduced by the model") {
    std::ifstream in(KV_REFERENCE_FIGURES);
    REQUIRE(in.good());
    const auto figures = nlohmann::json::parse(in).at("figures");
    REQUIRE(figures.size() >= 50);
    for (const auto& figure : figures) {
        INFO(figure.at("quote").get<std::string>());
        const std::string field = figure.at("field");
        const nlohmann::json value = field_of(figure.at("scenario"), field);
        std::string shown;
        if (value.is_string()) {
            shown = value.get<std::string>();
        } else {
            double number = value.get<double>();
            if (figure.contains("over")) number /= field_of(figure.at("over"), field).get<double>();
            shown = kv::format_named(number, figure.at("format").get<std::string>()).value();
        }
        CHECK(shown == figure.at("expected").get<std::string>());
    }
}
