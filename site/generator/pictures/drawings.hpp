// The six pictures, each drawn from one evaluated scenario into an Svg (pictures/svg.hpp); draw_picture
// (pictures/pictures.hpp) picks one by name. The error is a message for people: a scenario the
// picture cannot show. Internal to pictures/.
#pragma once
#include <string>
#include <variant>

#include "pictures/pictures.hpp"
#include "pictures/svg.hpp"
#include "result/evaluate.hpp"

namespace site::drawing {

// pictures/diagrams.cpp: the mechanisms.
Picture kv_tensor(const kv::Result& r, const std::string& id, Svg& svg);
std::variant<Picture, std::string> gqa(const kv::Result& r, const std::string& id, Svg& svg);
Picture budget(const kv::Result& r, const std::string& id, Svg& svg);

// pictures/charts.cpp: log-log charts over the core's sweeps.
std::variant<Picture, std::string> roofline(const kv::Result& r, const std::string& id, Svg& svg);
std::variant<Picture, std::string> intensity(const kv::Result& r, const std::string& id, Svg& svg);
std::variant<Picture, std::string> resident(const kv::Result& r, const std::string& id, Svg& svg);

}  // namespace site::drawing
