// A picture by name: the drawing (pictures/diagrams.cpp, pictures/charts.cpp) checked for a
// coordinate that is not a number, and the <figure> it stands in.
#include "pictures/pictures.hpp"

#include "page/html.hpp"
#include "pictures/drawings.hpp"

namespace site {

std::string picture_names_list() {
    std::string out;
    for (const char* name : picture_names) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

std::variant<Picture, Error> draw_picture(std::string_view name, const kv::Result& result, const std::string& id) {
    const bool has_heads = result.model.attention == kv::AttentionKind::standard && result.memory.layout.kv_heads_per_rank > 0;
    drawing::Svg svg;
    std::variant<Picture, std::string> out;
    if (name == "kv-tensor" || name == "gqa") {
        if (!has_heads)
            return Error{ErrorCode::picture_not_drawable,
                         "the " + std::string(name) + " picture needs a model with KV heads (" + result.model.name + " has none)"};
        out = name == "gqa" ? drawing::gqa(result, id, svg) : drawing::kv_tensor(result, id, svg);
    } else if (name == "budget") {
        out = drawing::budget(result, id, svg);
    } else if (name == "roofline") {
        out = drawing::roofline(result, id, svg);
    } else if (name == "intensity") {
        out = drawing::intensity(result, id, svg);
    } else if (name == "resident") {
        out = drawing::resident(result, id, svg);
    } else {
        return Error{ErrorCode::unknown_picture,
                     "unknown picture \"" + std::string(name) + "\" (the pictures are: " + picture_names_list() + ")"};
    }
    if (svg.bad())
        return Error{ErrorCode::picture_not_drawable,
                     "the " + std::string(name) + " picture of this scenario has a coordinate that is not a number"};
    if (auto* message = std::get_if<std::string>(&out)) return Error{ErrorCode::picture_not_drawable, *message};
    return std::get<Picture>(std::move(out));
}

std::string picture_figure_html(const Picture& picture, const std::string& id, const std::string& caption_html) {
    return "<figure class=\"kv-picture\" id=\"" + id + "\">" + picture.svg + "<figcaption>" +
           (caption_html.empty() ? escape_html(picture.title) : caption_html) + "</figcaption></figure>\n";
}

}  // namespace site
