/*
 * S3's XML: a writer for response documents on the shared writer of xml_writer.h (every text
 * escaped, so keys with '<', '&', quotes or control characters come out well-formed and
 * round-trip) and a reader for request bodies on top of libxml2 (no network, no entity
 * substitution, no DTDs). Not for the error documents' content (error.c decides that) nor for any
 * operation's schema.
 */
#ifndef FLOE_S3_XML_H
#define FLOE_S3_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>
#include <libxml/tree.h>

#include "xml_writer.h"

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

/** Parses a request body; NULL if it is not well-formed XML, has a DTD or is too large. Free with xmlFreeDoc. */
xmlDocPtr floe_s3_xml_parse(const char *body, size_t len);
/** The root element if it is named `name` (any namespace), else NULL. */
xmlNodePtr floe_s3_xml_root(xmlDocPtr doc, const char *name);
/** The first child element named `name`, or NULL. */
xmlNodePtr floe_s3_xml_child(xmlNodePtr parent, const char *name);
/** The next sibling element named `name` after `node`, or NULL. */
xmlNodePtr floe_s3_xml_next(xmlNodePtr node, const char *name);
/** The element's text (text and CDATA children only, never entity expansions), copied into pool. */
char *floe_s3_xml_content(h2o_mem_pool_t *pool, xmlNodePtr node);
/** The text of child `name` in pool, or NULL when there is no such child. */
char *floe_s3_xml_child_text(h2o_mem_pool_t *pool, xmlNodePtr parent, const char *name);

#endif
