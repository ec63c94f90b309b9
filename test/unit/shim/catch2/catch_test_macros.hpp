// Debian 12 ships Catch2 v2 (one header); tests include the v3 header name so
// they also build against Catch2 v3.
#pragma once
#include <catch2/catch.hpp>
