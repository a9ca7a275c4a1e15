#!/usr/bin/env python3
"""layout.py BASE.abi NEW.abi SUPPR - the layouts of raidplan.h's structs.

Each struct of the public header in BASE must be in NEW with the same members
(name, type, bit offset) in the same order and the same size; a struct that
SUPPR lets grow at the end (a [suppress_type] with has_data_member_inserted_at
= end, by name_regexp) may have more members after them, and be larger.

abidiff does the rest (functions, enums, ...). This check exists because
libabigail's has_data_member_inserted_at suppression also hides a change of a
member's type when no member was removed and the struct did not shrink
(double rpm becoming float rpm, say): the suppression is meant for appended
members only. Prints each difference; exits 1 when there is one.
"""
import re
import sys
import xml.etree.ElementTree as ET


def load(path):
    root = ET.parse(path).getroot()
    types = {}
    for el in root.iter():
        if el.get("id"):
            types.setdefault(el.get("id"), el)
    structs = {}
    for el in root.iter("class-decl"):
        if el.get("is-declaration-only") == "yes" or el.get("filepath") != "raidplan.h":
            continue
        structs.setdefault(el.get("name"), el)
    return types, structs


def describe(types, tid, depth=0):
    el = types.get(tid)
    if el is None or depth > 20:
        return "?" + str(tid)
    tag = el.tag
    if tag == "type-decl":
        return el.get("name")
    if tag == "typedef-decl":  # its name, and the type it finally is
        base = el
        while base is not None and base.tag == "typedef-decl" and depth < 20:
            base, depth = types.get(base.get("type-id")), depth + 1
        return "%s (%s)" % (el.get("name"), describe(types, base.get("id"), depth + 1)
                            if base is not None else "?")
    if tag == "pointer-type-def":
        return describe(types, el.get("type-id"), depth + 1) + " *"
    if tag == "qualified-type-def":
        q = [k for k in ("const", "volatile", "restrict") if el.get(k) == "yes"]
        return " ".join(q + [describe(types, el.get("type-id"), depth + 1)])
    if tag == "array-type-def":
        dims = "".join("[%s]" % s.get("length") for s in el.iter("subrange"))
        return describe(types, el.get("type-id"), depth + 1) + dims
    if tag in ("class-decl", "union-decl"):
        kind = "union" if tag == "union-decl" else "struct"
        if el.get("is-anonymous") == "yes":
            return "%s { %s }" % (kind, "; ".join(
                "%s %s" % m for m in [(d, n) for n, _, d in members(types, el)]))
        return "%s %s" % (kind, el.get("name"))
    if tag == "enum-decl":
        return "enum " + el.get("name")
    if tag == "function-type":
        ret = describe(types, el.find("return").get("type-id"), depth + 1) \
            if el.find("return") is not None else "void"
        params = [describe(types, p.get("type-id"), depth + 1)
                  for p in el.findall("parameter") if p.get("type-id")]
        return "%s (%s)" % (ret, ", ".join(params))
    return tag


def members(types, el):
    out = []
    for dm in el.findall("data-member"):
        var = dm.find("var-decl")
        out.append((var.get("name"), int(dm.get("layout-offset-in-bits", "0")),
                    describe(types, var.get("type-id"))))
    return out


def growable(suppr):
    pats, cur = [], {}
    for line in open(suppr):
        line = line.strip()
        if line.startswith("["):
            cur = {}
            continue
        if "=" in line and not line.startswith("#"):
            k, v = (x.strip() for x in line.split("=", 1))
            cur[k] = v
            if cur.get("has_data_member_inserted_at") == "end" and "name_regexp" in cur:
                pats.append(re.compile(cur["name_regexp"]))
    return pats


def main():
    base_path, new_path, suppr = sys.argv[1:4]
    btypes, bstructs = load(base_path)
    ntypes, nstructs = load(new_path)
    grow = growable(suppr)
    bad = []
    for name, bel in sorted(bstructs.items()):
        nel = nstructs.get(name)
        if nel is None:
            bad.append("struct %s: no longer defined in raidplan.h" % name)
            continue
        bm, nm = members(btypes, bel), members(ntypes, nel)
        bsize, nsize = int(bel.get("size-in-bits", 0)), int(nel.get("size-in-bits", 0))
        may_grow = any(p.search(name) for p in grow)
        for i, (mname, off, desc) in enumerate(bm):
            if i >= len(nm):
                bad.append("struct %s: member %s (%s at bit %d) removed" % (name, mname, desc, off))
                continue
            if nm[i] != (mname, off, desc):
                bad.append("struct %s: member %d was %s %s at bit %d, is %s %s at bit %d"
                           % (name, i, desc, mname, off, nm[i][2], nm[i][0], nm[i][1]))
        extra = nm[len(bm):]
        if extra and not may_grow:
            bad.append("struct %s: members added (%s) to a struct that does not grow"
                       % (name, ", ".join(m[0] for m in extra)))
        if nsize < bsize or (nsize != bsize and not may_grow):
            bad.append("struct %s: size %d bits, was %d" % (name, nsize, bsize))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
