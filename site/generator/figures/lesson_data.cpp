#include "figures/lesson_data.hpp"

#include <cmath>

#include "result/evaluate.hpp"
#include "base/format.hpp"
#include "io/json_io.hpp"
#include "io/simulate_json.hpp"
#include "base/units.hpp"

namespace site {
namespace {

using nlohmann::json;

std::string join_keys(const json& object) {
    std::string out;
    for (const auto& [key, value] : object.items()) out += (out.empty() ? "" : ", ") + key;
    return out;
}

std::variant<double, std::string> fact_multiplier(const std::string& unit) {
    if (unit == "GiB") return kv::GiB;
    if (unit == "MiB") return kv::MiB;
    if (unit == "KiB") return kv::KiB;
    if (unit == "bytes" || unit == "tokens" || unit == "count" || unit == "fraction" || unit == "number") return 1.0;
    return "unit \"" + unit + "\" is not one of GiB, MiB, KiB, bytes, tokens, count, fraction, number";
}

// A scenario with a workload is also run over time: its figures read `simulation.*`, and the page
// hands the workload's fields to the serving panel along with the scenario's.
std::variant<EvaluatedScenario, std::string> simulate_named(EvaluatedScenario& e, const kv::Result& result, const json& entry) {
    auto workload = kv::workload_from_json(entry["workload"]);
    if (auto* error = std::get_if<kv::InputError>(&workload))
        return "its workload is rejected: " + error->message + " (" + error->field + ")";
    const kv::Workload& w = std::get<kv::Workload>(workload);
    auto run = kv::simulate(result, w);
    if (auto* error = std::get_if<kv::InputError>(&run)) return "it cannot be simulated: " + error->message;
    e.result["simulation"] = kv::simulation_to_json(std::get<kv::Simulation>(run));
    if (entry.value("find_preemption_onset", false))
        e.result["simulation"]["preemption_onset_rate_per_s"] = kv::preemption_onset_rate(result, w);
    e.result["workload"] = kv::workload_to_json(w);
    e.scenario.update(kv::workload_to_json(w));
    return e;
}

std::variant<EvaluatedScenario, std::string> evaluate_named(const std::string& name, const json& entry, const json& base) {
    if (!entry.is_object() || !entry.contains("set") || !entry["set"].is_object())
        return std::string("each scenario is {\"about\": \"...\", \"set\": {fields that differ from base}}");
    json full = base;
    for (const auto& [key, value] : entry["set"].items()) full[key] = value;
    auto scenario = kv::scenario_from_json(full);
    if (auto* error = std::get_if<kv::InputError>(&scenario))
        return "the model rejects it: " + error->message + " (" + kv::error_code_name(error->code) + ")";
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    if (auto* error = std::get_if<kv::InputError>(&outcome))
        return "the model rejects it: " + error->message + " (" + kv::error_code_name(error->code) + ")";
    EvaluatedScenario e;
    e.name = name;
    e.about = entry.value("about", "");
    e.scenario = kv::scenario_to_json(std::get<kv::Scenario>(scenario));
    const kv::Result& result = std::get<kv::Result>(outcome);
    e.result = kv::result_to_json(result);
    e.evaluated = result;
    if (entry.contains("workload")) return simulate_named(e, result, entry);
    return e;
}

std::variant<double, std::string> evaluate_expr(const Expr& e, const LessonData& data, std::vector<RefValue>& refs) {
    switch (e.kind) {
        case Expr::Kind::number:
            return e.number;
        case Expr::Kind::ref: {
            auto value = data.resolve(e.ref);
            if (auto* message = std::get_if<std::string>(&value)) return *message;
            const json& v = std::get<json>(value);
            refs.push_back({e.ref, v});
            if (!v.is_number()) return e.ref.str() + " is " + v.dump() + ", not a number; only the text format prints it";
            return v.get<double>();
        }
        case Expr::Kind::binary: {
            auto left = evaluate_expr(*e.left, data, refs);
            if (auto* message = std::get_if<std::string>(&left)) return *message;
            auto right = evaluate_expr(*e.right, data, refs);
            if (auto* message = std::get_if<std::string>(&right)) return *message;
            const double a = std::get<double>(left), b = std::get<double>(right);
            switch (e.op) {
                case '+':
                    return a + b;
                case '-':
                    return a - b;
                case '*':
                    return a * b;
                default:
                    if (b == 0) return std::string("division by zero");
                    return a / b;
            }
        }
    }
    return std::string("unreachable");
}

}  // namespace

std::string format_names() {
    std::string out;
    for (const std::string& name : kv::named_formats()) out += name + ", ";
    return out + "text";
}

std::variant<LessonData, std::string> LessonData::load(const json& scenarios_file, const json& facts_file) {
    LessonData data;
    if (!scenarios_file.is_object() || !scenarios_file.contains("base") || !scenarios_file.contains("scenarios"))
        return std::string("scenarios.json: wants {\"schema_version\": 1, \"base\": {...}, \"scenarios\": {...}}");
    const json& base = scenarios_file["base"];
    // The base names every field, so a change of the core's defaults cannot move the lesson's figures.
    const json defaults = kv::scenario_to_json(kv::Scenario{});
    for (const auto& [key, value] : defaults.items())
        if (!base.contains(key)) return "scenarios.json: base lacks \"" + key + "\"; it must set every scenario field";
    for (const auto& [name, entry] : scenarios_file["scenarios"].items()) {
        if (is_reserved_name(name)) return "scenarios.json: \"" + name + "\" is a reserved word, not a scenario name";
        auto evaluated = evaluate_named(name, entry, base);
        if (auto* message = std::get_if<std::string>(&evaluated)) return "scenarios.json: scenario \"" + name + "\": " + *message;
        data.scenarios_.emplace(name, std::get<EvaluatedScenario>(std::move(evaluated)));
    }
    if (!facts_file.is_object() || !facts_file.contains("facts") || !facts_file["facts"].is_object())
        return std::string("facts.json: wants {\"schema_version\": 1, \"facts\": {...}}");
    for (const auto& [id, entry] : facts_file["facts"].items()) {
        if (!entry.is_object() || !entry.contains("value") || !entry["value"].is_number() || !entry.contains("source") ||
            !entry["source"].is_string())
            return "facts.json: fact \"" + id + "\" needs a numeric \"value\", a \"unit\" and a \"source\"";
        auto multiplier = fact_multiplier(entry.value("unit", "number"));
        if (auto* message = std::get_if<std::string>(&multiplier)) return "facts.json: fact \"" + id + "\": " + *message;
        data.facts_[id] =
            Fact{entry["value"].get<double>() * std::get<double>(multiplier), entry.value("about", ""), entry["source"].get<std::string>()};
    }
    return data;
}

const EvaluatedScenario* LessonData::find_scenario(const std::string& name) const {
    auto it = scenarios_.find(name);
    return it == scenarios_.end() ? nullptr : &it->second;
}

const Fact* LessonData::find_fact(const std::string& id) const {
    auto it = facts_.find(id);
    return it == facts_.end() ? nullptr : &it->second;
}

std::string LessonData::scenario_names() const {
    std::string out;
    for (const auto& [name, s] : scenarios_) out += (out.empty() ? "" : ", ") + name;
    return out;
}

std::variant<json, std::string> LessonData::resolve(const Ref& ref) const {
    if (ref.is_fact()) {
        const Fact* fact = find_fact(ref.path);
        if (!fact) {
            std::string ids;
            for (const auto& [id, f] : facts_) ids += (ids.empty() ? "" : ", ") + id;
            return "unknown fact \"" + ref.path + "\" (facts.json has: " + ids + ")";
        }
        return json(fact->value);
    }
    const EvaluatedScenario* scenario = find_scenario(ref.source);
    if (!scenario) return "unknown scenario \"" + ref.source + "\" (scenarios.json has: " + scenario_names() + ")";
    const json* node = &scenario->result;
    std::string walked = ref.source;
    size_t start = 0;
    while (start <= ref.path.size()) {
        const size_t dot = std::min(ref.path.find('.', start), ref.path.size());
        const std::string key = ref.path.substr(start, dot - start);
        if (node->is_object()) {
            if (!node->contains(key)) return "unknown field \"" + key + "\" in " + walked + " (fields: " + join_keys(*node) + ")";
            node = &(*node)[key];
        } else if (node->is_array()) {
            size_t index = 0;
            bool numeric = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
            if (numeric) index = std::stoul(key);
            if (!numeric || index >= node->size())
                return walked + " is a list of " + std::to_string(node->size()) + "; \"" + key + "\" is not an index in it";
            node = &(*node)[index];
        } else {
            return walked + " is a value, it has no field \"" + key + "\"";
        }
        walked += "." + key;
        start = dot + 1;
    }
    if (node->is_object() || node->is_array())
        return walked + " is not a single value; name a field inside it (" +
               (node->is_object() ? join_keys(*node) : std::string("an index")) + ")";
    if (node->is_number() && scenario->result.value("status", "ok") != "ok" && node->get<double>() == 0 &&
        ref.path.rfind("scenario.", 0) != 0)
        return walked + " is 0 because the scenario's status is " + scenario->result["status"].get<std::string>() +
               "; bind a field that means something for it";
    return *node;
}

std::variant<FigureValue, std::string> LessonData::compute(const FigureBinding& binding) const {
    FigureValue out;
    if (binding.format == "text") {
        auto value = resolve(binding.refs.front());
        if (auto* message = std::get_if<std::string>(&value)) return *message;
        const json& v = std::get<json>(value);
        out.refs.push_back({binding.refs.front(), v});
        out.is_text = true;
        if (v.is_string()) out.formatted = v.get<std::string>();
        else if (v.is_boolean()) out.formatted = v.get<bool>() ? "true" : "false";
        else return binding.refs.front().str() + " is a number; give it a numeric format (" + format_names() + ")";
        return out;
    }
    auto value = evaluate_expr(binding.expr, *this, out.refs);
    if (auto* message = std::get_if<std::string>(&value)) return *message;
    out.number = std::get<double>(value);
    if (!std::isfinite(out.number)) return std::string("the value is not finite");
    // Counts, sizes and rates are never negative: a negative one is a binding written the wrong way round.
    static const char* const unsigned_formats[] = {"count",  "bytes",        "bytes_exact", "kib",       "mib",      "gib0", "gib1", "gib2",
                                                   "params", "tokens_per_s", "flops_per_s", "bandwidth", "duration", "ms0",  "ms1"};
    for (const char* f : unsigned_formats)
        if (binding.format == f && out.number < 0)
            return "the value is negative (" + std::to_string(out.number) + "); a " + binding.format + " cannot be: swap the operands";
    auto formatted = kv::format_named(out.number, binding.format);
    if (!formatted) return "unknown format \"" + binding.format + "\" (formats: " + format_names() + ")";
    out.formatted = *formatted;
    return out;
}

}  // namespace site
