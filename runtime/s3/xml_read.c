/*
 * The XML reader of xml.h, on libxml2. Request bodies are small documents from clients we do not
 * trust: parsing never touches the network (XML_PARSE_NONET), never substitutes entities (no
 * XML_PARSE_NOENT), and a document with a DTD is refused outright, so neither external entities
 * nor entity expansion ("billion laughs") can reach us. Text is read from text and CDATA nodes
 * only. Element names match by local name: clients send S3's namespace or none.
 */
#include <string.h>

#include <libxml/parser.h>

#include "s3/xml.h"

#define PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA)

xmlDocPtr floe_s3_xml_parse(const char *body, size_t len)
{
    xmlDocPtr doc;

    if (body == NULL || len == 0 || len > FLOE_S3_XML_MAX_BODY)
        return NULL;
    if ((doc = xmlReadMemory(body, (int)len, NULL, NULL, PARSE_OPTIONS)) == NULL)
        return NULL;
    if (doc->intSubset != NULL || doc->extSubset != NULL || xmlDocGetRootElement(doc) == NULL) {
        xmlFreeDoc(doc);
        return NULL;
    }
    return doc;
}

static bool is_element(xmlNodePtr node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

xmlNodePtr floe_s3_xml_root(xmlDocPtr doc, const char *name)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    return root != NULL && is_element(root, name) ? root : NULL;
}

xmlNodePtr floe_s3_xml_next(xmlNodePtr node, const char *name)
{
    for (node = node->next; node != NULL; node = node->next) {
        if (is_element(node, name))
            return node;
    }
    return NULL;
}

xmlNodePtr floe_s3_xml_child(xmlNodePtr parent, const char *name)
{
    xmlNodePtr node = parent->children;
    if (node == NULL)
        return NULL;
    return is_element(node, name) ? node : floe_s3_xml_next(node, name);
}

char *floe_s3_xml_content(h2o_mem_pool_t *pool, xmlNodePtr node)
{
    size_t n = 0, o = 0;
    char *out;

    for (xmlNodePtr c = node->children; c != NULL; c = c->next) {
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content != NULL)
            n += strlen((const char *)c->content);
    }
    out = h2o_mem_alloc_pool(pool, n + 1);
    for (xmlNodePtr c = node->children; c != NULL; c = c->next) {
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content != NULL) {
            size_t m = strlen((const char *)c->content);
            memcpy(out + o, c->content, m);
            o += m;
        }
    }
    out[o] = '\0';
    return out;
}

char *floe_s3_xml_child_text(h2o_mem_pool_t *pool, xmlNodePtr parent, const char *name)
{
    xmlNodePtr child = floe_s3_xml_child(parent, name);
    return child != NULL ? floe_s3_xml_content(pool, child) : NULL;
}
