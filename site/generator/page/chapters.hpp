// Chapters and reading sections. Each {{panel ...}} after the first opens a chapter at its section's
// ## heading; the chapter's figures drive that panel, which sits beside the chapter's text on a wide
// screen. Inside a chapter, a {{scenario NAME}} marker starts a reading section (up to the next
// marker or ## heading): the scenario its text describes, which the panel shows as it is read.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "errors.hpp"
#include "page/located.hpp"

namespace site {

struct Chapter {
    size_t start;                // where it starts in the rendered HTML: 0, or its ## heading
    std::string panel;           // the panel's id, or "" for text before the first panel
    size_t heading_ordinal = 0;  // which <h2> it starts at, found again after the tokens are replaced
};

struct Chapters {
    std::vector<Chapter> list{{0, "", 0}};
    std::map<std::string, std::string> panel_id_of;  // by the panel directive's token
    // The panel of the chapter that holds `position`, or "" before the first panel.
    const std::string& panel_at(size_t position) const;
};

// Cuts the article at the heading before each panel after the first. A kind's first panel is named
// by its kind (#panel-admission); a later one of the same kind gets a number (#panel-admission-2),
// so a section far from the first can have its own. `panels` gets every panel id, in order.
Chapters cut_chapters(const std::string& html, const std::vector<Located>& located, std::vector<std::string>& panels,
                      std::vector<BuildError>& errors);

// In a chapter with a panel, every figure that reads a scenario must stand in a section that names
// one, and a section must quote at least one figure of the scenario it names, so the panel beside
// the text never shows a scenario the text does not describe.
void check_sections(const std::string& html, const std::vector<Located>& located, const Chapters& chapters,
                    std::vector<BuildError>& errors);

// The HTML wrapped chapter by chapter in <div class="kv-chapter" data-panel="ID">. Replacing the
// tokens moved positions but added and removed no <h2>, so each chapter is found again by the
// ordinal of its heading.
std::string wrap_chapters(const std::string& html, const Chapters& chapters);

}  // namespace site
