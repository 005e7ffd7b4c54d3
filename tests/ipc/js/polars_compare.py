"""Logical comparison of an integration case as arrow-testing has it and as polars
rewrote it, both read by this library's CLI (tools/check-polars.sh).

    python3 polars_compare.py GOLD.schema GOLD.jsonl OUT.schema OUT.jsonl [OUT2...]

The inputs are `nanoarrow schema FILE` and `nanoarrow cat FILE --format jsonl`.
Polars makes every field nullable and changes types for its own storage: utf8 to
large_string, binary and fixed_size_binary to large_binary, list to large_list
(child named "item"), views to large types, any dictionary index to uint32 (and
dictionaries of other than strings to their values), decimal32/64 to decimal128,
time32 and time64 to time64('ns'), timestamps and durations in seconds to
milliseconds, date64 to timestamp('ms'), map to large_list<struct> (entry fields
renamed key/value when read from some streams). Columns are compared per top-level
field: types equal up to these changes, and values equal (unit changes scaled; a
dictionary column by its values, as `nanoarrow schema` leaves its value type out). Prints one line per OUT pair:

    same                 every column equal (up to the changes above)
    polars-bug: WHAT     every difference is a polars bug, WHAT names them
    converted: WHAT      polars changes some columns' types otherwise (WHAT: the
                         changes, without column names, so that cases group by
                         them), the other columns equal
    differs: WHERE       a column of equivalent type holds other values
"""
import json
import re
import sys

UNIT_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def columns(schema_text):
    """[(name, [type lines of the field and its children])] of the top-level fields."""
    out = []
    for line in schema_text.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            name, _, typ = line.partition(": ")
            out.append((name, [typ]))
        elif out:
            out[-1][1].append(line)
    return out


def canonical(type_lines):
    """The type tree with the changes polars makes that keep values as they print."""
    canon = []
    for line in type_lines:
        indent = len(line) - len(line.lstrip(" "))
        typ = line.strip()
        if indent > 0:
            typ = typ.partition(": ")[2]
        typ = re.sub(r" not null$", "", typ)
        typ = re.sub(r"^(large_)?(string|binary)(_view)?$", r"\2", typ)
        typ = re.sub(r"^(large_)?list$", "list", typ)
        typ = re.sub(r"^map$", "list", typ)
        typ = re.sub(r"^dictionary\(.*\)$", "dictionary", typ)
        typ = re.sub(r"^decimal(32|64|128)\(", "decimal(", typ)
        typ = re.sub(r"^fixed_size_binary\(\d+\)$", "binary", typ)
        canon.append((indent, typ))
    return canon


def unit_of(typ):
    m = re.match(r"^(time32|time64|timestamp|duration)\('(s|ms|us|ns)'(.*)\)$", typ)
    if m:
        kind = "time" if m.group(1).startswith("time") and m.group(1) != "timestamp" else m.group(1)
        return kind, UNIT_NS[m.group(2)], m.group(3)
    if typ == "date64":
        return "timestamp", UNIT_NS["ms"], ""
    return None


def entries_unnamed(values):
    """Map values (lists of {key, value} structs) with the entry names left out: the
    format does not fix them and polars renames them reading some streams."""
    return [None if v is None else [list(e.values()) if isinstance(e, dict) else e for e in v]
            for v in values]


def read(schema_path, rows_path):
    with open(schema_path, encoding="utf-8") as f:
        cols = columns(f.read())
    with open(rows_path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return cols, rows


def main(argv):
    if len(argv) < 5 or len(argv) % 2 != 1:
        sys.stderr.write(__doc__)
        return 2
    gold_cols, gold = read(argv[1], argv[2])
    for i in range(3, len(argv), 2):
        try:
            out_cols, out = read(argv[i], argv[i + 1])
            compare(gold_cols, gold, out_cols, out)
        except (OSError, ValueError) as e:
            print("differs: cannot read %s: %s" % (argv[i], e))
    return 0


def compare(gold_cols, gold, out_cols, out):
    if [c[0] for c in gold_cols] != [c[0] for c in out_cols]:
        print("differs: field names %s against %s" % ([c[0] for c in gold_cols],
                                                      [c[0] for c in out_cols]))
        return
    if len(gold) != len(out):
        print("differs: %d rows against %d" % (len(gold), len(out)))
        return
    bugs = []
    converted = []
    for (name, gtypes), (_, otypes) in zip(gold_cols, out_cols):
        gvals = [row.get(name) for row in gold]
        ovals = [row.get(name) for row in out]
        gcanon, ocanon = canonical(gtypes), canonical(otypes)
        gtop, otop = gcanon[0][1], ocanon[0][1]
        gunit, ounit = unit_of(gtop), unit_of(otop)
        if gtop.startswith("dictionary") or otop.startswith("dictionary"):
            # `nanoarrow schema` does not print a dictionary's value type and polars
            # decodes dictionaries of other than strings: the values decide.
            if gvals != ovals:
                i = [j for j, (g, o) in enumerate(zip(gvals, ovals)) if g != o][0]
                print("differs: %s (%s read as %s) row %d: %s against %s" %
                      (name, gtop, otop, i, json.dumps(gvals[i])[:120],
                       json.dumps(ovals[i])[:120]))
                return
            continue
        if gunit and ounit and gunit[0] == ounit[0] and len(gcanon) == 1:
            scale = gunit[1] // ounit[1] if gunit[1] >= ounit[1] else None
            if scale is None:
                converted.append("%s: %s to %s" % (name, gtop, otop))
                continue
            wrapped = [i for i, (g, o) in enumerate(zip(gvals, ovals))
                       if g is not None and not INT64_MIN <= g * scale <= INT64_MAX]
            # Polars has no time of day outside [0, 24 h): it reads those as null.
            day = [i for i, (g, o) in enumerate(zip(gvals, ovals))
                   if gunit[0] == "time" and g is not None and o is None and
                   not 0 <= g * gunit[1] < 86400 * 10**9]
            bad = [i for i, (g, o) in enumerate(zip(gvals, ovals))
                   if i not in wrapped and i not in day and
                   (g if g is None else g * scale) != o]
            if bad:
                print("differs: %s (%s read as %s) row %d: %r against %r" %
                      (name, gtop, otop, bad[0], gvals[bad[0]], ovals[bad[0]]))
                return
            if day:
                bugs.append("times of day outside [0, 24 h) read as null")
            if wrapped:
                bugs.append("%s converted to %s wraps out-of-range values "
                            "(polars' unit conversion does not check overflow)" %
                            (gtop, otop))
            continue
        if gcanon != ocanon:
            converted.append("%s to %s" % (" ".join(t for _, t in gcanon),
                                        " ".join(t for _, t in ocanon)))
            continue
        is_map = gtypes[0].strip().startswith("map")
        if is_map:
            gvals, ovals = entries_unnamed(gvals), entries_unnamed(ovals)
        if gvals == ovals:
            continue
        diffs = [i for i, (g, o) in enumerate(zip(gvals, ovals)) if g != o]
        if is_map and all(gvals[i] is None and ovals[i] == [] for i in diffs):
            bugs.append("null map rows read as empty lists")
            continue
        i = diffs[0]
        print("differs: %s row %d: %s against %s" %
              (name, i, json.dumps(gvals[i])[:120], json.dumps(ovals[i])[:120]))
        return
    converted = sorted(set(converted))
    bugs = sorted(set(bugs))
    if converted:
        print("converted: " + "; ".join(converted + bugs))
    elif bugs:
        print("polars-bug: " + "; ".join(bugs))
    else:
        print("same")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
