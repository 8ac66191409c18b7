"""The report's four PNG figures (matplotlib, Agg backend).

Fig. 1 late-risk sensitivity per model; Fig. 2 decision accuracy by variant and model; Fig. 3
reliability diagrams; Fig. 4 risk–coverage curves. Colours are fixed per model (tab10 order of the
sorted model names) so one model looks the same in every figure.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from escbench_inspect.analysis.logs import MODEL_ACTION  # noqa: E402
from escbench_inspect.datasets.schema import Variant  # noqa: E402

VARIANTS = tuple(v.value for v in Variant)

if TYPE_CHECKING:
    from escbench_inspect.analysis.results import Report

DPI = 150
LINESTYLES = ("-", "--", ":", "-.")
HATCHES = ("", "//", "..", "xx", "\\\\")
PROMPT_SHADES = (1.0, 0.55, 0.35)  # bar alpha per prompt condition (vanilla solid, …)


def short_names(models: list[str]) -> dict[str, str]:
    """Model names without the provider prefix where that stays unambiguous."""
    short = {m: m.split("/", 1)[-1] for m in models}
    if len(set(short.values())) < len(models):
        return {m: m for m in models}
    return short


def _colors(models: list[str]) -> dict[str, tuple]:
    palette = plt.get_cmap("tab10").colors
    return {m: palette[i % len(palette)] for i, m in enumerate(models)}


def _style(ax: plt.Axes) -> None:
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)


def _save(fig: plt.Figure, out_dir: Path, name: str) -> str:
    path = out_dir / "figures" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return f"figures/{name}"


def _label_bars(ax: plt.Axes, bars, values, tops, size: float) -> None:
    """Value above each bar (above its error bar when ``tops`` gives the CI's upper end)."""
    for bar, value, top in zip(bars, values, tops, strict=True):
        text = "n/a" if not math.isfinite(value) else f"{value:.2f}"
        y = top if math.isfinite(top) else (value if math.isfinite(value) else 0.0)
        ax.annotate(
            text,
            (bar.get_x() + bar.get_width() / 2, y),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=size,
        )


def _label_bars_vertical(ax: plt.Axes, bars, values, size: float) -> None:
    """Value on top of each bar, written upwards so neighbouring labels never overlap: a label's
    width is one line of text, which the caller keeps below the bar's width."""
    for bar, value in zip(bars, values, strict=True):
        text = "n/a" if not math.isfinite(value) else f"{value:.2f}"
        ax.annotate(
            text,
            (bar.get_x() + bar.get_width() / 2, value if math.isfinite(value) else 0.0),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            va="bottom",
            rotation=90,
            fontsize=size,
        )


def _bar_width_points(fig: plt.Figure, ax: plt.Axes, width: float) -> float:
    """Width in points of a bar ``width`` data units wide."""
    left, right = ax.get_xlim()
    return width / (right - left) * ax.get_position().width * fig.get_figwidth() * 72


def figure1(report: Report, out_dir: Path) -> str:
    """Late-risk sensitivity per model, one bar per prompt × controller, with 95% CI."""
    table = report.late_risk
    models = sorted(table["model"].unique())
    names, colors = short_names(models), _colors(models)
    series = list(dict.fromkeys(zip(table["prompt"], table["controller"], strict=True)))
    prompts = list(dict.fromkeys(p for p, _ in series))
    controllers = list(dict.fromkeys(c for _, c in series))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 + len(models) * len(series) * 0.55), 4.0))
    for s, (prompt, controller) in enumerate(series):
        part = table[(table["prompt"] == prompt) & (table["controller"] == controller)]
        part = part.set_index("model").reindex(models)
        x = np.arange(len(models)) + (s - (len(series) - 1) / 2) * width
        values = part["value"].to_numpy(dtype=float)
        low = np.nan_to_num(values - part["ci_low"].to_numpy(dtype=float))
        high = np.nan_to_num(part["ci_high"].to_numpy(dtype=float) - values)
        bars = ax.bar(
            x,
            np.nan_to_num(values),
            width * 0.92,
            color=[colors[m] for m in models],
            alpha=PROMPT_SHADES[prompts.index(prompt) % len(PROMPT_SHADES)],
            hatch=HATCHES[controllers.index(controller) % len(HATCHES)],
            edgecolor="black",
            linewidth=0.6,
            yerr=[low, high],
            capsize=3,
            error_kw={"elinewidth": 0.8},
        )
        tops = part["ci_high"].to_numpy(dtype=float)
        _label_bars(ax, bars, list(values), list(tops), 7 if len(series) * len(models) > 8 else 8)
    ax.set_xticks(np.arange(len(models)), [names[m] for m in models])
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("Sensitivity on late-risk episodes")
    ax.set_title("Fig. 1 — Late-arriving red flags caught (escalated)")
    if len(series) > 1:
        handles = [
            plt.Rectangle(
                (0, 0),
                1,
                1,
                facecolor="0.5",
                edgecolor="black",
                alpha=PROMPT_SHADES[prompts.index(p) % len(PROMPT_SHADES)],
                hatch=HATCHES[controllers.index(c) % len(HATCHES)],
            )
            for p, c in series
        ]
        ax.legend(
            handles,
            [f"{p} · {c}" for p, c in series],
            title="prompt · controller",
            fontsize=8,
            title_fontsize=8,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            frameon=False,
        )
    _style(ax)
    return _save(fig, out_dir, "fig1_late_risk_sensitivity.png")


def figure2(report: Report, out_dir: Path) -> str:
    """Decision accuracy by variant (x) and model (bars), one row per prompt condition."""
    table = report.table2[report.table2["controller"] == MODEL_ACTION]
    models = sorted(table["model"].unique())
    names, colors = short_names(models), _colors(models)
    prompts = list(dict.fromkeys(table["prompt"]))
    width_in = min(14.0, max(6.5, 2.0 + 0.32 * len(VARIANTS) * len(models)))
    fig, axes = plt.subplots(
        len(prompts), 1, figsize=(width_in, 3.0 * len(prompts) + 0.6), sharex=True, squeeze=False
    )
    width = 0.8 / len(models)
    labelled: list[tuple[plt.Axes, object, list[float]]] = []
    for ax, prompt in zip(axes[:, 0], prompts, strict=True):
        part = table[table["prompt"] == prompt].set_index("model")
        for i, model in enumerate(models):
            values = (
                [float(part.loc[model, v]) for v in VARIANTS]
                if model in part.index
                else [math.nan] * len(VARIANTS)
            )
            x = np.arange(len(VARIANTS)) + (i - (len(models) - 1) / 2) * width
            bars = ax.bar(
                x,
                np.nan_to_num(values),
                width * 0.92,
                color=colors[model],
                edgecolor="black",
                linewidth=0.5,
                label=names[model],
            )
            labelled.append((ax, bars, values))
        ax.set_xticks(np.arange(len(VARIANTS)), [v.replace("_", "-") for v in VARIANTS])
        ax.set_ylim(0, 1.25)
        ax.set_ylabel("Decision accuracy")
        ax.set_title(f"prompt: {prompt}", fontsize=10, loc="left")
        _style(ax)
    axes[0, 0].legend(
        title="model",
        fontsize=8,
        title_fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        frameon=False,
    )
    fig.suptitle("Fig. 2 — Decision accuracy by variant (model's own action)")
    fig.tight_layout()
    size = min(7.0, 0.8 * _bar_width_points(fig, axes[0, 0], width))
    if size >= 4.5:  # otherwise the bars are too narrow for legible labels: the CSV has the values
        for ax, bars, values in labelled:
            _label_bars_vertical(ax, bars, values, size)
    return _save(fig, out_dir, "fig2_accuracy_by_variant.png")


def figure3(report: Report, out_dir: Path) -> str:
    """Reliability diagrams per model × prompt: accuracy per confidence bin (bars), the gap to the
    bin's mean confidence (red), and below each, the share of decisions per bin."""
    keys = [k for k in report.groups if k[2] == MODEL_ACTION] or list(report.groups)
    models = sorted({k[0] for k in keys})
    names, colors = short_names(models), _colors(models)
    cols = min(4, len(keys))
    rows = math.ceil(len(keys) / cols)
    height = 4.1 * rows + 0.9
    fig = plt.figure(figsize=(3.3 * cols, height))
    grid = fig.add_gridspec(rows, cols, hspace=0.32, wspace=0.3, top=1 - 0.9 / height)
    handles, labels = [], []
    for i, key in enumerate(keys):
        inner = grid[divmod(i, cols)].subgridspec(2, 1, height_ratios=[3, 1], hspace=0.08)
        ax = fig.add_subplot(inner[0])
        hist = fig.add_subplot(inner[1], sharex=ax)
        cal = report.reliability[key]
        edges = np.asarray(cal.bin_edges)
        centers = (edges[:-1] + edges[1:]) / 2
        counts = np.asarray(cal.bin_count)
        accuracy = np.asarray(cal.bin_accuracy)
        confidence = np.asarray(cal.bin_confidence)
        filled = counts > 0
        ax.plot([0, 1], [0, 1], ls="--", color="0.4", lw=1, label="perfect calibration")
        ax.bar(
            centers[filled],
            accuracy[filled],
            width=0.1,
            color=colors[key[0]],
            edgecolor="black",
            linewidth=0.5,
            label="accuracy in bin",
        )
        ax.bar(
            centers[filled],
            (confidence - accuracy)[filled],
            bottom=accuracy[filled],
            width=0.1,
            color="tab:red",
            alpha=0.25,
            edgecolor="tab:red",
            linewidth=0.5,
            hatch="//",
            label="gap to mean confidence",
        )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{names[key[0]]} · {key[1]}   ECE {cal.ece:.3f}", fontsize=9)
        ax.set_ylabel("Accuracy", fontsize=8)
        ax.tick_params(labelsize=7, labelbottom=False)
        _style(ax)
        share = counts / max(1, counts.sum())
        hist.bar(centers, share, width=0.1, color="0.6", edgecolor="black", linewidth=0.4)
        hist.set_ylim(0, 1)
        hist.set_yticks([0, 1], ["0", "all"])
        hist.set_ylabel("share", fontsize=7)
        hist.set_xlabel("Stated confidence", fontsize=8)
        hist.tick_params(labelsize=7)
        _style(hist)
        if i == 0:
            handles, labels = ax.get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="upper center",
        ncol=3,
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 1.0 - 0.35 / height),
    )
    fig.suptitle(
        "Fig. 3 — Reliability diagrams (10 equal-width confidence bins)",
        fontsize=10,
        y=1.0 - 0.05 / height,
    )
    return _save(fig, out_dir, "fig3_reliability.png")


def figure4(report: Report, out_dir: Path) -> str:
    """Risk–coverage curves, one panel per prompt; colour = model, line style = controller."""
    models = sorted({k[0] for k in report.groups})
    names, colors = short_names(models), _colors(models)
    prompts = list(dict.fromkeys(k[1] for k in report.groups))
    controllers = list(dict.fromkeys(k[2] for k in report.groups))
    fig, axes = plt.subplots(1, len(prompts), figsize=(5.2 * len(prompts), 4.2), sharey=True, squeeze=False)
    for ax, prompt in zip(axes[0], prompts, strict=True):
        for key in [k for k in report.groups if k[1] == prompt]:
            curve = report.curves[key]
            if not curve.coverage:
                continue
            style = LINESTYLES[controllers.index(key[2]) % len(LINESTYLES)]
            label = names[key[0]] + ("" if len(controllers) == 1 else f" · {key[2]}")
            ax.step(
                [0.0, *curve.coverage],
                [curve.risk[0], *curve.risk],
                where="pre",
                color=colors[key[0]],
                ls=style,
                lw=1.8,
                label=f"{label} (AURC {curve.aurc:.3f})",
            )
            ax.plot(curve.coverage[-1], curve.risk[-1], "o", color=colors[key[0]], ms=4)
        ax.set_xlim(0, 1.02)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("Coverage (share kept, most confident first)")
        ax.set_title(f"prompt: {prompt}", fontsize=10)
        ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
        _style(ax)
    axes[0][0].set_ylabel("Risk (error rate among kept decisions)")
    fig.suptitle("Fig. 4 — Risk–coverage (lower is better)")
    fig.tight_layout()
    return _save(fig, out_dir, "fig4_risk_coverage.png")


def write_figures(report: Report, out_dir: Path) -> dict[str, str]:
    """Draw all four figures; returns key -> path relative to ``out_dir``."""
    return {
        "fig1": figure1(report, out_dir),
        "fig2": figure2(report, out_dir),
        "fig3": figure3(report, out_dir),
        "fig4": figure4(report, out_dir),
    }
