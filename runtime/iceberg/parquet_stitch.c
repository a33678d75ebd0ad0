/*
 * Column chunk ranges, stitching compatibility and stitched footers (parquet_stitch.h), and the
 * two page-level Thrift structures that carry sizes or offsets: the OffsetIndex, rewritten as a
 * stream (fields copied as read, page offsets moved), and the BloomFilterHeader, read for its size.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_stitch.h"
#include "iceberg/parquet_thrift.h"

/* ColumnMetaData fields that describe a chunk's values and survive stitching. */
#define SIZE_STATISTICS_FIELD 16
#define GEOSPATIAL_STATISTICS_FIELD 17

/* ---- ranges ------------------------------------------------------------------------------ */

/* The chunk's first byte and length, unchecked against the file. */
static floe_parquet_range_t raw_chunk_range(const floe_parquet_column_chunk_t *c)
{
    const floe_parquet_column_meta_data_t *m = &c->meta_data;
    uint64_t start = (uint64_t)m->data_page_offset;

    /* Some writers set dictionary_page_offset to 0 when there is no dictionary. */
    if (m->has_dictionary_page_offset && m->dictionary_page_offset >= FLOE_PARQUET_MAGIC_LEN &&
        (uint64_t)m->dictionary_page_offset < start)
        start = (uint64_t)m->dictionary_page_offset;
    return (floe_parquet_range_t){start, (uint64_t)m->total_compressed_size};
}

/* The first data page starts within the chunk (at its end only when the chunk is empty). */
static bool data_page_is_inside(const floe_parquet_column_chunk_t *c, floe_parquet_range_t r)
{
    return (uint64_t)c->meta_data.data_page_offset - r.offset <= r.length;
}

int floe_parquet_chunk_range(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint32_t column,
                             uint64_t data_end, floe_parquet_range_t *out, floe_iceberg_error_t *err)
{
    const floe_parquet_column_chunk_t *c;
    floe_parquet_range_t r = {0};

    if (row_group >= md->n_row_groups || column >= md->row_groups[row_group].n_columns)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet file has no column chunk %u in row group %u.",
                                 column, row_group);
    c = &md->row_groups[row_group].columns[column];
    if (c->has_file_path)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Column chunk %u of row group %u lives in another file, which Floe does not support.",
                                 column, row_group);
    r = raw_chunk_range(c);
    if (r.offset < FLOE_PARQUET_MAGIC_LEN || r.offset > data_end || r.length > data_end - r.offset)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Column chunk %u of row group %u (%llu bytes at %llu) lies outside the file's data.",
                                 column, row_group, (unsigned long long)r.length, (unsigned long long)r.offset);
    if (!data_page_is_inside(c, r))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "The first data page of column chunk %u of row group %u lies outside the chunk.",
                                 column, row_group);
    *out = r;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_row_group_range(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint64_t data_end,
                                 floe_parquet_range_t *out, bool *is_contiguous, floe_iceberg_error_t *err)
{
    uint64_t start = UINT64_MAX, end = 0, total = 0;
    floe_parquet_range_t r = {0};

    if (row_group >= md->n_row_groups)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet file has no row group %u.", row_group);
    for (uint32_t i = 0; i < md->row_groups[row_group].n_columns; i++) {
        if (floe_parquet_chunk_range(md, row_group, i, data_end, &r, err) != 0)
            return FLOE_ICEBERG_EINVALID;
        start = r.offset < start ? r.offset : start;
        end = r.offset + r.length > end ? r.offset + r.length : end;
        total += r.length;
    }
    if (start == UINT64_MAX)
        start = end = FLOE_PARQUET_MAGIC_LEN;
    /* Chunks within [start, end) whose lengths add up to more than the span overlap. */
    if (total > end - start)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunks of row group %u overlap.", row_group);
    *out = (floe_parquet_range_t){start, end - start};
    *is_contiguous = total == end - start;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_row_group_moves(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint64_t data_end,
                                 uint64_t new_offset, floe_parquet_chunk_move_t *moves, floe_iceberg_error_t *err)
{
    floe_parquet_range_t span, r = {0};
    bool is_contiguous;

    if (floe_parquet_row_group_range(md, row_group, data_end, &span, &is_contiguous, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (new_offset > INT64_MAX || span.length > INT64_MAX - new_offset)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The row group would end past 2^63 bytes.");
    for (uint32_t i = 0; i < md->row_groups[row_group].n_columns; i++) {
        floe_parquet_chunk_range(md, row_group, i, data_end, &r, err);
        memset(&moves[i], 0, sizeof(moves[i]));
        moves[i].offset = new_offset + (r.offset - span.offset);
    }
    return FLOE_ICEBERG_OK;
}

/* ---- compatibility ----------------------------------------------------------------------- */

static bool bytes_equal(floe_parquet_bytes_t a, floe_parquet_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

static bool extras_equal(const floe_parquet_extra_t *a, const floe_parquet_extra_t *b)
{
    if (a->n_fields != b->n_fields)
        return false;
    for (uint32_t i = 0; i < a->n_fields; i++) {
        if (a->fields[i].id != b->fields[i].id || a->fields[i].type != b->fields[i].type ||
            !bytes_equal(a->fields[i].value, b->fields[i].value))
            return false;
    }
    return true;
}

/* Logical types compare by what they mean, so an i8 sent as an i32 does not matter. */
static bool logical_types_equal(const floe_parquet_logical_type_t *a, const floe_parquet_logical_type_t *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case FLOE_PARQUET_LOGICAL_DECIMAL:
        return a->scale == b->scale && a->precision == b->precision;
    case FLOE_PARQUET_LOGICAL_TIME:
    case FLOE_PARQUET_LOGICAL_TIMESTAMP:
        return a->is_adjusted_to_utc == b->is_adjusted_to_utc && a->unit == b->unit && a->unit != 0;
    case FLOE_PARQUET_LOGICAL_INTEGER:
        return a->bit_width == b->bit_width && a->is_signed == b->is_signed;
    case FLOE_PARQUET_LOGICAL_STRING:
    case FLOE_PARQUET_LOGICAL_MAP:
    case FLOE_PARQUET_LOGICAL_LIST:
    case FLOE_PARQUET_LOGICAL_ENUM:
    case FLOE_PARQUET_LOGICAL_DATE:
    case FLOE_PARQUET_LOGICAL_UNKNOWN:
    case FLOE_PARQUET_LOGICAL_JSON:
    case FLOE_PARQUET_LOGICAL_BSON:
    case FLOE_PARQUET_LOGICAL_UUID:
    case FLOE_PARQUET_LOGICAL_FLOAT16:
        return true;
    default:
        return bytes_equal(a->encoded, b->encoded);
    }
}

#define SAME_OPTIONAL(a, b, has, field) ((a)->has == (b)->has && (!(a)->has || (a)->field == (b)->field))

static bool elements_equal(const floe_parquet_schema_element_t *a, const floe_parquet_schema_element_t *b)
{
    return SAME_OPTIONAL(a, b, has_type, type) && SAME_OPTIONAL(a, b, has_type_length, type_length) &&
           SAME_OPTIONAL(a, b, has_repetition_type, repetition_type) && bytes_equal(a->name, b->name) &&
           SAME_OPTIONAL(a, b, has_num_children, num_children) &&
           SAME_OPTIONAL(a, b, has_converted_type, converted_type) && SAME_OPTIONAL(a, b, has_scale, scale) &&
           SAME_OPTIONAL(a, b, has_precision, precision) && SAME_OPTIONAL(a, b, has_field_id, field_id) &&
           a->has_logical_type == b->has_logical_type &&
           (!a->has_logical_type || logical_types_equal(&a->logical_type, &b->logical_type)) &&
           extras_equal(&a->extra, &b->extra);
}

static int compare_schemas(const floe_parquet_file_metadata_t *a, const floe_parquet_file_metadata_t *b,
                           floe_iceberg_error_t *err)
{
    if (a->n_schema != b->n_schema)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet schemas differ: %u elements against %u.",
                                 a->n_schema, b->n_schema);
    for (uint32_t i = 0; i < a->n_schema; i++) {
        if (!elements_equal(&a->schema[i], &b->schema[i]))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet schemas differ at element %u (%s).", i,
                                     (const char *)a->schema[i].name.data);
    }
    if (a->has_column_orders != b->has_column_orders)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "One Parquet file has column orders, the other not.");
    for (uint32_t i = 0; a->has_column_orders && i < a->n_column_orders; i++) {
        if (a->column_orders[i].kind != b->column_orders[i].kind ||
            !bytes_equal(a->column_orders[i].encoded, b->column_orders[i].encoded))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet column orders differ at column %u.", i);
    }
    return FLOE_ICEBERG_OK;
}

/* Every chunk of leaf i in md has `codec`. */
static bool has_one_codec(const floe_parquet_file_metadata_t *md, uint32_t i, int32_t codec)
{
    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        if (md->row_groups[r].columns[i].meta_data.codec != codec)
            return false;
    }
    return true;
}

static int compare_codecs(const floe_parquet_file_metadata_t *a, const floe_parquet_file_metadata_t *b,
                          floe_iceberg_error_t *err)
{
    for (uint32_t i = 0; i < a->n_leaves; i++) {
        const floe_parquet_file_metadata_t *first = a->n_row_groups > 0 ? a : b;
        int32_t codec;
        if (first->n_row_groups == 0)
            break;
        codec = first->row_groups[0].columns[i].meta_data.codec;
        if (!has_one_codec(a, i, codec) || !has_one_codec(b, i, codec))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "The Parquet files compress column %s with different codecs (one is %s).",
                                     (const char *)floe_parquet_leaf_element(a, i)->name.data,
                                     floe_parquet_codec_name(codec));
    }
    return FLOE_ICEBERG_OK;
}

int floe_parquet_compatible(const floe_parquet_file_metadata_t *a, const floe_parquet_file_metadata_t *b,
                            floe_iceberg_error_t *err)
{
    if (a->schema != b->schema && compare_schemas(a, b, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    return compare_codecs(a, b, err);
}

/* ---- stitched footers -------------------------------------------------------------------- */

void floe_parquet_stitch_begin(const floe_parquet_file_metadata_t *first, floe_parquet_file_metadata_t *out)
{
    memset(out, 0, sizeof(*out));
    out->arena = floe_parquet_arena_new(SIZE_MAX);
    out->version = first->version;
    out->schema = first->schema;
    out->n_schema = first->n_schema;
    out->has_key_value_metadata = first->has_key_value_metadata;
    out->key_value_metadata = first->key_value_metadata;
    out->n_key_value_metadata = first->n_key_value_metadata;
    out->has_created_by = first->has_created_by;
    out->created_by = first->created_by;
    out->has_column_orders = first->has_column_orders;
    out->column_orders = first->column_orders;
    out->n_column_orders = first->n_column_orders;
    out->leaves = first->leaves;
    out->n_leaves = first->n_leaves;
    out->parents = first->parents;
}

/* The arena has no limit: it only fails on overflow, which no footer reaches. */
static void *must_alloc(floe_parquet_arena_t *arena, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(arena, n, size);

    if (p == NULL)
        abort();
    return p;
}

/* Keeps only the unknown ColumnMetaData fields that describe values (invariant 2). */
static floe_parquet_extra_t value_extras(floe_parquet_arena_t *arena, const floe_parquet_extra_t *extra)
{
    floe_parquet_extra_t kept = {0};

    for (uint32_t i = 0; i < extra->n_fields; i++) {
        int16_t id = extra->fields[i].id;
        if (id != SIZE_STATISTICS_FIELD && id != GEOSPATIAL_STATISTICS_FIELD)
            continue;
        if (kept.fields == NULL)
            kept.fields = must_alloc(arena, extra->n_fields, sizeof(*kept.fields));
        kept.fields[kept.n_fields++] = extra->fields[i];
    }
    return kept;
}

/* An offset that lies within the old range moves with it; *keep says whether it did. */
static int64_t moved(int64_t offset, floe_parquet_range_t old, uint64_t new_offset, bool end_inclusive, bool *keep)
{
    uint64_t o = (uint64_t)offset;

    *keep = o >= old.offset && (o < old.offset + old.length || (end_inclusive && o == old.offset + old.length));
    return *keep ? (int64_t)(new_offset + (o - old.offset)) : 0;
}

static int check_move(const floe_parquet_column_chunk_t *c, const floe_parquet_chunk_move_t *mv, uint32_t i,
                      floe_iceberg_error_t *err)
{
    floe_parquet_range_t r = raw_chunk_range(c);

    if (mv->offset > INT64_MAX || r.length > INT64_MAX - mv->offset || mv->column_index_offset > INT64_MAX ||
        mv->offset_index_offset > INT64_MAX || mv->offset_index_length > INT32_MAX ||
        mv->bloom_filter_offset > INT64_MAX)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Column chunk %u would move past 2^63 bytes.", i);
    if (!data_page_is_inside(c, r))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The first data page of column chunk %u lies outside it.",
                                 i);
    if ((mv->has_column_index && !(c->has_column_index_offset && c->has_column_index_length)) ||
        (mv->has_offset_index && !c->has_offset_index_offset) ||
        (mv->has_bloom_filter && !c->meta_data.has_bloom_filter_offset))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Column chunk %u has no page index or bloom filter to move.", i);
    return FLOE_ICEBERG_OK;
}

/* Moves the page indexes and the bloom filter where mv says, or drops them. */
static void move_indexes(floe_parquet_column_chunk_t *c, const floe_parquet_chunk_move_t *mv)
{
    floe_parquet_column_meta_data_t *m = &c->meta_data;

    c->has_column_index_offset = c->has_column_index_length = mv->has_column_index;
    c->column_index_offset = mv->has_column_index ? (int64_t)mv->column_index_offset : 0;
    if (!mv->has_column_index)
        c->column_index_length = 0;
    c->has_offset_index_offset = c->has_offset_index_length = mv->has_offset_index;
    c->offset_index_offset = mv->has_offset_index ? (int64_t)mv->offset_index_offset : 0;
    c->offset_index_length = mv->has_offset_index ? (int32_t)mv->offset_index_length : 0;
    m->has_bloom_filter_offset = mv->has_bloom_filter;
    m->bloom_filter_offset = mv->has_bloom_filter ? (int64_t)mv->bloom_filter_offset : 0;
    if (!mv->has_bloom_filter) {
        m->has_bloom_filter_length = false;
        m->bloom_filter_length = 0;
    }
}

/* Copies chunk `src` into *c with every offset moved (invariant 1). */
static void move_chunk(floe_parquet_arena_t *arena, floe_parquet_column_chunk_t *c,
                       const floe_parquet_column_chunk_t *src, const floe_parquet_chunk_move_t *mv)
{
    floe_parquet_range_t old = raw_chunk_range(src);
    floe_parquet_column_meta_data_t *m = &c->meta_data;
    bool keep;

    *c = *src;
    c->extra = (floe_parquet_extra_t){0};
    m->extra = value_extras(arena, &src->meta_data.extra);
    /* The chunk starts at or before its first data page, which may sit at its very end when it is empty. */
    m->data_page_offset = (int64_t)(mv->offset + ((uint64_t)m->data_page_offset - old.offset));
    if (m->has_dictionary_page_offset) {
        m->dictionary_page_offset = moved(m->dictionary_page_offset, old, mv->offset, false, &keep);
        m->has_dictionary_page_offset = keep;
    }
    if (m->has_index_page_offset) {
        m->index_page_offset = moved(m->index_page_offset, old, mv->offset, false, &keep);
        m->has_index_page_offset = keep;
    }
    c->file_offset = moved(c->file_offset, old, mv->offset, true, &keep);
    move_indexes(c, mv);
}

/* Room for one more row group: the array doubles when its count reaches a power of two. */
static void grow_row_groups(floe_parquet_file_metadata_t *out)
{
    uint32_t n = out->n_row_groups;
    floe_parquet_row_group_t *bigger;

    if (n != 0 && (n & (n - 1)) != 0)
        return;
    bigger = must_alloc(out->arena, n == 0 ? 1 : (size_t)n * 2, sizeof(*bigger));
    if (n != 0)
        memcpy(bigger, out->row_groups, n * sizeof(*bigger));
    out->row_groups = bigger;
}

static int check_append(const floe_parquet_file_metadata_t *out, const floe_parquet_file_metadata_t *src,
                        uint32_t row_group, const floe_parquet_chunk_move_t *moves, floe_iceberg_error_t *err)
{
    const floe_parquet_row_group_t *rg;

    if (row_group >= src->n_row_groups)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet file has no row group %u.", row_group);
    if (floe_parquet_compatible(out, src, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    rg = &src->row_groups[row_group];
    if (rg->num_rows > INT64_MAX - out->num_rows || out->n_row_groups == UINT32_MAX)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The stitched file would hold too many rows.");
    for (uint32_t i = 0; i < rg->n_columns; i++) {
        if (rg->columns[i].has_file_path)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Column chunk %u lives in another file.", i);
        if (check_move(&rg->columns[i], &moves[i], i, err) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
    return FLOE_ICEBERG_OK;
}

int floe_parquet_stitch_append(floe_parquet_file_metadata_t *out, const floe_parquet_file_metadata_t *src,
                               uint32_t row_group, const floe_parquet_chunk_move_t *moves, floe_iceberg_error_t *err)
{
    const floe_parquet_row_group_t *from;
    floe_parquet_row_group_t *rg;
    uint64_t first = UINT64_MAX;

    if (check_append(out, src, row_group, moves, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    from = &src->row_groups[row_group];
    grow_row_groups(out);
    rg = &out->row_groups[out->n_row_groups];
    *rg = *from;
    rg->extra = (floe_parquet_extra_t){0};
    rg->columns = must_alloc(out->arena, from->n_columns, sizeof(*rg->columns));
    for (uint32_t i = 0; i < from->n_columns; i++) {
        move_chunk(out->arena, &rg->columns[i], &from->columns[i], &moves[i]);
        first = moves[i].offset < first ? moves[i].offset : first;
    }
    if (rg->has_file_offset)
        rg->file_offset = first != UINT64_MAX ? (int64_t)first : 0;
    rg->has_ordinal = rg->has_ordinal && out->n_row_groups <= INT16_MAX;
    rg->ordinal = rg->has_ordinal ? (int16_t)out->n_row_groups : 0;
    out->num_rows += rg->num_rows;
    out->n_row_groups++;
    return FLOE_ICEBERG_OK;
}

/* ---- OffsetIndex ------------------------------------------------------------------------- */

typedef struct rewrite {
    floe_parquet_thrift_reader_t r;
    floe_parquet_thrift_writer_t w;
    floe_parquet_range_t old;
    uint64_t new_offset;
} rewrite_t;

/* Copies the value of a field (already read) as read: its header is rewritten, its bytes kept. */
static int copy_field(rewrite_t *rw, int16_t id, uint8_t type)
{
    const uint8_t *start = rw->r.p;

    if (floe_parquet_thrift_skip(&rw->r, type) != 0)
        return FLOE_ICEBERG_EINVALID;
    floe_parquet_thrift_write_field(&rw->w, id, type);
    floe_parquet_thrift_write_bytes(&rw->w, start, (size_t)(rw->r.p - start));
    return FLOE_ICEBERG_OK;
}

static int check_page(rewrite_t *rw, bool has_offset, int64_t offset, bool has_size, int32_t size)
{
    uint64_t end = rw->old.offset + rw->old.length;

    if (!has_offset || !has_size)
        return floe_parquet_thrift_fail(&rw->r, "a PageLocation lacks its offset or size");
    if (offset < 0 || size < 0 || (uint64_t)offset < rw->old.offset || (uint64_t)offset > end ||
        (uint64_t)size > end - (uint64_t)offset)
        return floe_parquet_thrift_fail(&rw->r, "a page (%d bytes at %lld) lies outside its column chunk", size,
                                        (long long)offset);
    return FLOE_ICEBERG_OK;
}

/* PageLocation {1: i64 offset, 2: i32 compressed_page_size, 3: i64 first_row_index}. */
static int rewrite_page_location(rewrite_t *rw)
{
    int16_t last_id = 0, id;
    uint8_t type;
    int64_t offset = 0;
    int32_t size = 0;
    bool has_offset = false, has_size = false;
    int rc = floe_parquet_thrift_enter(&rw->r);

    floe_parquet_thrift_struct_begin(&rw->w);
    while (rc == 0) {
        rc = floe_parquet_thrift_read_field(&rw->r, &last_id, &id, &type);
        if (rc != 0 || type == FLOE_THRIFT_STOP)
            break;
        if (id == 1 && type == FLOE_THRIFT_I64 && !has_offset) {
            rc = floe_parquet_thrift_read_i64(&rw->r, &offset);
            has_offset = true;
            floe_parquet_thrift_write_field(&rw->w, id, type);
            floe_parquet_thrift_write_i64(&rw->w, (int64_t)(rw->new_offset + ((uint64_t)offset - rw->old.offset)));
        } else if (id == 2 && type == FLOE_THRIFT_I32 && !has_size) {
            rc = floe_parquet_thrift_read_i32(&rw->r, &size);
            has_size = true;
            floe_parquet_thrift_write_field(&rw->w, id, type);
            floe_parquet_thrift_write_i32(&rw->w, size);
        } else if (id == 1 || id == 2) {
            rc = floe_parquet_thrift_fail(&rw->r, "a PageLocation has a bad offset or size field");
        } else {
            rc = copy_field(rw, id, type);
        }
    }
    if (rc == 0)
        rc = check_page(rw, has_offset, offset, has_size, size);
    floe_parquet_thrift_struct_end(&rw->w);
    floe_parquet_thrift_leave(&rw->r);
    return rc;
}

static int rewrite_page_locations(rewrite_t *rw, int16_t id, uint8_t type)
{
    uint8_t elem;
    uint32_t n;

    if (type != FLOE_THRIFT_LIST || floe_parquet_thrift_read_list(&rw->r, &elem, &n) != 0 ||
        elem != FLOE_THRIFT_STRUCT)
        return floe_parquet_thrift_fail(&rw->r, "page_locations is not a list of structs");
    floe_parquet_thrift_write_field(&rw->w, id, type);
    floe_parquet_thrift_write_list(&rw->w, elem, n);
    for (uint32_t i = 0; i < n; i++) {
        if (rewrite_page_location(rw) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
    return FLOE_ICEBERG_OK;
}

static int rewrite_offset_index(rewrite_t *rw)
{
    int16_t last_id = 0, id;
    uint8_t type;
    bool has_locations = false;
    int rc = FLOE_ICEBERG_OK;

    floe_parquet_thrift_struct_begin(&rw->w);
    while (rc == 0) {
        rc = floe_parquet_thrift_read_field(&rw->r, &last_id, &id, &type);
        if (rc != 0 || type == FLOE_THRIFT_STOP)
            break;
        if (id == 1 && has_locations)
            return floe_parquet_thrift_fail(&rw->r, "page_locations appears twice");
        if (id == 1) {
            has_locations = true;
            rc = rewrite_page_locations(rw, id, type);
        } else {
            rc = copy_field(rw, id, type);
        }
    }
    if (rc == 0 && !has_locations)
        return floe_parquet_thrift_fail(&rw->r, "it lacks page_locations");
    if (rc == 0 && rw->r.p != rw->r.end)
        return floe_parquet_thrift_fail(&rw->r, "bytes follow it");
    floe_parquet_thrift_struct_end(&rw->w);
    return rc;
}

int floe_parquet_offset_index_rewrite(const uint8_t *data, size_t len, floe_parquet_range_t old_chunk,
                                      uint64_t new_offset, uint8_t **out, size_t *out_len, floe_iceberg_error_t *err)
{
    rewrite_t rw = {.old = old_chunk, .new_offset = new_offset};

    if (old_chunk.offset > INT64_MAX || old_chunk.length > INT64_MAX - old_chunk.offset || new_offset > INT64_MAX ||
        old_chunk.length > INT64_MAX - new_offset)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk lies past 2^63 bytes.");
    floe_parquet_thrift_reader_init(&rw.r, "The Parquet offset index", data, len, err);
    floe_parquet_thrift_writer_init(&rw.w);
    if (rewrite_offset_index(&rw) != 0) {
        floe_parquet_thrift_writer_dispose(&rw.w);
        return FLOE_ICEBERG_EINVALID;
    }
    *out = floe_parquet_thrift_writer_take(&rw.w, out_len);
    return FLOE_ICEBERG_OK;
}

/* ---- bloom filter ------------------------------------------------------------------------ */

/* BloomFilterHeader {1: i32 numBytes, 2: algorithm, 3: hash, 4: compression}: the bitset follows. */
int floe_parquet_bloom_filter_size(const uint8_t *head, size_t head_len, uint64_t *size, floe_iceberg_error_t *err)
{
    floe_parquet_thrift_reader_t r;
    int16_t last_id = 0, id;
    uint8_t type;
    int32_t n_bytes = -1;

    floe_parquet_thrift_reader_init(&r, "The Parquet bloom filter header", head, head_len, err);
    if (floe_parquet_thrift_enter(&r) != 0)
        return FLOE_ICEBERG_EINVALID;
    for (;;) {
        if (floe_parquet_thrift_read_field(&r, &last_id, &id, &type) != 0)
            return FLOE_ICEBERG_EINVALID;
        if (type == FLOE_THRIFT_STOP)
            break;
        if (id == 1 && type == FLOE_THRIFT_I32) {
            if (floe_parquet_thrift_read_i32(&r, &n_bytes) != 0)
                return FLOE_ICEBERG_EINVALID;
        } else if (floe_parquet_thrift_skip(&r, type) != 0) {
            return FLOE_ICEBERG_EINVALID;
        }
    }
    if (n_bytes < 0)
        return floe_parquet_thrift_fail(&r, "it lacks a valid numBytes");
    *size = floe_parquet_thrift_offset(&r) + (uint64_t)n_bytes;
    return FLOE_ICEBERG_OK;
}
