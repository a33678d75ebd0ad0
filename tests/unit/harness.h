/*
 * A minimal unit-test harness: TEST(name) defines a test, CHECK(cond, sentence) records a failure
 * with the behaviour that broke. main.c runs one test by name, as CTest asks.
 */
#ifndef FLOE_TEST_HARNESS_H
#define FLOE_TEST_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern int floe_test_failures;

#define TEST(name) static void test_##name(void)

#define CHECK(cond, sentence)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: FAILED: %s\n    (%s)\n", __FILE__, __LINE__, sentence, #cond);                     \
            floe_test_failures++;                                                                                      \
        }                                                                                                              \
    } while (0)

/** One registry entry: test_list.h's TEST_ENTRY(name) becomes {"name", test_name}. */
typedef struct floe_test_entry {
    const char *name;
    void (*fn)(void);
} floe_test_entry_t;

/**
 * Runs the test named argv[1] (every test when there is none): 0 if every CHECK held, 1 if one
 * failed, 2 if no test has that name. Shared by the unit-test binaries' main().
 */
static inline int floe_test_run(const floe_test_entry_t *tests, size_t n, int argc, char **argv)
{
    int ran = 0;

    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        tests[i].fn();
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "(none)");
        return 2;
    }
    if (floe_test_failures)
        fprintf(stderr, "%d check(s) failed\n", floe_test_failures);
    return floe_test_failures ? 1 : 0;
}

#endif
