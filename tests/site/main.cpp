// The site generator's tests: Catch2 2.x from Debian.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
