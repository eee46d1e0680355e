// What the fuzz targets share: an invariant check that stops the run with a message libFuzzer
// keeps next to the input that broke it.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CAMPFIRE_FUZZ_CHECK(cond, ...)                                                    \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "invariant failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                  \
      std::fprintf(stderr, "\n");                                                         \
      std::abort();                                                                       \
    }                                                                                     \
  } while (false)
