/*
 * libFuzzer harness for the Iceberg commit engine (runtime/iceberg_commit.h). Input: three lines,
 *
 *   <current metadata.json, or empty to create a table>\n<requirements array>\n<updates array>
 *
 * A missing line counts as empty (no requirements, no updates). Requirements and updates are read
 * with floe_iceberg_json_parse as the REST layer reads a CommitTableRequest. Besides the
 * sanitizers it checks the engine's promises: a failure has one of the documented codes and a
 * reason and sets no output; a success produces metadata.json that parses and is canonical
 * (serializing it again gives the same bytes), so the next commit can build on it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/iceberg_commit.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW_MS INT64_C(1700000000000)

static void expect(int cond)
{
    if (!cond)
        abort();
}

/* The next '\n'-terminated line of [*p, end) (without its '\n'), as a NUL-terminated copy. */
static char *take_line(const char **p, const char *end)
{
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    size_t n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
    char *line = malloc(n + 1);

    memcpy(line, *p, n);
    line[n] = '\0';
    *p = nl ? nl + 1 : end;
    return line;
}

/* A JSON tree of the line, or NULL for an empty or unreadable one. */
static cJSON *parse_line(const char *line)
{
    floe_iceberg_error_t err;
    return line[0] != '\0' ? floe_iceberg_json_parse(line, strlen(line), &err) : NULL;
}

static void check_result(const char *json)
{
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    char *again;

    if (floe_iceberg_metadata_parse(json, strlen(json), &md, &err) != 0)
        abort(); /* a commit produced metadata that the next commit could not read */
    again = floe_iceberg_metadata_serialize(&md);
    expect(strcmp(again, json) == 0);
    free(again);
    floe_iceberg_metadata_dispose(&md);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    char *current = take_line(&p, end), *requirements = take_line(&p, end), *updates = take_line(&p, end);
    cJSON *req_tree = parse_line(requirements), *upd_tree = parse_line(updates);
    floe_iceberg_commit_input_t in = {
        .current_json = current[0] != '\0' ? current : NULL,
        .current_location = "s3://warehouse/metadata/00003-aaaa.metadata.json",
        .requirements = req_tree,
        .updates = upd_tree,
        .create_location = "s3://warehouse",
        .now_ms = NOW_MS,
    };
    floe_iceberg_error_t err;
    char *out = NULL;
    int rc = floe_iceberg_commit(&in, &out, &err);

    if (rc == FLOE_ICEBERG_OK) {
        expect(out != NULL);
        check_result(out);
    } else {
        expect((rc == FLOE_ICEBERG_EINVALID || rc == FLOE_ICEBERG_ECONFLICT || rc == FLOE_ICEBERG_ECORRUPT) &&
               err.code == rc && err.message[0] != '\0' && out == NULL);
    }
    free(out);
    cJSON_Delete(req_tree);
    cJSON_Delete(upd_tree);
    free(current);
    free(requirements);
    free(updates);
    return 0;
}
