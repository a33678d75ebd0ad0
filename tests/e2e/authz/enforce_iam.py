"""What the --enforce-iam tests of this folder share: AWS's denial sentence, a one-statement
identity policy, and a request to the console's API signed by botocore as the console signs."""

import json


def refusal(principal, action, resource):
    """AWS's sentence for a call no identity-based policy allows."""
    return ("User: %s is not authorized to perform: %s on resource: %s because no identity-based policy allows "
            "the %s action" % (principal, action, resource, action))


def allow(actions, resources):
    """An identity-based policy allowing `actions` on `resources`, as a document."""
    return json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": actions, "Resource": resources}]})


def console_get(endpoint, route, params, key, secret, region="us-east-1"):
    """(status, JSON) of the console's API route with `params`, signed by botocore as the console signs."""
    import urllib.error
    import urllib.parse
    import urllib.request
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    request = AWSRequest(method="GET", url="%s/_floe/ui/api/%s?%s" % (endpoint, route, urllib.parse.urlencode(params)))
    SigV4Auth(Credentials(key, secret), "s3tables", region).add_auth(request)
    prepared = request.prepare()
    try:
        with urllib.request.urlopen(urllib.request.Request(prepared.url, headers=dict(prepared.headers))) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
