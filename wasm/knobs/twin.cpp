// The page's twin (site/js/kvtwin.js) draws each panel's knobs again as native form controls (for
// keyboards and screen readers) from knob_specs(): the same rows, stops and choices as the canvas
// (the core's field tables, through knob_fields.hpp), and shows key_results() in a live strip
// beside them, formatted by core/base/format.hpp, each with the kind of figure it is, so the page
// can show the model's measured error band for that kind (validation/figure_kind.hpp).
#include <algorithm>
#include <cmath>
#include <map>

#include "base/format.hpp"
#include "knobs/knob_fields.hpp"
#include "model/catalog.hpp"
#include "panels/panels.hpp"
#include "validation/figure_kind.hpp"

namespace kvui {
namespace {

using nlohmann::json;

// A stop's value as JSON: a whole number for an integer row.
json stop_value(const kv::FieldSpec& spec, double v) {
    return spec.type == kv::FieldType::integer ? json(static_cast<int64_t>(v)) : json(v);
}

json options_of(std::span<const kv::Choice> choices, bool with_note) {
    json out = json::array();
    for (const kv::Choice& c : choices)
        out.push_back({{"value", c.value}, {"label", with_note ? std::string(c.value) + ": " + c.note : std::string(c.label)}});
    return out;
}

// The control a native twin needs for one knob: "choice" (options), "stops" (values with their
// text), "range" (min, max, step, format: a format.hpp name) or "checkbox".
json control_spec(const KnobField& knob) {
    const kv::FieldSpec& spec = knob.spec();
    const std::string_view name = spec.name;
    json options = json::array();
    if (name == "model") {
        for (const kv::ModelSpec& m : kv::builtin_catalog().models)
            options.push_back({{"value", m.name}, {"label", model_summary(m, m.name)}});
        return {{"control", "choice"}, {"options", options}};
    }
    if (name == "gpu") {
        for (const kv::GpuSpec& g : kv::builtin_catalog().gpus) options.push_back({{"value", g.name}, {"label", gpu_summary(g)}});
        return {{"control", "choice"}, {"options", options}};
    }
    switch (spec.type) {
        case kv::FieldType::text:
        case kv::FieldType::choice:
            return {{"control", "choice"}, {"options", options_of(spec.choices, spec.type == kv::FieldType::text)}};
        case kv::FieldType::integer:
        case kv::FieldType::number: {
            if (spec.stops.empty()) {
                const bool narrower = spec.knob_hi > spec.knob_lo;
                return {{"control", "range"},
                        {"min", stop_value(spec, narrower ? spec.knob_lo : spec.lo)},
                        {"max", stop_value(spec, narrower ? spec.knob_hi : spec.hi)},
                        {"step", spec.type == kv::FieldType::integer ? json(1) : json(std::pow(10.0, -spec.decimals))},
                        {"format", spec.type == kv::FieldType::integer ? "count" : "fixed" + std::to_string(spec.decimals)}};
            }
            json stops = json::array();
            for (double v : spec.stops) {
                if (spec.stops.size() <= 4) options.push_back({{"value", stop_value(spec, v)}, {"label", kv::stop_text(spec, v)}});
                else stops.push_back({{"value", stop_value(spec, v)}, {"text", kv::stop_text(spec, v)}});
            }
            if (spec.stops.size() <= 4) return {{"control", "choice"}, {"options", options}};
            return {{"control", "stops"}, {"stops", stops}, {"optional", spec.nullable}};
        }
        case kv::FieldType::boolean:
        case kv::FieldType::object:
            break;
    }
    return {{"control", "checkbox"}};
}

struct KeyResult {
    const char* label;
    const char* key;     // the field of panelResult's JSON it formats ("" when it is words)
    const char* format;  // its format.hpp name
    double value;
    std::string text;
};

std::string bound_words(kv::Bound b) { return b == kv::Bound::none ? "no work" : std::string(kv::bound_name(b)) + "-bound"; }

KeyResult key(const char* label, const char* field, const char* format, double value) {
    return {label, field, format, value, kv::format_named(value, format).value_or("")};
}

}  // namespace

nlohmann::json knob_specs(const kvapp::Panel& panel) {
    json out = json::array();
    for (const KnobField& knob : knob_fields()) {
        if (knob.workload && panel.kind != kvapp::PanelKind::serving) continue;
        // The controls depend on the knob alone (the catalog is fixed): built once per knob.
        static std::map<const kv::FieldSpec*, json> controls;
        auto [it, fresh] = controls.try_emplace(&knob.spec());
        if (fresh) it->second = control_spec(knob);
        json spec = it->second;
        spec["field"] = knob.spec().name;
        spec["label"] = knob.spec().label;
        spec["help"] = knob.spec().help;
        spec["drawn"] = std::find(panel.knobs_drawn.begin(), panel.knobs_drawn.end(), knob.spec().name) != panel.knobs_drawn.end();
        out.push_back(spec);
    }
    return out;
}

nlohmann::json key_results(const kvapp::Panel& panel) {
    const kv::Result& r = panel.result;
    std::vector<KeyResult> keys;
    const char* failure = r.status == kv::Status::engine_refused ? "the engine refuses to start"
                          : r.status != kv::Status::ok           ? "the server rejects this request"
                                                                 : nullptr;
    if (failure) {
        keys.push_back({"result", "", "", 0, failure});
    } else {
        switch (panel.kind) {
            case kvapp::PanelKind::admission:
                keys = {key("running", "running", "count", static_cast<double>(r.admission.running)),
                        key("the pool holds", "max_resident_sequences", "count", static_cast<double>(r.admission.max_resident_sequences)),
                        key("decode rate", "decode_tokens_per_s", "tokens_per_s", r.steps.decode_tokens_per_s),
                        key("per-stream latency", "itl_s", "duration", r.steps.itl_s)};
                break;
            case kvapp::PanelKind::phases:
                keys = {key("prefill (TTFT)", "ttft_s", "duration", r.steps.prefill.total_s),
                        {"prefill is", "prefill_bound", "", 0, bound_words(r.steps.prefill.bound)},
                        key("decode step", "decode_step_s", "duration", r.steps.decode.total_s),
                        {"decode is", "decode_bound", "", 0, bound_words(r.steps.decode.bound)}};
                break;
            case kvapp::PanelKind::batching:
                keys = {key("batch", "running", "count", static_cast<double>(r.admission.running)),
                        key("decode rate", "decode_tokens_per_s", "tokens_per_s", r.steps.decode_tokens_per_s),
                        key("per-stream latency", "itl_s", "duration", r.steps.itl_s)};
                break;
            case kvapp::PanelKind::serving: {
                if (panel.simulation_error) {
                    keys.push_back({"result", "", "", 0, "the run did not start: " + panel.simulation_error->message});
                    break;
                }
                const kv::SimSummary& s = panel.simulation.summary;
                keys = {key("median TTFT", "simulation.ttft_s.p50", "duration", s.ttft_s.p50),
                        key("median ITL", "simulation.itl_s.p50", "duration", s.itl_s.p50),
                        key("throughput", "simulation.generation_tokens_per_s", "tokens_per_s", s.generation_tokens_per_s),
                        key("preemptions", "simulation.preemptions", "count", static_cast<double>(s.preemptions))};
                if (const std::string note = kv::load_note(s); !note.empty()) keys.push_back({"queue", "", "", 0, note});
                break;
            }
        }
    }
    nlohmann::json out = nlohmann::json::array();
    // kind: which validation table's error band the page shows beside it (memory, time or exact).
    for (const KeyResult& k : keys)
        out.push_back({{"label", k.label},
                       {"key", k.key},
                       {"format", k.format},
                       {"text", k.text},
                       {"kind", kv::figure_kind_name(kv::figure_kind(k.key))}});
    return out;
}

}  // namespace kvui
