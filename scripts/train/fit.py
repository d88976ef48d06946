"""Step 2 of `npm run train`: fits, validates and writes the learned scorers' models.

Reads the matrices written by `scripts/train/export.ts` (`.data/train/<scorer>.svm`, meta and
pins) and, per scorer:

1. k-fold cross-validation (stratified, 5 folds, fixed seed) on train + dev: out-of-fold
   linear scores;
2. Platt calibration (Platt 1999) fitted on those out-of-fold scores;
3. leave-one-source-out: for each source family, fit on the others and score it;
   the operating points are set by false alarms, not by F1: the decision threshold (Likert 4)
   is the one with the best leave-one-source-out mean F1 among those whose pooled
   leave-one-source-out false-positive rate stays within the budget (`max_fpr`) and whose
   out-of-fold rate on ordinary traffic stays within `max_traffic_fpr`, with hard rules
   deciding alone; the Likert-5 threshold is the lowest at or above it whose
   leave-one-source-out precision reaches `high_precision` (a 5 is a verdict a reviewer will
   agree with);
4. the final fit on all items, int8-quantised, written to `src/scoring/scorers/<scorer>/weights.json`
   with the probabilities of the pinned inputs, and the metrics to `<scorer>.metrics.json`.

With windows (`<scorer>.windows.svm`, `LearnedSpec.windows`), the out-of-fold, leave-one-source-out
and in-sample probabilities of an item are the highest of its own and its windows', each window
scored by the same model as its item (the worker's `windowedProbability`); the fit, the calibration
(on whole items) and so the weights are unchanged, the operating points follow the windowed scores.

Items the worker would not let the model raise (meta `decides` false: a view without text, so
no n-gram a rationale could name, and no weight-4 rule to agree with; src/scoring/learned.ts)
count as the rules left them in every figure and operating point: data_poisoning's model reads
indicators only, so there it can only confirm a weight-4 rule.

`--final-only` is accepted for compatibility and changes nothing: the thresholds need the
leave-one-source-out scores. Deterministic: liblinear with a fixed random_state, fixed fold seeds, sorted output; the same
input files give byte-identical model files. Uses scikit-learn (Debian's python3-sklearn).

usage: fit.py TRAIN_DIR MODELS_DIR [--scorers a,b] [--final-only]
"""
import argparse
import base64
import hashlib
import json
import math
import os
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

SEED = 20261123
FOLDS = 5

# Hyper-parameters and the false-alarm budget of each scorer come from its spec
# (src/scoring/scorers/<name>/spec.ts: `fit`, `budget`), written by the exporter into
# `<scorer>.meta.json`; spec.ts is their one source (docs/scoring.md says why each value).


def load(train_dir, name):
    # The feature width comes from the exporter (FEATURE_SPEC.bits in features.ts): one source.
    with open(os.path.join(train_dir, f"{name}.meta.json")) as f:
        meta = json.load(f)
    bits = meta["bits"]
    X, y = load_svmlight_file(os.path.join(train_dir, f"{name}.svm"), n_features=1 << bits, zero_based=True)
    P, _ = load_svmlight_file(os.path.join(train_dir, f"{name}.pins.svm"), n_features=1 << bits, zero_based=True)
    with open(os.path.join(train_dir, f"{name}.pins.json")) as f:
        pins = json.load(f)
    wfile = os.path.join(train_dir, f"{name}.windows.svm")
    W = load_svmlight_file(wfile, n_features=1 << bits, zero_based=True)[0].tocsr() if os.path.exists(wfile) else None
    return X.tocsr(), y.astype(int), meta, P.tocsr(), pins, W


def windowed(prob, wz, witem, a, b):
    """`prob` (per item) raised to the highest calibrated probability of each item's windows
    (`wz`: their linear scores, `witem`: their item); unchanged without windows."""
    out = prob.copy()
    if len(witem):
        np.maximum.at(out, witem, sigmoid(a * wz + b))
    return out


def family_weights(fam):
    """Per-item weights that give every source family the same total weight (mean 1)."""
    names, inverse, sizes = np.unique(fam, return_inverse=True, return_counts=True)
    w = 1.0 / sizes[inverse]
    return w * (len(fam) / w.sum())


def fit(X, y, hp, fam=None):
    clf = LogisticRegression(C=hp["C"], class_weight=hp["class_weight"], solver="liblinear", dual=True, random_state=SEED, max_iter=1000)
    if hp.get("family_balanced") and fam is not None:
        clf.fit(X, y, sample_weight=family_weights(fam) ** hp["family_balanced"])
    else:
        clf.fit(X, y)
    return clf


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def significant(v, digits=8):
    """`v` rounded to `digits` significant digits: L-BFGS and BLAS differ in the last bits between
    CPUs (AVX2 vs AVX-512 kernels), and the model files must be byte-identical on any machine."""
    return float(f"{v:.{digits}g}")


def platt(z, y):
    """Platt scaling: a, b with p = sigmoid(a z + b), fitted on out-of-fold scores (rounded to
    8 significant digits, see `significant`)."""
    lr = LogisticRegression(C=1e6, solver="lbfgs", max_iter=1000)
    lr.fit(z.reshape(-1, 1), y)
    return significant(float(lr.coef_[0][0])), significant(float(lr.intercept_[0]))


def counts(pred, y):
    tp = int(np.sum(pred & (y == 1)))
    fp = int(np.sum(pred & (y == 0)))
    fn = int(np.sum(~pred & (y == 1)))
    tn = int(np.sum(~pred & (y == 0)))
    return tp, fp, fn, tn


def metrics(pred, y):
    tp, fp, fn, tn = counts(pred, y)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    fpr = fp / (fp + tn) if fp + tn else 0.0
    return {"items": int(len(y)), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4), "fpr": round(fpr, 4)}


GRID = np.round(np.arange(0.05, 0.996, 0.005), 3)


def loso_report(pred, y, fam, split_of):
    """Per left-out family metrics, their mean F1 over families with unsafe items, and the pooled
    metrics of all left-out predictions."""
    per = {}
    for f in sorted(set(fam)):
        te = fam == f
        per[f] = {**metrics(pred[te], y[te]), "split": split_of[f]}
    with_unsafe = [m for m in per.values() if m["tp"] + m["fn"] > 0]
    return {"per_source": per,
            "mean_f1": round(float(np.mean([m["f1"] for m in with_unsafe])), 4) if with_unsafe else None,
            "pooled": metrics(pred, y)}


def choose_threshold(lprob, prob, hard, y, fam, traffic, hp):
    """The Likert-4 threshold: the best leave-one-source-out mean F1 among the thresholds whose
    pooled leave-one-source-out false-positive rate stays within `max_fpr` and whose out-of-fold
    false-positive rate on ordinary traffic stays within `max_traffic_fpr` (module doc); the
    highest grid value when none does; never below `min_threshold` when the spec's budget sets one.
    Leave-one-source-out scores are what a source nobody has seen gets, so the budget holds for
    such sources, not only for those in training."""
    best = (-1.0, float(GRID[-1]))
    fams = sorted(set(fam))
    masks = [fam == f for f in fams]
    unsafe_fams = [m for m in masks if y[m].any()]
    safe = y == 0
    for t in GRID[GRID >= hp.get("min_threshold", 0.0)]:
        lpred = hard | (lprob >= t)
        fpr = float(np.sum(lpred & safe)) / max(1, int(safe.sum()))
        tpred = hard[traffic] | (prob[traffic] >= t)
        t_fpr = float(np.mean(tpred)) if traffic.any() else 0.0
        if fpr > hp["max_fpr"] or t_fpr > hp["max_traffic_fpr"]:
            continue
        f1 = float(np.mean([metrics(lpred[m], y[m])["f1"] for m in unsafe_fams]))
        if f1 > best[0]:
            best = (f1, float(t))
    return best[1]


def choose_high(lprob, hard, y, t, hp):
    """The Likert-5 threshold: the lowest grid value >= t whose model-decided verdicts (no hard
    rule) reach `high_precision` on leave-one-source-out scores; 1.0 (never) when none does."""
    model = ~hard
    for th in GRID[GRID >= t]:
        sel = model & (lprob >= th)
        if sel.sum() >= 5 and y[sel].mean() >= hp["high_precision"]:
            return float(th)
    return 1.0


def quantise(w):
    scale = significant(float(np.max(np.abs(w))) / 127.0, 12) or 1.0
    q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
    return q, scale


def run(train_dir, models_dir, name, final_only):
    X, y, meta, P, pins, W = load(train_dir, name)
    witem = np.array(meta.get("window_items", []) if W is not None else [], dtype=int)
    hp = {**meta["fit"], **meta["budget"]}
    items = meta["items"]
    hard = np.array([it["hard"] for it in items], dtype=bool)
    # Calls the rules leave unscored (no documents for vector_weakness...) are never judged by
    # the model: they are not fitted on and count as predicted safe.
    scored = np.array([it.get("scored", True) for it in items], dtype=bool)
    # Where the worker would not let the model raise the verdict (no nameable text in its view
    # and no weight-4 rule to agree with: src/scoring/learned.ts), its probability decides
    # nothing: every operating point and figure below counts such an item as the rules left it.
    decides = np.array([it.get("decides", True) for it in items], dtype=bool)
    fam = np.array([it["family"] for it in items])
    is_dev = np.array([it["split"] == "dev" for it in items], dtype=bool)
    traffic = np.array([it["split"] == "traffic" for it in items], dtype=bool)
    report = {"scorer": name, "data_sha256": meta["data_sha256"], "items": int(len(y)),
              "unsafe": int(y.sum()), "safe": int(len(y) - y.sum())}

    oof = np.zeros(len(y))
    woof = np.zeros(len(witem))
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=SEED)
    for tr, te in folds.split(np.zeros(len(y)), y):
        tr = tr[scored[tr]]
        clf = fit(X[tr], y[tr], hp, fam[tr])
        oof[te] = clf.decision_function(X[te])
        rows = np.isin(witem, te)
        if rows.any():
            woof[rows] = clf.decision_function(W[rows])
    a, b = platt(oof[scored], y[scored])
    prob = np.where(decides, windowed(np.where(scored, sigmoid(a * oof + b), 0.0), woof, witem, a, b), 0.0)

    # Leave-one-source-out probabilities: each family scored by a model fitted on the others.
    lprob = np.zeros(len(y))
    wloso = np.zeros(len(witem))
    for f in sorted(set(fam)):
        te = fam == f
        tr = ~te & scored
        clf = fit(X[tr], y[tr], hp, fam[tr])
        lprob[te] = np.where(scored[te], sigmoid(a * clf.decision_function(X[te]) + b), 0.0)
        rows = te[witem] if len(witem) else np.zeros(0, dtype=bool)
        if rows.any():
            wloso[rows] = clf.decision_function(W[rows])
    lprob = np.where(decides, windowed(lprob, wloso, witem, a, b), 0.0)
    split_of = {f: ("traffic" if traffic[fam == f].all() else "dev" if is_dev[fam == f].all()
                    else "train" if not is_dev[fam == f].any() else "both") for f in set(fam)}

    threshold = choose_threshold(lprob, prob, hard, y, fam, traffic, hp)
    high = choose_high(lprob, hard, y, threshold, hp)
    pred = hard | (prob >= threshold)
    is_train = ~is_dev & ~traffic
    report["kfold"] = {"folds": FOLDS, "all": metrics(pred, y), "dev_items": metrics(pred[is_dev], y[is_dev]),
                       "train_items": metrics(pred[is_train], y[is_train]), "traffic_items": metrics(pred[traffic], y[traffic]),
                       "model_only": metrics(prob >= threshold, y), "likert5": metrics(hard | (prob >= high), y)}
    report["loso"] = loso_report(hard | (lprob >= threshold), y, fam, split_of)
    report["loso"]["likert5"] = metrics(hard | (lprob >= high), y)
    # The trade-off behind the budget: the operating point other leave-one-source-out budgets
    # would give (docs/scoring.md).
    report["loso_curve"] = {}
    for budget in (0.01, 0.02, 0.03, 0.05, 0.1, 0.2):
        tb = choose_threshold(lprob, prob, hard, y, fam, traffic, {**hp, "max_fpr": budget, "max_traffic_fpr": 1.0})
        r = loso_report(hard | (lprob >= tb), y, fam, split_of)
        report["loso_curve"][str(budget)] = {"threshold": tb, "mean_f1": r["mean_f1"], **{k: r["pooled"][k] for k in ("precision", "recall", "f1", "fpr")},
                                             "traffic_fpr": r["per_source"].get("traffic", {}).get("fpr", 0.0)}
    for f, m in report["loso"]["per_source"].items():
        print(f"  {name} loso {f}: {m}", file=sys.stderr)

    clf = fit(X[scored], y[scored], hp, fam[scored])
    q, scale = quantise(clf.coef_[0])
    intercept = significant(float(clf.intercept_[0]), 12)
    zq = intercept + P @ (q.astype(np.float64) * scale)
    pin_probs = sigmoid(a * zq + b)
    model = {
        "format": 1,
        "scorer": name,
        "bits": meta["bits"],
        "grams": meta["grams"],
        "scale": scale,
        "intercept": intercept,
        "calibration": {"a": a, "b": b},
        "threshold": threshold,
        "threshold_high": high,
        "pins": [{"id": p["id"], "probability": significant(float(v), 12)} for p, v in zip(pins, pin_probs)],
        "weights": base64.b64encode(q.tobytes()).decode("ascii"),
    }
    body = json.dumps(model, indent=1, sort_keys=False) + "\n"
    os.makedirs(os.path.join(models_dir, name), exist_ok=True)
    with open(os.path.join(models_dir, name, "weights.json"), "w") as f:
        f.write(body)
    zfull = intercept + X @ (q.astype(np.float64) * scale)
    wfull = intercept + W @ (q.astype(np.float64) * scale) if len(witem) else np.zeros(0)
    pfull = np.where(decides, windowed(sigmoid(a * zfull + b), wfull, witem, a, b), 0.0)
    report["final_in_sample"] = metrics(hard | (scored & (pfull >= threshold)), y)
    report["windows"] = {"items": int(len(set(witem.tolist()))), "windows": int(len(witem))}
    report["model_sha256"] = hashlib.sha256(body.encode()).hexdigest()
    report["nonzero_weights"] = int(np.count_nonzero(q))
    report["hyper_parameters"] = {**hp, "solver": "liblinear (dual)", "random_state": SEED, "quantisation": "int8, scale = max|w| / 127"}
    report["calibration"] = {"a": a, "b": b}
    report["threshold"] = threshold
    report["threshold_high"] = high
    return report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train_dir")
    ap.add_argument("models_dir")
    ap.add_argument("--scorers", required=True)
    ap.add_argument("--final-only", action="store_true")
    args = ap.parse_args()
    for name in args.scorers.split(","):
        report = run(args.train_dir, args.models_dir, name, args.final_only)
        with open(os.path.join(args.train_dir, f"{name}.metrics.json"), "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
        k = report["kfold"]
        print(f"{name}: kfold F1 {k['all']['f1']} (dev items {k['dev_items']['f1']}), "
              f"loso mean F1 {report.get('loso', {}).get('mean_f1')}, pooled {report.get('loso', {}).get('pooled', {}).get('f1')}, "
              f"threshold {report['threshold']} / {report['threshold_high']}, traffic FPR {k['traffic_items']['fpr']}, kfold FPR {k['all']['fpr']}")


if __name__ == "__main__":
    main()
