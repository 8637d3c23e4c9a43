// The HTML each of the lesson's extensions becomes in the article: a figure (a link that loads its
// scenario into the chapter's panel, or a span for a fact), a concept span, a term's or a reference's
// anchor, a reading section's mark, a panel and an embed snippet (site/templates/panel.html and
// snippet.html). Exercises are page/exercises.hpp's; pictures are pictures/pictures.hpp's.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "figures/lesson_data.hpp"
#include "markdown/bindings.hpp"
#include "page/article.hpp"

namespace site {

std::string figure_html(const FigureRecord& f, const LessonData& data);
std::string concept_html(const ConceptSpan& c);
std::string anchor_html(const Anchor& a);

// The empty element that starts a reading section, for the chapter's panel `panel`.
std::string section_mark_html(const ScenarioMarker& m, const std::string& panel);

// A "set this up" button for the chapter's panel `panel`, its title the scenario's description
// (shown by site/js/lesson-setup.js; without JavaScript it stays hidden and the sentence reads on).
std::string setup_html(const SetupControl& u, const EvaluatedScenario& scenario, const std::string& panel);

// A panel, id `id`, mounted in `scenario`; the caption is the rest of its paragraph (HTML).
std::string panel_html(const Fragments& fragments, const PanelDirective& p, const std::string& id, const EvaluatedScenario& scenario,
                       const std::string& caption);

// A copyable iframe snippet for embed.html in `scenario`; `defaults` are the core's, which the query leaves out.
std::string snippet_html(const Fragments& fragments, const EmbedDirective& e, const EvaluatedScenario& scenario,
                         const nlohmann::json& defaults, const std::string& caption);

}  // namespace site
