"""The two-threshold risk controller, in one package.

* ``scorer``: the policy (controller file schema, risk R from C/M/H and stated uncertainty U,
  two thresholds) and the scorer that applies it to a decision.
* ``detectors``: the rule C/M/H detectors over the episode text, with their lexicons
  (``lexicon/*.yaml``); ``model_detector``: the same flags from the ``detector`` model role.
* ``tune``: ``escbench tune`` (dev-split grid search, ablations, class transfer).
* ``quality``: detector quality on the stress set, the paraphrase benchmark
  (``detector_*_set.yaml``) and the episodes.
* ``demo``: the scripted demo model used to show the controller end to end.

The registered scorers (``escbench/controller_full`` …) are in ``escbench.scorers``.
"""
