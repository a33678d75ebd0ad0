"""Installs into a virtual environment exactly what one `pip install` block of docs/engines.md
installs, at the versions and with the hashes of the engines' lock (tests/engines/requirements.txt).

What this is for: scripts/setup-deps makes <build>/pyiceberg-page-venv from the page's PyIceberg
line, so that tests/e2e/engines/62-pyiceberg-installed-as-the-page-says.py runs the page's blocks with what
a user's line brings and nothing more (boto3, which SigV4 needs, comes only with an extra). pip
resolves the line itself, held to the lock's versions (a dry run with the lock as constraints);
the packages it picks are then installed with the lock's hashes (`--require-hashes`), so the
install is reproducible and checked, and the tests run offline afterwards. A line that names a
version the lock does not pin, or needs a package the lock lacks, is an error: the page and the
lock must agree. What it is not for: the engines' own environment (engines-venv, the whole lock).

Usage: install_from_page.py BLOCK LOCK VENV   (does nothing when VENV was made from the same block
and lock)
"""

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # run from setup-deps: no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import snippets  # noqa: E402

PIP_QUIET = ["--quiet", "--disable-pip-version-check", "--no-input", "--only-binary", ":all:"]


class PageError(Exception):
    pass


def canonical(name):
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(block):
    """The requirements of the page's block NAME, which must be one `pip install REQ...` line."""
    words = shlex.split(snippets.snippets()[block])
    if words[:2] != ["pip", "install"] or len(words) < 3 or any(w.startswith("-") for w in words[2:]):
        raise PageError("docs/engines.md: block %s is not one `pip install REQUIREMENT...` line" % block)
    return words[2:]


def lock_pins(lock):
    """{canonical name: (version, [hashes])} of a pip-compile --generate-hashes lock."""
    pins, current = {}, None
    with open(lock, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9._-]+)==(\S+)", line)
            if m:
                current = pins.setdefault(canonical(m.group(1)), (m.group(2), []))
            for h in re.findall(r"--hash=(\S+)", line):
                current[1].append(h)
    return pins


def check_pinned(reqs, pins):
    """Each requirement must be NAME[EXTRAS]==VERSION with the lock's version: {canonical name: req}."""
    named = {}
    for req in reqs:
        m = re.fullmatch(r"([A-Za-z0-9._-]+)(\[[A-Za-z0-9_,.-]+\])?==(\S+)", req)
        if not m:
            raise PageError("docs/engines.md: %r does not pin one version (NAME==VERSION)" % req)
        name, version = canonical(m.group(1)), m.group(3)
        pinned = pins.get(name, ("nothing",))[0]
        if pinned != version:
            raise PageError("docs/engines.md installs %s, the lock pins %s==%s" % (req, name, pinned))
        named[name] = req
    return named


def resolve(pip, reqs, pins, work):
    """[(canonical name, version)] pip installs for `reqs` when held to the lock's versions."""
    constraints = os.path.join(work, "constraints.txt")
    with open(constraints, "w", encoding="utf-8") as f:
        f.writelines("%s==%s\n" % (name, pin[0]) for name, pin in sorted(pins.items()))
    report = os.path.join(work, "resolved.json")
    subprocess.run([pip, "install", "--dry-run", "--ignore-installed", "--report", report, "-c", constraints]
                   + PIP_QUIET + reqs, check=True)
    with open(report, encoding="utf-8") as f:
        return [(canonical(i["metadata"]["name"]), i["metadata"]["version"]) for i in json.load(f)["install"]]


def hashed_requirements(resolved, named, pins):
    """The requirements file that installs exactly `resolved`, each with the lock's hashes."""
    lines = []
    for name, version in resolved:
        if name not in pins or pins[name][0] != version:
            raise PageError("the page's line needs %s==%s, which the lock does not pin" % (name, version))
        req = named.get(name, "%s==%s" % (name, version))
        lines.append(" ".join([req] + ["--hash=%s" % h for h in pins[name][1]]) + "\n")
    return "".join(sorted(lines))


def stamp(block, lock):
    """What an environment made from `block` and `lock` records (VENV/page-install.sha256)."""
    with open(lock, "rb") as f:
        return hashlib.sha256(snippets.snippets()[block].encode() + b"\0" + f.read()).hexdigest()


def install(block, lock, venv):
    made = stamp(block, lock)
    stamp_path = os.path.join(venv, "page-install.sha256")
    if os.path.exists(os.path.join(venv, "bin", "python")) and os.path.exists(stamp_path):
        with open(stamp_path, encoding="utf-8") as f:
            if f.read().strip() == made:
                return
    reqs, pins = requirements(block), lock_pins(lock)
    named = check_pinned(reqs, pins)
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
    pip = os.path.join(venv, "bin", "pip")
    hashed = os.path.join(venv, "requirements.txt")
    with open(hashed, "w", encoding="utf-8") as f:
        f.write(hashed_requirements(resolve(pip, reqs, pins, venv), named, pins))
    subprocess.run([pip, "install", "--require-hashes", "-r", hashed] + PIP_QUIET, check=True)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(made + "\n")


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: install_from_page.py BLOCK LOCK VENV\n")
        return 2
    try:
        install(*argv)
    except (PageError, subprocess.CalledProcessError) as e:
        sys.stderr.write("install_from_page.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
