/*
 * The XML reader of xml.h, on expat. Request bodies are small documents from clients we do not
 * trust. A document with a DTD is refused as soon as its <!DOCTYPE starts, before any declaration
 * in it is read, so neither external entities nor entity expansion ("billion laughs") can reach
 * us; without a DTD the only entities are the five predefined ones and any other reference is an
 * error. No external-entity handler is set, so expat never opens a file or the network. Nesting
 * and names are bounded (xml.h). Namespaces are processed (a prefix must be declared) and element
 * names match by local name: clients send S3's namespace or none.
 *
 * The parse builds a small tree in the document's own pool: each element keeps its local name, the
 * text directly inside it and its child elements. Expat hands text over in pieces, interleaved
 * with the children's; each open element gathers its own in a buffer kept per depth and copied
 * into the pool when the element closes, so a body is read in time linear in its size.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "base/xalloc.h"
#include "s3/xml.h"

/* Separates the namespace URI, the local name and the prefix in the names expat reports: a byte no
 * XML 1.0 document can contain, not even as a character reference. */
#define NS_SEP '\x01'
#define NS_SEP_STR "\x01"

struct floe_s3_xml_doc {
    h2o_mem_pool_t pool;
    floe_s3_xml_node_t *root;
};

typedef struct text_buf {
    char *buf; /* malloc'ed; freed when the parse ends */
    size_t len;
    size_t cap;
} text_buf_t;

/* What the expat callbacks share during one parse. */
typedef struct reader {
    XML_Parser parser;
    floe_s3_xml_doc_t *doc;
    int depth;                                       /* elements open now */
    floe_s3_xml_node_t *open[FLOE_S3_XML_MAX_DEPTH]; /* the open elements, outermost first */
    floe_s3_xml_node_t *last[FLOE_S3_XML_MAX_DEPTH]; /* each open element's last child so far */
    text_buf_t text[FLOE_S3_XML_MAX_DEPTH];          /* each open element's own text so far */
    bool is_refused;
} reader_t;

/* Stops the parse; expat may still call a handler or two, which then do nothing. */
static void refuse(reader_t *r)
{
    r->is_refused = true;
    XML_StopParser(r->parser, XML_FALSE);
}

/* A name as expat reports it: "local", "uri<SEP>local" or "uri<SEP>local<SEP>prefix". Sets *len. */
static const char *local_name(const XML_Char *name, size_t *len)
{
    const char *sep = strchr(name, NS_SEP);
    if (sep != NULL)
        name = sep + 1;
    *len = strcspn(name, NS_SEP_STR);
    return name;
}

static bool name_is_too_long(const XML_Char *name)
{
    size_t len;
    const char *local = local_name(name, &len);
    const char *prefix = local[len] == NS_SEP ? local + len + 1 : "";
    return len > FLOE_S3_XML_MAX_NAME_LEN || strlen(prefix) > FLOE_S3_XML_MAX_NAME_LEN;
}

/* atts: name, value, name, value, ..., NULL */
static bool any_name_is_too_long(const XML_Char **atts)
{
    for (; *atts != NULL; atts += 2) {
        if (name_is_too_long(atts[0]))
            return true;
    }
    return false;
}

static char *pool_copy(h2o_mem_pool_t *pool, const char *s, size_t len)
{
    char *out = h2o_mem_alloc_pool(pool, len + 1);
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

static void on_start(void *arg, const XML_Char *name, const XML_Char **atts)
{
    reader_t *r = arg;
    floe_s3_xml_node_t *node;
    size_t len;
    const char *local;

    if (r->is_refused)
        return;
    if (r->depth == FLOE_S3_XML_MAX_DEPTH || name_is_too_long(name) || any_name_is_too_long(atts)) {
        refuse(r);
        return;
    }
    local = local_name(name, &len);
    node = h2o_mem_alloc_pool(&r->doc->pool, sizeof(*node));
    *node = (floe_s3_xml_node_t){.name = pool_copy(&r->doc->pool, local, len), .text = ""};
    if (r->depth == 0) {
        assert(r->doc->root == NULL); /* expat refuses a second root element */
        r->doc->root = node;
    } else {
        floe_s3_xml_node_t **link = r->last[r->depth - 1] != NULL ? &r->last[r->depth - 1]->next
                                                                   : &r->open[r->depth - 1]->children;
        *link = r->last[r->depth - 1] = node;
    }
    r->open[r->depth] = node;
    r->last[r->depth] = NULL;
    r->text[r->depth].len = 0;
    r->depth++;
}

static void on_end(void *arg, const XML_Char *name)
{
    reader_t *r = arg;
    text_buf_t *t;

    if (r->is_refused)
        return;
    assert(r->depth > 0);
    t = &r->text[--r->depth];
    if (t->len > 0) {
        r->open[r->depth]->text = pool_copy(&r->doc->pool, t->buf, t->len);
        r->open[r->depth]->text_len = t->len;
    }
}

/* Text and CDATA, entity and character references already decoded; only inside an element. */
static void on_text(void *arg, const XML_Char *s, int len)
{
    reader_t *r = arg;
    text_buf_t *t;

    if (r->is_refused)
        return;
    assert(r->depth > 0 && len >= 0);
    t = &r->text[r->depth - 1];
    if (t->len + (size_t)len > t->cap) {
        t->cap = t->len + (size_t)len > 2 * t->cap ? t->len + (size_t)len : 2 * t->cap;
        t->buf = floe_xrealloc(t->buf, t->cap);
    }
    memcpy(t->buf + t->len, s, (size_t)len);
    t->len += (size_t)len;
}

static void on_doctype(void *arg, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid, int has_subset)
{
    refuse(arg);
}

static void on_namespace(void *arg, const XML_Char *prefix, const XML_Char *uri)
{
    if (prefix != NULL && strlen(prefix) > FLOE_S3_XML_MAX_NAME_LEN)
        refuse(arg);
}

static void on_instruction(void *arg, const XML_Char *target, const XML_Char *data)
{
    if (strlen(target) > FLOE_S3_XML_MAX_NAME_LEN)
        refuse(arg);
}

/* Only XML 1.x is read: the version must be "1." and digits (expat itself takes any text). */
static void on_declaration(void *arg, const XML_Char *version, const XML_Char *encoding, int standalone)
{
    if (version != NULL && (strncmp(version, "1.", 2) != 0 || version[2 + strspn(version + 2, "0123456789")] != '\0'))
        refuse(arg);
}

static XML_Parser create_parser(reader_t *r)
{
    XML_Parser p = XML_ParserCreateNS(NULL, NS_SEP);

    if (p == NULL)
        abort(); /* out of memory: abort, as floe_xmalloc does */
    XML_SetReturnNSTriplet(p, XML_TRUE);
    XML_SetUserData(p, r);
    XML_SetElementHandler(p, on_start, on_end);
    XML_SetCharacterDataHandler(p, on_text);
    XML_SetXmlDeclHandler(p, on_declaration);
    XML_SetStartDoctypeDeclHandler(p, on_doctype);
    XML_SetStartNamespaceDeclHandler(p, on_namespace);
    XML_SetProcessingInstructionHandler(p, on_instruction);
    return p;
}

floe_s3_xml_doc_t *floe_s3_xml_parse(const char *body, size_t len)
{
    floe_s3_xml_doc_t *doc;
    reader_t *r;
    bool is_ok;

    if (body == NULL || len == 0 || len > FLOE_S3_XML_MAX_BODY)
        return NULL;
    doc = floe_xcalloc(1, sizeof(*doc));
    h2o_mem_init_pool(&doc->pool);
    r = floe_xcalloc(1, sizeof(*r));
    r->doc = doc;
    r->parser = create_parser(r);
    is_ok = XML_Parse(r->parser, body, (int)len, XML_TRUE) == XML_STATUS_OK && !r->is_refused && doc->root != NULL;
    XML_ParserFree(r->parser);
    for (int i = 0; i < FLOE_S3_XML_MAX_DEPTH; i++)
        free(r->text[i].buf);
    free(r);
    if (!is_ok) {
        floe_s3_xml_free(doc);
        return NULL;
    }
    return doc;
}

void floe_s3_xml_free(floe_s3_xml_doc_t *doc)
{
    if (doc == NULL)
        return;
    h2o_mem_clear_pool(&doc->pool);
    free(doc);
}

floe_s3_xml_node_t *floe_s3_xml_root(floe_s3_xml_doc_t *doc, const char *name)
{
    return strcmp(doc->root->name, name) == 0 ? doc->root : NULL;
}

floe_s3_xml_node_t *floe_s3_xml_next(floe_s3_xml_node_t *node, const char *name)
{
    for (node = node->next; node != NULL; node = node->next) {
        if (strcmp(node->name, name) == 0)
            return node;
    }
    return NULL;
}

floe_s3_xml_node_t *floe_s3_xml_child(floe_s3_xml_node_t *parent, const char *name)
{
    floe_s3_xml_node_t *node = parent->children;
    if (node == NULL)
        return NULL;
    return strcmp(node->name, name) == 0 ? node : floe_s3_xml_next(node, name);
}

char *floe_s3_xml_content(h2o_mem_pool_t *pool, floe_s3_xml_node_t *node)
{
    return pool_copy(pool, node->text, node->text_len);
}

char *floe_s3_xml_child_text(h2o_mem_pool_t *pool, floe_s3_xml_node_t *parent, const char *name)
{
    floe_s3_xml_node_t *child = floe_s3_xml_child(parent, name);
    return child != NULL ? floe_s3_xml_content(pool, child) : NULL;
}
