#!/usr/bin/python3
"""Accounts and regions with boto3, the aws CLI and the Iceberg REST catalog: each request acts in
the account of its 12-digit access key and the region of its SigV4 credential scope, as on AWS and
LocalStack. Table buckets and everything in them live in one account and region: ARNs carry the
scope, listings show only it, the same name exists in two scopes independently; another account's
ARN is access denied (no resource policy grants access), and the own account's ARN in another
region is not found. S3 bucket names stay one name space across accounts (BucketAlreadyExists
against BucketAlreadyOwnedByYou), ListBuckets lists the requester's own, and a table's warehouse
name is unique everywhere. s3tables/23-accounts-regions.mjs checks the same with the JS SDK."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

DEFAULT_ACCOUNT = "000000000000"
DEFAULT_REGION = "us-east-1"
A1, A2 = "111111111111", "222222222222"
R1, R2, R3 = "us-east-1", "eu-west-1", "us-west-2"
SCOPES = [(A1, R1), (A1, R2), (A2, R1), (A2, R2)]
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}


def bucket_arn(account, region, name):
    return "arn:aws:s3tables:%s:%s:bucket/%s" % (region, account, name)


class AccountsRegionsTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.clients = {}

    @classmethod
    def tearDownClass(cls):
        for client in cls.clients.values():
            client.close()
        super().tearDownClass()

    def client(self, account, region, service="s3tables"):
        """A boto3 client whose access key is `account` and whose region is `region`."""
        import botocore.config
        key = (account, region, service)
        if key not in self.clients:
            config = self.botocore_config
            if service == "s3":
                config = config.merge(botocore.config.Config(s3={"addressing_style": "path"}))
            self.clients[key] = self.session.client(
                service, endpoint_url=self.server.endpoint, region_name=region, aws_access_key_id=account,
                aws_secret_access_key="secret-of-%s" % account, config=config)
        return self.clients[key]

    def table(self, client, arn, namespace, name):
        return client.create_table(tableBucketARN=arn, namespace=namespace, name=name, format="ICEBERG",
                                   metadata={"iceberg": {"schema": SCHEMA}})

    # -- ARNs and owners ---------------------------------------------------------------------------

    def test_arns_and_owners_carry_the_account_and_region_of_the_request(self):
        for account, region in SCOPES + [(A2, R3)]:
            with self.subTest(account=account, region=region):
                s3tables = self.client(account, region)
                name = "owned-%s-%s" % (account[0], region)
                arn = s3tables.create_table_bucket(name=name)["arn"]
                self.assertEqual(arn, bucket_arn(account, region, name),
                                 "CreateTableBucket answers an ARN in the account and region of the request")
                got = s3tables.get_table_bucket(tableBucketARN=arn)
                self.assertEqual((got["arn"], got["ownerAccountId"]), (arn, account),
                                 "GetTableBucket names the requester's account as the owner")
                s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
                ns = s3tables.get_namespace(tableBucketARN=arn, namespace="sales")
                self.assertEqual((ns["createdBy"], ns["ownerAccountId"]), (account, account),
                                 "a namespace is created by and owned by the requester's account")
                created = self.table(s3tables, arn, "sales", "orders")
                self.assertTrue(created["tableARN"].startswith(arn + "/table/"),
                                "a table ARN is its bucket's ARN, in the same account and region")
                table = s3tables.get_table(tableBucketARN=arn, namespace="sales", name="orders")
                self.assertEqual((table["tableARN"], table["ownerAccountId"], table["createdBy"]),
                                 (created["tableARN"], account, account),
                                 "GetTable names the requester's account as owner and creator")
                by_arn = s3tables.get_table(tableArn=created["tableARN"])
                self.assertEqual(by_arn["name"], "orders", "GetTable finds the table by its scoped ARN")
                listed = s3tables.list_table_buckets(prefix=name)["tableBuckets"]
                self.assertEqual([(b["arn"], b["ownerAccountId"]) for b in listed], [(arn, account)],
                                 "ListTableBuckets shows the ARN and owner of the scope")
                summary = s3tables.list_namespaces(tableBucketARN=arn)["namespaces"][0]
                self.assertEqual(summary["ownerAccountId"], account, "ListNamespaces names the owner account")
                tables = s3tables.list_tables(tableBucketARN=arn)["tables"]
                self.assertEqual([t["tableARN"] for t in tables], [created["tableARN"]],
                                 "ListTables shows the table's scoped ARN")

    def test_a_key_that_is_not_twelve_digits_acts_in_the_default_account(self):
        for key in ("AKIAIOSFODNN7EXAMPLE", "floe-test", "11111111111", "1111111111111", "11111111111a"):
            with self.subTest(key=key):
                s3tables = self.client(key, R2)
                name = "default-account-%d" % len(self.clients)
                arn = s3tables.create_table_bucket(name=name)["arn"]
                self.assertEqual(arn, bucket_arn(DEFAULT_ACCOUNT, R2, name),
                                 "an access key that is not exactly 12 digits acts in the server's default "
                                 "account, in the region it signed for")
                self.assertIn(name, [b["name"] for b in self.client(DEFAULT_ACCOUNT, R2).list_table_buckets()
                                     ["tableBuckets"]], "the default account lists it")
        arn = self.s3tables.create_table_bucket(name="default-scope")["arn"]
        self.assertEqual(arn, bucket_arn(DEFAULT_ACCOUNT, DEFAULT_REGION, "default-scope"),
                         "the tests' usual client (key floe-test, us-east-1) acts in the default scope")

    # -- isolation ---------------------------------------------------------------------------------

    def test_list_table_buckets_shows_only_the_scope_of_the_request(self):
        names = {}
        for account, region in SCOPES:
            names[(account, region)] = ["iso-%s-%s-%d" % (account[0], region, i) for i in range(3)]
            for name in names[(account, region)]:
                self.client(account, region).create_table_bucket(name=name)
        for account, region in SCOPES:
            with self.subTest(account=account, region=region):
                listed = [b["name"] for b in self.client(account, region).list_table_buckets(prefix="iso-")
                          ["tableBuckets"]]
                self.assertEqual(listed, names[(account, region)],
                                 "ListTableBuckets shows the scope's own buckets and none of the others'")
                page = self.client(account, region).list_table_buckets(prefix="iso-", maxBuckets=2)
                rest = self.client(account, region).list_table_buckets(
                    prefix="iso-", continuationToken=page["continuationToken"])
                self.assertEqual([b["name"] for b in page["tableBuckets"] + rest["tableBuckets"]],
                                 names[(account, region)], "paging stays inside the scope")
        default = [b["name"] for b in self.s3tables.list_table_buckets(prefix="iso-")["tableBuckets"]]
        self.assertEqual(default, [], "the default account sees none of the other accounts' buckets")

    def test_the_same_bucket_name_exists_in_every_scope_independently(self):
        arns, ids = {}, set()
        for account, region in SCOPES:
            s3tables = self.client(account, region)
            arns[(account, region)] = s3tables.create_table_bucket(name="same-name")["arn"]
            ids.add(s3tables.get_table_bucket(tableBucketARN=arns[(account, region)])["tableBucketId"])
            self.assertClientError("ConflictException", s3tables.create_table_bucket, name="same-name")
        self.assertEqual(len(set(arns.values())), 4, "the same name in four scopes gives four ARNs")
        self.assertEqual(len(ids), 4, "and four distinct buckets")

        s3tables = {scope: self.client(*scope) for scope in SCOPES}
        for scope in SCOPES:
            s3tables[scope].create_namespace(tableBucketARN=arns[scope], namespace=["sales"])
        first, second = SCOPES[0], SCOPES[3]
        t1 = self.table(s3tables[first], arns[first], "sales", "orders")
        t2 = self.table(s3tables[second], arns[second], "sales", "orders")
        self.assertNotEqual(t1["tableARN"], t2["tableARN"], "tables of the same name in two scopes are two tables")
        g1 = s3tables[first].get_table(tableBucketARN=arns[first], namespace="sales", name="orders")
        g2 = s3tables[second].get_table(tableBucketARN=arns[second], namespace="sales", name="orders")
        self.assertNotEqual(g1["warehouseLocation"], g2["warehouseLocation"], "each has its own warehouse")
        for scope in SCOPES[1:3]:
            self.assertEqual(s3tables[scope].list_tables(tableBucketARN=arns[scope])["tables"], [],
                             "a namesake bucket in another scope holds none of these tables")

        s3tables[second].delete_table(tableBucketARN=arns[second], namespace="sales", name="orders")
        s3tables[second].delete_namespace(tableBucketARN=arns[second], namespace="sales")
        s3tables[second].delete_table_bucket(tableBucketARN=arns[second])
        self.assertEqual(s3tables[first].get_table(tableBucketARN=arns[first], namespace="sales", name="orders")
                         ["tableARN"], t1["tableARN"], "deleting a namesake in another scope leaves this one")
        for scope in SCOPES[:3]:
            self.assertEqual(s3tables[scope].get_table_bucket(tableBucketARN=arns[scope])["name"], "same-name",
                             "the other scopes keep their bucket")
        self.assertEqual(s3tables[second].create_table_bucket(name="same-name")["arn"], arns[second],
                         "the deleted scope can take the name again")

    def test_configuration_and_tags_belong_to_one_scope(self):
        arn1 = self.client(A1, R1).create_table_bucket(name="config-scope", tags={"team": "one"})["arn"]
        arn2 = self.client(A1, R2).create_table_bucket(name="config-scope")["arn"]
        self.client(A1, R1).put_table_bucket_encryption(
            tableBucketARN=arn1, encryptionConfiguration={"sseAlgorithm": "aws:kms",
                                                           "kmsKeyArn": "arn:aws:kms:us-east-1:%s:key/k1" % A1})
        self.assertEqual(self.client(A1, R2).get_table_bucket_encryption(tableBucketARN=arn2)
                         ["encryptionConfiguration"]["sseAlgorithm"], "AES256",
                         "a namesake bucket in another region keeps the default encryption")
        self.assertEqual(self.client(A1, R1).get_table_bucket_encryption(tableBucketARN=arn1)
                         ["encryptionConfiguration"]["sseAlgorithm"], "aws:kms", "the configured bucket has its own")
        self.assertEqual(self.client(A1, R2).list_tags_for_resource(resourceArn=arn2)["tags"], {},
                         "tags of a namesake bucket in another region do not show")
        self.assertEqual(self.client(A1, R1).list_tags_for_resource(resourceArn=arn1)["tags"], {"team": "one"},
                         "the bucket's own tags do")

    def test_an_arn_of_another_account_is_access_denied_and_of_another_region_not_found(self):
        owner = self.client(A1, R1)
        arn = owner.create_table_bucket(name="foreign-arn")["arn"]
        owner.create_namespace(tableBucketARN=arn, namespace=["sales"])
        table_arn = self.table(owner, arn, "sales", "orders")["tableARN"]
        # AWS answers a caller whom no policy grants access AccessDeniedException, naming the caller,
        # the action and the resource; its own account's missing resource is NotFoundException.
        for account, region in [(A2, R1), (A1, R2), (A2, R2), (DEFAULT_ACCOUNT, DEFAULT_REGION)]:
            other = self.client(account, region)
            code = "NotFoundException" if account == A1 else "AccessDeniedException"
            with self.subTest(account=account, region=region):
                resp = self.assertClientError(code, other.get_table_bucket, tableBucketARN=arn)
                if account != A1:
                    self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403, "access denied is a 403")
                    self.assertEqual(resp["Error"]["Message"],
                                     "User: arn:aws:iam::%s:root is not authorized to perform: s3tables:GetTableBucket"
                                     " on resource: %s because no resource-based policy allows the"
                                     " s3tables:GetTableBucket action" % (account, arn),
                                     "the message names the caller, the action and the resource, as IAM's does")
                self.assertClientError(code, other.get_namespace, tableBucketARN=arn, namespace="sales")
                self.assertClientError(code, other.list_namespaces, tableBucketARN=arn)
                self.assertClientError(code, other.list_tables, tableBucketARN=arn)
                self.assertClientError(code, other.get_table, tableBucketARN=arn, namespace="sales", name="orders")
                self.assertClientError(code, other.get_table, tableArn=table_arn)
                self.assertClientError(code, other.tag_resource, resourceArn=arn, tags={"k": "v"})
                self.assertClientError(code, other.tag_resource, resourceArn=table_arn, tags={"k": "v"})
                self.assertClientError(code, other.list_tags_for_resource, resourceArn=arn)
                self.assertClientError(code, other.create_namespace, tableBucketARN=arn, namespace=["intruder"])
                self.assertClientError(code, other.delete_table, tableBucketARN=arn, namespace="sales",
                                       name="orders")
                self.assertClientError(code, other.delete_table_bucket, tableBucketARN=arn)
        self.assertEqual(owner.get_table(tableArn=table_arn)["name"], "orders",
                         "the owner still finds its table after every foreign attempt")
        self.assertEqual(owner.list_tags_for_resource(resourceArn=arn)["tags"], {},
                         "no foreign TagResource reached the bucket")
        self.assertEqual([n["namespace"] for n in owner.list_namespaces(tableBucketARN=arn)["namespaces"]],
                         [["sales"]], "no foreign CreateNamespace reached the bucket")

    # -- the aws CLI -------------------------------------------------------------------------------

    def aws_as(self, account, *args):
        """/usr/bin/aws with access key `account`; returns the parsed JSON output."""
        self.require_tool(AWS_CLI)
        env = client_env(self.server)
        env["AWS_ACCESS_KEY_ID"] = account
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json"] + list(args),
                              capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, "aws %s succeeds: %s" % (" ".join(args), proc.stderr))
        return json.loads(proc.stdout) if proc.stdout.strip() else None

    def test_the_aws_cli_acts_in_the_region_given_by_its_region_option(self):
        out = self.aws_as("floe-test", "--region", "eu-west-1", "s3tables", "create-table-bucket",
                          "--name", "cli-region")
        self.assertEqual(out["arn"], bucket_arn(DEFAULT_ACCOUNT, "eu-west-1", "cli-region"),
                         "aws --region eu-west-1 creates the table bucket in eu-west-1")
        in_east = self.aws_as("floe-test", "--region", "us-east-1", "s3tables", "list-table-buckets",
                              "--prefix", "cli-region")
        self.assertEqual(in_east["tableBuckets"], [], "aws --region us-east-1 does not list it")
        in_west = self.aws_as("floe-test", "--region", "eu-west-1", "s3tables", "list-table-buckets",
                              "--prefix", "cli-region")
        self.assertEqual([b["arn"] for b in in_west["tableBuckets"]], [out["arn"]], "aws --region eu-west-1 does")
        got = self.aws_as(A2, "--region", "eu-west-1", "s3tables", "create-table-bucket", "--name", "cli-region")
        self.assertEqual(got["arn"], bucket_arn(A2, "eu-west-1", "cli-region"),
                         "a 12-digit AWS_ACCESS_KEY_ID is the account of the aws CLI's requests")

    # -- the Iceberg REST catalog ------------------------------------------------------------------

    def rest(self, method, path, body=None, query=None, base="/_floe/iceberg", sign_as=None):
        url = self.server.endpoint + base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json"} if data is not None else {}
        if sign_as is not None:
            import botocore.auth
            import botocore.awsrequest
            import botocore.credentials
            request = botocore.awsrequest.AWSRequest(method=method, url=url, data=data, headers=headers)
            botocore.auth.SigV4Auth(botocore.credentials.Credentials(sign_as[0], "secret"), "s3tables",
                                    sign_as[1]).add_auth(request)
            headers = dict(request.headers.items())
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                raw = r.read()
                return r.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            with e:
                raw = e.read()
                return e.code, json.loads(raw) if raw else None

    def test_the_unsigned_iceberg_catalog_takes_its_scope_from_the_warehouse_arn(self):
        here = self.s3tables.create_table_bucket(name="rest-scope")["arn"]
        there = self.client(A2, R2).create_table_bucket(name="rest-scope")["arn"]
        status, config = self.rest("GET", "/v1/config", query={"warehouse": there})
        self.assertEqual(status, 200, "GetConfig finds a warehouse in another account and region: %s" % config)
        prefix = config["overrides"]["prefix"]
        self.assertEqual(urllib.parse.unquote(prefix), there, "the prefix is that warehouse's ARN")
        status, body = self.rest("POST", "/v1/%s/namespaces" % prefix, {"namespace": ["from_rest"]})
        self.assertEqual(status, 200, "createNamespace through the unsigned catalog succeeds: %s" % body)
        status, body = self.rest("POST", "/v1/%s/namespaces/from_rest/tables" % prefix,
                                 {"name": "t", "schema": {"type": "struct", "fields": [
                                     {"id": 1, "name": "id", "type": "long", "required": True}]}})
        self.assertEqual(status, 200, "createTable through the unsigned catalog succeeds: %s" % body)
        self.assertEqual([n["namespace"] for n in self.client(A2, R2).list_namespaces(tableBucketARN=there)
                          ["namespaces"]], [["from_rest"]],
                         "the namespace is in the bucket of the warehouse ARN's account and region")
        table = self.client(A2, R2).get_table(tableBucketARN=there, namespace="from_rest", name="t")
        self.assertEqual(table["ownerAccountId"], A2, "the table's owner is the warehouse ARN's account")
        self.assertEqual(self.s3tables.list_namespaces(tableBucketARN=here)["namespaces"], [],
                         "the namesake bucket of the default scope is untouched")
        status, body = self.rest("GET", "/v1/%s/namespaces" % urllib.parse.quote(
            bucket_arn(A1, R2, "rest-scope"), safe=""))
        self.assertEqual(status, 404, "a warehouse ARN naming a scope without that bucket is not found")
        self.assertEqual(body["error"]["type"], "NoSuchWarehouseException", "as NoSuchWarehouseException")

    def test_the_signed_iceberg_catalog_takes_its_scope_from_the_signature(self):
        there = self.client(A1, R2).create_table_bucket(name="rest-signed")["arn"]
        prefix = urllib.parse.quote(there, safe="")
        status, body = self.rest("POST", "/v1/%s/namespaces" % prefix, {"namespace": ["signed_ns"]}, base="/iceberg",
                                 sign_as=(A1, R2))
        self.assertEqual(status, 200, "a request signed by the bucket's account in its region is served: %s" % body)
        self.assertEqual([n["namespace"] for n in self.client(A1, R2).list_namespaces(tableBucketARN=there)
                          ["namespaces"]], [["signed_ns"]], "and acts on that bucket")
        status, body = self.rest("GET", "/v1/%s/namespaces" % prefix, base="/iceberg", sign_as=(A2, R2))
        self.assertEqual(status, 403, "a request signed by another account is refused the warehouse: %s" % body)
        self.assertEqual(body["error"]["type"], "NotAuthorizedException",
                         "in the Iceberg REST error shape, as the S3 Tables API refuses that ARN")
        status, body = self.rest("GET", "/v1/%s/namespaces" % prefix, base="/iceberg", sign_as=(A1, R1))
        self.assertEqual(status, 404, "nor does one signed for another region: %s" % body)

    # -- S3 bucket names ---------------------------------------------------------------------------

    def test_s3_bucket_names_are_one_name_space_across_accounts(self):
        s3_a1, s3_a2 = self.client(A1, R1, "s3"), self.client(A2, R1, "s3")
        s3_a1.create_bucket(Bucket="global-name")
        resp = self.assertClientError("BucketAlreadyExists", s3_a2.create_bucket, Bucket="global-name")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 409, "another account's name answers 409")
        self.assertClientError("BucketAlreadyExists", self.client(A2, R2, "s3").create_bucket, Bucket="global-name",
                               CreateBucketConfiguration={"LocationConstraint": R2})
        self.assertClientError("BucketAlreadyExists", self.client(DEFAULT_ACCOUNT, R1, "s3").create_bucket,
                               Bucket="global-name")
        resp = self.assertClientError("BucketAlreadyOwnedByYou", s3_a1.create_bucket, Bucket="global-name")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 409, "one's own name answers 409 too")

    def test_list_buckets_lists_the_requesters_own(self):
        s3_a1, s3_a2 = self.client(A1, R1, "s3"), self.client(A2, R2, "s3")
        s3_a1.create_bucket(Bucket="listed-by-one")
        s3_a2.create_bucket(Bucket="listed-by-two", CreateBucketConfiguration={"LocationConstraint": R2})
        mine = lambda s3: [b["Name"] for b in s3.list_buckets()["Buckets"] if b["Name"].startswith("listed-by-")]
        self.assertEqual(mine(s3_a1), ["listed-by-one"], "ListBuckets shows account one only its bucket")
        self.assertEqual(mine(s3_a2), ["listed-by-two"], "and account two only its own")
        self.assertEqual(mine(self.client(A2, R1, "s3")), ["listed-by-two"],
                         "an account's buckets list from every region")
        self.assertEqual(mine(self.client(DEFAULT_ACCOUNT, R1, "s3")), [], "the default account owns neither")

    def test_a_presigned_url_acts_in_the_account_of_its_credential(self):
        import botocore.config
        self.client(A2, R1, "s3").create_bucket(Bucket="presigned-by-two")
        # boto3 1.26 presigns S3 URLs with SigV2 (AWSAccessKeyId) unless told s3v4 (X-Amz-Credential).
        for version in ("s3", "s3v4"):
            with self.subTest(signature_version=version):
                s3 = self.session.client("s3", endpoint_url=self.server.endpoint, region_name=R2,
                                         aws_access_key_id=A2, aws_secret_access_key="secret",
                                         config=botocore.config.Config(signature_version=version))
                self.addCleanup(s3.close)
                url = s3.generate_presigned_url("list_buckets", ExpiresIn=300)
                with urllib.request.urlopen(url, timeout=30) as r:
                    body = r.read().decode()
                self.assertIn("<Name>presigned-by-two</Name>", body,
                              "a presigned ListBuckets lists the buckets of the account whose key signed it")

    def test_warehouse_names_stay_unique_across_scopes(self):
        locations = set()
        for account, region in SCOPES:
            s3tables = self.client(account, region)
            arn = s3tables.create_table_bucket(name="warehouse-names")["arn"]
            s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
            self.table(s3tables, arn, "sales", "orders")
            locations.add(s3tables.get_table(tableBucketARN=arn, namespace="sales", name="orders")
                          ["warehouseLocation"])
        self.assertEqual(len(locations), 4, "four namesake tables in four scopes have four warehouses")
        warehouse = sorted(locations)[0][len("s3://"):]
        for account in (A1, A2):
            self.assertClientError("InvalidBucketName", self.client(account, R1, "s3").create_bucket,
                                   Bucket=warehouse)


class StrictSignatureScopeTests(FloeTestCase):
    """With --strict-signatures on, a 12-digit access key is still the account (LocalStack's rule)."""

    server_args = ("--strict-signatures", "--credentials", "%s:secret-one" % A1, "--credentials", "AKIDNOTANACCOUNT:sk")

    def client_with(self, key, secret, region):
        client = self.session.client("s3tables", endpoint_url=self.server.endpoint, region_name=region,
                                     aws_access_key_id=key, aws_secret_access_key=secret, config=self.botocore_config)
        self.addCleanup(client.close)
        return client

    def test_a_verified_twelve_digit_key_is_the_account(self):
        arn = self.client_with(A1, "secret-one", R2).create_table_bucket(name="strict-scope")["arn"]
        self.assertEqual(arn, bucket_arn(A1, R2, "strict-scope"),
                         "a verified 12-digit access key acts in that account, in the region it signed for")
        other = self.client_with("AKIDNOTANACCOUNT", "sk", R2).create_table_bucket(name="strict-scope")["arn"]
        self.assertEqual(other, bucket_arn(DEFAULT_ACCOUNT, R2, "strict-scope"),
                         "a verified key that is not 12 digits acts in the default account")
        self.assertClientError("InvalidSignatureException", self.client_with(A1, "wrong", R2).list_table_buckets)


if __name__ == "__main__":
    main()
