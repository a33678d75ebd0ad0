/*
 * S3's errors: one table row per error Code with its HTTP status and AWS's message, and the
 * replies in S3's XML error shape:
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>
 *   <Key>k</Key><BucketName>b</BucketName><RequestId>...</RequestId></Error>
 *
 * HEAD requests get the status and headers only, as from S3. Messages are AWS's wording where
 * known (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
 */
#ifndef FLOE_S3_ERROR_H
#define FLOE_S3_ERROR_H

#include "s3/request.h"

#define FLOE_S3_ERRORS(X)                                                                                               \
    X(AccessDenied, 403, "Access Denied")                                                                              \
    X(BadDigest, 400, "The Content-MD5 you specified did not match what we received.")                                 \
    X(BucketAlreadyExists, 409,                                                                                        \
      "The requested bucket name is not available. The bucket namespace is shared by all users of the system. "        \
      "Please select a different name and try again.")                                                                 \
    X(BucketAlreadyOwnedByYou, 409,                                                                                    \
      "Your previous request to create the named bucket succeeded and you already own it.")                           \
    X(BucketNotEmpty, 409, "The bucket you tried to delete is not empty")                                              \
    X(EntityTooLarge, 400, "Your proposed upload exceeds the maximum allowed size")                                    \
    X(EntityTooSmall, 400, "Your proposed upload is smaller than the minimum allowed object size.")                    \
    X(IncompleteBody, 400, "You did not provide the number of bytes specified by the Content-Length HTTP header")      \
    X(InternalError, 500, "We encountered an internal error. Please try again.")                                      \
    X(InvalidArgument, 400, "Invalid Argument")                                                                        \
    X(InvalidBucketName, 400, "The specified bucket is not valid.")                                                    \
    X(InvalidDigest, 400, "The Content-MD5 you specified is not valid.")                                               \
    X(InvalidLocationConstraint, 400, "The specified location-constraint is not valid")                               \
    X(InvalidPart, 400,                                                                                                \
      "One or more of the specified parts could not be found.  The part may not have been uploaded, or the "          \
      "specified entity tag may not match the part's entity tag.")                                                     \
    X(InvalidPartOrder, 400,                                                                                           \
      "The list of parts was not in ascending order. The parts list must be specified in order by part number.")      \
    X(InvalidRange, 416, "The requested range is not satisfiable")                                                     \
    X(InvalidRequest, 400, "Invalid Request")                                                                          \
    X(InvalidURI, 400, "Couldn't parse the specified URI.")                                                            \
    X(KeyTooLongError, 400, "Your key is too long")                                                                    \
    X(MalformedXML, 400,                                                                                               \
      "The XML you provided was not well-formed or did not validate against our published schema")                    \
    X(MetadataTooLarge, 400, "Your metadata headers exceed the maximum allowed metadata size.")                        \
    X(MethodNotAllowed, 405, "The specified method is not allowed against this resource.")                             \
    X(NoSuchBucket, 404, "The specified bucket does not exist")                                                        \
    X(NoSuchKey, 404, "The specified key does not exist.")                                                             \
    X(NoSuchUpload, 404,                                                                                               \
      "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or "    \
      "completed.")                                                                                                    \
    X(NotImplemented, 501, "A header you provided implies functionality that is not implemented")                     \
    X(NotModified, 304, "Not Modified")                                                                                \
    X(PreconditionFailed, 412, "At least one of the pre-conditions you specified did not hold")                       \
    X(XAmzContentSHA256Mismatch, 400, "The provided 'x-amz-content-sha256' header does not match what was computed.")

typedef enum floe_s3_error {
#define FLOE_S3_ERROR_ENUM(code, status, message) FLOE_S3_##code,
    FLOE_S3_ERRORS(FLOE_S3_ERROR_ENUM)
#undef FLOE_S3_ERROR_ENUM
} floe_s3_error_t;

/** AWS's default message for the error. */
const char *floe_s3_error_message(floe_s3_error_t e);

/**
 * Answers with error e. message NULL takes AWS's default. Then extra elements: NULL-terminated
 * pairs of element name and text, e.g. "Condition", "If-Match", NULL; a lone NULL for none. The
 * body names r->key and r->bucket when they are set. Returns FLOE_EFAIL, so operations can
 * `return floe_s3_fail(r, FLOE_S3_NoSuchKey, NULL, NULL)`.
 */
int floe_s3_fail(floe_s3_req_t *r, floe_s3_error_t e, const char *message, ...) __attribute__((sentinel));

/** Logs `what` with the SQLite or system error and answers 500 InternalError. Returns FLOE_EFAIL. */
int floe_s3_fail_internal(floe_s3_req_t *r, const char *what);

#endif
