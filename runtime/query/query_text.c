/*
 * The text readers of query_text.h. Timestamps are read field by field rather than with
 * strptime, so that a date like "2024-13-45" or a trailing byte is refused instead of normalised.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/failure.h"
#include "query/query_text.h"

#define MS_PER_S 1000
#define S_PER_MIN 60
#define MIN_PER_HOUR 60
#define MAX_MONTH 12
#define MAX_DAY 31
#define MAX_HOUR 23
#define MAX_MINUTE 59
#define MAX_SECOND 60 /* a leap second */

/* Reads exactly n digits at *p into *out and advances *p; returns -1 if they are not all digits. */
static int read_digits(const char **p, int n, int *out)
{
    int value = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i]))
            return FLOE_EFAIL;
        value = value * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = value;
    return FLOE_OK;
}

static int expect(const char **p, char c)
{
    if (**p != c)
        return FLOE_EFAIL;
    (*p)++;
    return FLOE_OK;
}

/* The milliseconds of ".123456" (digits past the third are dropped); advances *p. */
static int read_fraction_ms(const char **p)
{
    int ms = 0, digits = 0;
    if (**p != '.')
        return 0;
    for ((*p)++; isdigit((unsigned char)**p); (*p)++, digits++) {
        if (digits < 3)
            ms = ms * 10 + (**p - '0');
    }
    for (; digits < 3; digits++)
        ms *= 10;
    return ms;
}

/* The offset east of UTC in seconds: "Z", "+hh:mm" or "-hh:mm"; -1 on anything else, and the
 * text must end there. */
static int read_offset(const char *p, long *out)
{
    int hours, minutes, sign;
    if (strcmp(p, "Z") == 0 || strcmp(p, "z") == 0) {
        *out = 0;
        return FLOE_OK;
    }
    if (*p != '+' && *p != '-')
        return FLOE_EFAIL;
    sign = *p++ == '-' ? -1 : 1;
    if (read_digits(&p, 2, &hours) || expect(&p, ':') || read_digits(&p, 2, &minutes) || *p != '\0' ||
        hours > MAX_HOUR || minutes > MAX_MINUTE)
        return FLOE_EFAIL;
    *out = sign * ((long)hours * MIN_PER_HOUR + minutes) * S_PER_MIN;
    return FLOE_OK;
}

static int read_iso8601(const char *p, floe_timestamp_t *out)
{
    struct tm tm;
    int year, month, day, hour, minute, second, ms;
    long offset;

    if (read_digits(&p, 4, &year) || expect(&p, '-') || read_digits(&p, 2, &month) || expect(&p, '-') ||
        read_digits(&p, 2, &day) || (*p != 'T' && *p != 't') || (p++, read_digits(&p, 2, &hour)) ||
        expect(&p, ':') || read_digits(&p, 2, &minute) || expect(&p, ':') || read_digits(&p, 2, &second))
        return FLOE_EFAIL;
    ms = read_fraction_ms(&p);
    if (read_offset(p, &offset) || month < 1 || month > MAX_MONTH || day < 1 || day > MAX_DAY ||
        hour > MAX_HOUR || minute > MAX_MINUTE || second > MAX_SECOND)
        return FLOE_EFAIL;
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    *out = ((floe_timestamp_t)timegm(&tm) - offset) * MS_PER_S + ms;
    return FLOE_OK;
}

/* strtod reads C's hexadecimal floats ("0x1p3"), which no AWS client writes. */
static int is_hex_float(const char *text)
{
    return strpbrk(text, "xX") != NULL;
}

static int read_epoch_seconds(const char *text, floe_timestamp_t *out)
{
    char *end = NULL;
    double seconds;

    if ((!isdigit((unsigned char)text[0]) && text[0] != '-') || is_hex_float(text))
        return FLOE_EFAIL;
    seconds = strtod(text, &end);
    if (*end != '\0' || !isfinite(seconds) || fabs(seconds) > (double)INT64_MAX / MS_PER_S)
        return FLOE_EFAIL;
    *out = (floe_timestamp_t)llround(seconds * MS_PER_S);
    return FLOE_OK;
}

int floe_query_text_timestamp(const char *text, const floe_path_t *path, floe_timestamp_t *out, floe_violation_t *v)
{
    if (read_iso8601(text, out) == 0 || read_epoch_seconds(text, out) == 0)
        return FLOE_OK;
    floe_violation_type(v, path, "an ISO 8601 timestamp");
    return FLOE_EFAIL;
}

int floe_query_text_double(const char *text, const floe_path_t *path, double *out, floe_violation_t *v)
{
    char *end = NULL;

    if (strcmp(text, "NaN") == 0) {
        *out = NAN;
        return FLOE_OK;
    }
    if (strcmp(text, "Infinity") == 0 || strcmp(text, "-Infinity") == 0) {
        *out = text[0] == '-' ? -INFINITY : INFINITY;
        return FLOE_OK;
    }
    if ((isdigit((unsigned char)text[0]) || text[0] == '-' || text[0] == '.') && !is_hex_float(text)) {
        *out = strtod(text, &end);
        if (*end == '\0' && isfinite(*out))
            return FLOE_OK;
    }
    floe_violation_type(v, path, "a number");
    return FLOE_EFAIL;
}
