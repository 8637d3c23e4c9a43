// Cutting the article into chapters, checking its reading sections, and wrapping the chapters.
#include "page/chapters.hpp"

#include <set>
#include <variant>

namespace site {
namespace {

std::vector<size_t> h2_positions(const std::string& html) {
    std::vector<size_t> h2s;
    for (size_t at = html.find("<h2>"); at != std::string::npos; at = html.find("<h2>", at + 1)) h2s.push_back(at);
    return h2s;
}

// Walks the located items in page order, one reading section at a time.
class SectionCheck {
public:
    SectionCheck(const std::string& html, const Chapters& chapters, std::vector<BuildError>& errors)
        : h2s_(h2_positions(html)), chapters_(chapters), errors_(errors) {}

    void visit(const Located& l) {
        while (next_h2_ < h2s_.size() && h2s_[next_h2_] < l.position) {
            close();
            missing_reported_ = false;
            ++next_h2_;
        }
        if (std::holds_alternative<ScenarioMarker>(l.item->item)) {
            close();
            marker_ = l.item;
            if (chapters_.panel_at(l.position).empty())
                errors_.push_back({l.item->where, ErrorCode::marker_without_panel, "",
                                   "a scenario marker needs a panel beside it: put it after the first {{panel ...}}'s chapter starts"});
            return;
        }
        const auto* b = std::get_if<FigureBinding>(&l.item->item);
        if (!b || chapters_.panel_at(l.position).empty()) return;
        bool reads_scenario = false;
        for (const Ref& r : b->refs)
            if (r.names_scenario()) {
                reads_scenario = true;
                quoted_.insert(r.source);
            }
        if (reads_scenario && !marker_ && !missing_reported_) {
            errors_.push_back({l.item->where, ErrorCode::section_without_scenario, "{{" + b->source_text + "}}",
                               "this section names no scenario: start it with {{scenario NAME}}, the scenario its text describes"});
            missing_reported_ = true;
        }
    }

    // The section ends: it must have quoted a figure of the scenario it names.
    void close() {
        if (marker_) {
            const std::string& name = std::get<ScenarioMarker>(marker_->item).scenario;
            if (!quoted_.count(name)) {
                std::string names;
                for (const std::string& n : quoted_) names += (names.empty() ? "" : ", ") + n;
                errors_.push_back({marker_->where, ErrorCode::section_scenario_unquoted, "{{scenario " + name + "}}",
                                   "the section quotes no figure of \"" + name + "\"" +
                                       (names.empty() ? std::string(" (it quotes none)") : " (it quotes " + names + ")")});
            }
        }
        marker_ = nullptr;
        quoted_.clear();
    }

private:
    std::vector<size_t> h2s_;
    const Chapters& chapters_;
    std::vector<BuildError>& errors_;
    size_t next_h2_ = 0;
    const ScannedItem* marker_ = nullptr;
    std::set<std::string> quoted_;
    bool missing_reported_ = false;
};

}  // namespace

const std::string& Chapters::panel_at(size_t position) const {
    const Chapter* found = &list.front();
    for (const Chapter& c : list)
        if (c.start <= position) found = &c;
    return found->panel;
}

Chapters cut_chapters(const std::string& html, const std::vector<Located>& located, std::vector<std::string>& panels,
                      std::vector<BuildError>& errors) {
    Chapters chapters;
    std::map<std::string, int> kind_count;
    for (const Located& l : located) {
        const auto* p = std::get_if<PanelDirective>(&l.item->item);
        if (!p) continue;
        const int n = ++kind_count[p->kind];
        const std::string id = n == 1 ? p->kind : p->kind + "-" + std::to_string(n);
        chapters.panel_id_of[l.item->token] = id;
        const std::string opening = "<p>" + l.item->token;
        if (html.compare(l.position - 3, opening.size(), opening) != 0) {
            errors.push_back({l.item->where, ErrorCode::directive_not_alone, "",
                              "a panel must start a paragraph of its own; its caption may follow it"});
            continue;
        }
        if (chapters.list.back().panel.empty()) {
            chapters.list.back().panel = id;
        } else {
            const size_t heading = html.rfind("<h2>", l.position);
            if (heading == std::string::npos || heading <= chapters.list.back().start)
                errors.push_back({l.item->where, ErrorCode::two_panels_in_section, "",
                                  "two panels in one section; start a new ## section for this one"});
            else {
                size_t ordinal = 0;
                for (size_t at = html.find("<h2>"); at < heading; at = html.find("<h2>", at + 1)) ++ordinal;
                chapters.list.push_back({heading, id, ordinal});
            }
        }
        panels.push_back(id);
    }
    return chapters;
}

void check_sections(const std::string& html, const std::vector<Located>& located, const Chapters& chapters,
                    std::vector<BuildError>& errors) {
    SectionCheck check(html, chapters, errors);
    for (const Located& l : located) check.visit(l);
    check.close();
}

std::string wrap_chapters(const std::string& html, const Chapters& chapters) {
    const std::vector<size_t> h2s = h2_positions(html);
    std::string body;
    size_t previous = 0;
    for (size_t c = 0; c < chapters.list.size(); ++c) {
        if (c > 0) {
            const size_t start = h2s.at(chapters.list[c].heading_ordinal);
            body += html.substr(previous, start - previous) + "</div>\n";
            previous = start;
        }
        const std::string& panel = chapters.list[c].panel;
        body += "<div class=\"kv-chapter\"" + (panel.empty() ? std::string() : " data-panel=\"" + panel + "\"") + ">\n";
    }
    return body + html.substr(previous) + "</div>\n";
}

}  // namespace site
