// The figure manifest (build/site-manifest.json): every figure with its source location, binding,
// references and value, the scenarios and facts, the panels, and the scenarios no figure reads. The
// browser test cross-checks each figure against the native CLI.
#pragma once
#include <nlohmann/json.hpp>

#include "figures/lesson_data.hpp"
#include "page/article.hpp"

namespace site {

nlohmann::json figure_manifest(const RenderedArticle& article, const LessonData& data);

}  // namespace site
