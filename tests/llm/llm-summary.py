#!/usr/bin/python3
"""Summarise a make llm-check run: per operator, test-backend-ops cases
passed / failed / not supported on CANN0 and whether the process ended
normally; then the decode comparison and the benchmark lines."""
import os
import re
import sys

res = sys.argv[1]
case = re.compile(r'^  ([A-Z_0-9]+)\((.*)\): (.*)$')
rows = []
tot = [0, 0, 0, 0]
opdir = os.path.join(res, 'ops')
for f in sorted(os.listdir(opdir)) if os.path.isdir(opdir) else []:
    if not f.endswith('.log'):
        continue
    op = f[:-4]
    text = open(os.path.join(opdir, f), errors='replace').read()
    text = re.sub(r'\x1b\[[0-9;]*m', '', text)
    ok = fail = nsup = 0
    for line in text.splitlines():
        m = case.match(line)
        if not m:
            continue
        st = m.group(3)
        if st.startswith('not supported'):
            nsup += 1
        elif st.endswith('OK'):
            ok += 1
        elif st.endswith('FAIL'):
            fail += 1
    try:
        rc = int(open(os.path.join(opdir, op + '.rc')).read())
    except (OSError, ValueError):
        rc = -1
    if ok + fail + nsup == 0 and rc == 0:
        continue                # ggml has no test case for this op
    ended = 'ok' if rc == 0 else ('fail' if rc == 1 else 'abort rc %d' % rc)
    rows.append((op, ok, fail, nsup, ended))
    tot[0] += ok
    tot[1] += fail
    tot[2] += nsup
    tot[3] += rc not in (0, 1)

lines = ['| operator | passed | failed | not supported | process |',
         '|---|---:|---:|---:|---|']
for r in rows:
    lines.append('| %s | %d | %d | %d | %s |' % r)
lines.append('| **total** | %d | %d | %d | %d aborted |' % tuple(tot))
commit = ''
try:
    commit = open(os.path.join(res, 'ggml-commit')).read().strip()
except OSError:
    pass
out = ['# test-backend-ops -b CANN0 (ggml %s)' % commit, ''] + lines
for name in ('decode', 'bench'):
    p = os.path.join(res, name + '.log')
    if os.path.exists(p):
        out += ['', '## %s' % name, '', '```']
        out += [l for l in open(p, errors='replace').read().splitlines()
                if l.startswith(('#', 'result', 'tokens', 'pp', 'tg', 'ratio', 'model'))][-60:]
        out += ['```']
text = '\n'.join(out) + '\n'
open(os.path.join(res, 'summary.md'), 'w').write(text)
print(text)
bad = tot[1] + tot[3]
for name in ('decode',):
    p = os.path.join(res, name + '.rc')
    if os.path.exists(p) and open(p).read().strip() != '0':
        bad += 1
sys.exit(1 if bad else 0)
