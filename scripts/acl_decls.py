# SPDX-License-Identifier: MIT
"""Parse the public ACL headers: every function they declare as
ACL_FUNC_VISIBILITY, with its return type and parameter list.

Shared by scripts/api-coverage.py and scripts/gen-unsupported.py."""
import glob
import os
import re

HEADER_GLOBS = ("include/acl/*.h", "include/acl/ops/*.h", "include/aclnn/*.h",
                "include/aclnnop/*.h", "include/mstx/*.h")


def _strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)
    return text


def _split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([" 
        depth -= ch in ")]"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_header(path):
    """Yield dicts: name, ret, params (list of strings), header."""
    text = _strip(open(path, encoding="utf-8").read())
    for m in re.finditer(r"(?:ACL_FUNC_VISIBILITY|ACLNN_API|MSVP_PROF_API)\s+([^;{}]*?)\s*;", text, flags=re.S):
        decl = " ".join(m.group(1).split())
        decl = re.sub(r"ACL_DEPRECATED_MESSAGE\(\"[^\"]*\"\)\s*", "", decl)
        decl = re.sub(r"\bACL_DEPRECATED\b\s*", "", decl)
        fm = re.match(r"(.*?)\b(\w+)\s*\((.*)\)\s*$", decl)
        if not fm:
            continue
        ret, name, params = fm.group(1).strip(), fm.group(2), fm.group(3).strip()
        plist = [] if params in ("", "void") else _split_params(params)
        yield {"name": name, "ret": ret, "params": plist,
               "header": os.path.relpath(path)}


def declarations(top="."):
    """Every declared function, first declaration wins, in header order."""
    seen, out = set(), []
    for g in HEADER_GLOBS:
        for path in sorted(glob.glob(os.path.join(top, g))):
            for d in parse_header(path):
                if d["name"] not in seen:
                    seen.add(d["name"])
                    d["header"] = os.path.relpath(path, top)
                    out.append(d)
    return out
