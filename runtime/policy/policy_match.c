/*
 * The value comparisons of policy_match.h, as IAM's condition operators define them
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/policy_match.h"

#define ARN_PARTS 6
#define ADDRESS_MAX 64

static bool same_char(char a, char b, bool ignore_case)
{
    return ignore_case ? tolower((unsigned char)a) == tolower((unsigned char)b) : a == b;
}

/* Iterative, backtracking to the last '*' only: linear in practice, never exponential. */
static bool glob_n(const char *p, const char *p_end, const char *t, const char *t_end, bool ignore_case)
{
    const char *star = NULL, *resume = NULL;

    while (t < t_end) {
        if (p < p_end && *p == '*') {
            star = p++;
            resume = t;
        } else if (p < p_end && (*p == '?' || same_char(*p, *t, ignore_case))) {
            p++;
            t++;
        } else if (star != NULL) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < p_end && *p == '*')
        p++;
    return p == p_end;
}

bool floe_policy_glob(const char *pattern, const char *text, bool ignore_case)
{
    return glob_n(pattern, pattern + strlen(pattern), text, text + strlen(text), ignore_case);
}

/* The ends of the six parts of `arn`; false when it has fewer. */
static bool arn_split(const char *arn, const char *ends[ARN_PARTS])
{
    const char *c = arn;

    for (int i = 0; i < ARN_PARTS - 1; i++) {
        if ((c = strchr(c, ':')) == NULL)
            return false;
        ends[i] = c++;
    }
    ends[ARN_PARTS - 1] = arn + strlen(arn);
    return true;
}

bool floe_policy_arn_like(const char *pattern, const char *arn)
{
    const char *pe[ARN_PARTS], *ae[ARN_PARTS], *p = pattern, *a = arn;

    if (strcmp(pattern, "*") == 0)
        return true;
    if (!arn_split(pattern, pe) || !arn_split(arn, ae))
        return false;
    for (int i = 0; i < ARN_PARTS; i++) {
        if (!glob_n(p, pe[i], a, ae[i], false))
            return false;
        p = pe[i] + 1;
        a = ae[i] + 1;
    }
    return true;
}

/* `text` as an address of either family: its bytes and their count (4 or 16). */
static int address_bytes(const char *text, unsigned char out[16])
{
    if (inet_pton(AF_INET, text, out) == 1)
        return 4;
    if (inet_pton(AF_INET6, text, out) == 1)
        return 16;
    return 0;
}

bool floe_policy_ip_in(const char *cidr, const char *address)
{
    char net_text[ADDRESS_MAX];
    unsigned char net[16], addr[16];
    const char *slash = strchr(cidr, '/');
    size_t len = slash ? (size_t)(slash - cidr) : strlen(cidr);
    int n_net, n_addr;
    long bits;
    char *end;

    if (len >= sizeof(net_text))
        return false;
    memcpy(net_text, cidr, len);
    net_text[len] = '\0';
    n_net = address_bytes(net_text, net);
    n_addr = address_bytes(address, addr);
    if (n_net == 0 || n_net != n_addr)
        return false;
    bits = n_net * 8;
    if (slash != NULL) {
        bits = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end != '\0' || bits < 0 || bits > n_net * 8)
            return false;
    }
    for (long i = 0; i < bits; i++) {
        unsigned char mask = (unsigned char)(0x80u >> (i % 8));
        if ((net[i / 8] & mask) != (addr[i / 8] & mask))
            return false;
    }
    return true;
}

/* A date as epoch seconds: all digits, or ISO 8601 (a date, or a date and time in UTC). */
static bool date_seconds(const char *text, double *out)
{
    struct tm tm = {0};
    const char *rest;
    char *end;

    *out = strtod(text, &end);
    if (end != text && *end == '\0')
        return true;
    if ((rest = strptime(text, "%Y-%m-%d", &tm)) == NULL)
        return false;
    if (*rest == 'T' && (rest = strptime(rest + 1, "%H:%M:%S", &tm)) == NULL)
        return false;
    if (*rest == '.')
        while (isdigit((unsigned char)*++rest)) {}
    if (*rest == 'Z')
        rest++;
    if (*rest != '\0')
        return false;
    *out = (double)timegm(&tm);
    return true;
}

static bool number(const char *text, bool is_date, double *out)
{
    char *end;

    if (is_date)
        return date_seconds(text, out);
    *out = strtod(text, &end);
    return end != text && *end == '\0';
}

bool floe_policy_compare(const char *a, const char *b, bool is_date, int *cmp)
{
    double x, y;

    if (!number(a, is_date, &x) || !number(b, is_date, &y))
        return false;
    *cmp = x < y ? -1 : x > y ? 1 : 0;
    return true;
}
