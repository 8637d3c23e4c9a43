// The baked SVG pictures: they carry the core's numbers, they are well-formed SVG with no NaN in
// any coordinate, and a bad name or scenario is an error that names file:line.
#include <catch2/catch.hpp>

#include <regex>

#include "base/format.hpp"
#include "io/json_io.hpp"
#include "pictures/pictures.hpp"
#include "page/article.hpp"
#include "time/step_costs.hpp"
#include "time/step_time.hpp"

using namespace site;
using nlohmann::json;

namespace {

kv::Result evaluated(const json& set) {
    json full = kv::scenario_to_json(kv::Scenario{});
    for (const auto& [key, value] : set.items()) full[key] = value;
    auto scenario = kv::scenario_from_json(full);
    REQUIRE(std::holds_alternative<kv::Scenario>(scenario));
    auto outcome = kv::evaluate(std::get<kv::Scenario>(scenario));
    REQUIRE(std::holds_alternative<kv::Result>(outcome));
    return std::get<kv::Result>(outcome);
}

Picture draw(const std::string& name, const kv::Result& r) {
    auto drawn = draw_picture(name, r, "p");
    INFO((std::holds_alternative<Error>(drawn) ? std::get<Error>(drawn).message : std::string()));
    REQUIRE(std::holds_alternative<Picture>(drawn));
    return std::get<Picture>(std::move(drawn));
}

// Every element is closed, in order: a stack of open tag names.
bool balanced(const std::string& svg) {
    std::vector<std::string> open;
    const std::regex tag("<(/?)([a-z]+)[^>]*?(/?)>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        if (m[3] == "/") continue;
        if (m[1] == "/") {
            if (open.empty() || open.back() != m[2]) return false;
            open.pop_back();
        } else {
            open.push_back(m[2]);
        }
    }
    return open.empty();
}

// Every geometry attribute holds only numbers (no nan, inf or empty values).
void check_coordinates(const std::string& svg) {
    const std::regex attribute(R"re(\b(x|y|x1|y1|x2|y2|cx|cy|r|width|height|points|d|viewBox)="([^"]*)")re");
    const std::regex numeric(R"([-0-9., MLhvz]+)");
    int count = 0;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), attribute); it != std::sregex_iterator(); ++it, ++count) {
        INFO((*it)[0].str());
        CHECK(std::regex_match((*it)[2].str(), numeric));
    }
    CHECK(count > 10);
}

double attribute_of(const std::string& svg, const std::string& cls, const std::string& name) {
    const std::regex element("<[a-z]+ [^>]*" + name + "=\"([-0-9.]+)\"[^>]*class=\"[^\"]*" + cls + "[^\"]*\"");
    std::smatch m;
    REQUIRE(std::regex_search(svg, m, element));
    return std::stod(m[1]);
}

}  // namespace

TEST_CASE("every picture of the starting point is well-formed, titled and free of NaN") {
    const kv::Result r = evaluated({});
    for (const char* name : picture_names) {
        INFO(name);
        const Picture p = draw(name, r);
        CHECK(p.svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"", 0) == 0);
        CHECK(p.svg.find("<title id=\"p-t\">") != std::string::npos);
        CHECK(p.svg.find("<desc id=\"p-d\">") != std::string::npos);
        CHECK(!p.desc.empty());
        CHECK(balanced(p.svg));
        check_coordinates(p.svg);
        CHECK(p.svg.size() < 6000);  // a few KB each: the page's weight budget
    }
}

TEST_CASE("the tensor and GQA pictures state the core's bytes per token") {
    const kv::Result r = evaluated({});  // Qwen3-8B: 36 layers, 8 KV heads of 128, BF16
    const Picture tensor = draw("kv-tensor", r);
    CHECK(tensor.desc.find("36 layers × 8 KV heads × 128 values") != std::string::npos);
    CHECK(tensor.desc.find(kv::format_bytes(r.memory.layout.kv_bytes_per_token)) != std::string::npos);
    CHECK(kv::format_bytes(r.memory.layout.kv_bytes_per_token) == "144 KiB");

    const kv::Result mha = evaluated({{"force_mha", true}});
    const Picture gqa = draw("gqa", r);
    CHECK(gqa.desc.find("32 query heads onto 8 KV heads") != std::string::npos);
    CHECK(gqa.desc.find(kv::format_bytes(mha.memory.layout.kv_bytes_per_token)) != std::string::npos);
    CHECK(gqa.desc.find(kv::format_factor(4.0, 2)) != std::string::npos);
}

TEST_CASE("the budget bar splits what CUDA reports, in the engine's order, to the last byte") {
    const kv::Result r = evaluated({});
    const Picture p = draw("budget", r);
    const kv::MemoryPlan& m = r.memory;
    size_t at = 0;
    for (double part : {r.admission.outside_budget_bytes, m.weight_bytes, m.activation_peak_bytes, m.non_torch_bytes, m.cuda_graph_bytes,
                        m.available_kv_bytes}) {
        const size_t found = p.desc.find(kv::format_bytes(part), at);
        CHECK(found != std::string::npos);
        at = found;
    }
    // The segments fill the bar (380 units) because the parts add up to the visible memory.
    double total = 0;
    const std::regex segment(R"re(width="([0-9.]+)"[^>]*class="[^"]*p-segment")re");
    for (auto it = std::sregex_iterator(p.svg.begin(), p.svg.end(), segment); it != std::sregex_iterator(); ++it)
        total += std::stod((*it)[1]);
    CHECK(total == Approx(380).margin(0.5));
}

TEST_CASE("the roofline's ridge sits at the achieved FLOP/s over the achieved bytes/s") {
    const kv::Result r = evaluated({});
    const Picture p = draw("roofline", r);
    const double ridge = r.steps.achieved_flops_per_s / r.steps.achieved_bytes_per_s;
    const kv::Calibration c;
    CHECK(ridge == Approx(kv::step_flops_per_s(r.gpu, kv::DType::bf16, c) / kv::step_bytes_per_s(r.gpu, c)));
    CHECK(attribute_of(p.svg, "pic-ridge", "x1") == Approx(p.x.at(ridge)).margin(0.06));
    CHECK(p.desc.find("ridge point is at " + kv::format_intensity(ridge)) != std::string::npos);
    CHECK(p.desc.find(kv::format_intensity(r.steps.decode.arithmetic_intensity)) != std::string::npos);
    // Decode sits left of the ridge (memory-bound), a long prefill right of it.
    CHECK(attribute_of(p.svg, "c-decode", "cx") < p.x.at(ridge));
    CHECK(attribute_of(p.svg, "c-prefill", "cx") > p.x.at(ridge));
}

TEST_CASE("a ridge drawn for FP8 matmuls says so, in the picture and its description; a BF16 one says nothing") {
    const kv::Result fp8 = evaluated({{"weight_dtype", "fp8"}}), bf16 = evaluated({});
    for (const char* name : {"roofline", "intensity"}) {
        INFO(name);
        const Picture with = draw(name, fp8), without = draw(name, bf16);
        CHECK(with.svg.find("ridge " + kv::format_intensity(fp8.steps.ridge_flops_per_byte) + " (FP8 matmuls)") != std::string::npos);
        CHECK(with.desc.find(kv::format_intensity(fp8.steps.ridge_flops_per_byte) + " (FP8 matmuls)") != std::string::npos);
        CHECK(without.svg.find("FP8") == std::string::npos);
        CHECK(fp8.steps.ridge_flops_per_byte > 1.5 * bf16.steps.ridge_flops_per_byte);
    }
}

TEST_CASE("the intensity picture: the weight read grows with the batch, the cache read stays at the group size") {
    const kv::Result r = evaluated({});
    const Picture p = draw("intensity", r);
    const int64_t context = r.scenario.prompt_tokens + r.scenario.output_tokens;
    CHECK(p.desc.find(kv::format_intensity(kv::decode_intensities(kv::step_engine(r), 1024, context).weight_flops_per_byte)) !=
          std::string::npos);
    CHECK(p.desc.find("stays at " + kv::format_intensity(4.0)) != std::string::npos);
}

TEST_CASE("pictures refuse names and scenarios they cannot draw") {
    const kv::Result r = evaluated({});
    auto unknown = draw_picture("pie", r, "p");
    REQUIRE(std::holds_alternative<Error>(unknown));
    CHECK(std::get<Error>(unknown).code == ErrorCode::unknown_picture);
    // The message lists the pictures there are.
    CHECK(std::get<Error>(unknown).message.find("kv-tensor, gqa, budget, roofline, intensity, resident") != std::string::npos);
    const kv::Result refused = evaluated({{"model", "Qwen3-32B"}, {"prompt_tokens", 32768}, {"gpu_memory_utilization", 0.72}});
    CHECK(std::get<Error>(draw_picture("roofline", refused, "p")).code == ErrorCode::picture_not_drawable);
    const kv::Result mla = evaluated({{"model", "DeepSeek-V2-Lite-Chat"}});
    CHECK(std::get<Error>(draw_picture("gqa", mla, "p")).code == ErrorCode::picture_not_drawable);
}

TEST_CASE("{{picture NAME SCENARIO}} bakes a figure with its caption, or fails naming file:line") {
    json base = kv::scenario_to_json(kv::Scenario{});
    static const LessonData data = std::get<LessonData>(LessonData::load(
        {{"base", base}, {"scenarios", {{"start", {{"about", "the defaults"}, {"set", json::object()}}}}}}, {{"facts", json::object()}}));
    RenderInput in;
    in.data = &data;
    in.files = {{"x.md", "# T\n\nText.\n\n{{picture budget start}}\nWhere it goes.\n\n{{picture budget start}}\n"}};
    RenderedArticle a = render_article(in);
    REQUIRE(a.errors.empty());
    CHECK(a.body_html.find("<figure class=\"kv-picture\" id=\"picture-budget\"><svg") != std::string::npos);
    CHECK(a.body_html.find("<figcaption>Where it goes.</figcaption>") != std::string::npos);
    CHECK(a.body_html.find("id=\"picture-budget-2\"") != std::string::npos);

    in.files = {{"y.md", "# T\n\n{{picture pie start}}\n\n{{picture budget nowhere}}\n"}};
    RenderedArticle bad = render_article(in);
    REQUIRE(bad.errors.size() == 2);
    CHECK_THAT(bad.errors[0].str(), Catch::StartsWith("y.md:3:1: unknown_picture: "));
    CHECK_THAT(bad.errors[1].str(), Catch::StartsWith("y.md:5:1: unknown_scenario: "));
}
