// The reading section's focus on its panel (app.hpp, set_focus): what the page says the text beside
// the panel uses, checked before it is kept.
#include <string>

#include "app/app.hpp"
#include "io/input_text.hpp"

namespace kvapp {

std::optional<kv::InputError> set_focus(Panel& panel, const std::string& focus_json) {
    constexpr size_t max_names = 64, max_name_length = 96;
    auto parsed = kv::parse_input_text(focus_json, "focus");
    if (auto* error = std::get_if<kv::InputError>(&parsed)) return *error;
    const nlohmann::json& focus = std::get<nlohmann::json>(parsed);
    Panel::Focus next;
    if (!focus.is_null()) {
        if (!focus.is_object())
            return kv::InputError{"focus", kv::ErrorCode::wrong_type, "the focus must be {\"knobs\": [...], \"reads\": [...]} or null"};
        for (const auto& [key, list] : focus.items()) {
            if (key != "knobs" && key != "reads")
                return kv::InputError{"focus." + key, kv::ErrorCode::unknown_field, "the focus has only knobs and reads"};
            if (!list.is_array() || list.size() > max_names)
                return kv::InputError{"focus." + key, kv::ErrorCode::wrong_type, "focus." + key + " must be a list of at most 64 names"};
            for (const auto& name : list) {
                if (!name.is_string() || name.get_ref<const std::string&>().size() > max_name_length)
                    return kv::InputError{"focus." + key, kv::ErrorCode::wrong_type,
                                          "focus." + key + " holds names of at most 96 characters"};
                (key == "knobs" ? next.knobs : next.reads).push_back(name.get<std::string>());
            }
        }
    }
    if (next.knobs == panel.focus.knobs && next.reads == panel.focus.reads) return std::nullopt;
    panel.focus = std::move(next);
    kvui::surface_invalidate(panel.surface);
    return std::nullopt;
}

}  // namespace kvapp
