// The lesson's data: named scenarios (content/lesson/scenarios.json) evaluated through the core and
// sourced facts (content/lesson/facts.json), loaded by figures/lesson_data.cpp; and the value of each
// figure binding, formatted by core/base/format.hpp (figures/compute.cpp). A figure's error is an
// Error (a code and a message for people); the caller adds file:line.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "errors.hpp"
#include "markdown/bindings.hpp"
#include "result/evaluate.hpp"

namespace site {

struct EvaluatedScenario {
    std::string name;
    std::string about;
    nlohmann::json scenario;  // the full scenario, every field (kv::scenario_to_json)
    nlohmann::json result;    // kv::result_to_json
    kv::Result evaluated;     // the same result, for the pictures (pictures/pictures.hpp)
};

struct Fact {
    double value = 0;  // in base units (bytes, tokens, a plain number)
    std::string about;
    std::string source;
};

// One reference of a figure with the value it resolved to.
struct RefValue {
    Ref ref;
    nlohmann::json value;
};

struct FigureValue {
    bool is_text = false;
    double number = 0;      // when !is_text
    std::string formatted;  // what the page shows
    std::vector<RefValue> refs;
};

class LessonData {
public:
    // Parses both files and evaluates every scenario; the error names the file (scenarios.json or
    // facts.json, no folder: the caller adds it) and the scenario or the fact.
    static std::variant<LessonData, BuildError> load(const nlohmann::json& scenarios_file, const nlohmann::json& facts_file);

    const EvaluatedScenario* find_scenario(const std::string& name) const;
    const Fact* find_fact(const std::string& id) const;
    std::string scenario_names() const;  // "a, b, c" for messages
    const std::map<std::string, EvaluatedScenario>& scenarios() const { return scenarios_; }
    const std::map<std::string, Fact>& facts() const { return facts_; }

    // The model against the real engine (both validation files, page/accuracy.cpp): what an
    // `accuracy.` reference reads, e.g. accuracy.time.holdout_median.
    void set_accuracy(nlohmann::json accuracy) { accuracy_ = std::move(accuracy); }
    const nlohmann::json& accuracy() const { return accuracy_; }

    // The value of one reference: a number or a string from the result JSON, a fact, or accuracy.
    std::variant<nlohmann::json, Error> resolve(const Ref& ref) const;

    // Evaluates and formats a figure binding.
    std::variant<FigureValue, Error> compute(const FigureBinding& binding) const;

private:
    std::map<std::string, EvaluatedScenario> scenarios_;
    std::map<std::string, Fact> facts_;
    nlohmann::json accuracy_;  // null until set: the site was built without its validation files
};

// Every format a binding may name: core/base/format.hpp's named formats, plus `text`.
std::string format_names();

}  // namespace site
