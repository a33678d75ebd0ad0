/* Tests of runtime/s3/xml_write.c and xml_read.c: escaping on output, safe parsing on input. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "s3/xml.h"

TEST(xml_text_is_escaped)
{
    floe_s3_xml_t x;

    floe_s3_xml_begin(&x, "R");
    floe_s3_xml_elem(&x, "Key", "a<b>&\"c'\x01\r\n\t");
    floe_s3_xml_close(&x, "R");
    CHECK(strstr(x.buf, "<Key>a&lt;b&gt;&amp;&quot;c&apos;&#x1;&#xD;&#xA;&#x9;</Key>") != NULL,
          "markup and control characters are escaped, CR/LF/TAB as references so parsers keep them");
    CHECK(strncmp(x.buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<R xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">",
                  88) == 0,
          "documents start with the declaration and S3's namespace");
    floe_s3_xml_dispose(&x);
}

/* Found by tests/e2e/robustness/72-hostile-input.py: the error about a key that is not UTF-8 echoed the key's
 * bytes into <Key>, and the document was no longer well-formed XML for any client to read. */
TEST(xml_text_replaces_bytes_that_are_not_utf8)
{
    static const char text[] = "ok-\xc3\xbc-\xff\xfe-\xc0\xaf-\xe6\x97\xa5-\xe6\x97";
    floe_s3_xml_t x;
    floe_s3_xml_doc_t *doc;

    floe_s3_xml_begin_plain(&x, "R");
    floe_s3_xml_text(&x, text, sizeof(text) - 1);
    floe_s3_xml_close(&x, "R");
    CHECK(strstr(x.buf, "ok-\xc3\xbc-\xef\xbf\xbd\xef\xbf\xbd-\xef\xbf\xbd\xef\xbf\xbd-\xe6\x97\xa5-\xef\xbf\xbd\xef\xbf\xbd</R>") != NULL,
          "valid UTF-8 is kept and every stray, overlong or cut byte becomes U+FFFD");
    doc = floe_s3_xml_parse(x.buf, x.len);
    CHECK(doc != NULL, "the document is well-formed");
    if (doc != NULL)
        floe_s3_xml_free(doc);
    floe_s3_xml_dispose(&x);
}

TEST(xml_written_keys_parse_back_unchanged)
{
    static const char key[] = "dir/../x & <y> \"q\" \xc3\xbc \r\n\t end";
    floe_s3_xml_t x;
    floe_s3_xml_doc_t *doc;
    h2o_mem_pool_t pool;
    char *back;

    h2o_mem_init_pool(&pool);
    floe_s3_xml_begin_plain(&x, "Delete");
    floe_s3_xml_open(&x, "Object");
    floe_s3_xml_elem(&x, "Key", key);
    floe_s3_xml_close(&x, "Object");
    floe_s3_xml_close(&x, "Delete");
    doc = floe_s3_xml_parse(x.buf, x.len);
    CHECK(doc != NULL, "the writer's output is well-formed");
    if (doc != NULL) {
        back = floe_s3_xml_child_text(&pool, floe_s3_xml_child(floe_s3_xml_root(doc, "Delete"), "Object"), "Key");
        CHECK(back != NULL && strcmp(back, key) == 0, "a key survives writing and parsing byte for byte");
        floe_s3_xml_free(doc);
    }
    floe_s3_xml_dispose(&x);
    h2o_mem_clear_pool(&pool);
}

TEST(xml_reader_refuses_dtds_and_garbage)
{
    static const char xxe[] = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                              "<Delete><Object><Key>&e;</Key></Object></Delete>";
    static const char laughs[] = "<!DOCTYPE d [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><D>&b;</D>";
    static const char undeclared[] = "<Delete><Object><Key>&undeclared;</Key></Object></Delete>";

    CHECK(floe_s3_xml_parse(xxe, sizeof(xxe) - 1) == NULL, "an external entity (XXE) document is refused");
    CHECK(floe_s3_xml_parse(laughs, sizeof(laughs) - 1) == NULL, "an entity-expansion document is refused");
    CHECK(floe_s3_xml_parse(undeclared, sizeof(undeclared) - 1) == NULL, "an undeclared entity is refused");
    CHECK(floe_s3_xml_parse("<a><b></a>", 10) == NULL, "mismatched tags are refused");
    CHECK(floe_s3_xml_parse("", 0) == NULL, "an empty body is refused");
}

TEST(xml_reader_matches_names_in_any_namespace)
{
    static const char doc_text[] = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                                   "<Part><PartNumber>1</PartNumber><ETag>&quot;a&quot;</ETag></Part>"
                                   "<!-- comment --><Part><PartNumber>2</PartNumber><ETag><![CDATA[\"b\"]]></ETag></Part>"
                                   "</CompleteMultipartUpload>";
    h2o_mem_pool_t pool;
    floe_s3_xml_doc_t *doc = floe_s3_xml_parse(doc_text, sizeof(doc_text) - 1);
    floe_s3_xml_node_t *root, *part;

    h2o_mem_init_pool(&pool);
    CHECK(doc != NULL, "a namespaced document parses");
    if (doc == NULL)
        return;
    root = floe_s3_xml_root(doc, "CompleteMultipartUpload");
    CHECK(root != NULL, "the root matches by local name");
    part = floe_s3_xml_child(root, "Part");
    CHECK(strcmp(floe_s3_xml_child_text(&pool, part, "ETag"), "\"a\"") == 0, "predefined entities are decoded");
    part = floe_s3_xml_next(part, "Part");
    CHECK(part != NULL && strcmp(floe_s3_xml_child_text(&pool, part, "ETag"), "\"b\"") == 0,
          "siblings are found past comments; CDATA is text");
    CHECK(floe_s3_xml_next(part, "Part") == NULL, "there are exactly two parts");
    CHECK(floe_s3_xml_child_text(&pool, part, "Missing") == NULL, "a missing child is NULL");
    CHECK(floe_s3_xml_root(doc, "Delete") == NULL, "a different root name does not match");
    floe_s3_xml_free(doc);
    h2o_mem_clear_pool(&pool);
}

/* A document of `depth` nested <a> elements. Returns the length; the caller frees *out. */
static size_t nested(int depth, char **out)
{
    char *b = malloc((size_t)depth * 7 + 1);
    size_t n = 0;

    for (int i = 0; i < depth; i++, n += 3)
        memcpy(b + n, "<a>", 3);
    for (int i = 0; i < depth; i++, n += 4)
        memcpy(b + n, "</a>", 4);
    b[n] = '\0';
    *out = b;
    return n;
}

TEST(xml_reader_bounds_nesting)
{
    char *b;
    size_t n = nested(FLOE_S3_XML_MAX_DEPTH, &b);
    floe_s3_xml_doc_t *doc = floe_s3_xml_parse(b, n);

    CHECK(doc != NULL, "elements nested as deep as the limit are read");
    floe_s3_xml_free(doc);
    free(b);
    n = nested(FLOE_S3_XML_MAX_DEPTH + 1, &b);
    CHECK(floe_s3_xml_parse(b, n) == NULL, "one element deeper is refused");
    free(b);
    n = nested(100000, &b);
    CHECK(floe_s3_xml_parse(b, n) == NULL, "100,000 nested elements are refused without exhausting the stack");
    free(b);
}

TEST(xml_reader_bounds_names)
{
    static const char *const shapes[] = {"<%s/>", "<r %s='1'/>", "<r><?%s d?></r>", "<r xmlns:%s='u'/>",
                                         "<r xmlns:%s='u'><%s:x/></r>"};
    size_t max = FLOE_S3_XML_MAX_NAME_LEN;
    char *name = malloc(max + 2), *doc_text = malloc(2 * max + 64);

    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        for (size_t len = max; len <= max + 1; len++) {
            floe_s3_xml_doc_t *doc;
            memset(name, 'n', len);
            name[len] = '\0';
            snprintf(doc_text, 2 * max + 64, shapes[i], name, name);
            doc = floe_s3_xml_parse(doc_text, strlen(doc_text));
            CHECK((doc != NULL) == (len == max), "a name as long as the limit is read and a longer one refused");
            floe_s3_xml_free(doc);
        }
    }
    free(name);
    free(doc_text);
}

TEST(xml_reader_keeps_only_direct_text)
{
    static const char doc_text[] = "<?xml version=\"1.0\"?><s3:Delete xmlns:s3=\"u\"><s3:Object a=\"1\">"
                                   "<s3:Key>a<b>inner</b>c<!-- x -->d<?pi x?>e&amp;&#x1F600;</s3:Key></s3:Object>"
                                   "</s3:Delete>";
    h2o_mem_pool_t pool;
    floe_s3_xml_doc_t *doc = floe_s3_xml_parse(doc_text, sizeof(doc_text) - 1);
    floe_s3_xml_node_t *key;

    h2o_mem_init_pool(&pool);
    CHECK(doc != NULL, "a prefixed namespace parses");
    if (doc == NULL)
        return;
    key = floe_s3_xml_child(floe_s3_xml_child(floe_s3_xml_root(doc, "Delete"), "Object"), "Key");
    CHECK(key != NULL, "prefixed names match by local name");
    CHECK(key != NULL && strcmp(floe_s3_xml_content(&pool, key), "acde&\xf0\x9f\x98\x80") == 0,
          "an element's text skips its children, comments and instructions, and decodes references");
    CHECK(key != NULL && strcmp(floe_s3_xml_child_text(&pool, key, "b"), "inner") == 0, "a child keeps its own text");
    floe_s3_xml_free(doc);
    h2o_mem_clear_pool(&pool);
}

#define DOC(s) {s, sizeof(s) - 1}

TEST(xml_reader_refuses_what_is_not_xml_1_0)
{
    static const struct {
        const char *text;
        size_t len;
    } refused[] = {
        DOC("<?xml version=\"2.0\"?><r/>"),                  /* not XML 1.x */
        DOC("<?xml version=\"1.0a\"?><r/>"),                 /* not a version number */
        DOC("<?xml version=\"1.0\" encoding=\"bogus\"?><r/>"), /* an encoding nobody knows */
        DOC("<x:r/>"),                                        /* a prefix never declared */
        DOC("<r/><r/>"),                                      /* two roots */
        DOC("<r>&#0;</r>"),                                   /* a character XML forbids */
        DOC("<r/>\x01"),                                      /* junk after the root */
        DOC("<r/>\0"),                                        /* a NUL byte, even after the root */
    };
    static const char v11[] = "<?xml version=\"1.1\"?><r/>";
    floe_s3_xml_doc_t *doc;

    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        CHECK(floe_s3_xml_parse(refused[i].text, refused[i].len) == NULL, "a document that is not XML 1.0 is refused");
    doc = floe_s3_xml_parse(v11, sizeof(v11) - 1);
    CHECK(doc != NULL, "an XML 1.1 declaration is read as 1.0");
    floe_s3_xml_free(doc);
}

TEST(xml_url_encoding_keeps_slashes)
{
    h2o_mem_pool_t pool;
    h2o_mem_init_pool(&pool);
    CHECK(strcmp(floe_s3_url_encode(&pool, "a b/c+d&\xc3\xbc~"), "a%20b/c%2Bd%26%C3%BC~") == 0,
          "encoding-type=url encodes all but unreserved characters and '/'");
    h2o_mem_clear_pool(&pool);
}
