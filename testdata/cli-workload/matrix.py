#!/usr/bin/env python3
"""Detection matrix of a validator's verdicts against the generator's index CSV.

Usage: matrix.py INDEX_CSV KDV_JSON
  INDEX_CSV  manifests/<kind>-index.csv written by gen_manifests.py (file,valid,categories)
  KDV_JSON   the output of `kdv validate -o json <dir>` over the same files

Prints, per violation kind, how many invalid files carrying it were caught (reported with an
error or an input error), and how many valid files were flagged. A file counts as caught when
kdv reports anything for it; the categories of a multi-violation file are each credited.
"""
import collections, csv, json, os, sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    index = list(csv.DictReader(open(sys.argv[1])))
    report = json.load(open(sys.argv[2]))
    flagged = set()
    for doc in report["documents"]:
        if not doc["valid"]:
            flagged.add(os.path.basename(doc["file"]))
    for err in report["inputErrors"]:
        flagged.add(os.path.basename(err["file"]))
    caught, total = collections.Counter(), collections.Counter()
    valid_flagged, valid_total, invalid_caught, invalid_total = 0, 0, 0, 0
    for row in index:
        name = row["file"]
        if row["valid"] == "1":
            valid_total += 1
            valid_flagged += name in flagged
            continue
        invalid_total += 1
        invalid_caught += name in flagged
        for cat in filter(None, row["categories"].split("+")):
            total[cat] += 1
            caught[cat] += name in flagged
    print(f"invalid caught: {invalid_caught}/{invalid_total}   valid flagged: {valid_flagged}/{valid_total}")
    print(f"{'violation kind':<26} caught / files")
    for cat in sorted(total):
        mark = "" if caught[cat] == total[cat] else "   <-- missed " + str(total[cat] - caught[cat])
        print(f"{cat:<26} {caught[cat]:>5} / {total[cat]:<5}{mark}")


if __name__ == "__main__":
    main()
