// kvcache --plan: every configuration the search returns must, fed back through evaluate() as is,
// start and run all its users, and its target load, simulated again, must meet the objectives; a
// target nothing meets is said plainly, with the closest configuration; bad targets name the field.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/catalog.hpp"
#include "base/format.hpp"
#include "plan/plan.hpp"
#include "support.hpp"

using namespace kv;

namespace {

PlanTarget target_ok(const std::string& text) {
    auto target = plan_target_from_text(text);
    if (auto* error = std::get_if<InputError>(&target)) FAIL(error->field << ": " << error->message);
    return std::get<PlanTarget>(target);
}

PlanResult plan_ok(const std::string& text) {
    auto outcome = plan(target_ok(text));
    if (auto* error = std::get_if<InputError>(&outcome)) FAIL(error->field << ": " << error->message);
    return std::get<PlanResult>(outcome);
}

InputError plan_error(const std::string& text) {
    auto target = plan_target_from_text(text);
    if (auto* error = std::get_if<InputError>(&target)) return *error;
    auto outcome = plan(std::get<PlanTarget>(target));
    REQUIRE(std::holds_alternative<InputError>(outcome));
    return std::get<InputError>(outcome);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The search's own bound (plan.hpp): one probe, then two evaluations per tp, replica count,
// utilisation, weights and kv dtype (`weights`: the checkpoint, its catalog siblings, FP8 at load).
int64_t evaluation_bound(int64_t gpu_count, int64_t weights = 2) {
    int64_t replica_counts = 0;
    for (int64_t tp : {1, 2, 4, 8})
        if (tp <= gpu_count) replica_counts += gpu_count / tp;
    return 1 + replica_counts * 3 * weights * 2 * 2;
}

// The candidate's load, built here from the target as plan.hpp describes it, run again on the
// candidate as the engine would be started.
SimSummary served_again(const PlanCandidate& c, const PlanTarget& t, const Result& replica) {
    Workload w;
    w.name = "fixed";
    w.requests = c.served->requests;
    SimOptions options;
    options.record = false;
    if (t.rate_per_s) {
        w.rate_per_s = *t.rate_per_s / static_cast<double>(c.replicas);
    } else {
        w.rate_per_s = 0;
        w.max_concurrency = c.users_per_replica;
        options.warmup_requests = std::min(c.users_per_replica, w.requests / 2);
    }
    auto sim = simulate(replica, w, options);
    REQUIRE(std::holds_alternative<Simulation>(sim));
    return std::get<Simulation>(sim).summary;
}

}  // namespace

TEST_CASE("plan: every candidate, evaluated as is, starts and runs its users, and its load simulated again meets the objectives") {
    const char* const targets[] = {
        R"({"model": "Qwen3-32B", "gpu": "H100", "gpu_count": 4, "users": 64, "prompt_tokens": 4096, "output_tokens": 512, "itl_s": 0.05})",
        R"({"model": "Llama-3.1-8B", "gpu": "A100", "gpu_count": 8, "users": 200, "prompt_tokens": 2000, "output_tokens": 500,
            "vllm_version": "0.6.3", "ttft_p99_s": 5, "itl_s": 0.05, "max_candidates": 20})",
        R"({"model": "Llama-3.1-8B", "gpu": "L4", "gpu_count": 8, "users": 300, "prompt_tokens": 1024, "output_tokens": 256, "max_candidates": 20})",
        R"({"model": "DeepSeek-V3", "gpu": "H200", "gpu_count": 8, "users": 32, "prompt_tokens": 8192, "output_tokens": 1024})",
        R"({"model": "gpt-oss-20b", "gpu": "L40S", "gpu_count": 2, "users": 100, "prompt_tokens": 1000, "output_tokens": 1000, "ttft_s": 0.2})",
        R"({"model": "Qwen3-8B", "gpu": "H100", "gpu_count": 8, "rate_per_s": 20, "prompt_tokens": 2000, "output_tokens": 300,
            "ttft_p99_s": 1.0, "tpot_p99_s": 0.05, "gpu_hour_price": 2.5})",
    };
    for (const char* text : targets) {
        INFO(text);
        const PlanTarget target = target_ok(text);
        const PlanResult result = plan_ok(text);
        REQUIRE(result.met);
        CHECK(!result.closest);
        REQUIRE(!result.candidates.empty());
        CHECK(result.candidates.size() <= static_cast<size_t>(target.max_candidates));
        CHECK(result.configurations_met >= static_cast<int64_t>(result.candidates.size()));
        CHECK(result.simulations <= 48);
        CHECK(result.evaluations <= evaluation_bound(target.gpu_count, 3));
        for (size_t i = 0; i < result.candidates.size(); ++i) {
            const PlanCandidate& c = result.candidates[i];
            INFO(c.command_line);
            CHECK(c.meets);
            CHECK(c.misses.empty());
            CHECK(c.gpus_used == c.scenario.tensor_parallel_size * c.replicas);
            CHECK(c.gpus_used <= target.gpu_count);
            if (!target.rate_per_s) CHECK(c.users_per_replica * c.replicas >= target.users);
            if (i > 0) CHECK(result.candidates[i - 1].gpus_used <= c.gpus_used);  // cheapest first
            CHECK((c.scenario.kv_cache_dtype == DType::fp8) ==
                  std::any_of(c.caveats.begin(), c.caveats.end(), [](const std::string& w) { return contains(w, "FP8 KV cache"); }));
            auto outcome = evaluate(c.scenario);
            REQUIRE(std::holds_alternative<Result>(outcome));
            const Result& r = std::get<Result>(outcome);
            CHECK(!r.memory.startup_error);
            CHECK(r.status == Status::ok);
            CHECK(r.admission.running == c.users_per_replica);
            CHECK(r.admission.max_resident_sequences == c.max_resident_sequences);
            CHECK(r.steps.itl_s == Approx(c.itl_s));
            // The load, simulated again on the engine as started: the same percentiles, every objective met.
            REQUIRE(c.served);
            const SimSummary again = served_again(c, target, r);
            CHECK(again.ttft_s.p99 == Approx(c.served->ttft_s.p99));
            CHECK(again.tpot_s.p50 == Approx(c.served->tpot_s.p50));
            CHECK(again.load != Load::overloaded);
            if (target.ttft_s) CHECK(again.ttft_s.p50 <= *target.ttft_s);
            if (target.ttft_p99_s) CHECK(again.ttft_s.p99 <= *target.ttft_p99_s);
            if (target.itl_s) CHECK(again.tpot_s.p50 <= *target.itl_s);
            if (target.tpot_p99_s) CHECK(again.tpot_s.p99 <= *target.tpot_p99_s);
            if (target.gpu_hour_price) CHECK(c.served->cost_per_million_output_tokens > c.served->cost_per_million_input_tokens);
            // The start-up lines are the engine's own, from this very evaluation (V0 words them differently).
            // From 0.28.0 the size and the concurrency share a line.
            REQUIRE(c.startup_lines.size() == (r.rules.combined_kv_capacity_line ? 3 : 4));
            if (r.rules.v1_engine) {
                CHECK(contains(c.startup_lines[0], "Model loading took"));
                CHECK(contains(c.startup_lines[1], "Available KV cache memory"));
                CHECK(contains(c.startup_lines[2], "GPU KV cache size: " + format_count(r.memory.kv_cache_tokens) + " tokens"));
            } else {
                CHECK(contains(c.startup_lines[0], "Loading model weights took"));
                CHECK(contains(c.startup_lines[1], "Memory profiling results"));
                CHECK(contains(c.startup_lines[2], "# GPU blocks: " + std::to_string(r.memory.num_gpu_blocks)));
            }
            CHECK(contains(c.startup_lines.back(), "Maximum concurrency for"));
        }
        // The Pareto front: fewer GPUs, each step buying a lower p99 TPOT.
        REQUIRE(!result.pareto.empty());
        for (size_t i = 1; i < result.pareto.size(); ++i) {
            CHECK(result.pareto[i].gpus_used > result.pareto[i - 1].gpus_used);
            CHECK(result.pareto[i].served->tpot_s.p99 < result.pareto[i - 1].served->tpot_s.p99);
        }
    }
}

TEST_CASE("plan: the 70B example judges ITL by the load it will serve, not by an idle decode step") {
    // Issue 22: 128 users at 2k in / 512 out with ITL <= 40 ms on up to 8 H100s. One decode step of
    // the cheapest configurations is well under 40 ms; the steps that carry other users' prompts are
    // not, and the simulated TPOT says so.
    const PlanResult result = plan_ok(
        R"({"model": "Llama-3.1-70B", "gpu": "H100", "gpu_count": 8, "users": 128, "prompt_tokens": 2048, "output_tokens": 512, "itl_s": 0.04})");
    const PlanCandidate* fastest_idle = nullptr;
    for (const PlanCandidate& c : result.pareto)
        if (!fastest_idle || c.itl_s < fastest_idle->itl_s) fastest_idle = &c;
    REQUIRE(fastest_idle);
    CHECK(fastest_idle->itl_s < 0.04);
    for (const PlanCandidate& c : result.candidates) CHECK(c.served->tpot_s.p50 <= 0.04);
    if (!result.met) {
        REQUIRE(result.closest);
        CHECK(result.closest->served->tpot_s.p50 > 0.04);
        CHECK(contains(result.closest->misses.front(), "median TPOT"));
    }
    // A 16-bit checkpoint with FP8 and 4-bit releases in the catalog is tried as those releases,
    // never quantised at load time, and each says what it may cost.
    bool release_tried = false;
    for (const PlanCandidate& c : result.pareto) {
        CHECK(c.scenario.weight_dtype == DType::bf16);
        CHECK(!contains(c.command_line, "--quantization fp8"));
        if (c.scenario.model != "Llama-3.1-70B") {
            release_tried = true;
            REQUIRE(!c.caveats.empty());
        }
    }
    CHECK(release_tried);
}

TEST_CASE("plan: a rate nothing keeps up with names the configuration that completes the most of it, and no users") {
    // 10,000 requests/s on up to 64 A100s: every configuration falls behind. The closest once was
    // 5 GPUs (the smallest p99 TPOT among those behind), said to run "32 of 32 users" (the unused
    // users box's default).
    const PlanResult result = plan_ok(
        R"({"model": "Qwen3-32B", "gpu": "A100", "gpu_count": 64, "rate_per_s": 10000, "prompt_tokens": 4096, "output_tokens": 512})");
    CHECK(!result.met);
    REQUIRE(result.closest);
    REQUIRE(result.closest->served);
    CHECK(result.closest->gpus_used == 64);
    CHECK(!contains(result.summary, "users"));
    CHECK(contains(result.summary, "a second complete"));
}

TEST_CASE("plan: an impossible target says so and reports the closest configuration") {
    // 4,096 users at 128k tokens on one L4.
    const PlanResult result =
        plan_ok(R"({"model": "Llama-3.1-8B", "gpu": "L4", "gpu_count": 1, "users": 4096, "prompt_tokens": 126976, "output_tokens": 1024})");
    CHECK(!result.met);
    CHECK(result.candidates.empty());
    CHECK(result.configurations_met == 0);
    CHECK(result.summary.rfind("Nothing meets", 0) == 0);
    REQUIRE(result.closest);
    const PlanCandidate& c = *result.closest;
    CHECK(!c.meets);
    CHECK(!c.misses.empty());
    CHECK(!c.startup_error);  // the closest one starts ...
    CHECK(c.running >= 1);    // ... and runs what it can
    CHECK(c.running < c.users_per_replica);
    CHECK(c.users_per_replica == 4096);
    CHECK(contains(c.command_line, "--max-num-seqs 4096"));
    CHECK(!c.startup_lines.empty());
    CHECK(result.evaluations <= evaluation_bound(1));
    // Fed back as is, it runs as many as the plan says.
    auto outcome = evaluate(c.scenario);
    REQUIRE(std::holds_alternative<Result>(outcome));
    CHECK(std::get<Result>(outcome).admission.running == c.running);

    // A request longer than the model's context cannot be met by any flag.
    const PlanResult too_long = plan_ok(R"({"model": "Qwen3-8B", "gpu": "H100", "prompt_tokens": 65536, "output_tokens": 512})");
    CHECK(!too_long.met);
    REQUIRE(too_long.closest);
    CHECK(contains(too_long.closest->misses.front(), "exceeds max_model_len"));
}

TEST_CASE("plan: bad targets are InputErrors that name the field") {
    struct Case {
        const char* text;
        const char* field;
        ErrorCode code;
        const char* in_message;
    };
    const Case cases[] = {
        {R"({"users": 0})", "users", ErrorCode::out_of_range, "1 to 262,144"},
        {R"({"gpu_count": 1e30})", "gpu_count", ErrorCode::out_of_range, "1 to 64"},
        {R"({"gpu_count": 2.5})", "gpu_count", ErrorCode::out_of_range, "whole number"},
        {R"({"model": "GPT-5"})", "model", ErrorCode::unknown_value, "Qwen3-8B"},
        {R"({"gpu": "V100"})", "gpu", ErrorCode::unknown_value, "H100"},
        {R"({"prompt_tokens": 0})", "prompt_tokens", ErrorCode::out_of_range, "1 to 1,048,576"},
        {R"({"itl_s": 0})", "itl_s", ErrorCode::out_of_range, "0.001 to 3600.000"},
        {R"({"ttft_s": "fast"})", "ttft_s", ErrorCode::wrong_type, "number"},
        {R"({"max_candidates": 100})", "max_candidates", ErrorCode::out_of_range, "1 to 20"},
        {R"({"vllm_version": "latest"})", "vllm_version", ErrorCode::unknown_value, "version string"},
        {R"({"tensor_parallel_size": 2})", "tensor_parallel_size", ErrorCode::unknown_field, "not a plan target field"},
        {R"([1])", "plan", ErrorCode::wrong_type, "JSON object"},
        {R"({"users": )", "plan", ErrorCode::malformed_json, "not valid JSON"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const InputError e = plan_error(c.text);
        CHECK(e.field == c.field);
        CHECK(e.code == c.code);
        CHECK(contains(e.message, c.in_message));
    }
    // A target built in C++ is checked the same way.
    PlanTarget zero_users;
    zero_users.users = 0;
    auto outcome = plan(zero_users);
    REQUIRE(std::holds_alternative<InputError>(outcome));
    CHECK(std::get<InputError>(outcome).field == "users");
    PlanTarget unknown_model;
    unknown_model.model = "GPT-5";
    outcome = plan(unknown_model);
    REQUIRE(std::holds_alternative<InputError>(outcome));
    CHECK(std::get<InputError>(outcome).field == "model");
    CHECK(std::get<InputError>(outcome).code == ErrorCode::unknown_value);
}

TEST_CASE("plan: the command line carries exactly the flags that differ from the engine defaults") {
    const ModelSpec& model = *find_model("Llama-3.1-70B");
    Scenario s;
    s.model = "Llama-3.1-70B";
    CHECK(serve_command(s, model, 1) == "vllm serve meta-llama/Llama-3.1-70B-Instruct");
    s.gpu_memory_utilization = 0.92;  // the default from 0.21.0
    CHECK(serve_command(s, model, 1) == "vllm serve meta-llama/Llama-3.1-70B-Instruct");
    s.tensor_parallel_size = 4;
    s.gpu_memory_utilization = 0.95;
    s.max_model_len = 2048;
    s.kv_cache_dtype = DType::fp8;
    s.weight_dtype = DType::fp8;
    s.max_num_seqs = 300;
    const std::string command = serve_command(s, model, 2);
    for (const char* flag : {"--tensor-parallel-size 4", "--data-parallel-size 2", "--gpu-memory-utilization 0.95", "--max-model-len 2048",
                             "--kv-cache-dtype fp8", "--quantization fp8", "--max-num-seqs 300"}) {
        INFO(command << " lacks " << flag);
        CHECK(contains(command, flag));
    }
    s.vllm_version = "0.6.3";  // before --data-parallel-size: one server per replica
    CHECK(!contains(serve_command(s, model, 2), "--data-parallel-size"));

    // The search writes every lever it sets: a target that needs them all (300 users, above the
    // L40S's default 256 sequences, a 70B model on two of them).
    const PlanResult result =
        plan_ok(R"({"model": "Llama-3.1-70B", "gpu": "L40S", "gpu_count": 2, "users": 300, "prompt_tokens": 1024, "output_tokens": 256})");
    REQUIRE(result.closest);
    const std::string& closest = result.closest->command_line;
    for (const char* flag : {"--tensor-parallel-size 2", "--gpu-memory-utilization 0.95", "--kv-cache-dtype fp8", "--max-num-seqs 300"}) {
        INFO(closest << " lacks " << flag);
        CHECK(contains(closest, flag));
    }
    // Its weights are a quantised release from the catalog, named as the model to serve.
    CHECK(result.closest->scenario.model != "Llama-3.1-70B");
    CHECK(contains(closest, "vllm serve " + find_model(result.closest->scenario.model)->hf_repo + " "));
    // And in every met candidate, a flag appears exactly when its lever left the default.
    const PlanResult met = plan_ok(
        R"({"model": "Llama-3.1-8B", "gpu": "L4", "gpu_count": 8, "users": 300, "prompt_tokens": 1024, "output_tokens": 256, "max_candidates": 20})");
    bool shorter_len_seen = false;
    for (const PlanCandidate& c : met.candidates) {
        INFO(c.command_line);
        CHECK(contains(c.command_line, "--tensor-parallel-size") == (c.scenario.tensor_parallel_size > 1));
        CHECK(contains(c.command_line, "--data-parallel-size") == (c.replicas > 1));
        CHECK(contains(c.command_line, "--kv-cache-dtype fp8") == (c.scenario.kv_cache_dtype == DType::fp8));
        CHECK(contains(c.command_line, "--quantization fp8") == (c.scenario.weight_dtype == DType::fp8));
        CHECK(contains(c.command_line, "--max-num-seqs") == (c.users_per_replica > 256));
        CHECK(contains(c.command_line, "--max-model-len") == c.scenario.max_model_len.has_value());
        shorter_len_seen = shorter_len_seen || contains(c.command_line, "--max-model-len 2048");
    }
    CHECK(shorter_len_seen);
}

TEST_CASE("plan: JSON out") {
    const PlanResult result = plan_ok(R"({"model": "Qwen3-8B", "gpu": "H100", "users": 8, "itl_s": 0.1})");
    const nlohmann::json out = plan_to_json(result);
    CHECK(out["met"] == true);
    CHECK(out["target"]["users"] == 8);
    const auto& first = out["candidates"][0];
    CHECK(first["margins"]["running"] == 8);
    CHECK(first["margins"]["idle_decode_step_s"].get<double>() > 0);
    CHECK(first["served"]["tpot_s"]["p50"].get<double>() <= 0.1);
    CHECK(first["served"]["load"] == "capped");
    CHECK(!first["served"].contains("cost"));  // no price given
    CHECK(out["target"]["itl_s"] == 0.1);
    CHECK(out["pareto"].is_array());
    CHECK(out["simulations"].get<int64_t>() >= 1);
    CHECK(first["scenario"]["model"] == "Qwen3-8B");
    // The scenario reads back as the same configuration.
    auto again = scenario_from_json(first["scenario"]);
    REQUIRE(std::holds_alternative<Scenario>(again));
    CHECK(std::get<Scenario>(again).tensor_parallel_size == result.candidates[0].scenario.tensor_parallel_size);

    const nlohmann::json none = plan_to_json(plan_ok(R"({"model": "Llama-3.1-70B", "gpu": "L4", "users": 8})"));
    CHECK(none["met"] == false);
    CHECK(none["closest"].is_object());
    CHECK(!none.contains("candidates"));
}

TEST_CASE("plan: a rate's search is shaped by the requests it keeps in flight, not by the users box") {
    // 20 requests/s of 2,000 + 300 tokens: a lone request takes a few seconds, so dozens are in
    // flight. The users box (32 by default, here 1 or 500) once sized the search instead.
    const char* const rate =
        R"("model": "Qwen3-8B", "gpu": "H100", "gpu_count": 8, "rate_per_s": 20, "prompt_tokens": 2000, "output_tokens": 300)";
    const PlanResult one = plan_ok(std::string("{") + rate + R"(, "users": 1})");
    const PlanResult many = plan_ok(std::string("{") + rate + R"(, "users": 500})");
    REQUIRE(one.met);
    REQUIRE(one.candidates.size() == many.candidates.size());
    CHECK(one.summary == many.summary);
    for (size_t i = 0; i < one.candidates.size(); ++i) {
        const PlanCandidate& a = one.candidates[i];
        CHECK(a.command_line == many.candidates[i].command_line);
        CHECK(a.users_per_replica == many.candidates[i].users_per_replica);
        // At least the rate times a lone request's time, split over the replicas.
        CHECK(a.users_per_replica * a.replicas >= 20);
    }
}
