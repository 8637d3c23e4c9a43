// Properties over thousands of random scenarios: what must hold for any input the model accepts.
#include <catch2/catch.hpp>
#include "logs/engine_log.hpp"
#include <cmath>
#include <random>

#include "model/catalog.hpp"
#include "support.hpp"

using namespace kv;

namespace {

struct RandomScenarios {
    std::mt19937_64 rng{20261130};
    template <typename T>
    T pick(std::initializer_list<T> options) {
        std::uniform_int_distribution<size_t> d(0, options.size() - 1);
        return *(options.begin() + d(rng));
    }
    int64_t log_uniform(int64_t lo, int64_t hi) {
        std::uniform_real_distribution<double> d(std::log(static_cast<double>(lo)), std::log(static_cast<double>(hi)));
        return std::clamp<int64_t>(std::llround(std::exp(d(rng))), lo, hi);
    }
    Scenario next() {
        Scenario s;
        const Catalog& catalog = builtin_catalog();
        s.model = catalog.models[std::uniform_int_distribution<size_t>(0, catalog.models.size() - 1)(rng)].name;
        s.gpu = catalog.gpus[std::uniform_int_distribution<size_t>(0, catalog.gpus.size() - 1)(rng)].name;
        s.vllm_version = pick<std::string>({"0.5.4", "0.6.3", "0.8.5", "0.10.1", "0.13.0", "0.21.0"});
        // Jamba's Mamba1 layers run on V1 from 0.10.1 only, and V1 on every GPU from 0.10.2.
        if (find_model(s.model)->linear_kind == LinearKind::mamba1) s.vllm_version = pick<std::string>({"0.13.0", "0.21.0"});
        s.enforce_eager = pick({false, true});
        s.pipeline_parallel_size = pick<int64_t>({1, 1, 2, 4});
        s.prompt_tokens = log_uniform(1, 1 << 20);
        s.output_tokens = log_uniform(1, 1 << 16);
        s.concurrent_requests = log_uniform(1, 4096);
        s.gpu_memory_utilization = std::uniform_real_distribution<double>(0.05, 1.0)(rng);
        s.kv_cache_dtype = pick({DType::bf16, DType::fp8});
        s.weight_dtype = pick({DType::bf16, DType::bf16, DType::fp8});
        s.force_mha = pick({false, true});
        if (pick({false, true})) s.max_model_len = log_uniform(16, 1 << 17);
        s.max_num_seqs = log_uniform(1, 4096);
        s.max_num_batched_tokens = log_uniform(16, 1 << 20);
        s.tensor_parallel_size = pick<int64_t>({1, 2, 4, 8});
        s.data_parallel_size = pick<int64_t>({1, 1, 2, 4});
        s.enable_expert_parallel = pick({false, true});
        return s;
    }
};

Result evaluate_scenario(const Scenario& s) {
    auto outcome = evaluate(s);
    REQUIRE(std::holds_alternative<Result>(outcome));
    return std::get<Result>(outcome);
}

void check_finite(const nlohmann::json& j, const std::string& path) {
    if (j.is_number_float()) {
        INFO(path);
        CHECK(std::isfinite(j.get<double>()));
    } else if (j.is_object()) {
        for (const auto& [k, v] : j.items()) check_finite(v, path + "." + k);
    } else if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i) check_finite(j[i], path + "[" + std::to_string(i) + "]");
    }
}

}  // namespace

TEST_CASE("properties hold over 3,000 random scenarios") {
    RandomScenarios random;
    for (int i = 0; i < 3000; ++i) {
        const Scenario s = random.next();
        const Result r = evaluate_scenario(s);
        INFO(scenario_to_json(s).dump());

        // Finite everywhere, and no text prints NaN or inf.
        const nlohmann::json j = result_to_json(r);
        check_finite(j, "result");
        for (const LogLine& line : engine_log(r)) {
            CHECK(line.text.find("nan") == std::string::npos);
            CHECK(line.text.find("inf ") == std::string::npos);
        }

        // The budget adds up; an engine that starts has a pool that holds one max_model_len request.
        const MemoryPlan& m = r.memory;
        CHECK(m.available_kv_bytes + m.weight_bytes + m.activation_peak_bytes + m.non_torch_bytes +
                  (m.cuda_graph_in_budget ? m.cuda_graph_bytes : 0.0) ==
              Approx(m.requested_bytes));
        if (!m.startup_error) {
            CHECK(m.available_kv_bytes > 0);
            CHECK(m.request_kv_bytes <= m.available_kv_bytes);
            CHECK(m.kv_cache_tokens > 0);
        } else {
            CHECK(r.status == Status::engine_refused);
            CHECK(r.admission.running == 0);
        }
        CHECK(r.admission.kv_pool_used_bytes <= std::max(0.0, m.available_kv_bytes) * (1 + 1e-12));

        // Admission: running never exceeds any of its three limits, and requests are conserved.
        CHECK(r.admission.running <= s.concurrent_requests);
        CHECK(r.admission.running <= *r.scenario.max_num_seqs);
        CHECK(r.admission.running <= r.admission.max_resident_sequences);
        // One engine is given its share of the requests; the engines together take them all.
        CHECK(r.admission.running + r.admission.waiting == r.deployment.requests_per_engine);
        CHECK(r.deployment.running + r.deployment.waiting == s.concurrent_requests);
        CHECK(r.deployment.running <= r.deployment.max_resident_sequences);
        CHECK(r.admission.kv_cache_usage >= 0);
        CHECK(r.admission.kv_cache_usage <= 1);
        CHECK(r.steps.weight_share >= 0);
        CHECK(r.steps.weight_share <= 1);
        if (r.admission.running > 0) {
            CHECK(r.steps.decode.total_s > 0);
            CHECK(r.steps.decode.total_s >= std::max(r.steps.decode.memory_s, r.steps.decode.compute_s));
            CHECK(r.steps.free_prefill_tokens <= r.steps.chunk_budget_tokens);
            // The slice that rides free is the last one within a tenth more step time (the search in
            // time/step_time.cpp guesses from the step's slope; a bisection gives the same boundary).
            const auto chunk_step_s = [&](int64_t tokens) { return decode_step_with_chunk_s(step_engine(r), r.admission.running, tokens); };
            const double bound_s = free_prefill_step_growth * r.steps.decode.total_s;
            if (r.steps.free_prefill_tokens > 0) CHECK(chunk_step_s(r.steps.free_prefill_tokens) <= bound_s);
            if (r.steps.free_prefill_tokens < r.steps.chunk_budget_tokens) CHECK(chunk_step_s(r.steps.free_prefill_tokens + 1) > bound_s);
            // Serving pays for prefill: prompt throughput is generation x prompt/output, and
            // neither exceeds what the GPU does with one kind of work alone.
            const ServingSteady& v = r.steps.serving;
            CHECK(v.prompt_tokens_per_s ==
                  Approx(v.generation_tokens_per_s * static_cast<double>(s.prompt_tokens) / static_cast<double>(s.output_tokens))
                      .epsilon(0.01));
            CHECK(v.generation_tokens_per_s <= v.decode_only_tokens_per_s * (1 + 1e-9));
            CHECK(v.prompt_tokens_per_s <= v.prefill_only_tokens_per_s * (1 + 1e-9));
            CHECK(v.decode_tokens_per_step + v.prefill_tokens_per_step <=
                  static_cast<double>(*r.scenario.max_num_batched_tokens) * (1 + 1e-9));
            CHECK(v.ttft_s >= v.queue_s);
        }

        // Capacity never rises with prompt length.
        Scenario longer = s;
        longer.prompt_tokens = std::min<int64_t>(s.prompt_tokens * 2, kvtest::field_max("prompt_tokens"));
        CHECK(evaluate_scenario(longer).admission.max_resident_sequences <= r.admission.max_resident_sequences);

        // An FP8 cache never lowers capacity; FP8 weights never shrink the pool.
        Scenario fp8_cache = s;
        fp8_cache.kv_cache_dtype = DType::fp8;
        CHECK(evaluate_scenario(fp8_cache).admission.max_resident_sequences >= r.admission.max_resident_sequences);
        Scenario fp8_weights = s;
        fp8_weights.weight_dtype = DType::fp8;
        if (find_model(s.model)->weight_format == WeightFormat::bf16)
            CHECK(evaluate_scenario(fp8_weights).memory.num_gpu_blocks >= r.memory.num_gpu_blocks);

        // More memory for the engine never reduces what it can hold.
        Scenario more_memory = s;
        more_memory.gpu_memory_utilization = std::min(1.0, *r.scenario.gpu_memory_utilization + 0.05);
        const Result more = evaluate_scenario(more_memory);
        if (!more.memory.startup_error || more.memory.startup_error->kind != kv::RefusalKind::free_memory_below_request)
            CHECK(more.admission.max_resident_sequences >= r.admission.max_resident_sequences);
    }
}

TEST_CASE("extreme accepted inputs neither overflow nor produce NaN") {
    Scenario s;
    s.model = "Qwen3-32B";
    s.prompt_tokens = kvtest::field_max("prompt_tokens");
    s.output_tokens = kvtest::field_max("output_tokens");
    s.concurrent_requests = kvtest::field_max("concurrent_requests");
    s.max_num_batched_tokens = kvtest::field_max("max_num_batched_tokens");
    s.max_num_seqs = kvtest::field_max("max_num_seqs");
    s.gpu_memory_utilization = kv::scenario_field("gpu_memory_utilization").lo;
    check_finite(result_to_json(evaluate_scenario(s)), "min-utilisation");
    s.gpu_memory_utilization = 0.99;
    s.max_num_batched_tokens = 16;
    s.prompt_tokens = 1;
    s.output_tokens = 1;
    const Result r = evaluate_scenario(s);
    check_finite(result_to_json(r), "tiny requests");
    CHECK(r.admission.running == std::min<int64_t>(4096, r.admission.max_resident_sequences));
    CHECK(r.admission.running > 2048);
    CHECK(r.steps.chunk_budget_tokens == 0);

    nlohmann::json huge = {{"num_hidden_layers", ConfigLimits::max_layers},
                           {"hidden_size", ConfigLimits::max_hidden},
                           {"intermediate_size", ConfigLimits::max_intermediate},
                           {"num_attention_heads", 1024},
                           {"head_dim", 2048},
                           {"vocab_size", ConfigLimits::max_vocab},
                           {"max_position_embeddings", ConfigLimits::max_positions}};
    const Result giant = kvtest::evaluate_ok({{"model_config", huge}});
    CHECK(giant.status == Status::engine_refused);
    REQUIRE(giant.memory.startup_error);
    CHECK(giant.memory.startup_error->kind == kv::RefusalKind::weights_do_not_fit);
    CHECK(giant.params > 0);
    check_finite(result_to_json(giant), "giant");
}
