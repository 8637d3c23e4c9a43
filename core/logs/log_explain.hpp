// Explains a vLLM start-up log with the model: turns what the log states (log_parser.hpp) into a
// scenario (catalog model by its Hugging Face repository, GPU by the memory CUDA reported, the
// version and flags it printed), evaluates it, and lines up each logged number with the model's
// prediction, what the number means and which flag moves it. Terms the log does not state are
// inferred from those it does (the activation peak and non-torch memory from the budget, weights
// and available memory) and marked as inferred. What the log cannot tell (the model, the GPU) the
// caller may add as a partial scenario; what is still missing is said, not guessed.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "result/evaluate.hpp"
#include "base/input_error.hpp"
#include "logs/log_candidates.hpp"
#include "logs/log_parser.hpp"

namespace kv {

struct ExplainedTerm {
    std::string term;              // "weights", "available KV cache", ...
    std::optional<double> logged;  // as the log states it (GiB, tokens, blocks, x)
    bool inferred = false;         // derived from the stated terms, not printed by the engine
    std::optional<double> model;   // the model's value, same unit; none when no model ran
    std::string unit;              // "GiB", "tokens", "blocks", "x", "fraction"
    std::string meaning;           // one sentence: what it is and which flag moves it
};

struct LogExplanation {
    ParsedLog log;
    Scenario scenario;
    std::vector<std::string> assumptions;  // what the scenario takes that the log did not state
    bool gpu_assumed = false;              // the GPU is the default H100: neither the log nor the reader named one
    bool evaluated = false;                // a model ran: `scenario` and `result` hold it
    Result result;
    std::vector<ExplainedTerm> terms;
    ModelInference inference;        // for a paste that names no catalog model
    std::string advice;              // what to change, for log.failure or the refusal it printed
    std::vector<std::string> notes;  // what else the paste says (several engines, ...)
};

// What the caller adds to a log: a partial scenario, and which of its fields were given (the rest
// are defaults the log's own statements replace).
struct GivenScenario {
    Scenario scenario;
    std::vector<std::string> fields;
    bool has(const std::string& field) const { return std::find(fields.begin(), fields.end(), field) != fields.end(); }
};

// `given` fills what the log leaves out (model, gpu, ...); the log's own statements win over it.
// An InputError only when nothing in the text is a vLLM start-up line or the log's own flags are
// out of range.
// (io/explain_json.hpp reads `given` from JSON and writes the explanation.)
std::variant<LogExplanation, InputError> explain_log(std::string_view text, const GivenScenario& given = {});

}  // namespace kv
