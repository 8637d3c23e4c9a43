#include "serving/workload_fields.hpp"

namespace kv {
namespace {

constexpr Choice workloads[] = {{"chat", "chat"}, {"summarise", "summarise"}, {"reasoning", "reasoning"}, {"fixed", "fixed"}};
constexpr double rate_stops[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1000};
constexpr double request_stops[] = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
constexpr double prefix_stops[] = {0, 100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000};
constexpr double price_stops[] = {0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 15, 20};

// The knobs' stops are round numbers, so the lesson's figures (2,000 requests, a 2,000-token
// system prompt, 8 requests/s) are exact stops. The requests knob stops at 5,000 (a run of 20,000,
// the reader's limit, takes long enough to stall a drag); the page can set more.
constexpr FieldSpec rows[] = {
    {.name = "workload",
     .type = FieldType::choice,
     .choices = workloads,
     .choice_words = "chat, summarise, reasoning or fixed",
     .label = "workload",
     .help = "Where the requests' lengths come from. chat: short prompts, medium answers; summarise: long documents, short "
             "answers; reasoning: short prompts, long outputs (log-normal shapes chosen to illustrate, not measurements). "
             "fixed: every request has the scenario's prompt_tokens and output_tokens."},
    {.name = "rate_per_s",
     .type = FieldType::number,
     .lo = 0,
     .hi = 1e4,
     .decimals = 3,
     .stops = rate_stops,
     .stop_suffix = " requests/s",
     .zero_text = "burst (all at once)",
     .unit = "requests/s",
     .label = "arrival rate",
     .help = "Requests per second arriving at the server, at random (Poisson) times with this average. burst: every request "
             "arrives at once, as a benchmark that fires them all together."},
    {.name = "requests",
     .type = FieldType::integer,
     .lo = 1,
     .hi = 20000,
     .stops = request_stops,
     .unit = "requests",
     .label = "requests",
     .help = "How many requests the run serves. The run ends when the last one finishes."},
    {.name = "shared_prefix_tokens",
     .type = FieldType::integer,
     .lo = 0,
     .hi = 1 << 20,
     .stops = prefix_stops,
     .stop_suffix = " tokens",
     .unit = "tokens",
     .label = "shared prefix",
     .help = "A system prompt every request starts with, in tokens (part of each prompt). With prefix caching its full "
             "blocks are computed once and shared; without, every request prefills and stores its own copy."},
    {.name = "prefix_caching",
     .type = FieldType::boolean,
     .flag = "--enable-prefix-caching",
     .label = "prefix caching",
     .help = "vLLM's --enable-prefix-caching (on by default in V1): full blocks of a prompt are kept under a hash of their "
             "tokens, so a later request with the same prefix reuses them instead of computing them again. Freed cached "
             "blocks count as free but stay hit-able until an allocation evicts them."},
    {.name = "max_concurrency",
     .type = FieldType::integer,
     .lo = 0,
     .hi = 20000,
     .unit = "requests",
     .help = "The client keeps at most this many requests in flight and sends the next when one finishes, as vllm bench "
             "serve's --max-concurrency does (0: no cap). A held request's time to first token counts from when it is sent."},
    {.name = "gpu_hour_price",
     .type = FieldType::number,
     .lo = 0,
     .hi = 1000,
     .decimals = 2,
     .stops = price_stops,
     .stop_suffix = " per GPU-hour",
     .zero_text = "none",
     .unit = "per GPU-hour",
     .label = "GPU-hour price",
     .help = "What one GPU costs an hour, in any currency (0: none): the run's cost per million output tokens and per million "
             "prompt tokens, its GPU time split as its steps spend it. Prompt tokens found in the prefix cache take no GPU time "
             "of their own."},
    {.name = "seed",
     .type = FieldType::integer,
     .lo = 0,
     .hi = 9007199254740992.0,  // 2^53: every seed a JavaScript number holds exactly
     .knob_lo = 1,
     .knob_hi = 99,
     .label = "seed",
     .help = "The seed of the arrival times and lengths: the same seed gives the same run, another seed another draw of the "
             "same workload."},
    {.name = "list",
     .type = FieldType::object,
     .label = "requests",
     .help = "Explicit requests, [{arrival_s, prompt_tokens, output_tokens}, ...] (1 to 20,000); when given, the named "
             "workload, rate and request count are unused."},
};

}  // namespace

const std::vector<Field<Workload>>& workload_fields() {
    static const std::vector<Field<Workload>> fields = {
        {&rows[0], &Workload::name},           {&rows[1], &Workload::rate_per_s},
        {&rows[2], &Workload::requests},       {&rows[3], &Workload::shared_prefix_tokens},
        {&rows[4], &Workload::prefix_caching}, {&rows[5], &Workload::max_concurrency},
        {&rows[6], &Workload::gpu_hour_price}, {&rows[7], &Workload::seed},
        {&rows[8], std::monostate{}},
    };
    return fields;
}

int64_t max_workload_requests() { return static_cast<int64_t>(rows[2].hi); }

}  // namespace kv
