/*
 * libcurl behind dlopen (trino_http.h). curl's easy interface is variadic, so the functions are
 * called through pointers resolved once rather than through lib_load.h's forwarding wrappers.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "trino/trino_http.h"

#define CURL_SONAME "libcurl.so.4"

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    int is_loaded; /* 1 loaded, -1 missing */
    char error[FLOE_TRINO_HTTP_ERROR_MAX];
} curl;
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, symbol) ((curl.field = (__typeof__(curl.field))dlsym(handle, symbol)) != NULL)

static void load_curl(void)
{
    void *handle = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);

    if (handle == NULL || !RESOLVE(global_init, "curl_global_init") || !RESOLVE(easy_init, "curl_easy_init") ||
        !RESOLVE(easy_setopt, "curl_easy_setopt") || !RESOLVE(easy_perform, "curl_easy_perform") ||
        !RESOLVE(easy_getinfo, "curl_easy_getinfo") || !RESOLVE(easy_strerror, "curl_easy_strerror") ||
        !RESOLVE(easy_cleanup, "curl_easy_cleanup") || !RESOLVE(slist_append, "curl_slist_append") ||
        !RESOLVE(slist_free_all, "curl_slist_free_all")) {
        snprintf(curl.error, sizeof(curl.error), "cannot load %s (Debian's libcurl4): %s", CURL_SONAME, dlerror());
        curl.is_loaded = -1;
        return;
    }
    /* once per process (pthread_once), before any engine worker uses curl */
    curl.is_loaded = curl.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 1 : -1;
    if (curl.is_loaded < 0)
        snprintf(curl.error, sizeof(curl.error), "curl_global_init failed");
}

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
    floe_trino_http_answer_t *a = arg;
    size_t add = size * n;

    a->body = floe_xrealloc(a->body, a->len + add + 1);
    memcpy(a->body + a->len, data, add);
    a->len += add;
    a->body[a->len] = '\0';
    return add;
}

int floe_trino_http(const char *method, const char *url, const char *const *headers, size_t n, const char *body,
                    long timeout_s, floe_trino_http_answer_t *out)
{
    struct curl_slist *list = NULL;
    CURLcode rc;
    CURL *h;

    memset(out, 0, sizeof(*out));
    pthread_once(&curl_once, load_curl);
    if (curl.is_loaded < 0) {
        snprintf(out->error, sizeof(out->error), "%s", curl.error);
        return FLOE_EFAIL;
    }
    if ((h = curl.easy_init()) == NULL) {
        snprintf(out->error, sizeof(out->error), "curl_easy_init failed");
        return FLOE_EFAIL;
    }
    for (size_t i = 0; i < n; i++)
        list = curl.slist_append(list, headers[i]);
    curl.easy_setopt(h, CURLOPT_URL, url);
    curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
    curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L); /* a thread of a server: no SIGALRM for timeouts */
    curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl.easy_setopt(h, CURLOPT_WRITEDATA, out);
    if (body != NULL) {
        curl.easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl.easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    rc = curl.easy_perform(h);
    if (rc == CURLE_OK)
        curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out->status);
    else
        snprintf(out->error, sizeof(out->error), "%s: %s", url, curl.easy_strerror(rc));
    curl.easy_cleanup(h);
    curl.slist_free_all(list);
    if (rc != CURLE_OK) {
        floe_trino_http_dispose(out);
        return FLOE_EFAIL;
    }
    if (out->body == NULL)
        out->body = floe_xstrdup("");
    return FLOE_OK;
}

void floe_trino_http_dispose(floe_trino_http_answer_t *a)
{
    free(a->body);
    a->body = NULL;
    a->len = 0;
}
