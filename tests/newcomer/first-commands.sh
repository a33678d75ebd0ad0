#!/bin/bash
# What a newcomer runs first, on a clean clone, as .ci/run's first step (before the sanitizer
# build): the README's first command, `scripts/run`, must build the default configuration (the
# plain `cmake -S . -B build && cmake --build build`, RelWithDebInfo: -O2, where GCC runs analyses
# the sanitizer build's -O0 skips) with warnings as errors and reach a serving Floe; then the
# README's "A first session" block, run literally, must work against it.
#
# The clone is of HEAD: uncommitted changes are not in it. Usage: tests/newcomer/first-commands.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/floe-newcomer.XXXXXX")
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  # A server the README's block started and a failure left behind.
  pkill -f "^$work/floe/build/floe serve" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A newcomer's shell: Debian's PATH (not this machine's pyenv or toolchains), no AWS_* settings.
# An array, not a function: a backgrounded function would be a subshell, and $! its pid, not floe's.
newcomer=(env -i HOME="$HOME" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
fail() { echo "first-commands: FAIL: $*" >&2; exit 1; }
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
health() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/_floe/health" 2>/dev/null || true; }

git clone -q "$root" "$work/floe"
cd "$work/floe"

# 1. scripts/run --port P on the clean clone: it builds, then serves; health answers 200; it stops.
port=$(free_port)
echo "first-commands: scripts/run --port $port on a clean clone (builds the default configuration)"
"${newcomer[@]}" scripts/run --port "$port" --in-memory >"$work/run.log" 2>&1 &
server=$!
deadline=$((SECONDS + 2400))
until [ "$(health "$port")" = 200 ]; do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -n 60 "$work/run.log" >&2
    fail "scripts/run exited before serving (its log's end is above)"
  fi
  [ "$SECONDS" -lt "$deadline" ] || fail "scripts/run did not serve within 40 minutes"
  sleep 1
done
echo "first-commands: ok: scripts/run serves (GET /_floe/health 200 after ${SECONDS} s)"
kill "$server"
rc=0
wait "$server" || rc=$?
server=""
[ "$rc" -eq 0 ] || fail "floe exited with $rc on SIGTERM, not 0"
echo "first-commands: ok: floe stops on SIGTERM"

# 2. The README's "A first session" block, literally (it uses port 4566 and starts its own server).
[ "$(health 4566)" = 000 ] || fail "port 4566 is in use: the README's first session needs it free"
awk '/^## A first session/ { inside = 1; next }
     inside && /^```sh$/ { block = 1; next }
     block && /^```$/ { exit }
     block { print }' README.md >"$work/first-session.sh"
[ -s "$work/first-session.sh" ] || fail "README.md has no sh block under '## A first session'"
{
  echo 'set -euo pipefail'
  cat "$work/first-session.sh"
  echo 'kill "$!"; wait "$!"   # the server the block started in the background'
} >"$work/first-session.run"
"${newcomer[@]}" timeout 600 bash "$work/first-session.run" >"$work/session.out" 2>"$work/session.err" || {
  cat "$work/session.out" "$work/session.err" >&2
  fail "the README's first session failed"
}
grep -q '"format-version"' "$work/session.out" ||
  { cat "$work/session.out" >&2; fail "the first session did not print the table's metadata.json"; }
grep -q '"status"' "$work/session.out" ||
  { cat "$work/session.out" >&2; fail "the first session did not print /_floe/health"; }
echo "first-commands: ok: the README's first session runs as written"
echo "first-commands: 3 passed, 0 failed"
