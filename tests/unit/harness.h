/*
 * A minimal unit-test harness: TEST(name) defines a test, CHECK(cond, sentence) records a failure
 * with the behaviour that broke. main.c runs one test by name, as CTest asks.
 */
#ifndef FLOE_TEST_HARNESS_H
#define FLOE_TEST_HARNESS_H

#include <stdio.h>

extern int floe_test_failures;

#define TEST(name) static void test_##name(void)

#define CHECK(cond, sentence)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: FAILED: %s\n    (%s)\n", __FILE__, __LINE__, sentence, #cond);                     \
            floe_test_failures++;                                                                                      \
        }                                                                                                              \
    } while (0)

#endif
