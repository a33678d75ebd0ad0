/*
 * File-wide column statistics (parquet_stats.h). The order of a column comes from its logical
 * type, else its converted type, else its physical type, as parquet.thrift's ColumnOrder lists
 * them; a ColumnOrder other than TYPE_ORDER (or IEEE_754_TOTAL_ORDER on floats) is not known.
 */
#include <math.h>
#include <string.h>

#include "iceberg/parquet_stats.h"

typedef enum order {
    ORDER_NONE,     /* unknown or undefined: no bounds */
    ORDER_BOOLEAN,  /* false < true, one byte */
    ORDER_SIGNED,   /* little-endian two's complement, 4 or 8 bytes */
    ORDER_UNSIGNED, /* little-endian unsigned, 4 or 8 bytes */
    ORDER_FLOAT,    /* IEEE 754, 4 or 8 bytes; NaN is no bound */
    ORDER_BYTES,    /* unsigned lexicographic */
    ORDER_DECIMAL,  /* big-endian two's complement of any width */
} order_t;

static order_t physical_order(int32_t type)
{
    switch (type) {
    case FLOE_PARQUET_BOOLEAN:
        return ORDER_BOOLEAN;
    case FLOE_PARQUET_INT32:
    case FLOE_PARQUET_INT64:
        return ORDER_SIGNED;
    case FLOE_PARQUET_FLOAT:
    case FLOE_PARQUET_DOUBLE:
        return ORDER_FLOAT;
    case FLOE_PARQUET_BYTE_ARRAY:
    case FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY:
        return ORDER_BYTES;
    default: /* INT96: its order is chronological, not its bytes' */
        return ORDER_NONE;
    }
}

static bool is_integer_type(int32_t type)
{
    return type == FLOE_PARQUET_INT32 || type == FLOE_PARQUET_INT64;
}

static order_t decimal_order(int32_t type)
{
    return is_integer_type(type) ? ORDER_SIGNED : ORDER_DECIMAL;
}

static order_t logical_order(const floe_parquet_schema_element_t *el)
{
    const floe_parquet_logical_type_t *lt = &el->logical_type;

    switch (lt->kind) {
    case FLOE_PARQUET_LOGICAL_INTEGER:
        return !is_integer_type(el->type) ? ORDER_NONE : lt->is_signed ? ORDER_SIGNED : ORDER_UNSIGNED;
    case FLOE_PARQUET_LOGICAL_DECIMAL:
        return decimal_order(el->type);
    case FLOE_PARQUET_LOGICAL_DATE:
    case FLOE_PARQUET_LOGICAL_TIME:
    case FLOE_PARQUET_LOGICAL_TIMESTAMP:
        return is_integer_type(el->type) ? ORDER_SIGNED : ORDER_NONE;
    case FLOE_PARQUET_LOGICAL_STRING:
    case FLOE_PARQUET_LOGICAL_ENUM:
    case FLOE_PARQUET_LOGICAL_JSON:
    case FLOE_PARQUET_LOGICAL_BSON:
    case FLOE_PARQUET_LOGICAL_UUID:
        return physical_order(el->type) == ORDER_BYTES ? ORDER_BYTES : ORDER_NONE;
    default: /* FLOAT16, UNKNOWN, VARIANT, GEOMETRY, GEOGRAPHY, and what comes later */
        return ORDER_NONE;
    }
}

static order_t converted_order(const floe_parquet_schema_element_t *el)
{
    switch (el->converted_type) {
    case FLOE_PARQUET_CONVERTED_UINT_8:
    case FLOE_PARQUET_CONVERTED_UINT_16:
    case FLOE_PARQUET_CONVERTED_UINT_32:
    case FLOE_PARQUET_CONVERTED_UINT_64:
        return is_integer_type(el->type) ? ORDER_UNSIGNED : ORDER_NONE;
    case FLOE_PARQUET_CONVERTED_DECIMAL:
        return decimal_order(el->type);
    case FLOE_PARQUET_CONVERTED_INTERVAL:
        return ORDER_NONE;
    default:
        return physical_order(el->type);
    }
}

static order_t column_order(const floe_parquet_file_metadata_t *md, uint32_t leaf)
{
    const floe_parquet_schema_element_t *el = floe_parquet_leaf_element(md, leaf);
    order_t order = el->has_logical_type     ? logical_order(el)
                    : el->has_converted_type ? converted_order(el)
                                             : physical_order(el->type);

    if (md->has_column_orders) {
        int16_t kind = md->column_orders[leaf].kind;
        if (kind != FLOE_PARQUET_TYPE_ORDER && !(kind == FLOE_PARQUET_IEEE_754_TOTAL_ORDER && order == ORDER_FLOAT))
            return ORDER_NONE;
    }
    return order;
}

/* The width a value of the leaf must have, or 0 for any. */
static uint32_t value_width(const floe_parquet_schema_element_t *el)
{
    switch (el->type) {
    case FLOE_PARQUET_BOOLEAN:
        return 1;
    case FLOE_PARQUET_INT32:
    case FLOE_PARQUET_FLOAT:
        return 4;
    case FLOE_PARQUET_INT64:
    case FLOE_PARQUET_DOUBLE:
        return 8;
    case FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY:
        return el->has_type_length && el->type_length > 0 ? (uint32_t)el->type_length : 0;
    default:
        return 0;
    }
}

static uint64_t le(const uint8_t *p, uint32_t n)
{
    uint64_t v = 0;

    for (uint32_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static int sign_of(int64_t d)
{
    return (d > 0) - (d < 0);
}

static int compare_signed(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    int64_t x = n == 4 ? (int32_t)(uint32_t)le(a, 4) : (int64_t)le(a, 8);
    int64_t y = n == 4 ? (int32_t)(uint32_t)le(b, 4) : (int64_t)le(b, 8);

    return (x > y) - (x < y);
}

static int compare_unsigned(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint64_t x = le(a, n), y = le(b, n);

    return (x > y) - (x < y);
}

static int compare_float(const uint8_t *a, const uint8_t *b, uint32_t n, int *cmp)
{
    double x, y;

    if (n == 4) {
        float fx, fy;
        memcpy(&fx, a, 4);
        memcpy(&fy, b, 4);
        x = fx;
        y = fy;
    } else {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
    }
    if (isnan(x) || isnan(y))
        return FLOE_ICEBERG_EINVALID;
    *cmp = (x > y) - (x < y);
    return FLOE_ICEBERG_OK;
}

static int compare_bytes(floe_parquet_bytes_t a, floe_parquet_bytes_t b)
{
    uint32_t n = a.len < b.len ? a.len : b.len;
    int c = n > 0 ? memcmp(a.data, b.data, n) : 0;

    return c != 0 ? sign_of(c) : sign_of((int64_t)a.len - (int64_t)b.len);
}

/* Byte i (counted from the most significant end of a width-n value) of a sign-extended decimal. */
static uint8_t decimal_byte(floe_parquet_bytes_t v, uint32_t n, uint32_t i, bool negative)
{
    uint32_t pad = n - v.len;

    return i < pad ? (negative ? 0xff : 0x00) : v.data[i - pad];
}

static int compare_decimal(floe_parquet_bytes_t a, floe_parquet_bytes_t b)
{
    bool a_neg = a.len > 0 && (a.data[0] & 0x80) != 0;
    bool b_neg = b.len > 0 && (b.data[0] & 0x80) != 0;
    uint32_t n = a.len > b.len ? a.len : b.len;

    if (a_neg != b_neg)
        return a_neg ? -1 : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t x = decimal_byte(a, n, i, a_neg), y = decimal_byte(b, n, i, b_neg);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static int compare_in_order(order_t order, floe_parquet_bytes_t a, floe_parquet_bytes_t b, int *cmp)
{
    switch (order) {
    case ORDER_BOOLEAN:
        if (a.data[0] > 1 || b.data[0] > 1)
            return FLOE_ICEBERG_EINVALID;
        *cmp = (a.data[0] > b.data[0]) - (a.data[0] < b.data[0]);
        return FLOE_ICEBERG_OK;
    case ORDER_SIGNED:
        *cmp = compare_signed(a.data, b.data, a.len);
        return FLOE_ICEBERG_OK;
    case ORDER_UNSIGNED:
        *cmp = compare_unsigned(a.data, b.data, a.len);
        return FLOE_ICEBERG_OK;
    case ORDER_FLOAT:
        return compare_float(a.data, b.data, a.len, cmp);
    case ORDER_BYTES:
        *cmp = compare_bytes(a, b);
        return FLOE_ICEBERG_OK;
    case ORDER_DECIMAL:
        *cmp = compare_decimal(a, b);
        return FLOE_ICEBERG_OK;
    default:
        return FLOE_ICEBERG_EINVALID;
    }
}

/* A value of the right width for its order; NaN is checked by the comparison. */
static bool value_fits(order_t order, uint32_t width, floe_parquet_bytes_t v)
{
    switch (order) {
    case ORDER_BOOLEAN:
        return v.len == 1;
    case ORDER_SIGNED:
    case ORDER_UNSIGNED:
    case ORDER_FLOAT:
        return v.len == width && (width == 4 || width == 8);
    case ORDER_BYTES:
    case ORDER_DECIMAL:
        return width == 0 || v.len == width;
    default:
        return false;
    }
}

int floe_parquet_value_compare(const floe_parquet_file_metadata_t *md, uint32_t leaf, floe_parquet_bytes_t a,
                               floe_parquet_bytes_t b, int *cmp)
{
    order_t order = column_order(md, leaf);
    uint32_t width = value_width(floe_parquet_leaf_element(md, leaf));

    if (!value_fits(order, width, a) || !value_fits(order, width, b))
        return FLOE_ICEBERG_EINVALID;
    return compare_in_order(order, a, b, cmp);
}

/* ---- aggregation ------------------------------------------------------------------------- */

static int64_t saturating_add(int64_t a, int64_t b)
{
    int64_t sum;

    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

/* One side (min or max) of a column across row groups. */
typedef struct bound {
    bool is_usable; /* no row group has left it unknown */
    bool has_value;
    floe_parquet_bytes_t value;
    bool is_exact;
} bound_t;

/* Folds a row group's value into the bound: the smaller for a min (want < 0), else the larger. */
static void fold(const floe_parquet_file_metadata_t *md, uint32_t leaf, bound_t *bound, floe_parquet_bytes_t value,
                 bool is_exact, int want)
{
    int cmp;

    if (!bound->is_usable)
        return;
    if (!bound->has_value) {
        cmp = 0;
        if (floe_parquet_value_compare(md, leaf, value, value, &cmp) != 0) {
            bound->is_usable = false;
            return;
        }
        *bound = (bound_t){true, true, value, is_exact};
        return;
    }
    if (floe_parquet_value_compare(md, leaf, value, bound->value, &cmp) != 0) {
        bound->is_usable = false;
    } else if (cmp * want > 0) {
        bound->value = value;
        bound->is_exact = is_exact;
    } else if (cmp == 0) {
        bound->is_exact = bound->is_exact || is_exact;
    }
}

/* Folds a chunk's bounds, unless they cross (then neither side can be trusted). */
static void fold_pair(const floe_parquet_file_metadata_t *md, uint32_t leaf, bound_t *min, bound_t *max,
                      floe_parquet_bytes_t low, bool low_exact, floe_parquet_bytes_t high, bool high_exact)
{
    int cmp;

    if (floe_parquet_value_compare(md, leaf, low, high, &cmp) == 0 && cmp > 0) {
        min->is_usable = max->is_usable = false;
        return;
    }
    fold(md, leaf, min, low, low_exact, -1);
    fold(md, leaf, max, high, high_exact, 1);
}

/* Folds one column chunk's min and max. The deprecated fields are signed: used only then. */
static void fold_chunk(const floe_parquet_file_metadata_t *md, uint32_t leaf, const floe_parquet_column_meta_data_t *m,
                       bound_t *min, bound_t *max)
{
    const floe_parquet_statistics_t *st = &m->statistics;
    order_t order = column_order(md, leaf);
    bool is_signed = order == ORDER_SIGNED || order == ORDER_FLOAT || order == ORDER_BOOLEAN;
    bool only_nulls = m->has_statistics && st->has_null_count && st->null_count == m->num_values;

    if (m->has_statistics && st->has_min_value && st->has_max_value) {
        fold_pair(md, leaf, min, max, st->min_value, st->has_is_min_value_exact && st->is_min_value_exact,
                  st->max_value, st->has_is_max_value_exact && st->is_max_value_exact);
    } else if (m->has_statistics && st->has_min && st->has_max && is_signed) {
        fold_pair(md, leaf, min, max, st->min, false, st->max, false);
    } else if (!only_nulls) {
        min->is_usable = max->is_usable = false;
    }
}

static void count_chunk(const floe_parquet_column_meta_data_t *m, floe_parquet_column_stats_t *out)
{
    const floe_parquet_statistics_t *st = &m->statistics;

    out->num_values = saturating_add(out->num_values, m->num_values);
    out->total_compressed_size = saturating_add(out->total_compressed_size, m->total_compressed_size);
    out->has_null_count = out->has_null_count && m->has_statistics && st->has_null_count && st->null_count >= 0;
    out->null_count = out->has_null_count ? saturating_add(out->null_count, st->null_count) : 0;
    out->has_nan_count = out->has_nan_count && m->has_statistics && st->has_nan_count && st->nan_count >= 0;
    out->nan_count = out->has_nan_count ? saturating_add(out->nan_count, st->nan_count) : 0;
}

static bool bounds_are_ordered(const floe_parquet_file_metadata_t *md, uint32_t leaf, const bound_t *min,
                               const bound_t *max)
{
    int cmp;

    return floe_parquet_value_compare(md, leaf, min->value, max->value, &cmp) == 0 && cmp <= 0;
}

void floe_parquet_column_stats(const floe_parquet_file_metadata_t *md, uint32_t leaf,
                               floe_parquet_column_stats_t *out)
{
    bound_t min = {.is_usable = true}, max = {.is_usable = true};

    memset(out, 0, sizeof(*out));
    out->has_null_count = true;
    out->has_nan_count = true;
    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        const floe_parquet_column_meta_data_t *m = &md->row_groups[r].columns[leaf].meta_data;
        count_chunk(m, out);
        fold_chunk(md, leaf, m, &min, &max);
    }
    /* A file whose bounds cross contradicts itself: neither can be trusted. */
    if (min.is_usable && min.has_value && max.is_usable && max.has_value && !bounds_are_ordered(md, leaf, &min, &max))
        min.is_usable = max.is_usable = false;
    out->has_min = min.is_usable && min.has_value;
    out->min = out->has_min ? min.value : (floe_parquet_bytes_t){0};
    out->is_min_exact = out->has_min && min.is_exact;
    out->has_max = max.is_usable && max.has_value;
    out->max = out->has_max ? max.value : (floe_parquet_bytes_t){0};
    out->is_max_exact = out->has_max && max.is_exact;
}
