/*
 * S3's XML: a writer for response documents on the shared writer of xml_writer.h (every text
 * escaped, so keys with '<', '&', quotes or control characters come out well-formed and
 * round-trip) and a reader for request bodies on top of expat (no DTDs, so no entities but the
 * five predefined ones, and bounded nesting). Not for the error documents' content (error.c
 * decides that) nor for any operation's schema.
 */
#ifndef FLOE_S3_XML_H
#define FLOE_S3_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>

#include "http/xml_writer.h"

/* ---- writer (xml_write.c) ---- */

/** S3's documents are written with the shared writer (xml_writer.h). */
typedef floe_xml_t floe_s3_xml_t;

/** Starts a document: the XML declaration and <root xmlns="S3's namespace">. */
void floe_s3_xml_begin(floe_s3_xml_t *x, const char *root);
/** Starts a document whose root has no namespace (S3's <Error>). */
void floe_s3_xml_begin_plain(floe_s3_xml_t *x, const char *root);
/** Releases the buffer. */
void floe_s3_xml_dispose(floe_s3_xml_t *x);

void floe_s3_xml_open(floe_s3_xml_t *x, const char *name);
void floe_s3_xml_close(floe_s3_xml_t *x, const char *name);
/** Appends n bytes of text, escaped. */
void floe_s3_xml_text(floe_s3_xml_t *x, const char *s, size_t n);
/** <name>text</name>, text escaped; NULL text writes nothing at all. */
void floe_s3_xml_elem(floe_s3_xml_t *x, const char *name, const char *text);
void floe_s3_xml_elem_int(floe_s3_xml_t *x, const char *name, int64_t v);
void floe_s3_xml_elem_bool(floe_s3_xml_t *x, const char *name, bool v);
/** <name>2024-01-02T03:04:05.000Z</name>: S3 lists times with whole seconds. */
void floe_s3_xml_elem_time(floe_s3_xml_t *x, const char *name, int64_t ms);
/** <name>"etag"</name>: the ETag with its quotes, as S3 writes it. */
void floe_s3_xml_elem_etag(floe_s3_xml_t *x, const char *name, const char *etag);

/** The canonical user id and display name Floe answers as the owner of everything. */
#define FLOE_S3_OWNER_ID "75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a"
#define FLOE_S3_OWNER_NAME "floe"
/** <element><ID>...</ID><DisplayName>...</DisplayName></element> ("Owner", "Initiator"). */
void floe_s3_xml_owner(floe_s3_xml_t *x, const char *element);

/** Formats ms since the epoch as ISO 8601 with whole seconds ("....000Z") into buf (>= 32). */
void floe_s3_iso8601(int64_t ms, char *buf, size_t size);

/** S3's encoding-type=url: percent-encodes all but unreserved characters and '/'. Copy in pool. */
char *floe_s3_url_encode(h2o_mem_pool_t *pool, const char *s);

/* ---- reader (xml_read.c) ---- */

/** The most XML a request body may hold (CompleteMultipartUpload with 10,000 parts fits). */
#define FLOE_S3_XML_MAX_BODY ((size_t)8 << 20)
/** The deepest nesting of elements and the longest name (of an element, attribute, namespace prefix
 * or processing instruction) a body may have. S3's bodies need depth 3 and short names; these are
 * the defaults of libxml2 (xmlParserMaxDepth, XML_MAX_NAME_LENGTH), Floe's reader before expat, kept
 * so that the same hostile bodies are refused. */
#define FLOE_S3_XML_MAX_DEPTH 257
#define FLOE_S3_XML_MAX_NAME_LEN 50000

/** One element of a parsed body. Attributes, comments and processing instructions are dropped. */
typedef struct floe_s3_xml_node {
    const char *name;                  /* local name: any namespace is dropped */
    const char *text;                  /* the text and CDATA directly inside, in order, decoded */
    size_t text_len;                   /* bytes in text, not counting its NUL */
    struct floe_s3_xml_node *children; /* the first child element, or NULL */
    struct floe_s3_xml_node *next;     /* the next sibling element, or NULL */
} floe_s3_xml_node_t;

/** A parsed body; every node and string in it lives until floe_s3_xml_free. */
typedef struct floe_s3_xml_doc floe_s3_xml_doc_t;

/**
 * Parses a request body: NULL if it is empty, larger than FLOE_S3_XML_MAX_BODY, not well-formed
 * XML 1.x (namespaces included) in UTF-8, UTF-16, ISO-8859-1 or US-ASCII, has a DTD, nests elements
 * deeper than FLOE_S3_XML_MAX_DEPTH or has a name longer than FLOE_S3_XML_MAX_NAME_LEN. The caller
 * frees the result with floe_s3_xml_free.
 */
floe_s3_xml_doc_t *floe_s3_xml_parse(const char *body, size_t len);
/** Releases a parsed body and every node and string in it; NULL is accepted. */
void floe_s3_xml_free(floe_s3_xml_doc_t *doc);
/** The root element if it is named `name` (any namespace), else NULL. */
floe_s3_xml_node_t *floe_s3_xml_root(floe_s3_xml_doc_t *doc, const char *name);
/** The first child element named `name`, or NULL. */
floe_s3_xml_node_t *floe_s3_xml_child(floe_s3_xml_node_t *parent, const char *name);
/** The next sibling element named `name` after `node`, or NULL. */
floe_s3_xml_node_t *floe_s3_xml_next(floe_s3_xml_node_t *node, const char *name);
/** The element's text (text and CDATA directly inside it, not its children's), copied into pool. */
char *floe_s3_xml_content(h2o_mem_pool_t *pool, floe_s3_xml_node_t *node);
/** The text of child `name` in pool, or NULL when there is no such child. */
char *floe_s3_xml_child_text(h2o_mem_pool_t *pool, floe_s3_xml_node_t *parent, const char *name);

#endif
