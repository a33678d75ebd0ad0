/*
 * --enforce-iam on S3 calls to a table's storage (its warehouse bucket): AWS authorizes table
 * storage through the table, not a bucket policy. Reading (GetObject, HeadObject, ListParts) needs
 * s3tables:GetTableData and writing (PutObject, the multipart uploads) s3tables:PutTableData, both
 * on the table's ARN. Other buckets are not authorized (Floe checks no S3 bucket permissions).
 */
#ifndef FLOE_S3_AUTHORIZE_H
#define FLOE_S3_AUTHORIZE_H

#include "s3/request.h"

/** FLOE_OK when `r` (routed to r->op) may go on; else FLOE_EFAIL, answered (403 AccessDenied, or 500). */
int floe_s3_authorize(floe_s3_req_t *r);

#endif
