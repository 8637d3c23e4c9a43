// Reading a config.json's fields (internal to io/): keys looked up in text_config first and at the
// top level after, every integer range-checked with the key's path in the message; the first
// error kept for the caller. The parts each read one feature of the architecture.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/format.hpp"
#include "base/input_error.hpp"
#include "model/model_spec.hpp"

namespace kv::config {

using nlohmann::json;

inline InputError fail(std::string field, ErrorCode code, std::string message) {
    return InputError{std::move(field), code, std::move(message)};
}

// json::value() throws when the key holds another type; untrusted files get a fallback instead.
inline std::string text_or(const json& object, const char* key, const std::string& fallback) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return fallback;
    return object[key].get<std::string>();
}
inline int64_t integer_or(const json& object, const char* key, int64_t fallback) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_number_integer()) return fallback;
    return object[key].get<int64_t>();
}

// Reads config.json fields with a path prefix for messages; keys missing from text_config fall
// back to the top level (some multimodal configs keep vocab_size there).
class ConfigReader {
public:
    ConfigReader(const json& text, const json& top, std::string prefix) : text_(text), top_(top), prefix_(std::move(prefix)) {}

    const json* find(const char* key) const {
        if (text_.contains(key) && !text_[key].is_null()) return &text_[key];
        if (&top_ != &text_ && top_.contains(key) && !top_[key].is_null()) return &top_[key];
        return nullptr;
    }
    std::string field(const char* key) const { return prefix_ + "." + key; }

    // An integer in [lo, hi]; nullopt when absent; the error is kept for the caller.
    std::optional<int64_t> integer(const char* key, int64_t lo, int64_t hi) {
        const json* v = find(key);
        if (!v) return std::nullopt;
        const std::string range = "a whole number from " + format_count(lo) + " to " + format_count(hi);
        if (!v->is_number()) {
            note(fail(field(key), ErrorCode::wrong_type, field(key) + " must be " + range));
            return std::nullopt;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
            note(fail(field(key), ErrorCode::out_of_range, field(key) + " is " + v->dump() + "; it must be " + range));
            return std::nullopt;
        }
        return static_cast<int64_t>(d);
    }
    bool flag(const char* key, bool fallback) {
        const json* v = find(key);
        if (!v) return fallback;
        if (!v->is_boolean()) {
            note(fail(field(key), ErrorCode::wrong_type, field(key) + " must be true or false"));
            return fallback;
        }
        return v->get<bool>();
    }
    std::string text(const char* key) const {
        const json* v = find(key);
        return v && v->is_string() ? v->get<std::string>() : std::string();
    }
    void note(InputError e) {
        if (!error) error = std::move(e);
    }
    std::optional<InputError> error;

private:
    const json& text_;
    const json& top_;
    std::string prefix_;
};

// max_position_embeddings as vLLM derives max_model_len (rope scaling), and the architecture's
// parts: quantisation, linear-attention layers, sliding windows, experts, MLA.
int64_t derived_max_len(ConfigReader& c, ModelSpec& m);
void read_quantization(ConfigReader& c, ModelSpec& m);
void read_linear_layers(ConfigReader& c, ModelSpec& m);
void read_sliding_window(ConfigReader& c, ModelSpec& m);
void read_moe(ConfigReader& c, ModelSpec& m);
void read_mla(ConfigReader& c, ModelSpec& m);
// The vision tower of a multimodal config (io/config_vision.cpp); an unread family is noted in derived.
void read_vision(const json& config, const std::string& prefix, ModelSpec& m, std::optional<InputError>& error);

}  // namespace kv::config
