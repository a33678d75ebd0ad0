/*
 * A small XML writer for response documents, shared by the protocols that answer in XML: S3
 * (s3/xml.h builds its documents on it) and AWS's query protocol (query/, with the generated
 * serializers). Every text is escaped, so keys with '<', '&', quotes or control characters come
 * out well-formed and round-trip. Not for reading XML (s3/xml_read.c), nor for any document's
 * content or schema.
 */
#ifndef FLOE_HTTP_XML_WRITER_H
#define FLOE_HTTP_XML_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct floe_xml {
    char *buf; /* malloc'ed, NUL-terminated; released by floe_xml_dispose */
    size_t len;
    size_t cap;
} floe_xml_t;

/** Starts a document with the XML declaration. */
void floe_xml_begin(floe_xml_t *x);
/** Releases the buffer. */
void floe_xml_dispose(floe_xml_t *x);

/** Appends n bytes as they are (markup the caller has already made safe). */
void floe_xml_raw(floe_xml_t *x, const char *s, size_t n);
/** <name xmlns="namespace"> */
void floe_xml_open_ns(floe_xml_t *x, const char *name, const char *xmlns);
void floe_xml_open(floe_xml_t *x, const char *name);
void floe_xml_close(floe_xml_t *x, const char *name);
/** Appends n bytes of text, escaped; bytes that are not valid UTF-8 become U+FFFD. */
void floe_xml_text(floe_xml_t *x, const char *s, size_t n);
/** <name>text</name>, text escaped; NULL text writes nothing at all. */
void floe_xml_elem(floe_xml_t *x, const char *name, const char *text);
void floe_xml_elem_int(floe_xml_t *x, const char *name, int64_t v);
void floe_xml_elem_bool(floe_xml_t *x, const char *name, bool v);
/** The shortest decimal that reads back as the same double ("0.5", "1e+300"). */
void floe_xml_elem_double(floe_xml_t *x, const char *name, double v);
/** <name>2024-01-02T03:04:05.678Z</name>: ISO 8601, UTC, with milliseconds (ms since the epoch). */
void floe_xml_elem_time(floe_xml_t *x, const char *name, int64_t ms);

#endif
