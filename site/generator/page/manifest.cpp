// Writing the figure manifest.
#include "page/manifest.hpp"

#include <set>

namespace site {

using nlohmann::json;

json figure_manifest(const RenderedArticle& article, const LessonData& data) {
    json figures = json::array();
    std::set<std::string> used;
    for (const FigureRecord& f : article.figures) {
        json refs = json::array();
        for (const RefValue& r : f.value.refs) {
            refs.push_back({{"ref", r.ref.str()}, {"value", r.value}});
            if (r.ref.names_scenario()) used.insert(r.ref.source);
        }
        figures.push_back({{"id", f.id},
                           {"source", f.where.str()},
                           {"binding", f.binding.source_text},
                           {"format", f.binding.format},
                           {"text", f.value.formatted},
                           {"value", f.value.is_text ? json(nullptr) : json(f.value.number)},
                           {"panel", f.panel},
                           {"refs", refs}});
    }
    json scenarios = json::object();
    for (const auto& [name, s] : data.scenarios()) scenarios[name] = s.scenario;
    json facts = json::object();
    for (const auto& [id, f] : data.facts()) facts[id] = {{"value", f.value}, {"source", f.source}};
    json unused = json::array();
    for (const auto& [name, s] : data.scenarios())
        if (!used.count(name)) unused.push_back(name);
    return {{"figures", figures}, {"scenarios", scenarios}, {"facts", facts}, {"panels", article.panels}, {"unused_scenarios", unused}};
}

}  // namespace site
