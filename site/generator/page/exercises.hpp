// Predict-then-check exercises: {{exercise ID SCENARIO}} question {{answer FIGURE}} explanation
// {{end exercise}}. Without JavaScript an exercise reads as its question and a <details> holding the
// core's answer and the explanation; kvexercise.js shows the form that checks a prediction against
// that answer. Here: the checks an exercise must pass, and the HTML each of its directives becomes.
#pragma once
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "figures/lesson_data.hpp"
#include "page/article.hpp"
#include "page/located.hpp"

namespace site {

// Each exercise has one answer, reading its own scenario, and an end in the same file; ids are unique;
// no panel, snippet or scenario marker stands inside one.
void check_exercises(const std::vector<ScannedItem>& items, const LessonData& data, std::vector<BuildError>& errors);

// An exercise holds no heading: it belongs to the section it ends.
void check_exercise_headings(const std::string& html, const std::vector<Located>& located, std::vector<BuildError>& errors);

// The opening of an exercise's <section>, and its answer: the form kvexercise.js shows (with the
// value the question starts from, when it asks for a change), then the answer behind a disclosure.
std::string exercise_opening(const ExerciseStart& e);
std::string exercise_answer(const FigureRecord& f, const LessonData& data, const std::optional<FigureValue>& unchanged);

// Where an exercise token's replacement goes: (erase from, erase length, replacement). A block
// (an opening, an answer) cuts its paragraph in two around itself, so a question or an explanation
// may run on from the directive's line; an end (an empty block) closes the paragraph it ends.
// nullopt for a token outside a paragraph (in a list, a quote) or an end before a paragraph's end.
std::optional<std::tuple<size_t, size_t, std::string>> exercise_span(const std::string& html, size_t at, size_t length,
                                                                     const std::string& block);

// Every rendered exercise, by id, for embed.html.
std::vector<std::pair<std::string, std::string>> exercise_blocks(const std::string& html);

}  // namespace site
