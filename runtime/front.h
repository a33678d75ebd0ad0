/*
 * The front door: the one h2o handler on "/", which sends each request to the service it is for:
 * Floe's own routes under /_floe/, the Iceberg REST catalog (under /iceberg when signed for
 * "s3tables", under /_floe/iceberg signed or not), the S3 Tables API for other requests signed for
 * "s3tables", the awsQuery services (CloudFormation, STS: query/query.h) for requests signed for
 * their signing names, and S3 for everything else (including unsigned requests).
 */
#ifndef FLOE_FRONT_H
#define FLOE_FRONT_H

#include "call/worker.h"

/** Registers the front door on `pathconf`. */
void floe_front_register(h2o_pathconf_t *pathconf);

#endif
