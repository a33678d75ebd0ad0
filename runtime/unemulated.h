/*
 * The answer to a request signed for an AWS service Floe does not emulate (ssm, dynamodb,
 * lambda, ...): 501 naming the service and the ones Floe does emulate, in the protocol the
 * signing service speaks, so its client shows the message instead of failing to parse S3's XML
 * (the AWS CDK reads SSM before a deploy). Requests signed for s3* and unsigned ones stay S3's.
 */
#ifndef FLOE_UNEMULATED_H
#define FLOE_UNEMULATED_H

#include <stdbool.h>

#include "call/worker.h"
#include "http/sigv4.h"

/** True when a request signed with `scope` is for a service Floe has no front for. The caller has
 * already ruled out s3tables and the awsQuery services it serves; every signing name starting
 * with "s3" (s3, s3-object-lambda, s3express, ...) is S3's. */
bool floe_unemulated_is(const floe_sigv4_scope_t *scope);

/** Answers 501 for the service `scope` names, in JSON for JSON services (an X-Amz-Target header,
 * a JSON body, or any REST service but the REST-XML ones), else in AWS's XML error shape. */
void floe_unemulated_refuse(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope);

#endif
