#!/bin/sh
# check-symbols.sh OBJDIR [ROOT] - nothing dead, nothing exported by accident (issue 27.6).
#
# Reads the objects of a build (OBJDIR, e.g. build/obj: every src/**/*.o whose .c is still
# there) with nm: each function an object defines as global text (T), and each variable (D, B,
# R: data, zeroed data, read-only), must be referenced from
# another object (an undefined symbol, U, of it) or from the tests (tests/unit, tests/fuzz,
# tests/abi, tests/bench: their sources, comments left out, since they are built apart). One
# that is not fails:
#   - referenced in its own file only: it should be static (and leave its header);
#   - not referenced even there: it is dead, remove it.
# Exempt: libraidplan's public API (the functions include/raidplan.h declares), which its
# users outside this repository call, and the entries of ALLOW below, each with its reason. An
# ALLOW entry whose function is gone fails too, so the list stays true.
# Closing line: "symbols: N functions and N variables of N objects checked, N not used outside
# their file".
set -u
[ $# -ge 1 ] || { echo "usage: check-symbols.sh OBJDIR [ROOT]" >&2; exit 2; }
objdir=$1
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
exec python3 - "$objdir" "$root" <<'PY'
import glob, os, re, subprocess, sys

objdir, root = sys.argv[1], sys.argv[2]

# Exported although no other object uses them, (file, function or variable): why.
ALLOW = {
    ("src/main.c", "main"): "the program's entry point",
    ("src/simd/simd_main.c", "main"): "the TCMU handler's entry point",
}

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)

def words(text):
    return re.findall(r"\b[A-Za-z_]\w*\b", strip_comments(text))

objs = []
for o in sorted(glob.glob(os.path.join(objdir, "src", "**", "*.o"), recursive=True)):
    src = os.path.relpath(o, objdir)[:-2] + ".c"
    if os.path.exists(os.path.join(root, src)):  # a stale object of a removed file: skip
        objs.append((o, src))
if not objs:
    print("symbols: no objects under %s (build first)" % objdir)
    sys.exit(2)

defined, used = [], {}
src_of = dict(objs)
out = subprocess.run(["nm", "-A"] + [o for o, _ in objs], capture_output=True, text=True,
                     check=True).stdout
for line in out.splitlines():
    o, _, rest = line.partition(".o:")  # "OBJECT.o:[VALUE] TYPE NAME"
    o += ".o"
    f = rest.split()
    if len(f) == 3 and f[1] in ("T", "D", "B", "R"):
        defined.append((src_of[o], f[2], f[1] == "T"))
    elif len(f) == 2 and f[0] == "U":
        used.setdefault(f[1], set()).add(src_of[o])

tests = set()
for pat in ("unit", "fuzz", "abi", "bench"):
    for f in glob.glob(os.path.join(root, "tests", pat, "*.[ch]")):
        tests.update(words(open(f, errors="replace").read()))
api = set(re.findall(r"\b(rp_\w+)\s*\(", strip_comments(open(os.path.join(root, "include", "raidplan.h")).read())))

bad, allowed = [], set()
for src, sym, func in defined:
    if (src, sym) in ALLOW:
        allowed.add((src, sym))
        continue
    if used.get(sym, set()) - {src} or sym in tests or sym in api:
        continue
    n = words(open(os.path.join(root, src), errors="replace").read()).count(sym)
    if n > 1:
        bad.append("%s: %s is extern but used in its own file only: make it static" % (src, sym))
    else:
        bad.append("%s: %s is %s nowhere: remove it" % (src, sym, "called" if func else "used"))
for key in sorted(set(ALLOW) - allowed):
    bad.append("allowed %s %s is defined no more: remove it from ALLOW" % key)
for b in bad:
    print(b)
nfunc = sum(1 for d in defined if d[2])
print("symbols: %d functions and %d variables of %d objects checked, %d not used outside their "
      "file" % (nfunc, len(defined) - nfunc, len(objs), len(bad)))
sys.exit(1 if bad else 0)
PY
