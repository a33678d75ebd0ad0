#!/usr/bin/python3
"""The AWS SDK for Go v2 against Floe: tests/sdk/go/ calls every S3 Tables operation of the model
with realistic input and checks each typed output member; puts, gets and uploads in parts into a
table's warehouse over S3; and creates a CloudFormation stack of the five AWS::S3Tables types,
waited on with the SDK's StackCreateCompleteWaiter. It runs against a server as is and against one
with --strict-signatures. The program is built offline from the modules go.sum pins, which
scripts/setup-deps downloads; its build cache is ~/.cache/floe-sdk-tests/go-build."""

import os
import sys

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
import sdk_program  # noqa: E402
from floe_server import main  # noqa: E402

GO_DIR = os.path.join(sdk_program.SDK_DIR, "go")
# A cold build compiles the S3 and CloudFormation clients: about a minute on two busy cores.
BUILD_TIMEOUT_S = 900


class GoSdkTests(sdk_program.SdkProgramTestCase):
    language = "Go"

    @classmethod
    def build(cls):
        go = sdk_program.find_tool("go", "/usr/local/go/bin/go")
        if go is None:
            sdk_program.tool_missing("go is not installed (the Go SDK test needs Go 1.24 or later)")
        out_dir = os.path.join(os.environ.get("FLOE_BUILD_DIR", sdk_program.CACHE_DIR), "sdk")
        os.makedirs(out_dir, exist_ok=True)
        program = os.path.join(out_dir, "floe-go-sdk-test")
        env = dict(os.environ)
        # Offline and exactly as pinned: the module cache filled by scripts/setup-deps, go.sum
        # unchanged, no toolchain download, no workspace from a parent directory.
        env.update({"GOFLAGS": "-mod=readonly -buildvcs=false", "GOPROXY": "off", "GOTOOLCHAIN": "local",
                    "GOWORK": "off", "GOCACHE": os.path.join(sdk_program.CACHE_DIR, "go-build")})
        sdk_program.run_logged([go, "build", "-o", program, "."], GO_DIR, env, BUILD_TIMEOUT_S,
                               "building tests/sdk/go offline (has scripts/setup-deps run?)")
        return program


if __name__ == "__main__":
    main()
