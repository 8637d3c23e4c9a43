// The failing states every panel draws the same way: a change from the page that was refused
// (the field and why, the other settings kept), the engine's refusal to start (its words, the
// lesson's reading of them and what would start it) and a request longer than max_model_len.
// Lesson: 02-memory-order.md#why-the-batch-stops-where-it-does (the start-up that fails, and why).
#include <imgui.h>

#include <string>
#include <vector>

#include "base/format.hpp"
#include "logs/engine_log.hpp"
#include "panels/panels.hpp"
#include "scenario/scenario_fields.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace kvui {
namespace {

// "2, 4, 8": the sizes a refusal's remedy tries.
std::string deployed_sizes_above_one() {
    std::string out;
    for (int64_t tp : kv::deployed_tensor_parallel_sizes())
        if (tp > 1) out += (out.empty() ? "" : ", ") + kv::format_count(tp);
    return out;
}

}  // namespace

bool rejected_input_banner(const kvapp::Panel& panel) {
    if (!panel.rejected) return false;
    ImGui::PushFont(font(Font::strong));
    text_in(Colour::failure, "Not applied: " + panel.rejected->field);
    ImGui::PopFont();
    text_wrapped(panel.rejected->message + ". The other settings are unchanged.", Colour::failure);
    return true;
}

namespace {

// Log lines of one kind, without the level prefix ("ERROR ", "LESSON ") the log view prints.
void log_lines(const kv::Result& result, kv::LogKind kind, Colour colour) {
    for (const kv::LogLine& line : kv::engine_log(result))
        if (line.kind == kind) text_wrapped(line.text.substr(line.text.find(' ') + 1), colour);
}

// What would start the engine with every other knob as it is: the smallest utilisation, printed
// rounded up to the hundredth the knob moves by (rounded to nearest, 0.9304 would read 0.93 and
// still fail), and the longest max_model_len the pool would take.
void what_would_start_it(const kv::Result& r) {
    const kv::StartupError& e = *r.memory.startup_error;
    if (e.stage == kv::RefusalStage::configuration) return;  // no memory figure would start it
    std::vector<Figure> figures;
    const double hundredths = r.admission.min_utilization_setting;
    if (hundredths > kv::scenario_field("gpu_memory_utilization").hi)
        figures.push_back({"gpu_memory_utilization", "none", "even 1.00 leaves too little on this GPU", Colour::failure,
                           "The weights, the profile run and one max_model_len request need more than the memory CUDA "
                           "reports: more GPUs (tensor parallel), FP8 weights or a shorter max_model_len."});
    else if (hundredths > *r.scenario.gpu_memory_utilization)  // a figure at or below the setting would not help
        figures.push_back({"gpu_memory_utilization", "≥ " + kv::format_fixed(hundredths, 2),
                           "instead of " + kv::format_fixed(*r.scenario.gpu_memory_utilization, 2) + ", all else as is", Colour::text,
                           "The smallest setting at which the weights, the profile run and one "
                           "max_model_len request all fit in the budget."});
    const int64_t longest = r.memory.estimated_max_model_len;
    if (e.kind == kv::RefusalKind::max_model_len_does_not_fit && longest > 0 && longest < *r.scenario.max_model_len)
        figures.push_back({"max_model_len", "≤ " + kv::format_count(longest),
                           "instead of " + kv::format_count(*r.scenario.max_model_len) + ", at this utilisation", Colour::text,
                           "The engine's own estimate: the longest request one sequence could hold in the "
                           "pool that is left."});
    static const std::string fewest_gpus_help =
        "The fewest GPUs (of " + deployed_sizes_above_one() + ") whose shards leave room for one max_model_len request.";
    if (r.tensor_parallel_that_starts > 0)
        figures.push_back({"tensor_parallel_size", kv::format_count(r.tensor_parallel_that_starts),
                           "GPUs instead of " + kv::format_count(r.scenario.tensor_parallel_size) + ", all else as is", Colour::text,
                           fewest_gpus_help.c_str()});
    if (r.fp8_weights_start)
        figures.push_back({"weight_dtype", "fp8", "--quantization fp8, all else as is", Colour::text,
                           "FP8 linear layers halve most of the weights; the embedding and lm_head stay 16-bit."});
    if (figures.empty()) return;
    ImGui::Dummy(ImVec2(0, 2));
    ImGui::PushFont(font(Font::strong));
    ImGui::TextUnformatted("What would start it");
    ImGui::PopFont();
    figure_row(figures);
}

}  // namespace

bool failure_banner(const kv::Result& result) {
    if (result.status == kv::Status::ok) return false;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::Indent(10);
    ImGui::PushFont(font(Font::figure));
    text_in(Colour::failure,
            result.status == kv::Status::engine_refused ? "The engine refuses to start" : "The server rejects this request");
    ImGui::PopFont();
    if (result.status == kv::Status::engine_refused && result.memory.startup_error) {
        // The refusal in the engine's words, then the lesson's reading of it.
        text_wrapped(result.memory.startup_error->message, Colour::failure);
        log_lines(result, kv::LogKind::lesson, Colour::accent);
        what_would_start_it(result);
        text_wrapped("No batch, step time or throughput exists until it starts; change a knob above.", Colour::text_muted);
    } else {
        log_lines(result, kv::LogKind::failure, Colour::failure);
        text_wrapped("The engine runs, but no request of this length is admitted; change a knob above.", Colour::text_muted);
    }
    ImGui::Unindent(10);
    // A bar in the margin, as the engine log marks its failures.
    const float bottom = ImGui::GetItemRectMax().y;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(start.x, start.y), ImVec2(start.x + 4, bottom), colour(Colour::failure));
    return true;
}

}  // namespace kvui
