#!/usr/bin/python3
"""The AWS SDK for Rust against Floe: tests/sdk/rust/ (aws-sdk-s3tables, aws-sdk-s3) calls every
S3 Tables operation of the model with realistic input and checks each typed output member, and
puts, gets and uploads in parts into a table's warehouse over S3. It runs against a server as is
and against one with --strict-signatures. The program is built offline from the crates Cargo.lock
pins, which scripts/setup-deps fetches; Cargo's target directory is
~/.cache/floe-sdk-tests/rust-target, so only a fresh machine pays for the cold build (see
BUILD_TIMEOUT_S)."""

import os
import sys

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
import sdk_program  # noqa: E402
from floe_server import main  # noqa: E402

RUST_DIR = os.path.join(sdk_program.SDK_DIR, "rust")
TARGET_DIR = os.path.join(sdk_program.CACHE_DIR, "rust-target")
# A cold build compiles the SDK's 230-odd crates: 12 minutes on the CI machine's two busy cores
# (tests/sdk/README.md). A warm build only checks freshness.
BUILD_TIMEOUT_S = 2400


class RustSdkTests(sdk_program.SdkProgramTestCase):
    language = "Rust"

    @classmethod
    def build(cls):
        cargo = sdk_program.find_tool("cargo", os.path.expanduser("~/.cargo/bin/cargo"))
        if cargo is None:
            sdk_program.tool_missing("cargo is not installed (the Rust SDK test needs Rust 1.94.1 or later)")
        env = dict(os.environ)
        env.update({"CARGO_TARGET_DIR": TARGET_DIR, "CARGO_TERM_COLOR": "never"})
        # Offline and exactly as pinned: the crates scripts/setup-deps fetched, Cargo.lock unchanged.
        sdk_program.run_logged([cargo, "build", "--offline", "--locked", "--jobs", "2"], RUST_DIR, env, BUILD_TIMEOUT_S,
                               "building tests/sdk/rust offline (has scripts/setup-deps run?)")
        return os.path.join(TARGET_DIR, "debug", "floe-rust-sdk-test")


if __name__ == "__main__":
    main()
