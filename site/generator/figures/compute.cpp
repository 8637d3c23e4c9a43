// Resolving a reference (a path into a scenario's result JSON, or a fact) and computing a figure:
// its arithmetic over the references, then core/base/format.hpp's named format.
#include <cmath>
#include <optional>

#include "figures/lesson_data.hpp"
#include "base/format.hpp"

namespace site {
namespace {

using nlohmann::json;

std::string join_keys(const json& object) {
    std::string out;
    for (const auto& [key, value] : object.items()) out += (out.empty() ? "" : ", ") + key;
    return out;
}

// Walks `ref.path`, one dotted key or list index at a time, into a scenario's result.
std::variant<const json*, Error> walk(const json& result, const Ref& ref) {
    const json* node = &result;
    std::string walked = ref.source;
    size_t start = 0;
    while (start <= ref.path.size()) {
        const size_t dot = std::min(ref.path.find('.', start), ref.path.size());
        const std::string key = ref.path.substr(start, dot - start);
        if (node->is_object()) {
            if (!node->contains(key))
                return Error{ErrorCode::unknown_field,
                             "unknown field \"" + key + "\" in " + walked + " (fields: " + join_keys(*node) + ")"};
            node = &(*node)[key];
        } else if (node->is_array()) {
            size_t index = 0;
            bool numeric = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
            if (numeric) index = std::stoul(key);
            if (!numeric || index >= node->size())
                return Error{ErrorCode::bad_index,
                             walked + " is a list of " + std::to_string(node->size()) + "; \"" + key + "\" is not an index in it"};
            node = &(*node)[index];
        } else {
            return Error{ErrorCode::unknown_field, walked + " is a value, it has no field \"" + key + "\""};
        }
        walked += "." + key;
        start = dot + 1;
    }
    if (node->is_object() || node->is_array())
        return Error{ErrorCode::not_a_value, walked + " is not a single value; name a field inside it (" +
                                                 (node->is_object() ? join_keys(*node) : std::string("an index")) + ")"};
    return node;
}

std::variant<double, Error> evaluate_expr(const Expr& e, const LessonData& data, std::vector<RefValue>& refs) {
    switch (e.kind) {
        case Expr::Kind::number:
            return e.number;
        case Expr::Kind::ref: {
            auto value = data.resolve(e.ref);
            if (auto* error = std::get_if<Error>(&value)) return *error;
            const json& v = std::get<json>(value);
            refs.push_back({e.ref, v});
            if (!v.is_number())
                return Error{ErrorCode::not_a_number, e.ref.str() + " is " + v.dump() + ", not a number; only the text format prints it"};
            return v.get<double>();
        }
        case Expr::Kind::binary: {
            auto left = evaluate_expr(*e.left, data, refs);
            if (auto* error = std::get_if<Error>(&left)) return *error;
            auto right = evaluate_expr(*e.right, data, refs);
            if (auto* error = std::get_if<Error>(&right)) return *error;
            const double a = std::get<double>(left), b = std::get<double>(right);
            switch (e.op) {
                case '+':
                    return a + b;
                case '-':
                    return a - b;
                case '*':
                    return a * b;
                default:
                    if (b == 0) return Error{ErrorCode::division_by_zero, "division by zero"};
                    return a / b;
            }
        }
    }
    return Error{ErrorCode::bad_expression, "unreachable"};
}

// A waiting time, a latency percentile or the mean batch of a run whose queue grows for as long as
// the traffic lasts (an overloaded or all-at-once run) measures the run's length, not the engine:
// the text may quote the rates and counts of such a run, not those.
std::optional<std::string> grows_with_run(const EvaluatedScenario& scenario, const Ref& ref) {
    if (!scenario.result.contains("simulation") || ref.path.rfind("simulation.", 0) != 0) return std::nullopt;
    const json& sim = scenario.result["simulation"];
    if (!sim.value("latency_grows_with_run", false)) return std::nullopt;
    static const char* const growing[] = {"simulation.ttft_s", "simulation.e2e_s",        "simulation.tpot_s",
                                          "simulation.itl_s",  "simulation.mean_running", "simulation.duration_s"};
    for (const char* prefix : growing)
        if (ref.path.rfind(prefix, 0) == 0)
            return ref.str() + " comes from a run whose queue grows for as long as the traffic lasts (" + sim.value("load", std::string()) +
                   ": " + kv::format_significant(sim.value("offered_rate_per_s", 0.0), 2) + " requests/s offered, " +
                   kv::format_significant(sim.value("sustained_rate_per_s", 0.0), 2) +
                   " completed while requests waited), so it grows with the run's length; quote the rates instead";
    return std::nullopt;
}

}  // namespace

std::string format_names() {
    std::string out;
    for (const std::string& name : kv::named_formats()) out += name + ", ";
    return out + "text";
}

std::variant<json, Error> LessonData::resolve(const Ref& ref) const {
    if (ref.is_fact()) {
        const Fact* fact = find_fact(ref.path);
        if (!fact) {
            std::string ids;
            for (const auto& [id, f] : facts_) ids += (ids.empty() ? "" : ", ") + id;
            return Error{ErrorCode::unknown_fact, "unknown fact \"" + ref.path + "\" (facts.json has: " + ids + ")"};
        }
        return json(fact->value);
    }
    if (ref.source == "accuracy") {
        if (accuracy_.is_null())
            return Error{ErrorCode::unknown_scenario, "accuracy figures need the validation files (kvsite --validation tests/validation)"};
        auto found = walk(accuracy_, ref);
        if (auto* error = std::get_if<Error>(&found)) return *error;
        return *std::get<const json*>(found);
    }
    const EvaluatedScenario* scenario = find_scenario(ref.source);
    if (!scenario)
        return Error{ErrorCode::unknown_scenario, "unknown scenario \"" + ref.source + "\" (scenarios.json has: " + scenario_names() + ")"};
    auto found = walk(scenario->result, ref);
    if (auto* error = std::get_if<Error>(&found)) return *error;
    const json* node = std::get<const json*>(found);
    if (const auto why = grows_with_run(*scenario, ref)) return Error{ErrorCode::grows_with_run, *why};
    if (node->is_number() && scenario->result.value("status", "ok") != "ok" && node->get<double>() == 0 &&
        ref.path.rfind("scenario.", 0) != 0)
        return Error{ErrorCode::failed_scenario_field, ref.str() + " is 0 because the scenario's status is " +
                                                           scenario->result["status"].get<std::string>() +
                                                           "; bind a field that means something for it"};
    return *node;
}

std::variant<FigureValue, Error> LessonData::compute(const FigureBinding& binding) const {
    FigureValue out;
    if (binding.format == "text") {
        auto value = resolve(binding.refs.front());
        if (auto* error = std::get_if<Error>(&value)) return *error;
        const json& v = std::get<json>(value);
        out.refs.push_back({binding.refs.front(), v});
        out.is_text = true;
        if (v.is_string()) out.formatted = v.get<std::string>();
        else if (v.is_boolean()) out.formatted = v.get<bool>() ? "true" : "false";
        else
            return Error{ErrorCode::number_as_text,
                         binding.refs.front().str() + " is a number; give it a numeric format (" + format_names() + ")"};
        return out;
    }
    auto value = evaluate_expr(binding.expr, *this, out.refs);
    if (auto* error = std::get_if<Error>(&value)) return *error;
    out.number = std::get<double>(value);
    if (!std::isfinite(out.number)) return Error{ErrorCode::not_finite, "the value is not finite"};
    // Counts, sizes and rates are never negative: a negative one is a binding written the wrong way round.
    static const char* const unsigned_formats[] = {"count",  "bytes",        "bytes_exact", "kib",       "mib",      "gib0", "gib1", "gib2",
                                                   "params", "tokens_per_s", "flops_per_s", "bandwidth", "duration", "ms0",  "ms1"};
    for (const char* f : unsigned_formats)
        if (binding.format == f && out.number < 0)
            return Error{ErrorCode::negative_value, "the value is negative (" + std::to_string(out.number) + "); a " + binding.format +
                                                        " cannot be: swap the operands"};
    auto formatted = kv::format_named(out.number, binding.format);
    if (!formatted) return Error{ErrorCode::unknown_format, "unknown format \"" + binding.format + "\" (formats: " + format_names() + ")"};
    out.formatted = *formatted;
    return out;
}

}  // namespace site
