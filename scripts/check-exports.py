#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The ABI of libascendcl is the explicit list in lib/libacl.map (issue 32).
Checks, as TAP, that the map, the built library and the public headers
agree:

  - the map has one version node, VNPU_ACL_1.0, whose global: section is
    a list of names (no wildcard) and whose local: section is `*`;
  - the names are sorted (C locale) and unique;
  - every symbol the library exports is listed in the map;
  - every name the map lists is defined by the library;
  - every function the public headers declare with ACL_FUNC_VISIBILITY,
    ACLNN_API or MSVP_PROF_API (scripts/acl_decls.py) is in the map;
  - every name the map lists is declared by a public header;
  - the static archive's global definitions are the map's names (the
    archive has no version script: its globals are what the headers mark
    visible), when the archive is given or TOP/build/lib/libascendcl.a
    exists and --exports is not used.

Exits 1 when any check fails, naming the symbols.

usage: check-exports.py [--map FILE] [--lib SO | --exports FILE]
                        [--archive A] [--top DIR]
  --map FILE      the version script (default TOP/lib/libacl.map)
  --lib SO        the shared object (default TOP/build/lib/libascendcl.so)
  --exports FILE  instead of --lib: the exported names, one a line (tests)
  --archive A     the static archive (default TOP/build/lib/libascendcl.a)
  --top DIR       the source tree whose include/ is read (default: this
                  script's tree)"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acl_decls  # noqa: E402

NODE = "VNPU_ACL_1.0"


def parse_map(path):
    """Return (nodes, errors): nodes is a list of (name, global, local),
    global and local lists of the names in file order."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"#[^\n]*", " ", text)
    nodes, errors = [], []
    pos = 0
    for m in re.finditer(r"([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*([\w.]*)\s*;", text, flags=re.S):
        if text[pos:m.start()].strip():
            errors.append("unparsed text before node %s: %r"
                          % (m.group(1), text[pos:m.start()].strip()[:40]))
        pos = m.end()
        if m.group(3):
            errors.append("node %s depends on %s" % (m.group(1), m.group(3)))
        sections = {"global": [], "local": []}
        cur = None
        for tok in re.split(r"(\bglobal\s*:|\blocal\s*:|;)", m.group(2)):
            tok = tok.strip()
            if not tok or tok == ";":
                continue
            if tok.endswith(":"):
                cur = tok[:-1].strip()
                continue
            if cur is None:
                cur = "global"
            sections[cur].append(tok)
        nodes.append((m.group(1), sections["global"], sections["local"]))
    if text[pos:].strip():
        errors.append("unparsed text at the end: %r" % text[pos:].strip()[:40])
    return nodes, errors


def lib_exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # "A" is the version node itself (VNPU_ACL_1.0), not a symbol.
        if len(parts) == 3 and parts[1] != "A":
            names.add(parts[2].split("@")[0])
    return names


def archive_globals(archive):
    out = subprocess.run(["nm", "-g", "--defined-only", archive], check=True,
                         capture_output=True, text=True).stdout
    return {p[2] for p in (line.split() for line in out.splitlines()) if len(p) == 3}


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = sys.argv[1:]
    opts = {}
    while args:
        a = args.pop(0)
        if a in ("--map", "--lib", "--exports", "--archive", "--top") and args:
            opts[a] = args.pop(0)
        else:
            sys.exit(__doc__)
    top = opts.get("--top", top)
    mapfile = opts.get("--map", os.path.join(top, "lib", "libacl.map"))
    if "--exports" in opts:
        exported = set(open(opts["--exports"], encoding="utf-8").read().split())
        source = opts["--exports"]
    else:
        source = opts.get("--lib", os.path.join(top, "build", "lib", "libascendcl.so"))
        exported = lib_exports(source)
    declared = {d["name"] for d in acl_decls.declarations(top)}

    n, fail = 0, 0

    def check(desc, bad):
        nonlocal n, fail
        n += 1
        print(("not ok" if bad else "ok") + " %d - %s" % (n, desc))
        for b in bad:
            print("#   " + b)
        fail |= bool(bad)

    nodes, errors = parse_map(mapfile)
    listed = []
    if [x[0] for x in nodes] != [NODE]:
        errors.append("version nodes %s, expected exactly [%s]"
                      % ([x[0] for x in nodes], NODE))
    for name, glob, local in nodes:
        listed += glob
        errors += ["%s: a pattern in global: %s" % (name, g)
                   for g in glob if re.search(r"[*?\[\]\s\"]", g)]
        if local != ["*"]:
            errors.append("%s: local: is %s, expected *" % (name, local))
    check("%s: one node %s, names only in global:, local: *"
          % (os.path.basename(mapfile), NODE), errors)

    dups = sorted({x for x in listed if listed.count(x) > 1})
    order = ["%s before %s" % (a, b) for a, b in zip(listed, listed[1:]) if a > b]
    check("the map's names are sorted (C locale) and unique",
          ["duplicate: " + x for x in dups] + ["unsorted: " + x for x in order])

    mapped = set(listed)
    check("every symbol %s exports is listed in the map" % os.path.basename(source),
          ["exported, not in the map: " + x for x in sorted(exported - mapped)])
    check("every name the map lists is defined by %s" % os.path.basename(source),
          ["in the map, not defined: " + x for x in sorted(mapped - exported)])
    check("every function the public headers declare is listed in the map",
          ["declared, not in the map: " + x for x in sorted(declared - mapped)])
    check("every name the map lists is declared by a public header",
          ["in the map, not declared: " + x for x in sorted(mapped - declared)])
    archive = opts.get("--archive")
    if archive is None and "--exports" not in opts:
        archive = os.path.join(top, "build", "lib", "libascendcl.a")
        archive = archive if os.path.exists(archive) else None
    if archive:
        glob = archive_globals(archive)
        check("the globals %s defines are the map's names" % os.path.basename(archive),
              ["global in the archive, not in the map: " + x for x in sorted(glob - mapped)]
              + ["in the map, not global in the archive: " + x for x in sorted(mapped - glob)])
    print("# %d names in the map, %d exported, %d declared"
          % (len(mapped), len(exported), len(declared)))
    print("1..%d" % n)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
