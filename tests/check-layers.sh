#!/bin/sh
# check-layers.sh [--headers] [ROOT] - the include rules of docs/architecture.md, checked over
# the #include lines of every file of src/.
#
# Everything is read from the document, so the two cannot drift apart:
#   - the "Layers, lowest first:" line gives each folder's layer;
#   - the table of section 2 gives what each folder owns (the .h names of the "owns" column)
#     and what it may include: a folder in backticks allows its headers; header names in
#     parentheses after it narrow that to those headers; "every folder listed above" allows the
#     folders of the rows above; a header name on its own allows that header.
# An include fails when the table does not allow it, when it reaches a higher layer, when the
# TUI includes a header of the CLI, or when it names a public header no folder owns. Circles of
# includes between folders (a file of A includes a header of B, and one of B, maybe through
# others, a header of A) fail too. A violation known and not yet fixed is listed in KNOWN,
# reported and not failed; none is left today (the simulator's codecs and the TUI's cli.h were
# the last). A known one that is gone fails, so the list stays true.
# --headers checks the public headers of include/ too (as their owners' code).
# Closing line: "layers: N includes in N files checked, N violations".
set -u
headers=0
[ "${1:-}" = --headers ] && { headers=1; shift; }
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
exec python3 - "$root" "$headers" <<'PY'
import glob, os, re, sys

root, headers = sys.argv[1], sys.argv[2] == "1"
doc_path = os.path.join(root, "docs", "architecture.md")
doc = open(doc_path).read().splitlines()
bad, known, seen_known = [], [], set()

# Known violations, (including folder or file, header): why. Remove an entry when its fix lands
# (t_docs proves a stale entry fails on a copy of this script with one made up).
KNOWN = {
}

def folder_name(tok):
    tok = tok.strip("`")
    if tok.startswith("src/"):
        tok = tok[4:]
    return "main" if tok == "main.c" else tok.rstrip("/")

# --- the layers line
rank = {}
for line in doc:
    if line.startswith("Layers, lowest first:"):
        for i, part in enumerate(line.split(":", 1)[1].split("<")):
            for f in re.findall(r"`([^`]+)`", part):
                rank[folder_name(f)] = i
if not rank:
    sys.exit("check-layers: no \"Layers, lowest first:\" line in docs/architecture.md")

# --- the table: | folder | owns | may include |
owners, allow, order = {}, {}, []
intable = False
for line in doc:
    if line.startswith("| folder | owns | may include |"):
        intable = True
        continue
    if intable and not line.startswith("|"):
        break
    if not intable or line.startswith("|---"):
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 3:
        sys.exit("check-layers: a row of the table has %d cells: %s" % (len(cells), line))
    folder = folder_name(cells[0])
    order.append(folder)
    for h in re.findall(r"`([\w./]+\.h)`", cells[1]):
        owners.setdefault(os.path.basename(h), set()).add(folder)
    rules = {folder: None}  # folder -> None (all its headers) or a set of header names
    headers_ok = set()
    if "every folder listed above" in cells[2]:
        for f in order[:-1]:
            rules[f] = None
    depth, last = 0, None
    for m in re.finditer(r"`([^`]+)`|\(|\)", cells[2]):
        t = m.group(0)
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif m.group(1).endswith(".h"):
            if depth and last:
                if rules[last] is None:
                    rules[last] = set()
                rules[last].add(os.path.basename(m.group(1)))
            elif not depth:
                headers_ok.add(os.path.basename(m.group(1)))
        elif not depth:
            last = folder_name(m.group(1))
            rules[last] = None
    allow[folder] = (rules, headers_ok)
if not allow:
    sys.exit("check-layers: no \"| folder | owns | may include |\" table in docs/architecture.md")
for f in allow:
    for d in allow[f][0]:
        if d not in allow:
            bad.append("docs/architecture.md: %s may include `%s`, which is no folder of the table"
                       % (f, d))
    if f not in rank:
        bad.append("docs/architecture.md: folder %s is in the table but not on the Layers line" % f)

def public(h):
    base = os.path.basename(h)
    if not owners.get(base):
        bad.append("docs/architecture.md: no folder owns %s (add it to the owns column)" % h)
        return set()
    return owners[base]

def check(path, folders):
    """Check the includes of one file, which belongs to folders (its owners)."""
    n_inc = 0
    rel = os.path.relpath(path, root)
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        n_inc += 1
        inc = m.group(1)
        first = inc.split("/")[0]
        if inc == "raidplan.h" or first == "shortstroke":
            to, hname = public(inc), os.path.basename(inc)
        elif "/" in inc and os.path.isdir(os.path.join(root, "src", first)):
            to, hname = {first}, os.path.basename(inc)
        elif os.path.exists(os.path.join(os.path.dirname(path), inc)):
            to, hname = set(folders), inc
        else:
            bad.append("%s:%d: includes %s, which is not in the repository" % (rel, n, inc))
            continue
        for frm in folders:
            if frm in to:
                continue
            for dst in sorted(to):
                edges.setdefault((frm, dst), "%s:%d (%s)" % (rel, n, inc))
            rules, headers_ok = allow.get(frm, ({}, set()))
            ok = hname in headers_ok or any(
                d in rules and (rules[d] is None or hname in rules[d]) for d in to)
            up = [d for d in to if rank.get(d, -1) > rank.get(frm, -1)]
            why = None
            if frm == "tui" and "cli" in to:
                why = "the TUI includes the CLI (%s)" % inc
            elif not ok:
                why = "src/%s may not include %s (of src/%s)" % (frm, inc, "+".join(sorted(to)))
            elif up and len(up) == len(to):
                why = "src/%s (layer %d) includes %s of a higher layer (src/%s, layer %d)" % (
                    frm, rank.get(frm, -1), inc, up[0], rank[up[0]])
            if why is None:
                continue
            key = next((k for k in ((rel, inc), (frm, inc)) if k in KNOWN), None)
            if key:
                seen_known.add(key)
                known.append("known: %s:%d: %s; %s" % (rel, n, why, KNOWN[key]))
            else:
                bad.append("%s:%d: %s" % (rel, n, why))
    return n_inc

edges = {}
n_files = n_inc = 0
for f in sorted(glob.glob(os.path.join(root, "src", "**", "*.[ch]"), recursive=True)):
    parts = os.path.relpath(f, os.path.join(root, "src")).split(os.sep)
    folder = "main" if parts == ["main.c"] else parts[0]
    if len(parts) == 1 and folder != "main":
        bad.append("src/%s: a file of src/ outside every folder of the table" % parts[0])
        continue
    if folder not in allow:
        bad.append("src/%s: folder %s is not in the table of docs/architecture.md" % (
            "/".join(parts), folder))
        continue
    n_files += 1
    n_inc += check(f, [folder])
if headers:
    for f in sorted(glob.glob(os.path.join(root, "include", "**", "*.h"), recursive=True)):
        fo = sorted(owners.get(os.path.basename(f), ()))
        if not fo:
            bad.append("%s: no folder owns it in docs/architecture.md" % os.path.relpath(f, root))
            continue
        n_files += 1
        n_inc += check(f, fo)

# --- circles between folders
graph = {}
for (a, b) in edges:
    graph.setdefault(a, set()).add(b)
def path_back(start):
    # the shortest circle from start back to itself, breadth first
    prev, todo = {}, [start]
    while todo:
        nxt = []
        for a in todo:
            for b in sorted(graph.get(a, ())):
                if b == start:
                    cyc, x = [start], a
                    while x != start:
                        cyc.append(x)
                        x = prev[x]
                    cyc.append(start)
                    return cyc[::-1]
                if b not in prev:
                    prev[b] = a
                    nxt.append(b)
        todo = nxt
    return None
done = set()
for a in sorted(graph):
    cyc = path_back(a)
    if cyc and frozenset(cyc) not in done:
        done.add(frozenset(cyc))
        hops = ", ".join("%s -> %s at %s" % (x, y, edges[(x, y)]) for x, y in zip(cyc, cyc[1:]))
        bad.append("include circle between folders %s: %s" % (" -> ".join(cyc), hops))

for k in sorted(set(KNOWN) - seen_known):
    bad.append("known violation %s includes %s is gone: remove it from KNOWN in %s" % (
        k[0], k[1], "tests/check-layers.sh"))
for line in known:
    print(line)
for line in bad:
    print(line)
print("layers: %d includes in %d files checked, %d violations" % (n_inc, n_files, len(bad)))
sys.exit(1 if bad else 0)
PY
