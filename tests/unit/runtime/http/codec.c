/* Tests of runtime/http/codec.c: UTF-8 checks every string passes before a handler sees it, and the
 * models' patterns, compiled on first use. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include <pcre2.h>

#include "harness.h"
#include "http/codec.h"

TEST(utf8_invalid_sequences_are_refused)
{
    CHECK(floe_codec_utf8_valid("plain", 5), "ASCII is valid");
    CHECK(floe_codec_utf8_valid("caf\xc3\xa9", 5), "a two-byte sequence is valid");
    CHECK(!floe_codec_utf8_valid("\xc3", 1), "a cut sequence is refused");
    CHECK(!floe_codec_utf8_valid("\xc0\xaf", 2), "an overlong encoding is refused");
    CHECK(!floe_codec_utf8_valid("\xed\xa0\x80", 3), "a UTF-16 surrogate is refused");
    CHECK(!floe_codec_utf8_valid("a\0b", 3), "a NUL byte is refused");
    CHECK(floe_codec_utf8_length("caf\xc3\xa9") == 4, "length counts code points, not bytes");
}

/* Found by tests/fuzz/fuzz_query.c: a message showed a long value's first bytes (128), which can
 * end inside a character; the S3 Tables front writes messages into JSON as they are. Every
 * position of a two-byte character around the cut is tried. */
TEST(violation_message_cuts_a_long_value_between_characters)
{
    const floe_path_t path = {NULL, "resourceArn", -1};
    char value[300];
    floe_violation_t v;

    for (size_t at = 100; at < 160; at++) {
        memset(value, 'a', at);
        strcpy(value + at, "\xc3\xa9!bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
        floe_violation_set(&v, &path, value, "Member must satisfy regular expression pattern: ^arn:.*$");
        CHECK(floe_codec_utf8_valid(v.message, strlen(v.message)), "the message is valid UTF-8");
        CHECK(strstr(v.message, "...' at 'resourceArn'") != NULL, "the value is marked as cut");
    }
}

/* The models' patterns compile on their first use, from whichever serving thread meets them first.
 * Eight threads start together on one fresh pattern: every one must see the same compiled code
 * (one compile is published, a racing copy is freed, which ASan's leak check would otherwise
 * report) and every match must answer as the pattern says. */
#define RACE_THREADS 8

typedef struct pattern_race {
    floe_codec_pattern_t *pattern;
    pthread_barrier_t *start;
    int matched, refused;
} pattern_race_t;

static void *race_pattern(void *arg)
{
    pattern_race_t *r = arg;

    pthread_barrier_wait(r->start);
    r->matched = floe_codec_pattern_match(r->pattern, "bucket-42");
    r->refused = !floe_codec_pattern_match(r->pattern, "Bucket_42\n");
    floe_codec_thread_exit();
    return NULL;
}

TEST(pattern_compiles_once_on_first_use_from_racing_threads)
{
    floe_codec_pattern_t pattern = {.source = "^[a-z0-9-]+$"};
    floe_codec_pattern_t broken = {.source = "^[a-z"};
    pthread_barrier_t start;
    pthread_t threads[RACE_THREADS];
    pattern_race_t races[RACE_THREADS];

    CHECK(atomic_load(&pattern.compiled) == NULL, "a pattern is not compiled before its first use");
    pthread_barrier_init(&start, NULL, RACE_THREADS);
    for (int i = 0; i < RACE_THREADS; i++) {
        races[i] = (pattern_race_t){&pattern, &start, 0, 0};
        pthread_create(&threads[i], NULL, race_pattern, &races[i]);
    }
    for (int i = 0; i < RACE_THREADS; i++) {
        pthread_join(threads[i], NULL);
        CHECK(races[i].matched, "every racing thread's value that fits the pattern matches");
        CHECK(races[i].refused, "every racing thread's value that does not fit is refused");
    }
    pthread_barrier_destroy(&start);
    void *code = atomic_load(&pattern.compiled);
    CHECK(code != NULL, "the first use publishes the compiled pattern");
    CHECK(floe_codec_pattern_prepare(&pattern) == FLOE_OK && atomic_load(&pattern.compiled) == code,
          "later uses keep the one compiled pattern");
    CHECK(!floe_codec_pattern_match(&broken, "^[a-z"), "a pattern that does not compile matches nothing");
    CHECK(floe_codec_pattern_prepare(&broken) == FLOE_EFAIL, "a pattern that does not compile is reported");
    pcre2_code_free(code); /* the test's own pattern; the models' live for the process */
}
