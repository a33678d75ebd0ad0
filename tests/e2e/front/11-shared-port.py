#!/usr/bin/python3
"""One port, one server: a second `floe serve` on a port another floe already serves (with one
event-loop thread or several) refuses to start, with the same message it gives when any other
program holds the port, and the first server keeps every connection."""

import os
import re
import socket
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeServer, client_env, main  # noqa: E402

START_TIMEOUT_S = 15
REQUESTS = 16


class SharedPortTests(unittest.TestCase):
    def second_serve(self, port, *extra):
        """Runs another `floe serve` on `port` over its own data directory; returns (exit code, output).
        A server that starts would never exit by itself: the timeout then fails the test."""
        with tempfile.TemporaryDirectory(prefix="floe-e2e-other-") as other:
            try:
                proc = subprocess.run([FLOE_BIN, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
                                       other] + list(extra), capture_output=True, text=True, timeout=START_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.fail("a second floe serve on port %d started serving instead of refusing the port" % port)
        return proc.returncode, proc.stdout + proc.stderr

    def client(self, server):
        import boto3
        os.environ.update(client_env(server))
        return boto3.session.Session().client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")

    def bucket_counts(self, server):
        """How many table buckets each of REQUESTS fresh clients (each its own connection) sees."""
        return [len(self.client(server).list_table_buckets()["tableBuckets"]) for _ in range(REQUESTS)]

    def refusal_when_another_program_holds_a_port(self):
        with socket.socket() as holder:
            holder.bind(("127.0.0.1", 0))
            holder.listen(1)
            return self.second_serve(holder.getsockname()[1])

    def check_refused(self, first_args, second_args):
        server = FloeServer(*first_args).start()
        try:
            self.client(server).create_table_bucket(name="first-server")
            rc, output = self.second_serve(server.port, *second_args)
            self.assertNotEqual(rc, 0, "a second floe on a port another floe serves exits with an error")
            other_rc, other_output = self.refusal_when_another_program_holds_a_port()
            self.assertNotEqual(other_rc, 0, "floe refuses a port another program holds")
            expected = re.sub(r":\d+:", ":PORT:", other_output.strip())
            self.assertEqual(re.sub(r":\d+:", ":PORT:", output.strip()), expected,
                             "the refusal is the message Floe gives when another program holds the port")
            self.assertIn("Address already in use", output, "the message says the address is in use")
            self.assertEqual(self.bucket_counts(server), [1] * REQUESTS,
                             "every connection still reaches the first server's buckets")
        finally:
            server.cleanup()

    def test_a_second_server_on_a_port_one_floe_serves_is_refused(self):
        self.check_refused((), ())

    def test_a_second_server_with_two_threads_is_refused(self):
        self.check_refused((), ("--threads", "2"))

    def test_a_two_thread_server_keeps_its_port_from_a_second_server(self):
        self.check_refused(("--threads", "2"), ("--threads", "2"))

    def test_a_two_thread_server_answers_on_every_connection(self):
        server = FloeServer("--threads", "2").start()
        try:
            self.client(server).create_table_bucket(name="two-threads")
            self.assertEqual(self.bucket_counts(server), [1] * REQUESTS,
                             "both threads serve connections on the one listening socket")
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
