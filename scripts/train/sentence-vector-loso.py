#!/usr/bin/python3
"""Leave-one-source-out comparison of static sentence-vector poolings (docs/sentence-vectors.md).

Reads `.data/sentence-vectors/` as written by `sentence-vector-export.ts`. Per scorer and feature
set, one logistic regression per held-out source family (id prefix before ':', twins' suffix
removed) trained on every other family; the out-of-fold scores of all families are pooled and
give AUC and recall at the threshold where 5% of the safe items score above it. Also reports the
share of ordinary traffic (families `traffic_*`) flagged at that threshold.

Feature sets: word 1-2-grams (hashed, 2^18 columns, per segment, L2) as a reference; each
table x pooling (user and completion vectors side by side); n-grams + the shipped table's
mean+max and sif+max vectors.

Run with Debian's Python (has scikit-learn): `/usr/bin/python3 scripts/train/sentence-vector-loso.py [TABLE ...]`
(tables as exported, default d96, `none` for the n-gram rows only; env LOSO_SCORERS=a,b picks scorers, LOSO_C the inverse regularisation).
"""
import json
import os
import sys

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DIR = os.path.join(ROOT, ".data", "sentence-vectors")
POOLINGS = ["mean", "sif", "mean+max", "sif+max"]
C = float(os.environ.get("LOSO_C", "10"))


def ngrams(meta):
    hv = HashingVectorizer(ngram_range=(1, 2), n_features=2**18, alternate_sign=False, norm="l2")
    return sparse.hstack([hv.transform([r["user"] for r in meta]), hv.transform([r["completion"] for r in meta])]).tocsr()


def dense(scorer, table, pooling, n):
    x = np.fromfile(os.path.join(DIR, f"{scorer}.{table}.{pooling}.f32"), dtype=np.float32)
    return x.reshape(n, -1).astype(np.float64)


def loso(x, y, fam):
    scores = np.zeros(len(y))
    for f in sorted(set(fam)):
        test = fam == f
        train = ~test
        if len(set(y[train])) < 2:
            continue
        model = LogisticRegression(C=C, solver="liblinear", max_iter=1000, class_weight="balanced")
        model.fit(x[train], y[train])
        scores[test] = model.decision_function(x[test])
    return scores


def report(name, scores, y, fam):
    auc = roc_auc_score(y, scores)
    neg = np.sort(scores[y == 0])
    thr = neg[int(np.ceil(0.95 * len(neg))) - 1]
    recall = float(np.mean(scores[y == 1] > thr))
    traffic = np.array([f.startswith("traffic") for f in fam])
    flagged = float(np.mean(scores[traffic] > thr)) if traffic.any() else float("nan")
    return f"| {name} | {auc:.3f} | {recall:.3f} | {flagged * 100:.1f}% |"


def main():
    tables = sys.argv[1:] or ["d96"]
    for scorer in os.environ.get("LOSO_SCORERS", "content_safety,jailbreak_detection").split(","):
        meta = json.load(open(os.path.join(DIR, f"{scorer}.meta.json")))
        y = np.array([r["label"] for r in meta])
        fam = np.array([r["family"] for r in meta])
        print(f"\n### {scorer}: {len(y)} items ({int(y.sum())} unsafe), {len(set(fam))} source families, C={C}\n")
        print("| features | AUC (pooled out-of-source) | recall at 5% FPR | ordinary traffic flagged |")
        print("|---|---:|---:|---:|")
        ng = ngrams(meta)
        print(report("word 1-2-grams (hashed)", loso(ng, y, fam), y, fam), flush=True)
        for table in [t for t in tables if t != "none"]:
            for pooling in POOLINGS:
                x = dense(scorer, table, pooling, len(y))
                print(report(f"{table} {pooling}", loso(x, y, fam), y, fam), flush=True)
        for pooling in ["mean+max", "sif+max"]:
            both = sparse.hstack([ng, sparse.csr_matrix(dense(scorer, "d96", pooling, len(y)))]).tocsr()
            print(report(f"word 1-2-grams + d96 {pooling}", loso(both, y, fam), y, fam), flush=True)


if __name__ == "__main__":
    main()
