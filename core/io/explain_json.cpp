#include "io/explain_json.hpp"

#include "base/format.hpp"
#include "io/input_text.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"

namespace kv {

std::variant<LogExplanation, InputError> explain_log_json(std::string_view text, const nlohmann::json& given) {
    if (text.size() > max_log_bytes)
        return InputError{"log", ErrorCode::out_of_range,
                          "the log is " + format_count(static_cast<int64_t>(text.size())) + " bytes; at most " +
                              format_count(static_cast<int64_t>(max_log_bytes)) + " are read: paste the start-up part"};
    GivenScenario partial;
    if (!given.is_null()) {
        auto scenario = scenario_from_json(given);
        if (auto* e = std::get_if<InputError>(&scenario)) return *e;
        partial.scenario = std::get<Scenario>(scenario);
        for (const auto& item : given.items()) partial.fields.push_back(item.key());
    }
    return explain_log(text, partial);
}

nlohmann::json explanation_to_json(const LogExplanation& x) {
    nlohmann::json terms = nlohmann::json::array();
    for (const ExplainedTerm& t : x.terms) {
        nlohmann::json j = {{"term", t.term}, {"model", t.model}, {"unit", t.unit}, {"inferred", t.inferred}, {"meaning", t.meaning}};
        j["logged"] = t.logged ? nlohmann::json(*t.logged) : nlohmann::json(nullptr);
        j["difference"] = t.logged && *t.logged != 0 ? nlohmann::json(t.model / *t.logged - 1) : nlohmann::json(nullptr);
        terms.push_back(j);
    }
    nlohmann::json refusal = nullptr;
    if (x.log.refusal_kind) refusal = {{"kind", refusal_kind_name(*x.log.refusal_kind)}, {"line", x.log.refusal_line.value_or("")}};
    return {{"scenario", scenario_to_json(x.scenario)},
            {"assumptions", x.assumptions},
            {"terms", terms},
            {"logged_refusal", refusal},
            {"model_refusal", startup_error_to_json(x.result.memory.startup_error)},
            {"recognised_lines", x.log.recognised}};
}

}  // namespace kv
