/*
 * A check of a writer's Avro schema (the JSON in a container's avro.schema) before Apache Avro C
 * parses it. Avro C leaks the part of a schema it had built when parsing fails (a named type
 * defined twice, a field without a name, ...), so a hostile manifest read again and again would
 * grow Floe's memory. This walk refuses, without Avro C, every schema Avro C would refuse for
 * its shape: unknown types, names that are not Avro names, a name defined twice or used before
 * it is defined, fields, symbols, sizes, items and values missing or of the wrong kind, nesting
 * deeper than FLOE_AVRO_DEPTH_MAX.
 *
 * Not a full Avro schema validator: namespaces are not resolved (a name is its "name" text,
 * which is how Iceberg's writers use them), and defaults are not checked (Avro C ignores them).
 */
#ifndef FLOE_ICEBERG_AVRO_SCHEMA_H
#define FLOE_ICEBERG_AVRO_SCHEMA_H

#include <stddef.h>

/** Returns 0 when the schema JSON text json[0..len) has a shape Avro C accepts, or -1 with a
 * reason in err. */
int floe_avro_schema_check(const char *json, size_t len, char *err, size_t err_size);

#endif
