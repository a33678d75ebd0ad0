/* Tests of runtime/http/sigv4_sign.c: the signer `floe maintenance run` uses, against AWS's own example. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "http/sigv4_sign.h"

#define VANILLA_TIME 1440938160 /* 20150830T123600Z */

/* AWS's SigV4 test suite, "get-vanilla": GET / to example.amazonaws.com, signed over host and
 * x-amz-date with the documented example keys, for the service "service" in us-east-1. */
TEST(sigv4_sign_matches_aws_get_vanilla)
{
    floe_sigv4_signer_t signer = {"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "service"};
    char amz_date[FLOE_SIGV4_AMZ_DATE_LEN + 1];
    char *auth = floe_sigv4_sign_request(&signer, "GET", "example.amazonaws.com", "/", NULL, 0, VANILLA_TIME,
                                         amz_date);

    CHECK(strcmp(amz_date, "20150830T123600Z") == 0, "X-Amz-Date is the signing time in ISO 8601 basic form");
    CHECK(strcmp(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                       "SignedHeaders=host;x-amz-date, "
                       "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31") == 0,
          "the Authorization header is the one AWS's test suite gives");
    free(auth);
}
