#include <catch2/catch.hpp>
#include <cmath>

#include "base/format.hpp"
#include "base/units.hpp"

using namespace kv;

TEST_CASE("counts and grouped numbers carry thousands separators") {
    CHECK(format_count(1048576) == "1,048,576");
    CHECK(format_count(93) == "93");
    CHECK(format_count(-1234) == "-1,234");
    CHECK(format_grouped(2322.44, 1) == "2,322.4");
}

TEST_CASE("a counted noun agrees with its number") {
    CHECK(format_counted(1, "layer") == "1 layer");
    CHECK(format_counted(0, "layer") == "0 layers");
    CHECK(format_counted(36, "layer") == "36 layers");
    CHECK(format_counted(1024, "block") == "1,024 blocks");
}

TEST_CASE("text a reader gave is echoed as its first 60 bytes at most, still valid UTF-8") {
    CHECK(format_excerpt("Qwen3-8B") == "Qwen3-8B");
    CHECK(format_excerpt(std::string(60, 'x')) == std::string(60, 'x'));
    CHECK(format_excerpt(std::string(10'000'000, 'x')) == std::string(57, 'x') + "...");
    // 'é' is two bytes: a cut that would split one backs off to the character's start.
    std::string accents;
    for (int i = 0; i < 40; ++i) accents += "\xC3\xA9";
    const std::string shown = format_excerpt(accents);
    CHECK(shown == accents.substr(0, 56) + "...");
}

TEST_CASE("significant digits round like people do") {
    CHECK(format_significant(2322.0, 2) == "2,300");
    CHECK(format_significant(430.3, 2) == "430");
    CHECK(format_significant(0.0427, 2) == "0.043");
    CHECK(format_significant(0, 3) == "0");
}

TEST_CASE("fixed rounds halves away from zero and never prints -0") {
    CHECK(format_fixed(1.125, 2) == "1.13");
    CHECK(format_fixed(-0.0001, 2) == "0.00");
    CHECK(format_fixed(0.9, 2) == "0.90");
}

TEST_CASE("bytes are binary, whole units stay whole") {
    CHECK(format_bytes(147456) == "144 KiB");
    CHECK(format_bytes(2 * MiB) == "2 MiB");
    CHECK(format_bytes(55.661 * GiB) == "55.7 GiB");
    CHECK(format_bytes(8.0625 * GiB) == "8.06 GiB");
    CHECK(format_bytes(512) == "512 bytes");
    CHECK(format_gib(61.0242 * GiB, 0) == "61 GiB");
}

TEST_CASE("durations, percentages, factors, parameters") {
    CHECK(format_duration(0.027924) == "27.9 ms");
    CHECK(format_duration(1.569) == "1.57 s");
    CHECK(format_duration(4.2e-6) == "4.20 µs");
    CHECK(format_percent(0.8302, 0) == "83%");
    // An error band: two digits, whichever side of 10% (a median error is never negative).
    CHECK(format_band(0.1234) == "±12%");
    CHECK(format_band(0.0061) == "±0.6%");
    CHECK(format_band(-0.0996) == "±10%");
    CHECK(format_named(0.2, "band") == "±20%");
    CHECK(format_factor(3.1699, 2) == "3.17×");
    CHECK(format_factor(41591.0, 2) == "41,591×");  // the planner's headroom for one user
    CHECK(format_factor(99.5, 1) == "99.5×");
    CHECK(format_params(8190735360.0) == "8.19B");
    CHECK(format_params(9096705024.0) == "9.10B");
    CHECK(format_tokens_per_s(2323.06) == "2,323 tokens/s");
}

TEST_CASE("every named format is known and non-finite values print as zero") {
    for (const std::string& name : named_formats()) {
        INFO(name);
        auto text = format_named(1.0, name);
        REQUIRE(text.has_value());
        CHECK(text->find("nan") == std::string::npos);
        CHECK(format_named(std::nan(""), name)->find("nan") == std::string::npos);
        CHECK(format_named(INFINITY, name)->find("inf") == std::string::npos);
    }
    CHECK_FALSE(format_named(1.0, "furlongs").has_value());
}
