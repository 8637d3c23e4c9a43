// Every figure of the lesson brief, kept as data in tests/reference_figures.json with the brief's
// wording beside it: scenario (over the lesson's base), result field, named format, the text the
// model prints now (`expected`) and, where the engine-faithful model moved it, the brief's own
// figure (`brief`). Shapes (bytes per token, parameters) match the brief exactly; a figure that
// moved more than 5% from the brief says why.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "base/format.hpp"
#include "support.hpp"

namespace {

nlohmann::json field_of(const nlohmann::json& base, const nlohmann::json& scenario, const std::string& field) {
    nlohmann::json merged = base;
    merged.update(scenario);
    const nlohmann::json result = kv::result_to_json(kvtest::evaluate_ok(merged));
    REQUIRE(result.contains(field));
    return result[field];
}

// The number in a printed figure ("2,300", "27.9 ms", "4.2×"): separators and units dropped.
double leading_number(const std::string& text) {
    std::string digits;
    for (char ch : text) {
        if ((ch >= '0' && ch <= '9') || ch == '.') digits += ch;
        else if (ch != ',' && !digits.empty()) break;
    }
    return digits.empty() ? std::nan("") : std::stod(digits);
}

}  // namespace

TEST_CASE("the brief's figures, reproduced by the model") {
    std::ifstream in(KV_REFERENCE_FIGURES);
    REQUIRE(in.good());
    const auto data = nlohmann::json::parse(in);
    const auto& base = data.at("base");
    const auto& figures = data.at("figures");
    REQUIRE(figures.size() >= 50);
    for (const auto& figure : figures) {
        INFO(figure.at("quote").get<std::string>());
        const std::string field = figure.at("field");
        const nlohmann::json value = field_of(base, figure.at("scenario"), field);
        std::string shown;
        if (value.is_string()) {
            shown = value.get<std::string>();
        } else {
            double number = value.get<double>();
            if (figure.contains("over")) number /= field_of(base, figure.at("over"), field).get<double>();
            shown = kv::format_named(number, figure.at("format").get<std::string>()).value();
        }
        CHECK(shown == figure.at("expected").get<std::string>());
        if (figure.value("shape", false)) CHECK_FALSE(figure.contains("brief"));  // shapes never move
        if (figure.contains("brief") && figure["brief"].is_string()) {
            const double brief = leading_number(figure["brief"].get<std::string>());
            const double now = leading_number(shown);
            if (std::isfinite(brief) && brief != 0 && std::fabs(now / brief - 1) > 0.05) CHECK(figure.contains("why"));
        }
    }
}
