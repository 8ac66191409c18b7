"""Held-out detector benchmark (issue 22): a development half to tune on, a frozen test half to report.

Both halves hold single texts in the registers the lexicon was not written from — lay patient-portal
messages, terse nurse shorthand, lab and pharmacy comments — each a ``positive`` for its detector or
a ``near_miss`` that must not fire it (negated, historical, family history, hypothetical, normal;
agreeing sources and documented changes; present or immaterial items).

- development half: ``detector_heldout_dev.yaml`` plus the issue-15 paraphrase benchmark
  (``detector_paraphrase_set.yaml``; its triggers and paraphrases are positives, its controls near
  misses). Tuning reads only these.
- test half v1 (``detector_heldout_test.yaml``, split ``test``), written before any issue-22 detector
  change; its sha256 is frozen in ``tests/escbench/controller/test_heldout_benchmark.py``. Its misses
  were read after the issue-22 run, so since issue 22r it is *seen*: a tuning half, reported as
  "test v1, seen", kept byte-identical.
- development half 2 (``detector_heldout_dev2.yaml``, split ``dev``, issue 22r): the new registers
  ``handoff`` and ``letter`` and class-dependent M pairs (one absence, positive in one task class and
  immaterial in another).
- blind half (``detector_heldout_blind.yaml``, split ``blind``, ids ``bh_``/``bc_``/``bm_``): written
  independently under the label policy of ``docs/reference_policy.md`` and added, hash-frozen, by the
  coordinator after tuning; every M item names its ``task_class``. Absent until then: skipped.

Per detector: recall on its positives and false-positive rate on its near misses (goal: recall >=
0.80, FPR <= 0.15), the same per family and per register.

The flag function receives each item's text and its ``task_class`` (None when the item has none), so
M is scored by the needed items of that class (``lexicon/needed_items.yaml``).

- blind half 2 (``detector_heldout_blind2.yaml``, split ``blind2``, ids ``vh_``/``vc_``/``vm_``, issue
  22s): a second half written independently, the same schema as the blind half; the blind half
  itself is "blind v1 (seen)" since its misses were read for issue 22s. Absent until the coordinator
  adds it: skipped with a message. Its misses were read for issue 22t: since then "blind v2 (seen)".
- blind half 3 (``detector_heldout_blind3.yaml``, split ``blind3``, ids ``wh_``/``wc_``/``wm_``, issue
  22t): a third half written independently, the blind schema; skipped with a message until added.
  Its misses were read for issue 22u: since then "blind v3 (seen)".
- blind half 4 (``detector_heldout_blind4.yaml``, split ``blind4``, ids ``xh_``/``xc_``/``xm_``, issue
  22u): a fourth half written independently (``docs/blind_halves/author_spec_v4.md``), the blind
  schema; frozen before the round it tests was merged. Its misses were read for issue 22w/22x: since
  then "blind v4 (seen)".
- blind half 5 (``detector_heldout_blind5.yaml``, split ``blind5``, ids ``yh_``/``yc_``/``ym_``, issue
  22w): a fifth half written independently (``docs/blind_halves/author_spec_v5.md``; the authors and
  the reviewer reported counts and ids only), the blind schema; frozen before the round it tests was
  merged. Its misses were read for issue 22y: since then "blind v5 (seen)".
- blind half 6 (``detector_heldout_blind6.yaml``, split ``blind6``, ids ``zh_``/``zc_``/``zm_``, issue
  22y): a sixth half written independently by three authors, one per detector
  (``docs/blind_halves/author_spec_v6.md``: at least seven positives per C family; counts and ids
  only reported), the blind schema; frozen before the round it tests was merged. Its C misses were
  read after its one run (issue 22y closing note); nothing was tuned on them.
- blind half 7 (``detector_heldout_blind7.yaml``, split ``blind7``, ids ``qh_``/``qc_``/``qm_``, issue
  22y): a seventh half as the sixth (``docs/blind_halves/author_spec_v7.md``), frozen before its one
  run: a second untouched half for the round-7 detectors. Item ids (not texts) of its C items whose
  verdict the generic typed-value reading changed were seen while that reading was written.
- blind half 8 (``detector_heldout_blind8.yaml``, split ``blind8``, ids ``pc_``, issue 22y): conflict
  items only (``docs/blind_halves/author_spec_v8.md``: eight positives per family), frozen before its
  one run; it judges the generic typed-value reading, whose ship rule was set before.
- blind half 9 (``detector_heldout_blind9.yaml``, split ``blind9``, ids ``kc_``/``km_``, issue 22z):
  conflict and missing items (``docs/blind_halves/author_spec_v9.md``: eight C positives per family,
  six M positives per family), frozen before the round-8 conflict work it judges and run once on it.
  Its misses were read for round 9 (issue 22z).
- blind half 10 (``detector_heldout_blind10.yaml``, split ``blind10``, ids ``jc_``/``jm_``, issue 22z):
  as the ninth (``docs/blind_halves/author_spec_v10.md``; a quarter of the M items in the handoff
  register), frozen before the round-9 conflict work it judges and run once on it. Its misses were
  read for round 10 (issue 22z).
- blind half 11 (``detector_heldout_blind11.yaml``, split ``blind11``, ids ``gc_``, issue 22z): conflict
  items only (``docs/blind_halves/author_spec_v11.md``), frozen before the round-10 work it judges.
  Its misses were read for round 11 (issue 22z).
- blind half 12 (``detector_heldout_blind12.yaml``, split ``blind12``, ids ``fc_``, issue 22z): as the
  eleventh (``docs/blind_halves/author_spec_v12.md``), frozen before the round-11 work it judges.
  Its misses were read for round 12 (issue 22z).
- blind half 13 (``detector_heldout_blind13.yaml``, split ``blind13``, ids ``ec_``, issue 22z): as the
  twelfth (``docs/blind_halves/author_spec_v13.md``), frozen before the round-12 work it judges.
  Its misses were read for round 13 (issue 22z).
- blind half 14 (``detector_heldout_blind14.yaml``, split ``blind14``, ids ``nc_``, issue 22z): as the
  thirteenth (``docs/blind_halves/author_spec_v14.md``), frozen before the round-13 work it judges.
- blind half 15 (``detector_heldout_blind15.yaml``, split ``blind15``, ids ``sh_``/``sm_``, issue 22z): high
  risk and missing items only (``docs/blind_halves/author_spec_v15.md``), frozen before its one run on the
  shipped 2-F detectors: M and H on text nobody here wrote since round 9.
- blind half 16 (``detector_heldout_blind16.yaml``, split ``blind16``, ids ``uc_``, issue 22z): as the
  fourteenth (``docs/blind_halves/author_spec_v16.md``), frozen before the round-14 work it judges.
  Its misses were read for round 15 (issue 22z).
- blind half 17 (``detector_heldout_blind17.yaml``, split ``blind17``, ids ``rc_``, issue 22z): as the
  sixteenth (``docs/blind_halves/author_spec_v17.md``), frozen before the round-15 work it judges.
  Its misses were read for round 16 (issue 22z).
- blind half 18 (``detector_heldout_blind18.yaml``, split ``blind18``, ids ``hc_``, issue 22z): as the
  seventeenth (``docs/blind_halves/author_spec_v18.md``), frozen before the round-16 work it judges.
- blind half 19 (``detector_heldout_blind19.yaml``, split ``blind19``, ids ``ac_``, issue 22z): as the
  eighteenth (``docs/blind_halves/author_spec_v19.md``), frozen before its one run on the shipped 2-G
  detectors; no tuning round after it.
- blind half 20 (``detector_heldout_blind20.yaml``, split ``blind20``, ids ``oc_``, issue 22z): as the
  nineteenth (``docs/blind_halves/author_spec_v20.md``), frozen before the round-17 work it judges.
- blind half 21 (``detector_heldout_blind21.yaml``, split ``blind21``, ids ``lc_``, issue 22z): as the
  twentieth (``docs/blind_halves/author_spec_v21.md``), frozen before the round-18 work it judges (first as
  the two authors' files merged unread, then with the blind reviewer's pass, which finished after the
  round-18 run and edited three texts, no label).
- blind half 22 (``detector_heldout_blind22.yaml``, split ``blind22``, ids ``ic_``, issue 22z): as the
  twenty-first (``docs/blind_halves/author_spec_v22.md``; four authors, each family's items reviewed by a
  second blind reader), frozen before the round-19 work it judges.
- blind half 23 (``detector_heldout_blind23.yaml``, split ``blind23``, ids ``cc_``, issue 22z): as the
  twenty-second (``docs/blind_halves/author_spec_v23.md``), nine families (the author of lab value and
  explicit contradiction had not finished; one of three files reviewed), frozen before the round-20 work it
  judges.
- blind half 24 (``detector_heldout_blind24.yaml``, split ``blind24``, ids ``mc_``, issue 22z): the file of
  v23's fourth author (lab value, explicit contradiction), which arrived after v23 was frozen and round 20
  committed; not reviewed; its ids renamed by a script, frozen and run once on round 20.
- blind half 25 (``detector_heldout_blind25.yaml``, split ``blind25``, ids ``zac_``, issue 22z): as the
  twenty-second, all eleven conflict families (``docs/blind_halves/author_spec_v25.md``; four authors, each
  file reviewed by a second blind reader), frozen before the round-21 work it judges.
- blind half 26 (``detector_heldout_blind26.yaml``, split ``blind26``, ids ``zbc_``, issue 22z): as the
  twenty-fifth (``docs/blind_halves/author_spec_v26.md``; four authors and two more, ids ``zbc_f_``;
  not reviewed), frozen after round 22 was committed and before anyone read it.
- blind half 27 (``detector_heldout_blind27.yaml``, split ``blind27``, ids ``zdc_``, issue 22z): lab value and
  explicit contradiction only, from ``docs/blind_halves/author_spec_v27.md`` by the one of four authors who
  delivered; not reviewed; frozen after round 23 was committed and before anyone read it.
- blind half 28 (``detector_heldout_blind28.yaml``, split ``blind28``, ids ``zec_``, issue 22z): allergy,
  medication status and weight, from the same specification by a second of v27's authors, arrived later (ids
  renamed by a script); not reviewed; frozen after round 23 was committed and before anyone read it.
- blind halves 29 and 30 (``detector_heldout_blind29.yaml``, ``…30.yaml``, splits ``blind29``/``blind30``, ids
  ``zfc_``/``zgc_``, issue 22z): code status, pregnancy status and blood group; dose, laterality and date;
  from the same specification by v27's third and fourth authors, arrived after v28's run (ids renamed by a
  script); not reviewed; frozen after round 23 was committed and before anyone read them.
- blind half 31 (``detector_heldout_blind31.yaml``, split ``blind31``, ids ``zjh_``/``zjc_``/``zjm_``, issue
  22z): all three detectors from ``docs/blind_halves/author_spec_v31.md`` by six authors (three for C, two for
  H, one for M), each file checked by a blind reviewer; frozen before round 24 was committed and before anyone
  read it.
- blind half 32 (``detector_heldout_blind32.yaml``, split ``blind32``, ids ``zkh_``/``zkc_``/``zkm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v32.md``, six authors asked for less common
  settings, each file checked by a blind reviewer); frozen before round 24 was committed and before anyone
  read it.
- blind half 33 (``detector_heldout_blind33.yaml``, split ``blind33``, ids ``zlh_``/``zlc_``/``zlm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v33.md``, six authors asked to write as busy
  clinicians and patients do, each file checked by a blind reviewer); frozen before round 24 was committed
  and before anyone read it.
- blind half 34 (``detector_heldout_blind34.yaml``, split ``blind34``, ids ``znh_``/``znc_``/``znm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v34.md``, six authors, each file checked by a
  blind reviewer); frozen before round 25 was committed and before anyone read it.
- blind half 35 (``detector_heldout_blind35.yaml``, split ``blind35``, ids ``zph_``/``zpc_``/``zpm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v35.md``, six authors, each file checked by a
  blind reviewer); frozen after round 25 was committed and before anyone read it.
- blind half 36 (``detector_heldout_blind36.yaml``, split ``blind36``, ids ``zqh_``/``zqc_``/``zqm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v36.md``, six authors, each file checked by a
  blind reviewer); frozen after release 2-L and before anyone read it; run once on round 26 (2-M).
- blind half 37 (``detector_heldout_blind37.yaml``, split ``blind37``, ids ``zrh_``/``zrc_``/``zrm_``, issue
  22z): as the thirty-first (``docs/blind_halves/author_spec_v37.md``, six authors, each file checked by a
  blind reviewer); frozen after round 26 (2-M) was committed and before round 27 was; run once on round 27
  (2-N).
- blind half 38 (``detector_heldout_blind38.yaml``, split ``blind38``, ids ``zsh_``/``zsc_``/``zsm_``, issue
  22z): as the thirty-first but ten C positives and six H near misses a family
  (``docs/blind_halves/author_spec_v38.md``, six authors, each file checked by a blind reviewer); frozen after
  round 27 (2-N) was committed and before round 28 was; run once on round 28 (2-O).
- blind half 39 (``detector_heldout_blind39.yaml``, split ``blind39``, ids ``zth_``/``ztc_``/``ztm_``, issue
  22z): as the thirty-eighth (``docs/blind_halves/author_spec_v39.md``, six authors, each file checked by a
  blind reviewer, M's only after the run, with no edit); frozen after round 28 (2-O) was committed and before
  round 29 was; run once on round 29 (2-P).
- blind half 40 (``detector_heldout_blind40.yaml``, split ``blind40``, ids ``zuh_``/``zuc_``/``zum_``, issue
  22z): as the thirty-ninth (``docs/blind_halves/author_spec_v40.md``, six authors, each file checked by a
  blind reviewer); frozen after round 29 (2-P) was committed and before round 30 was; run once on round 30
  (2-Q).
- blind half 41 (``detector_heldout_blind41.yaml``, split ``blind41``, ids ``zvh_``/``zvc_``/``zvm_``, issue
  22z): as the fortieth (``docs/blind_halves/author_spec_v41.md``, six authors, each file checked by a blind
  reviewer); frozen after round 30 (2-Q) was committed and before round 31 was; run once on round 31 (2-R).
- blind half 42 (``detector_heldout_blind42.yaml``, split ``blind42``, ids ``zwh_``/``zwc_``/``zwm_``, issue
  22z): as the forty-first (``docs/blind_halves/author_spec_v42.md``, six authors, each file checked by a
  blind reviewer); frozen after round 31 (2-R) was committed and before round 32 was; run once on round 32
  (2-S).
- blind half 43 (``detector_heldout_blind43.yaml``, split ``blind43``, ids ``zxh_``/``zxc_``/``zxm_``, issue
  22z): as the forty-second (``docs/blind_halves/author_spec_v43.md``, six authors, each file checked by a
  blind reviewer); its authors finished after round 33 was committed, so it was frozen after that and before
  anyone read it; run once on round 33 (2-T).
- blind half 44 (``detector_heldout_blind44.yaml``, split ``blind44``, ids ``zyh_``/``zyc_``/``zym_``, issue
  22z): as the forty-third (``docs/blind_halves/author_spec_v44.md``, six authors, each file checked by a
  blind reviewer); written while round 34 was read from blind half 43, frozen after round 34 was committed and
  before anyone read it; run once on round 34 (2-U).
- blind half 45 (``detector_heldout_blind45.yaml``, split ``blind45``, ids ``zzh_``/``zzc_``/``zzm_``, issue
  22z): as the forty-fourth (``docs/blind_halves/author_spec_v45.md``, six authors, each file checked by a
  blind reviewer); written while round 35 was read from blind half 44, frozen before round 35 was committed
  and before anyone read it; run once on round 35 (2-V).
- blind half 46 (``detector_heldout_blind46.yaml``, split ``blind46``, ids ``yah_``/``yac_``/``yam_``, issue
  22z): as the forty-fifth (``docs/blind_halves/author_spec_v46.md``, six authors, each file checked by a
  blind reviewer); written while round 36 was read from blind half 45, frozen after round 36 was committed
  and before anyone read it; run once on round 36 (2-W). The ``z?`` prefixes being used up, its ids start
  ``ya``.
- blind half 47 (``detector_heldout_blind47.yaml``, split ``blind47``, ids ``ybh_``/``ybc_``/``ybm_``, issue
  22z): as the forty-sixth (``docs/blind_halves/author_spec_v47.md``, six authors, each file checked by a
  blind reviewer); written while round 37 was read from blind half 46, frozen after round 37 was committed
  and before anyone read it; run once on round 37 (2-X).
- blind half 48 (``detector_heldout_blind48.yaml``, split ``blind48``, ids ``ych_``/``ycc_``/``ycm_``, issue
  22z): as the forty-seventh (``docs/blind_halves/author_spec_v48.md``, six authors); written while round 38
  was read from blind half 47, frozen after round 38 was committed and before anyone read it; run once on
  round 38 (2-Y).
- blind half 49 (``detector_heldout_blind49.yaml``, split ``blind49``, ids ``ydh_``/``ydc_``/``ydm_``, issue
  22z): as the forty-eighth (``docs/blind_halves/author_spec_v49.md``, six authors); written while round 39
  was read from blind half 48, frozen after round 39 was committed and before anyone read it; run once on
  round 39 (2-Z). h1's seven high-risk families never arrived: 324 items, H from h2's families only.
- blind half 49's supplement (``detector_heldout_blind49h.yaml``, split ``blind49h``, ids ``ydh_``, issue
  22z): v49's h1 file (high risk: chest pain, headache, back pain, abdominal pain, bleeding, breathing,
  vision), which arrived after v49 was frozen and run; kept unread, checked by a blind reviewer, merged by
  a script and frozen before round 40 was committed; run once on round 39 (2-Z), as v49 was.
- blind half 50 (``detector_heldout_blind50.yaml``, split ``blind50``, ids ``yeh_``/``yec_``/``yem_``, issue
  22z): as the forty-ninth (``docs/blind_halves/author_spec_v50.md``, six authors); written while round 40
  was read from blind half 49, frozen after round 40 was committed and before anyone read it; run once on
  round 40 (2-AA).
- blind half 51 (``detector_heldout_blind51.yaml``, split ``blind51``, ids ``yfh_``/``yfc_``/``yfm_``, issue
  22z): as the fiftieth (``docs/blind_halves/author_spec_v51.md``, six authors); written while blind half 50
  was frozen and run and round 41 was read from it, frozen after round 41 was committed and before anyone read
  it; run once on round 41 (2-AB).
- blind half 52 (``detector_heldout_blind52.yaml``, split ``blind52``, ids ``ygh_``/``ygc_``/``ygm_``, issue
  22z): as the fifty-first (``docs/blind_halves/author_spec_v52.md``, six authors); written while blind half
  51 was frozen and run, frozen after round 42 was committed and before anyone read it; run once on round 42
  (2-AC).
- blind half 53 (``detector_heldout_blind53.yaml``, split ``blind53``, ids ``yhh_``/``yhc_``/``yhm_``, issue
  22z): as the fifty-second (``docs/blind_halves/author_spec_v53.md``, six authors); written while round 42
  was read from blind half 51, frozen after round 43 was committed and before anyone read it; run once on
  round 43 (2-AD).
- blind half 54 (``detector_heldout_blind54.yaml``, split ``blind54``, ids ``yih_``/``yic_``/``yim_``, issue
  22z): as the fifty-third (``docs/blind_halves/author_spec_v54.md``, six authors); written while round 43 was
  read from blind half 52, frozen after round 44 was committed and before anyone read it; run once on round 44
  (2-AE).
- blind half 55 (``detector_heldout_blind55.yaml``, split ``blind55``, ids ``yjh_``/``yjc_``/``yjm_``, issue
  22z): as the fifty-fourth (``docs/blind_halves/author_spec_v55.md``, six authors); written while round 44
  was read from blind half 53, frozen after round 45 was committed and before anyone read it; run once on
  round 45 (2-AF).
- blind half 56 (``detector_heldout_blind56.yaml``, split ``blind56``, ids ``ykh_``/``ykc_``/``ykm_``, issue
  22z): as the fifty-fifth (``docs/blind_halves/author_spec_v56.md``, six authors); written while round 45
  was read from blind half 54, frozen after round 46 was committed and before anyone read it; run once on
  round 46 (2-AG).
- blind half 57 (``detector_heldout_blind57.yaml``, split ``blind57``, ids ``ylh_``/``ylc_``/``ylm_``, issue
  22z): as the fifty-sixth (``docs/blind_halves/author_spec_v57.md``, six authors); written while round 46
  was read from blind half 55, frozen after round 47 was committed and before anyone read it; run once on
  round 47 (2-AH).
- blind half 58 (``detector_heldout_blind58.yaml``, split ``blind58``, ids ``ymh_``/``ymc_``/``ymm_``, issue
  22z): as the fifty-seventh (``docs/blind_halves/author_spec_v58.md``, six authors); written while round 48
  was read from blind half 57 (a first v58 was lost unread before it was merged and written again), frozen
  before round 48 was committed and before anyone read it; run once on round 48 (2-AI).
- blind half 59 (``detector_heldout_blind59.yaml``, split ``blind59``, ids ``ynh_``/``ync_``/``ynm_``, issue
  22z): as the fifty-eighth (``docs/blind_halves/author_spec_v59.md``, six authors); written while round 49
  was read from blind half 58, frozen before round 49 was committed and before anyone read it; run once on
  round 49 (2-AJ).
- blind half 60 (``detector_heldout_blind60.yaml``, split ``blind60``, ids ``yoh_``/``yoc_``/``yom_``, issue
  22z): as the fifty-ninth (``docs/blind_halves/author_spec_v60.md``, six authors); written while round 49
  was read from blind half 58, frozen before round 50 was committed and before anyone read it; run once on
  round 50 (2-AK).
- blind half 61 (``detector_heldout_blind61.yaml``, split ``blind61``, ids ``yph_``/``ypc_``/``ypm_``, issue
  22z): as the sixtieth (``docs/blind_halves/author_spec_v61.md``, six authors); written while round 51 was
  read from blind half 60, frozen before round 51 was committed and before anyone read it; run once on round
  51 (2-AL).
- blind half 62 (``detector_heldout_blind62.yaml``, split ``blind62``, ids ``yqh_``/``yqc_``/``yqm_``, issue
  22z): as the sixty-first (``docs/blind_halves/author_spec_v62.md``, six authors); written while round 51 was
  read from blind half 60, frozen before round 52 was begun and before anyone read it; run once on round 52
  (2-AM).
- blind half 63 (``detector_heldout_blind63.yaml``, split ``blind63``, ids ``yrh_``/``yrc_``/``yrm_``, issue
  22z): as the sixty-second (``docs/blind_halves/author_spec_v63.md``, six authors); written while round 52
  was read from blind half 61, frozen before round 53 was begun and before anyone read it; run once on round
  53 (2-AN).
- blind half 64 (``detector_heldout_blind64.yaml``, split ``blind64``, ids ``ysh_``/``ysc_``/``ysm_``, issue
  22z): as the sixty-third (``docs/blind_halves/author_spec_v64.md``, six authors); written while round 53 was
  read from blind half 62, frozen before round 54 was begun and before anyone read it; run once on round 54
  (2-AO).
- blind half 65 (``detector_heldout_blind65.yaml``, split ``blind65``, ids ``yth_``/``ytc_``/``ytm_``, issue
  22z): as the sixty-fourth (``docs/blind_halves/author_spec_v65.md``, six authors); written while round 54
  was read from blind half 63, frozen before round 55 was begun and before anyone read it; run once on round
  55 (2-AP).
- blind half 66 (``detector_heldout_blind66.yaml``, split ``blind66``, ids ``yuh_``/``yuc_``/``yum_``, issue
  22z): as the sixty-fifth (``docs/blind_halves/author_spec_v66.md``, six authors); written while round 55
  was read from blind half 64, frozen before round 56 was begun and before anyone read it; run once on round
  56 (2-AQ).
- blind half 67 (``detector_heldout_blind67.yaml``, split ``blind67``, ids ``yvh_``/``yvc_``/``yvm_``, issue
  22z): as the sixty-sixth (``docs/blind_halves/author_spec_v67.md``, six authors); written while round 56
  was read from blind half 65, frozen before round 57 was begun and before anyone read it; run once on round
  57 (2-AR).
- blind half 68 (``detector_heldout_blind68.yaml``, split ``blind68``, ids ``ywh_``/``ywc_``/``ywm_``, issue
  22z): as the sixty-seventh (``docs/blind_halves/author_spec_v68.md``, six authors); written while round 57
  was read from blind half 66, frozen before round 58 was begun and before anyone read it; run once on round
  58 (2-AS).
- blind half 69 (``detector_heldout_blind69.yaml``, split ``blind69``, ids ``yxh_``/``yxc_``/``yxm_``, issue
  22z): as the sixty-eighth (``docs/blind_halves/author_spec_v69.md``, six authors); written while round 57
  was read from blind half 66, frozen before round 58 was begun and before anyone read it; run once on round
  59 (2-AT).
- blind half 70 (``detector_heldout_blind70.yaml``, split ``blind70``, ids ``yyh_``/``yyc_``/``yym_``, issue
  22z): as the sixty-ninth (``docs/blind_halves/author_spec_v70.md``, six authors); written while round 59
  was read from blind half 68, frozen before round 59's first change was committed and before anyone read it;
  run once on round 60 (2-AU).
- blind half 71 (``detector_heldout_blind71.yaml``, split ``blind71``, ids ``yzh_``/``yzc_``/``yzm_``, issue
  22z): as the seventieth (``docs/blind_halves/author_spec_v71.md``, six authors); written while round 59
  was released, frozen before round 60 was begun and before anyone read it; run once on round 61 (2-AV).
- blind half 72 (``detector_heldout_blind72.yaml``, split ``blind72``, ids ``zih_``/``zic_``/``zim_``, issue
  22z): as the seventy-first (``docs/blind_halves/author_spec_v72.md``, six authors); written while round 61
  was worked on, frozen before round 61's first change was committed and before anyone read it; run once on
  round 62 (2-AW).
- blind half 73 (``detector_heldout_blind73.yaml``, split ``blind73``, ids ``zoh_``/``zoc_``/``zom_``, issue
  22z): as the seventy-second (``docs/blind_halves/author_spec_v73.md``, six authors); written while round 61
  was released and round 62 was read, frozen before round 62's first change was committed and before anyone
  read it; run once on round 63 (2-AX).
- blind half 74 (``detector_heldout_blind74.yaml``, split ``blind74``, ids ``zch_``/``zcc_``/``zcm_``, issue
  22z): as the seventy-third (``docs/blind_halves/author_spec_v74.md``, six authors); written while round 63
  was read, frozen before round 63's first change was committed and before anyone read it; run once on round
  64 (2-AY).
- blind half 75 (``detector_heldout_blind75.yaml``, split ``blind75``, ids ``zhh_``/``zhc_``/``zhm_``, issue
  22z): as the seventy-fourth (``docs/blind_halves/author_spec_v75.md``, six authors); written while round 63
  was released and round 64 was read, frozen before round 64's first change was committed and before anyone
  read it; run once on round 65 (2-AZ).
- blind half 76 (``detector_heldout_blind76.yaml``, split ``blind76``, ids ``zmh_``/``zmc_``/``zmm_``, issue
  22z): as the seventy-fifth (``docs/blind_halves/author_spec_v76.md``, six authors); written while round 65
  was read, frozen before round 65's first change was committed and before anyone read it; run once on round
  66 (2-BA).
- blind half 77 (``detector_heldout_blind77.yaml``, split ``blind77``, ids ``wah_``/``wac_``/``wam_``, issue
  22z): as the seventy-sixth (``docs/blind_halves/author_spec_v77.md``, six authors); written while round 65
  was released, frozen before round 66's first change was committed and before anyone read it; run once on
  round 67 (2-BB).
- blind half 78 (``detector_heldout_blind78.yaml``, split ``blind78``, ids ``wbh_``/``wbc_``/``wbm_``, issue
  22z): as the seventy-seventh (``docs/blind_halves/author_spec_v78.md``, six authors); written while round 66
  was read, frozen before round 67's first change was committed and before anyone read it; run once on round
  68 (2-BC).
- blind half 79 (``detector_heldout_blind79.yaml``, split ``blind79``, ids ``wch_``/``wcc_``/``wcm_``, issue
  22z): as the seventy-eighth (``docs/blind_halves/author_spec_v79.md``, six authors); written while round 67
  was read, frozen before round 68's first change was committed and before anyone read it; run once on round
  69 (2-BD).
- blind half 80 (``detector_heldout_blind80.yaml``, split ``blind80``, ids ``wdh_``/``wdc_``/``wdm_``, issue
  22z): as the seventy-ninth (``docs/blind_halves/author_spec_v80.md``, six authors); written while round 67
  was released, frozen before round 68's first change was committed and before anyone read it; run once on
  round 70 (2-BE).
- blind half 81 (``detector_heldout_blind81.yaml``, split ``blind81``, ids ``weh_``/``wec_``/``wem_``, issue
  22z): as the eightieth (``docs/blind_halves/author_spec_v81.md``, six authors); written while round 69 was
  made, frozen before round 69's first change was committed and before anyone read it; run once on round 71
  (2-BF).
- blind half 82 (``detector_heldout_blind82.yaml``, split ``blind82``, ids ``wfh_``/``wfc_``/``wfm_``, issue
  22z): as the eighty-first (``docs/blind_halves/author_spec_v82.md``, six authors); written while round 70
  was released, frozen before round 71's first change was committed and before anyone read it; run once on
  round 72 (2-BG).
- blind half 83 (``detector_heldout_blind83.yaml``, split ``blind83``, ids ``wgh_``/``wgc_``/``wgm_``, issue
  22z): as the eighty-second (``docs/blind_halves/author_spec_v83.md``, six authors); written while round 72
  was made, frozen before round 72's first change was committed and before anyone read it; run once on round
  73 (2-BH).
- blind half 84 (``detector_heldout_blind84.yaml``, split ``blind84``, ids ``whh_``/``whc_``/``whm_``, issue
  22z): as the eighty-third (``docs/blind_halves/author_spec_v84.md``, six authors); written while round 72
  was made, frozen before round 73's first change was committed and before anyone read it; run once on round
  74 (2-BI).
- blind half 85 (``detector_heldout_blind85.yaml``, split ``blind85``, ids ``wih_``/``wic_``/``wim_``, issue
  22z): as the eighty-fourth (``docs/blind_halves/author_spec_v85.md``, six authors); written while round 73
  was made, frozen before round 74's first change was committed and before anyone read it; run once on round
  75 (2-BJ).
- blind half 86 (``detector_heldout_blind86.yaml``, split ``blind86``, ids ``wjh_``/``wjc_``/``wjm_``, issue
  22z): as the eighty-fifth (``docs/blind_halves/author_spec_v86.md``, six authors); written after release
  2-BI, frozen before round 75's first change was committed and before anyone read it; run once on round 76
  (2-BK).
- blind half 87 (``detector_heldout_blind87.yaml``, split ``blind87``, ids ``wkh_``/``wkc_``/``wkm_``, issue
  22z): as the eighty-sixth (``docs/blind_halves/author_spec_v87.md``, six authors); written after release
  2-BJ, frozen before round 76's first change was committed and before anyone read it; run once on round 77
  (2-BL).
- blind half 88 (``detector_heldout_blind88.yaml``, split ``blind88``, ids ``wlh_``/``wlc_``/``wlm_``, issue
  22z): as the eighty-seventh (``docs/blind_halves/author_spec_v88.md``, six authors); written after release
  2-BK, frozen before round 77's first change was committed and before anyone read it; run once on round 78
  (2-BM).
- blind half 89 (``detector_heldout_blind89.yaml``, split ``blind89``, ids ``wmh_``/``wmc_``/``wmm_``, issue
  22z): as the eighty-eighth (``docs/blind_halves/author_spec_v89.md``, six authors); written during round 77
  (before release 2-BL), frozen before round 78's first change was committed and before anyone read it; run
  once on round 79 (2-BN).
- blind half 90 (``detector_heldout_blind90.yaml``, split ``blind90``, ids ``wnh_``/``wnc_``/``wnm_``, issue
  22z): as the eighty-ninth (``docs/blind_halves/author_spec_v90.md``, six authors); written at the start
  of round 79 (after release 2-BM), frozen before round 79's first change was committed and before anyone
  read it; run once on round 80 (2-BO).
- blind half 91 (``detector_heldout_blind91.yaml``, split ``blind91``, ids ``woh_``/``woc_``/``wom_``, issue
  22z): as the ninetieth (``docs/blind_halves/author_spec_v91.md``, six authors); written at the start of
  round 80 (after release 2-BN), frozen before round 80's first change was committed and before anyone read
  it; run once on round 81 (2-BP).
- blind half 92 (``detector_heldout_blind92.yaml``, split ``blind92``, ids ``wph_``/``wpc_``/``wpm_``, issue
  22z): as the ninety-first (``docs/blind_halves/author_spec_v92.md``, six authors); written at the start of
  round 81 (after release 2-BO), frozen before round 81's first change was committed and before anyone read
  it; run once on round 82 (2-BQ).
- blind half 93 (``detector_heldout_blind93.yaml``, split ``blind93``, ids ``wqh_``/``wqc_``/``wqm_``, issue
  22z): as the ninety-second (``docs/blind_halves/author_spec_v93.md``, six authors); written at the start of
  round 82 (after release 2-BP), frozen before round 82's first change was committed and before anyone read
  it.
- development half 3 (``detector_heldout_dev3.yaml``, split ``dev``, issue 22s): the mechanisms the
  blind half's misses showed (units, date formats, implied sources and attributes, lay spellings).
- development half 4 (``detector_heldout_dev4.yaml``, split ``dev``, issue 22t): the mechanisms the
  second blind half's misses showed (condition scope, fear of a diagnosis, rule-out after the finding,
  residual deficits, later recovery, repeat values, family history with an auxiliary; C and M items).
- development half 5 (``detector_heldout_dev5.yaml``, split ``dev``, issue 22v): the M and H mechanisms
  the misses of blind v1-v3 showed (lay not-told, documents not sent with a transfer, negation in the
  marker's own segment; unilateral deficits, child ingestion, SJS on a high-risk drug, stated targets).
- development half 6 (``detector_heldout_dev6.yaml``, split ``dev``, issue 22u): the conflict
  mechanisms the third blind half's misses showed (readings side by side, quoted and negated values,
  weekdays and relative dates, values a source states alone, list entries, lay contradiction wording).
- development half 7 (``detector_heldout_dev7.yaml``, split ``dev``, issue 22x): the M and H
  mechanisms the fourth blind half's misses showed (BE-FAST in lay word order, Guillain-Barre, saddle
  numbness, peritonism, lay melaena, weeks/40 gestation, conditional absences, assay cut-offs).
- development half 8 (``detector_heldout_dev8.yaml``, split ``dev``, issue 22w): the conflict
  mechanisms the fourth blind half's misses showed (reconciliation and lab sources, drug classes, lay
  code status, gestation and results stated alone, disagreements posed as conditions).
- development half 9 (``detector_heldout_dev9.yaml``, split ``dev``, issue 22y): the conflict
  mechanisms the fifth blind half's misses showed (sources that both say one side, recent weights,
  flagged reactions, an allergy record's only allergen, doses given at a time, collection times,
  vaccines by name, never-taken drugs, compliance aids, advance directives, gestations, clock times).
- development half 10 (``detector_heldout_dev10.yaml``, split ``dev``, issue 22z): the conflict
  mechanisms the eighth blind half's misses showed (one occasion named for two readings, a day of the
  month alone, an analyte with its value a few words on, a pregnancy denied with its predicate left out,
  an ABO group in words, allergy bands and lists, list entries and orders with their status, a denied
  change, a change a third clause names, amended and withdrawn reports).
- development half 11 (``detector_heldout_dev11.yaml``, split ``dev``, issue 22z): the M mechanisms
  the ninth blind half's misses showed (an absence a later part of the sentence says was filled since,
  "unk", a person who cannot say when, a result never received, a plan not completed, a route absent).
- development half 12 (``detector_heldout_dev12.yaml``, split ``dev``, issue 22z round 12): the conflict
  mechanisms the twelfth blind half's misses showed (a reconciliation denied, UK day shorthand, an
  allergy graded severe and mild, an allergen named instead of another, a vaccine year, a day and month
  without a year beside LMPs a cycle apart, "full code" against a DNI, a drug level in mg/L, a dose to
  continue, a weighing without its unit, a mismatch "sorted", a letter that predates the change).
- development half 13 (``detector_heldout_dev13.yaml``, split ``dev``, issue 22z round 13): the conflict
  mechanisms the thirteenth blind half's misses showed (list entries after an em dash, "prescribed on",
  "given daily", "has it marked", a status stated alone, "FULL", a result "as" its value, ABO and T&S,
  Td/IPV, implants and joint replacements dated, a severe reaction "with" its drug, one allergen "only",
  pregnancy flags, a positive home test, a weight on named scales, "those match", a change asked about).
- development half 14 (``detector_heldout_dev14.yaml``, split ``dev``, issue 22z rounds 14-16): the conflict
  mechanisms the fourteenth, sixteenth and seventeenth blind halves' misses showed (entries split at an arrow
  or a second "and as", a change before a semicolon, agreement and resolution wording, a regimen's status
  without its drug, a drug among or not on a list, drug classes, an allergy field blank, a reaction a drug
  caused, the ceiling of treatment, RhD and analyte headings, a year a source gives, a weekday's day, the
  minus sign, swapped numeric dates, OD/OS, itch alone, a strength without its unit).
- development half 15 (``detector_heldout_dev15.yaml``, split ``dev``, issue 22z round 17): the conflict
  mechanisms the eighteenth and nineteenth blind halves' misses and false positives showed (a list's later
  entries read under its heading, a drug's heading after a dash, a record's entry that is a status alone,
  "poss.", " and " before a second source, two members of one allergen class, hCG wording, a drug charted at
  a frequency, a replacement to come, "both" before one side, a mismatch checked and found none).
- development half 16 (``detector_heldout_dev16.yaml``, split ``dev``, issue 22z round 18): the conflict
  mechanisms the twentieth blind half's misses and false positives showed (a value at the end of its
  sentence, "told us", one Doppler or set, "MTX", the Kardex as a source, a dose given at a clock
  time, "contains no", allergies "recorded as", "IUP", "everything done", "isn't what", "concordant").
- development half 17 (``detector_heldout_dev17.yaml``, split ``dev``, issue 22z round 19): the conflict
  mechanisms the twenty-first blind half's misses and false positives showed (a re-weigh not yet done, a
  discrepancy found "not real", an allergy field after a long dash, a reaction a drug "gave", a side in
  brackets after its part, a day unit as a source, "postnatal anti-D", ICU escalation judged
  appropriate, a "last <drug>" heading, " and " before a record that lists or groups, a heading's list
  joined by semicolons, a fracture's fixation date).
- development half 18 (``detector_heldout_dev18.yaml``, split ``dev``, issue 22z round 20): the conflict
  mechanisms the twenty-second blind half's misses and false positives showed (an explanation only asked
  about, a verdict that belongs to another drug, a drug heading with its dose, a supply's entry after "=", a
  whole drug class held, a blood product's group, today's own reading after a comma, a feed that runs on a
  weight, HemoCue, a drug chart signed at a time, "still have", a repeat issued lately, an active problem, hCG
  "here", "preg" tests, a trimester, "allo-SCT", a dated miscarriage, a child's routine check, "both say …
  now").
- development half 19 (``detector_heldout_dev19.yaml``, split ``dev``, issue 22z round 21): the conflict
  mechanisms the twenty-third and twenty-fourth blind halves' misses and false positives showed (the date a
  record was written or filled, a month with its year, a value a record "documents", a status with its
  schedule alone, a status "on" a list, a medicines heading, drugs listed
  together, a weight without its unit or said of a person, two weights of one occasion, a dose worked out per
  kg, ICE, a cause named for a changed value, a unit of blood kept for
  need; "get this sorted", "full cardiopulmonary resuscitation", a pregnancy status field, "pregnancy
  excluded", hCG below 5 IU/L, a "+" between tests, "nil allergies", a supply run out, "hasn't taken", "is
  on", "superseded", "there's no difference", "they say the same", a lower value expected, weak D, delivered
  in a month, the original booking, "same as always", "before resolved").
- development half 20 (``detector_heldout_dev20.yaml``, split ``dev``, issue 22z round 22): the conflict
  mechanisms the twenty-fifth blind half's misses and false positives showed (a fill date in brackets, a
  weekday before "the" and its day and every weekday's whole name, a split sample, a value reported "as"
  after a first, the one analyte named before a value, a drug's form before its
  status, a status with the time since, "on the R", a weight stable over a past span or two or three weeks
  old, a person said to be so many kg, a later event; a stop date, "shouldn't be on it", "not used", an entry
  on a current list, wanting to be resuscitated, a record that "has" her pregnant, "isn't pregnant", a
  decision rescinded, a mismatch corrected by a team or clarified, a value after a drug was stopped, both
  documents saying the same, the referral and the examination, discharge papers and the ER as sources).
- development half 21 (``detector_heldout_dev21.yaml``, split ``dev``, issue 22z round 23): the conflict
  mechanisms the twenty-sixth blind half's misses and false positives showed (a clause about one drug that
  names its source and states one status, a clause that names a source and no drug and states one status,
  drug names written one after another as one drug, "MTX" as methotrexate, " and " before a second value
  with its unit and where it was found, the letter of a date, a result set equal to a value, one
  venepuncture, an analyte's heading and then where its value came from, a source's estimate of a weight; a
  drug left off a letter, none of it charted, a patient dosing themself, the patient's own list, a fill of the
  last weeks, "d/c'd" as one word, the anticoagulant book, not currently pregnant, a pregnancy-status heading
  with a negative test, a field that reads pregnant, a pregnancy's end confirmed, a drug back on a list, an
  allergy since a reaction, a coronary stent's abbreviations, a platelet count).
- development half 22 (``detector_heldout_dev22.yaml``, split ``dev``, issue 22z round 24): the conflict
  mechanisms blind halves 27-30's misses and false positives showed (a morning abbreviated as one occasion, a
  sample's date between an analyte and its value, an operation note's own date, a dose per day, a severe
  reaction written with its allergen, an empty allergy entry with its source after it; two sources that differ
  as to a thing, a value denied "like it says in" a record, a recommendation not to attempt CPR, a check asked
  for before an event to come, an hCG result a few more words on, a pregnancy of so many weeks, a difference
  put down to a change made, a record corrected, an allergy added after a reaction).
- development half 23 (``detector_heldout_dev23.yaml``, split ``dev``, issue 22z round 25): the mechanisms
  blind halves 31-33's misses and false positives showed for all three detectors (H findings: a falling coma
  scale, a sluggish pupil, seizures without recovery, papilloedema, a torsion, blood coughed up, a neck
  swelling after surgery, a corneal infiltrate, reduced fetal movements in shorthand, C-SSRS preparatory
  behaviour; H context: a chronic finding as usual, a relative's history, an age or month of an event, a risk
  named, a negative culture or screen, a finding now free or settled, a pathway's name; M absence wording; C a
  blood count panel as a source, a value opening or closing its clause, an allergy standing since a year).
- development half 24 (``detector_heldout_dev24.yaml``, split ``dev``, issue 22z round 26): the mechanisms
  blind halves 34 and 35's misses and false positives showed for all three detectors (H context: a finding
  word with the prefix "non-", a relative as the subject of the finding's verb, a sentence's past time frame,
  "now and then", a finding unchanged for years or right after it, a threshold named, a reference range that
  resolves nothing; H findings: guarding, band-like thoracic pain, limbs progressively weaker, NICE NG232 CT
  rules after a fall, a child found with tablets, intent to finish an attempt, a curtain over the sight; M
  absence wording and "nothing pending"; C an allergy box read as nil, a printout, still injecting, a
  witness's last-seen-normal time, a device inserted, resuscitation refused in the patient's words, pregnancy
  status wording, an ABO group closing its clause, a word and its shorter form as one referent, and the
  explanations beside them).
- development half 25 (``detector_heldout_dev25.yaml``, split ``dev``, issue 22z round 27): the mechanisms
  blind half 36's misses and false positives showed (H: an episode seen weeks later or "remained well since",
  a later value after an arrow, a haemolysed sample, a diagnosis "not suspected" after its query; M: "nothing
  has arrived", not "in our system", a promised call "nobody has" made, which chemist; C: "corrected now").
- development half 26 (``detector_heldout_dev26.yaml``, split ``dev``, issue 22z round 28): the mechanisms
  blind half 37's misses and false positives showed (C: a drug "not on anymore" or "never used", a wish for
  CPR, intubation included or refused with ICU, a record that flags her as pregnant, "different stories", a
  relative who only seconds a source, a change only supposed, both eyes against one eye only, "glu", a depot
  "last administered", a status two clauses from its drug, a date "moved to" another, a record "changed to
  match", an allergy field's "no known drug allergies"; M: observations not recorded, a form no one "can
  find", a label "none of us can read", "no weight loss"; H: a plan to jump, "gone to" a place, "cleared up",
  "worn off", "pain free since", a red painful eye, a white spot on the cornea, a baby not felt to move, a
  child found with tablets an hour ago).
- development half 27 (``detector_heldout_dev27.yaml``, split ``dev``, issue 22z round 29): the mechanisms
  blind half 38's misses and false positives showed (C: weighed on a day at a number, a second record after a
  comma, "something totally different", ferritin, an alert found spurious, "doesn't take it", a dose on a GP
  list; M: a letter "never got"; H: "H/A", maximal within seconds, back pain with fever, navel to right, worse
  over bumps, hopelessness and timing in the patient's words, saving up tablets; near misses: a relative who
  "nearly died", chronic passive ideation, an admission in a past year, safety-netting advice, a screen's
  bloods, a finding named in brackets as a test's indication).
- development half 28 (``detector_heldout_dev28.yaml``, split ``dev``, issue 22z round 30): the mechanisms
  blind half 39's misses and false positives showed (C: a list's dose against another source's stop, a stop
  asked about or denied, an old fill against today's list, "no allergies" dated before an allergy, two members
  of one allergen class, pregnancy results side by side, insulin's "u", brand names, "isnt on", "inactivated",
  "marked not on", "put it back on", "their error", a "repeat-prescription" slip, "not the same as", "until …
  sorted", "after discussion with", pounds; M: "not self-reported", "no other indication", never completed,
  not yet taken, nothing come back, no plan on file, "and there is"; H: "should prompt", a value on admission
  then a later one, today's value, not needing them for long, a note to the children, driving off a quay, fits
  counted, no recovery between, a CSF glucose ratio, a subconjunctival haemorrhage, "has cleared", "gone very
  swollen", counselling, "told to report", "report any", "can be signs of", unchanged over the last visits,
  born early and needed care, not back to baseline, a streak on the paper, pain and bleeding in early
  pregnancy).
- development half 29 (``detector_heldout_dev29.yaml``, split ``dev``, issue 22z round 31): the mechanisms
  blind half 40's misses and false positives showed (C: "that's not what", digits transposed,
  an expected fall, a "repeat record", a change made between two values, "no allergies … until" a year,
  insulin's "u" against a number alone; M: not knowing which strength, an item not in the notes, no measured
  weight; H: a number rung, a finding unlike the usual one, a reporting verb or "requesting" after a history,
  a screen done for a finding, a relative who "has had this", a spouse who died of it, an aneurysm coiled, a
  finding in brackets after a past year, a face "puffed up", a "really bad headache" and sparkly vision in
  pregnancy, a wish to die, a splint fitting, worsening abdominal pain with a fever).
- development half 30 (``detector_heldout_dev30.yaml``, split ``dev``, issue 22z round 32): the mechanisms
  blind half 41's misses and false positives showed (C: a title's full stop, thyroid tests, a value phoned
  through, a source's place before its verb, severe skin reactions and neuromuscular blockers as allergy
  entries, a reaction "to" a drug, "lists only", an allergen and reaction joined by a comma, a drug class not
  taken, a status "recorded as", a dose someone gave, a code status "as full", anti-D, "pregnancy test neg", a
  scan said to be fine, a stop dated without "on", a change nobody told of, "I'm not", "my last period
  started", two dates joined by "and", a dose that "started at" a time, "not yet updated" alone; M: "not for"
  a treatment, "unable to establish"; H: a value in the brackets of a past event, a clock time as no value, a
  result withdrawn or EDTA-contaminated, a redrawn sample, a sepsis screen read as negative, a full recovery,
  a relative who needed surgery for it, fresh blood per rectum, a chemical splash, DRESS, stable exertional
  angina, unchanged over years in words, a finding "I had" last week, a finding after "unchanged for years:").
- development half 31 (``detector_heldout_dev31.yaml``, split ``dev``, issue 22z round 33): the mechanisms
  blind half 42's misses and false positives showed (C: a system that "holds" a date, "yet" and "and then"
  between two sources, a second source that "has" its value, a reading someone "got", "she's not" closing a
  clause, a reason posed as a query, a value's source split from it by commas, "last dose" of another clause's
  event, "it was" correcting a date, "as her only allergy", a source's bare number in a text about weight, a
  contradiction phrase written as a query, going up to bed, "need it rechecked", a depot's last dose, "been
  off", "allergy - X", iodine, concordant prior groups, "sugar", a pregnancy field, "pregnant ~10wk", "till
  it's sorted", "was last normal"; M: "no idea if it matters", "no creatinine/eGFR on record", a result not
  come through, "no indication given", "could not find the original diagnosis", "not addressed"; H: a value in
  a sentence that opens years ago, a baseline range the sentence before, the usual finding, "nil", screening,
  "Sepsis-screen", a relative who developed it, a minor head injury and its advice sheet, a liquid medicine a
  child drank, numbness climbing from the feet, the chemical after its verb, "will jump from", "swallow the
  whole box").
- development half 32 (``detector_heldout_dev32.yaml``, split ``dev``, issue 22z round 34): the mechanisms
  blind half 43's misses and false positives showed (C: "not same as", two documents that record different
  things, an hCG positive further on, a scan that found no pregnancy, comfort measures only, a crossmatch in
  shorthand, two sources that now both say one value, "up to and including", a dose given at a clock time, a
  drug not used since, wheeze and a swollen face as a severe reaction, the same blood test, "for that date",
  "records it as", a value or a date opening its clause before its source, the one allergen an allergy field
  says, a dose worked out from the weight, a neonate's birth weight; M: "nowhere in the notes", "not
  reportable", "not rec'd", "never got it", a result that did not come with the referral, "no observations
  missing", transport home and a fax "no.", "none was sent"; H: "Educ re", "anxious re", prophylaxis, "is her
  usual", "which is unchanged", a value in a sentence opening in a past year, an admission weeks ago and
  pain-free since, an ideation resolved, a later value this morning, two limbs of one side, facial asymmetry,
  words mixed up, a grip lost on one side, "worst ever" further on, a farewell with a supply, the writer's
  relative who has had it for an hour now, methanol and ethylene glycol levels).
- development half 33 (``detector_heldout_dev33.yaml``, split ``dev``, issue 22z round 35): the mechanisms
  blind half 44's misses and false positives showed (C: an operative plan is no change, a treatment
  start and a first supply, a prescription cancelled, "different from whats", two conflicting orders, a
  refusal after another, an hCG heading, a pregnancy conceived since, vomiting as an allergy entry's reaction,
  "for escalation incl. ICU", "nobody agrees", "no dose discrepancies", "not resolved"; M: a result not made
  available, "and nothing is written down"; H: a relative's age in brackets, "seek urgent help", "what are the
  signs of", the usual finding two words on, "unlikely", a drain running frank blood, the age an episode
  happened at).
- development half 34 (``detector_heldout_dev34.yaml``, split ``dev``, issue 22z round 36): the mechanisms
  blind half 45's misses and false positives showed (C: an A subgroup, a test's result against a status in
  one clause, a dated delivery, a dose worked out on so many kg, a value read out, a side as a record's value,
  "blood thinner" in lay words and a member excepted, "never been on", a status field's bare "no", a current
  pregnancy, a drug not taken at all, a list's name, a correction after which the sources match; M: no weight
  on the EHR, nothing charted since, a question the writer cannot answer, a plan that accompanies no one; H: a
  value that moved from one number to another, SJS by its acronym, a blistered rash, painful red eyes, sudden
  blurred vision, an intention to die, a count of an adult's tablets, a screening question, "same as it has
  always been", a bedside glucose written "BM", a low value treated and then within limits or "resolved").
- development half 35 (``detector_heldout_dev35.yaml``, split ``dev``, issue 22z round 37): the mechanisms
  blind half 46's misses and false positives showed (C: a second account naming only its source and the
  date, an itch as a list entry's reaction, a reaction after a spaced dash, an inpatient allergy list, a
  chemotherapy plan as a record, a record that puts her at a gestation, a value in brackets converted, a
  sample date with its colon, "says one thing … another", a tablet count after the form, an earlier one of
  the kind, doses recalculated on the new weight; M: no DNACPR form for a patient for CPR; H: calcium in
  mmol/L, respiratory failure, lower right tummy pain, a region's pain with guarding, the wish an attempt had
  worked, "all be over soon", "nearly got enough", twenty tablets or more, a sign that "means" going in, a
  joke, a month and a year after a finding, a condition's last word before its year, ", full recovery", "now
  settled", an ideation days ago denied today, a repeat with its clock time).
- development half 36 (``detector_heldout_dev36.yaml``, split ``dev``, issue 22z round 38): the mechanisms
  blind half 47's misses and false positives showed (C: "two of the <drug> 40 mg", a fracture's side before
  "#", an allergen "tolerated", "and not" one allergen, food allergens, "and a separate" record, days ago in
  shorthand, "which … the same test", kidney and ureter as one side's tract, discharge medications as a
  source, an infusion "running at", "can't be pregnant", home tests then their result, the chemistry panel;
  near misses explained by a partial D, a haemolysed sample, a flag left from a birth; M: a section left
  empty, a letter not yet reached or never arrived, a form never got round to, no values available, no plan
  on the EPR; H: a relative's illness beside the writer's own screening question, "which is his baseline", a
  functional scale's grade, a test sent "for query", a screen's name before its results, an admission
  diagnosis now afebrile for days, a headache eased by lying flat, lay severe abdominal pain, a distended
  abdomen, a bracketed gloss inside a phrase).
- development half 37 (``detector_heldout_dev37.yaml``, split ``dev``, issue 22z round 39): the mechanisms
  blind half 48's misses and false positives showed (C: a supply "since" a month and year beside an earlier
  range, a transfusion between two haemoglobins, a correction after which all now say one value, an allergy
  field headed by its source, a repeat still issued, a cause only suspected, DNACPR spelled out, an Rh type in
  Portuguese, a capillary glucose as a source; M: not yet established, a frequency not known, no readings
  since, not in the notes, no BP on the observation chart, did not travel, no list in the envelope; H: melaena
  misspelt, a seizure diary, stroke warning signs taught, a last seizure recorded in a year, a pregnancy named
  by its year, "at the time", thoughts settled, good fetal movements felt).
- development half 38 (``detector_heldout_dev38.yaml``, split ``dev``, issue 22z round 40): the mechanisms
  blind half 49's misses and false positives showed, and those of its h1 supplement once its run was on record
  (C: a glucose written BGL/BSL, Rh(D) in brackets, an hCG shown "as positive", a list's ", no <drug>",
  relisted with new consent, an infusion-related flushing, a bracketed history as a limb restriction's reason,
  another identifier that matches, a side marked in capitals, a discharge paper and a results page, a date
  written in a diary, the last supply, a scope procedure "as" a year, a person who insists, a first and a
  second group sample; M: no weight this visit, a level not taken, results outstanding, faxed without a page,
  without an indication, no observation since a time; H: a pre-eclampsia blood panel, an empty uterus with
  free fluid, jaundice in the first 24 hours, an admission in infancy, thoughts disclosed at a previous
  session, a day and month after "on" read as no level, back pain with a measured temperature, a rigid abdomen
  in shorthand, a postpartum blood loss by volume, two relatives with the condition, a sample sent for a
  query, the writer worried about their own).
- development half 39 (``detector_heldout_dev39.yaml``, split ``dev``, issue 22z round 41): the mechanisms
  blind half 50's misses and false positives showed (C: "both L" as two sources giving the left, a record
  correct on everything now, "which is why", a drug denied ever taken, doses held between two INRs; M: a dose
  left off, an allergy history not held, without any observations, no current BP on the chart, a form that
  does not indicate an item; H: a protocol's name before its results, back pain with shivering, pain moved
  from the navel to the right, tablets written "tabs", thoughts from "back in the summer", a test named for a
  query).
- development half 40 (``detector_heldout_dev40.yaml``, split ``dev``, issue 22z round 42): the mechanisms
  blind half 51's misses and false positives showed, and some left over from blind halves 48-50 (C: a history
  note inside a side's bracket, "from the same admission", a list made at a recent discharge, "this AM", a
  last dose against a stop date, a source with nothing on an allergen, a drug injected, "full active
  treatment", a form marked "non-pregnant", a value right after its system, a colon after "not <done>", a
  corrected document received, values offered as a question, another allergen "instead", an analyte as the
  topic of bare values; M: one part given "but not" another, not handed over, never weighed, a hedge on a
  given weight; H: "the worst I have ever felt", a nose bleeding constantly, blood loss
  after a delivery, lay aphasia, a limp arm, hypotension despite a bolus, the wish to be dead with a plan, a
  collapsed lung, a test for a finding "query", a queried finding worked up negative, back to baseline after a
  seizure, carboxyhaemoglobin, a treated ectopic, a questionnaire item answered "not at all").
- development half 41 (``detector_heldout_dev41.yaml``, split ``dev``, issue 22z round 43): the mechanisms
  blind half 52's misses and false positives showed (C: samples minutes apart, an allergy field "No", a
  no-allergy record before the reaction, O typed as a zero, "both indicate" one side, "do everything if her
  heart stops", a pregnancy status "not applicable - postmenopausal", a list showing "the previous dose",
  "medicines on discharge"; M: a label torn off, a result not come up, no reportable result; H: "without
  realising" before a finding, lay saddle anaesthesia, wet without noticing, "delivered 25 min ago", a blood
  loss with a thousands comma, colours washed out, no intrauterine pregnancy with a high hCG, a screen read as
  normal, a past operation with no symptoms now, a value since recovered).
- development half 42 (``detector_heldout_dev42.yaml``, split ``dev``, issue 22z round 44): the mechanisms
  blind half 53's misses and false positives showed (C: glucose written "gluc", a difference said to reflect a
  decision; H: a NEWS2 aggregate of 5 or more, and not a NEWS2 trigger level, advice about findings, a past
  illness with "a good recovery").
- development half 43 (``detector_heldout_dev43.yaml``, split ``dev``, issue 22z round 45): the mechanisms
  blind half 54's misses and false positives showed (C: a correction asked for before something happens, a
  record's marking between "it" and its status, "no longer take", a weight after a named diuretic, "which
  is right" affirming a value, "no contradiction found"; H: a clinic "post-" an event, a birth with a
  neonatal unit stay, a work-up named, a finding that has stopped, a writer asking for their own check,
  "chest clear" answering a query; M: "nothing unclear", a test not done in a stated time).
- development half 44 (``detector_heldout_dev44.yaml``, split ``dev``, issue 22z round 46): the mechanisms
  blind half 55's misses and false positives showed (C: "who do I believe", a change the patient denies,
  "nothing in … contradicts", a stale source asked to update its record, a miscarriage dated with its month's
  name; H: a "counselling note" as a record's name, a bare relative after a note's heading, markers "not
  raised", an effect "fully worn off", a dipstick grade after "on repeat", a gestation in weeks and days, a
  finding that responded to treatment, "finish it" with when, a plan to "end it"; M: no code status "or
  ceiling of care", "no DNACPR or TEP", no weight on a profile, records still not arrived, an order without
  its identifiers).
- development half 45 (``detector_heldout_dev45.yaml``, split ``dev``, issue 22z round 47): the mechanisms
  blind half 56's misses and false positives showed (C: a record corrected that now shows the same value,
  values that "don't reconcile", "before" an event on a named day; H: a finding that "went away", a PV loss of
  a litre after a birth, a nosebleed for more than 20 minutes, a supply "enough to finish it"; M: "nothing on
  the app yet", the time last "seen normal" unknown, a caller "unable to give" the observations).
- development half 46 (``detector_heldout_dev46.yaml``, split ``dev``, issue 22z round 48): the mechanisms
  blind half 57's misses and false positives showed (C: a drug a doctor "weaned him off", "neither pregnant
  nor breastfeeding", a pregnancy denied as "present", an egg allergy, a drug class named as absent, a DNACPR
  "decision dated" a year, sources that "give a different date of birth", an allergy "outgrown"; H: a side by
  its letter ("L-sided weakness"), dysphasia, a patient "seizing", a negation kept inside its brackets, a
  blood-gas pH below 7.25, a spouse who died of the finding; M: a dose "not communicated", "nothing
  illegible", a letter "nobody can find", a temperature not "been able to take", an "MRN absent", a form
  "never sent").
- development half 47 (``detector_heldout_dev47.yaml``, split ``dev``, issue 22z round 49): the mechanisms
  blind half 58's misses and false positives showed (C: a Broselow tape as a source, an hCG "documented
  negative", a "preg test" "+ve", a problem list's "Pregnancy, 20 weeks", ibuprofen's brand names, an entry
  that "turned out to be" someone else's, a "current" list between a past fill and its stop; H: an aside
  between an analyte and its value, "no angina since", a relative clause giving a past event's presentation,
  "eating normally" after values, values in the brackets of an admission months ago, "sepsis bloods", "no
  protein, FM", a relative's condition in six words before "with"; M: a dose "not supplied", "so" as a
  clause's start).
- development half 48 (``detector_heldout_dev48.yaml``, split ``dev``, issue 22z round 50): the mechanisms
  blind half 59's misses and false positives showed (C: "not to be resuscitated", a result that "belonged to
  another patient"; H: "rule-out criteria met", "was not pursued", "fully worn off" without an auxiliary, a
  writer asking whether there is a scan they should have, "won't be needing anything after tonight"; M: a
  letter not "received yet", "no addressograph").
- development half 49 (``detector_heldout_dev49.yaml``, split ``dev``, issue 22z round 51): the mechanisms
  blind half 60's misses and false positives showed (C: "preg test … neg", "not expecting", a plan for a named
  side, "then" closing its clause, group O typed as a zero before its Rh, a negation over a slash list, a
  drug's amount without its unit, a sheet "counting from" a date, samples that "came back as different
  groups", a record called old beside a current one; H: "since the stroke", a relative who "has a known"
  condition, "d." for died, a reading with its thermometer or unit and no word for temperature, a relative
  treated days ago who is the patient, the wish not to wake up, a year after a stay, "has since resolved",
  "when she was little", "as per the last 3 years"; M: "no duration or end date written", "crew have no
  weight", a broken thermometer).
- development half 50 (``detector_heldout_dev50.yaml``, split ``dev``, issue 22z round 52): the mechanisms
  blind half 61's misses and false positives showed (C: chart arrows before a new dose, an anaesthetic plan,
  beta-blockers as a class, a re-weigh asked for "before" a dose, "told us something completely different", a
  drug "not on GP repeat list", an allergy field a source "says none", biometry as a record of the side, a
  negation that stops at a heading's colon, a booster recorded as given, a lab value of an earlier day beside
  today's; H: a value in the brackets of an admission in a year, tablets "saved up", "so it will all be over",
  a "flag >2", "now resolved", "no guarding" inside the sign, "no further seizures" since, "unchanged:", a
  relative who "was diagnosed"; M: "but no weight", a lost paper).
- development half 51 (``detector_heldout_dev51.yaml``, split ``dev``, issue 22z round 53): the mechanisms
  blind half 62's misses and false positives showed (C: an infusion rate per hour with a thousands comma, a
  date between "same" and the sample, a relative clause that says who brought a record, a document "never
  revoked", a drug the patient "hasn't had", a drug that "hasn't been given", a pregnancy flag with a dash
  before its gestation, a questionnaire and a treatment plan as records, an allergy dated by its month and
  year or by another clause, "This is true weight loss", a record "still" showing a status the writer
  concludes is out of date; H: a clock time written 1900-1919 or after "at", a chest pain "algorithm", an
  abdomen "benign", safety-netting to come back, "been completely herself since", the brackets of an admission
  days ago, a questionnaire item scored zero, "Requested for ?" opening a sentence, a headache's work-up
  "done"; M: "allergy status not confirmed", "none documented since", "never received anything", what a drug
  "was prescribed for", PRNs as immaterial).
- development half 52 (``detector_heldout_dev52.yaml``, split ``dev``, issue 22z round 54): the mechanisms
  blind half 63's misses and false positives showed (C: the brackets after a limb as the reason it is
  restricted, both sources naming the last one of a kind, a patient who "denies any" drug, a record "with no"
  drug, "no injection was given", a comfort-care order set, a serum hCG with the time it was drawn, home tests
  negative, "never been pregnant" and "G0", "and the nurse read out", "our result" as a source; H: a GCS fall
  with an arrow, an episode that "resolved completely", the TIA clinic a patient was seen in, "as a toddler",
  a value in an open condition of counselling, a sepsis "concern >=2.0", earlier supplies kept and "want it
  all to stop", "last month, now resolved"; M: a taper as the second order element, "states neither … nor",
  "neither … nor … says whether", "never actually said what its for", a course "long-term, with no planned
  stop date", the name of a pharmacy as immaterial).
- development half 53 (``detector_heldout_dev53.yaml``, split ``dev``, issue 22z round 55): the mechanisms
  blind half 64's misses and false positives showed (C: an analyte written as a heading before the source of
  its value, a site mark as a source, a capital side after "has", a hip fracture's side before its site,
  "both" of two sources, the writer who "had it on" another day, "<drug> allergic", breathing that stopped
  after a drug as a severe reaction, "not been on it", a course marked completed, "sorting before" an event to
  come, an hCG "charted negative", an alert entered against the wrong patient and removed, a spaced bar
  between two fields, an earlier reading to be disregarded, a stage's number no lab value; H: a temperature
  taken under the arm, a value "from" the test it was measured on, severe hypertension in the postnatal
  period, red cell fragments on the film, new ptosis, "same as last 2 years", a child who "has CP", a stay in
  a year that the finding was the reason for; M: a monitor that "broke", an identifier not on the band yet,
  nothing on the chart).
- development half 54 (``detector_heldout_dev54.yaml``, split ``dev``, issue 22z round 56): the mechanisms
  blind half 65's misses and false positives showed (C: an endoscopy report's own date as the procedure's, a
  source that has the named event "as" a year, an organ's removal in lay words, a correction after which two
  sources "now … both say" one value, an allergy field "- no", a letter that "only mentions" one allergen, a
  relative clause that says who holds a record now, a sample's accession number between the analyte and its
  value, the blood bank as "BB", a stop dated "at the" visit; H: an event at an adult age, a past year the
  finding was the presentation of, the type of cerebral palsy before "CP", "2 mths ago, now consistently
  denies", a second blood pressure reading right after the first; M: a source that gives other items "but not"
  this one, "none of" the sources gives it, "nobodys told me", no attachment arrived).
- development half 55 (``detector_heldout_dev55.yaml``, split ``dev``, issue 22z round 57): the mechanisms
  blind half 66's misses and false positives showed (C: "is" run into its negative before "consistent", a
  reconciliation that "neither" source has had, "no current pregnancy", the medicines "at discharge" as a
  list heading, a denial under an allergy heading, "who's right?" asked of two sources; H: a systolic
  pressure named alone, "rigoring", a CSF:plasma glucose ratio named by its two fluids, a writer's relative
  who "died of" the finding, "would need same-day review" after a warning, a pain that "settled within" a
  stated time, "breathing fine all day" after an attack, "never had another … since", weakness "of" a
  side's limb, a fever named before the spinal pain, a person found with a ligature; M: someone who
  "couldn't say" the dose, nobody "phoned with the result", a document "nobody has", a member number).
- development half 56 (``detector_heldout_dev56.yaml``, split ``dev``, issue 22z round 58): the mechanisms
  blind half 67's misses and false positives showed (C: "neither of them matches" as no agreement, two
  sources that "both meant the same thing", a MedicAlert bracelet as an allergy record, a prescriber who
  "took him off it", an allergy check that found none recorded; H: "won't need them after this", whether it
  "means I will get it" asked of a relative's illness, a test that "rules out" the finding, an analyte
  "normalised" right before the next item's number; M: "no recent" test with no time stated, a document the
  sender "didnt send").
- development half 57 (``detector_heldout_dev57.yaml``, split ``dev``, issue 22z round 59): the mechanisms
  blind half 68's misses and false positives showed (C: "reduced" before an examination finding, a period
  that "started on" a date, a European card's "0" group with its sign in brackets, "established on" a drug,
  "no differences found", a dose with its route and frequency beside a weight, a written-out full date, the
  date of an event named by it, a weekday onset; H: a head strike in the -ing form, a curtain that "has come"
  across the sight, legs that "keep getting weaker", quadrant pain with a fever, a sepsis alert card, a
  medical history heading, a request's "clinical details" query, a preterm baby's neonatal course, no
  suicidal ideation "currently", self-harm scars, a value of a dated presentation; M: no body weight or
  recent results "enclosed" or "attached").
- development half 58 (``detector_heldout_dev58.yaml``, split ``dev``, issue 22z round 60): the mechanisms
  blind half 69's misses and false positives showed (C: a first supply with the drug named inside it, two
  sources "totally different about" something, a dose "adjusted", two weights dated
  days apart; H: a finding "he had in <month>", a counselled list of what to seek help for, whether it "runs
  in families", "at her normal level", "should" opening a condition, "seeing double"; M: a cut-off named by
  its use, "still nothing" on the portal, a patient "now back", a letter that "says nothing about" an item,
  "no route confusion").
- development half 59 (``detector_heldout_dev59.yaml``, split ``dev``, issue 22z round 61): the mechanisms
  blind half 70's misses and false positives showed (C: a reaction's site after an arrow, a relative who
  "agrees" with one side, fills counted by their length, a drug "listed active", "no longer on" a class, "has
  not been prescribed it", a pregnancy "confirmed", gravidity and parity before a gestation, two numbered
  samples, a home INR meter, a clock time before a value, "says otherwise" and "contradict" past another
  side's negation, "dont contradict", SJS with an en dash; H: a finding named again and resolved, breathless
  "unchanged over the last year", a seizure "at the age of", a rash that "went away", the same thoughts "at
  every review", the wish to be dead after the means, tingling in both legs after back pain; M: a child "not
  able to weigh", no temperature "could be taken", "for full active treatment" beside no DNACPR decision).
- development half 60 (``detector_heldout_dev60.yaml``, split ``dev``, issue 22z round 62): the mechanisms
  blind half 71's misses and false positives showed (C: two sources that "both specify" a side, "we need this
  sorted", a drug that "just makes her itchy", a supply's dispensing date, the note "from that admission",
  "for intubation and ICU", "denies preg", a stop by a named team on a date; H: a neck "so stiff", back pain
  then fevers after a semicolon, a nosebleed that "wont stop", a relative who died of it in a clinician's
  words, an operation in a past year "for" the finding, a potassium "at 2200", a history cue closed in
  brackets; M: "nothing's missing", "none is on" a record, "with no transfer letter").
- development half 61 (``detector_heldout_dev61.yaml``, split ``dev``, issue 22z round 63): the mechanisms
  blind half 72's misses and false positives showed (C: "nobody informed them of a change", insulin's "u"
  after a space, a limb's reason in brackets after who says so, the GP surgery's records, a source that
  "has" a date, an allergen's class noun before the dash, a reaction's year in brackets, "he's been off" a
  class, "following a long discussion with", "the patient firmly denies it", an hCG "charted positive", a
  finger-prick value, a sample run on another patient's blood; H: a headache after a fall, pain that began
  round the navel and shifted, epistaxis "x 35 mins", a dressing soaked through, a raised BP with
  proteinuria in pregnancy, "when I was twelve", "same as the last two neurology letters", chronic before
  two findings joined by "&"; M: a list of order elements that closes on "issues").
- development half 62 (``detector_heldout_dev62.yaml``, split ``dev``, issue 22z round 64): the mechanisms
  blind half 73's misses and false positives showed (C: a dose "clerked as", "both the left knee", "his op", a
  last depot dose "on" its date, an onset and the day a finding "first appeared", "nothing else", "no record
  of it ever being supplied", a listed drug's status with the verdict after the later clause, "he denies
  taking it" after a comma, a coil in "since" a year, a positive hCG that "followed", the D antigen alone, a
  second value "but as", "agrees with neither"; H: a volume of blood vomited, a score in brackets before
  "unchanged", "fast-spreading cellulitis", "admitted 4/7 ago", "wasnt a stroke"; M: no eGFR "reported during
  admission", a dose "not on the discharge letter").
- development half 63 (``detector_heldout_dev63.yaml``, split ``dev``, issue 22z round 65): the mechanisms
  blind half 74's misses and false positives showed (C: drugs "not currently taken", a source that "said the
  same thing", a weight an hour "earlier", a partial D still to be tested for, a meter in brackets and a draw
  time after "drawn", bicarbonate on a gas and on the U&E, a comma inside a bracket, a chest drain's side,
  "had one in" a year, a source that "dates" an event, "not clear which dose is current", an operation's year
  beside "not pregnant"; H: "something that runs in families", bleeding from the tonsil bed, the head injury
  observation chart, weeks ago and assessed since, a year before the event it names, fetal movements felt
  again, a cut-off that "rules out", a finding at triage "now no" finding, "it was a joke", an onset before
  sampling after a result below the rule-out threshold; M: "no baseline U&E on file", no minimum interval for
  an as-needed dose, "we dont have any" after the allergies).
- development half 64 (``detector_heldout_dev64.yaml``, split ``dev``, issue 22z round 66): the mechanisms
  blind half 75's misses and false positives showed (C: "yest", "this a.m." with its dots, a day and month
  "when she was asked", "no longer taken", a record that "has it as not taken", "my partner is 5 months
  pregnant", a value "quoted as" after its analyte, a value then a bracket naming where it was measured, a
  percentage after " and ", "not the same as" after a record, a side then a bracket naming the part and the
  arrow on the limb, "which reading should we believe"; H: a rule-out pathway before "criteria met", the
  mother's older child, a baby's heart rate; M: "arrived without the discharge summary", "contact no.").
- development half 65 (``detector_heldout_dev65.yaml``, split ``dev``, issue 22z round 67): the mechanisms
  blind half 76's misses and false positives showed (C: a weight "clerk-entered", two values "both on" one
  date, a record "updated this week", "needs clarifying before", a side "is on R", sources that "place" an
  event on a date, a standing form in brackets with its year, sources that "both place" a device, "a totally
  different dose", an aromatase inhibitor against "no hormone therapy", a record "therefore still" showing the
  old value, "another booster", a value "after 3 units"; H: an evening clock time after "from", the words
  before an analyte from its own clause, "heavy legs" after back pain, a "rigid and tender abdomen", pain low
  on the right then where it started, RUQ pain with fever and jaundice, a past year then the admission the
  finding was the reason for; M: named analytes "still outstanding", "neither … nor … was available").
- development half 66 (``detector_heldout_dev66.yaml``, split ``dev``, issue 22z round 68): the mechanisms
  blind half 77's misses and false positives showed (C: the original record that "still shows" its value after
  a change given, a mismatch looked for and "none found", the day a drug was stopped as each source gives it
  and a day of the month before "like", a repeat "still active", "ours" before its value, a reconciliation
  heading with its drug, "lap chole" and "mid-February"; H: a year after "since" no measured value, the sample
  of a sepsis screen; M: "neither of them can remember", no creatinine "is available").
- development half 67 (``detector_heldout_dev67.yaml``, split ``dev``, issue 22z round 69): the mechanisms
  blind half 78's misses and false positives showed (C: a last injection with the drug's full name in
  brackets, the place of care and year after a reaction, a "living will", a positive home UPT, a birth some
  days or weeks ago against a record that reads pregnant, a form's "Pregnancy test:" field, a child's blood
  lead level; H: erythema spreading up a limb, a relative's critical value when the writer's own was checked;
  M: not on the transfer sheet, "with neither … nor …" and the participle, no result newer than a date,
  nobody noted it down, no PEWS since, a plan that could not be found).
- development half 68 (``detector_heldout_dev68.yaml``, split ``dev``, issue 22z round 70): the mechanisms
  blind half 79's misses and false positives showed (C: the anticoagulant record book shortened, an organ
  removed and two records of one past operation, an inpatient electronic record's weight, two profiles of one
  system, a list that "doesn't say the same as" another, the old date after a move, "I am", a comma and the
  gestation, a form between a status heading and its field, the report that confirmed a diagnosis, an order
  flagged against an active one; H: "status post" not past a comma, bleeding through a count of dressings,
  weakness of both legs, what happens to some people on a drug; M: no "freq" on the script, no chart "sent w/"
  the patient, "and there's nothing written down").
- development half 69 (``detector_heldout_dev69.yaml``, split ``dev``, issue 22z round 71): the mechanisms
  blind half 80's misses and false positives showed (C: "I'm fine to keep taking it", a correction after the
  mismatch was called resolved, a test of an earlier pregnancy, the last supplies of two drugs, a list's
  "previous medications", a transplant that never happened, one person denies what another insists on, an hCG
  with its sample between; H: a relative's finding when the writer asks to be scanned or for extra checks, a
  drain's volume of frank blood, unable to get through a sentence, "unchanged for yrs"; M: "never got the
  actual result", a sepsis score that "cannot be scored").
- development half 70 (``detector_heldout_dev70.yaml``, split ``dev``, issue 22z round 72): the mechanisms
  blind half 81's misses and false positives showed (C: a form's "pregnant? N", a record that "has pregnancy
  'No'", a "so … reads" clause after the one that explains the change, plural sources that "say", this visit's
  own weight, the tablets another source gave "are" a dose, "been receiving" a drug, a decision not to start
  it, a second sample's group by its ordinal, "no drug or contrast allergies"; H: mid-back pain as one word
  with a fever, clozapine with no bowel opening, a new sluggish pupil, jaundice "<24 h", a finding "as she has
  been for years", what the parents were taught needs urgent care, a critical value dated to a past period;
  M: "neither of us knows what time", a sample lost before testing).
- development half 71 (``detector_heldout_dev71.yaml``, split ``dev``, issue 22z round 73): the mechanisms
  blind half 82's misses and false positives showed (C: a sample's clock time between an analyte and its value
  and the assay's reference limit in brackets after it, a transfer's route "from the ward to" no change, a
  corrected copy sent since, a drug held on a date by a named prescriber, a change by a named clinic on a
  date, weeks+days of gestation, "will need the anti-D" no change; H: a relative's illness when the writer
  asks if it is genetic or has not started the drug, an episode "as an infant", "no increase in" a finding, no
  intrauterine pregnancy with free fluid, an intentional overdose with the drug between; M: a form "not
  found", no paperwork sent).
- development half 72 (``detector_heldout_dev72.yaml``, split ``dev``, issue 22z round 74): the mechanisms
  blind half 83's misses and false positives showed (C: an explanation nobody has made yet or that should be
  made, an absence "until" a date with the allergy's clause opening "when", a record's "only drug allergy as"
  one allergen, an allergy banner's value after "=", a weight loss measured as fluid lost, two sources that
  "don't say the same thing", "neither matches" a third; H: a value that "rechecks" after treatment, a finding
  named chronic, "havent passed wind", a suspected anastomotic leak; M: "no creatinine or eGFR resulted",
  results the writer does "not yet have").
- development half 73 (``detector_heldout_dev73.yaml``, split ``dev``, issue 22z round 75): the mechanisms
  blind half 84's misses and false positives showed (C: a vaccine "given" in a year, a reaction that was "only
  itching", an "old" record grading the same reaction, the allergens listed after the first, the weeks an
  obstetric record gives, every allergy denied at once, "full everything", "different to what", a level drawn
  before a dose, a source called "the old one", a misreading; H: a "rock hard" abdomen, a seizure frequency
  unchanged, cerebral palsy's type in brackets after "CP"; M: "still no weight", a negator's statement closed
  by a dash).
- development half 74 (``detector_heldout_dev74.yaml``, split ``dev``, issue 22z round 76): the mechanisms
  blind half 85's misses and false positives showed (C: "OD" as once daily, a value "for that sample", an
  assay's reference limit in brackets after a value, an operation note "dated" a year, the prescriber as a
  source, a PICC's arm vein, "everything incl intubation", a dose changed by a named team on a date,
  "different from the one recorded", a diagnosis "to confirm"; H: a relative's finding with the writer wanting
  their own checked, "mixing her words up", above a phototherapy threshold without "the", a temperature-shaped
  reading without its unit on chemotherapy, a screen's clock time before its results; M: "not sure if that's a
  high dose", a dose "isn't known", a letter sent that the other end "hasn't got").
- development half 75 (``detector_heldout_dev75.yaml``, split ``dev``, issue 22z round 77): the mechanisms
  blind half 86's misses and false positives showed (C: a last dose with its brand in brackets and a verb
  before its date, the day post-operative days are counted from, a relative date with its source after it, a
  source that seconds the first value, a heading that dates its sample, a pregnancy field marked N/A, a stop
  denied, a date said again "too", an older letter that still lists an allergy taken off; H: bleeding that has
  not stopped; M: an item recorded in neither of two places, a document that did not accompany the patient).
- development half 76 (``detector_heldout_dev76.yaml``, split ``dev``, issue 22z round 78): the mechanisms
  blind half 87's misses and false positives showed (C: nobody "has told us about" a change, a limb written
  RLE, a clock time a record "records", a severe reaction "attributed to" a drug, a record that "marks" a drug
  "as STOP", a pregnancy confirmed "at" so many weeks, "the opposite of what" another source holds; H: "unable
  to complete sentences", a relative's condition that ruptured; M: an order's frequency "omitted", a letter
  the practice "never got", nothing "on file").
- development half 77 (``detector_heldout_dev77.yaml``, split ``dev``, issue 22z round 79): the mechanisms
  blind half 88's misses and false positives showed (C: a year after the source that gives it, a clock time or
  a written date that opens its clause before its source, an event named as a heading before its date, a side
  letter before its source in brackets, a drug "not being given", a source that "wrote" its value, the
  admission's "history and physical", a "template default", a HemoCue reading, a record said to be "wrong", a
  pregnancy-prevention record's "negative test", a lab's entries joined by "vs" or under a heading that dates
  them; H: rigid with a fever, a child "completely herself today", bright red blood "as for years"; M: "there
  isn't one" in the notes, an item "lost from" the record, nothing "on the portal").
- development half 78 (``detector_heldout_dev78.yaml``, split ``dev``, issue 22z round 80): the mechanisms
  blind half 89's misses and false positives showed (C: a source that "says" a month alone, a first seizure
  dated by each source, an allergy "on the app", a drug a chart says the patient "still receives", a drug
  "still on repeat", µmol/L spelled out, a record "amended" with the letter that made it in brackets; H:
  breathless "same as the past 3 years"; M: an onset time "not in" a record, a report that "never got
  through", "the only weight in the record is from" a past year).
- development half 79 (``detector_heldout_dev79.yaml``, split ``dev``, issue 22z round 81): the mechanisms
  blind half 90's misses and false positives showed (C: none taken "since" a weekday against a last dose
  today, a drug's stop date against its last tablet's, "plan" ending what waits "for" a value, a drug allergy
  a record gives "as" one drug, enoxaparin shortened, a resuscitation status given as full, a record that
  still shows a past time of the patient's own, a handover's time label before a list heading; H: none of it
  had "since", a relative who needed a transfusion after it, "approx." before a child's count of tablets, ",
  now resolved" after the finding; M: pages that "have" no name).
- development half 80 (``detector_heldout_dev80.yaml``, split ``dev``, issue 22z round 82): the mechanisms
  blind half 91's misses and false positives showed (C: four digits after "LKW" as its clock time, a course's
  start dated by each source, an old record's "last" beside a most recent one, a clock time naming a sample,
  "that same 0415 sample", a record's entry "= value", "not supposed to be on it", a supply that "doesn't
  contain it", "a historical entry only", "Wristband red:", hCG "reported negative", RhD "typing today", what
  a source told and a document "are completely different"; H: fetal movements "have since returned", thoughts
  that "have gone since"; M: a result that "isnt back", a source that "could not provide" a weight).

Run: ``python -m escbench_inspect.controller.heldout [--half dev|test|blind|blind2|…|blind92|blind93|all]
[--assertion rules|context] [--json] [--misses] [--detector-model MODEL [--detectors model|both]]``.
With ``--detector-model`` the items are read by a model through the model-based detector's prompt and
schema (``model_detector.heldout_model_flags``); a reply that cannot be used is counted as invalid.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from escbench_inspect.controller.detectors import DETECTORS, DetectorName
from escbench_inspect.controller.quality import FAMILIES as PARAPHRASE_FAMILIES
from escbench_inspect.controller.quality import PREFIX
from escbench_inspect.datasets.errors import DataFileError, read_yaml, validated

HERE = Path(__file__).parent
TEST_FILE = HERE / "detector_heldout_test.yaml"
DEV_FILE = HERE / "detector_heldout_dev.yaml"
DEV2_FILE = HERE / "detector_heldout_dev2.yaml"
BLIND_FILE = HERE / "detector_heldout_blind.yaml"
DEV3_FILE = HERE / "detector_heldout_dev3.yaml"
DEV4_FILE = HERE / "detector_heldout_dev4.yaml"
DEV5_FILE = HERE / "detector_heldout_dev5.yaml"
DEV6_FILE = HERE / "detector_heldout_dev6.yaml"
DEV7_FILE = HERE / "detector_heldout_dev7.yaml"
DEV8_FILE = HERE / "detector_heldout_dev8.yaml"
DEV9_FILE = HERE / "detector_heldout_dev9.yaml"
DEV10_FILE = HERE / "detector_heldout_dev10.yaml"
DEV11_FILE = HERE / "detector_heldout_dev11.yaml"
DEV12_FILE = HERE / "detector_heldout_dev12.yaml"
DEV13_FILE = HERE / "detector_heldout_dev13.yaml"
DEV14_FILE = HERE / "detector_heldout_dev14.yaml"
DEV15_FILE = HERE / "detector_heldout_dev15.yaml"
DEV16_FILE = HERE / "detector_heldout_dev16.yaml"
DEV17_FILE = HERE / "detector_heldout_dev17.yaml"
DEV18_FILE = HERE / "detector_heldout_dev18.yaml"
DEV19_FILE = HERE / "detector_heldout_dev19.yaml"
DEV20_FILE = HERE / "detector_heldout_dev20.yaml"
DEV21_FILE = HERE / "detector_heldout_dev21.yaml"
DEV22_FILE = HERE / "detector_heldout_dev22.yaml"
DEV23_FILE = HERE / "detector_heldout_dev23.yaml"
DEV24_FILE = HERE / "detector_heldout_dev24.yaml"
DEV25_FILE = HERE / "detector_heldout_dev25.yaml"
DEV26_FILE = HERE / "detector_heldout_dev26.yaml"
DEV27_FILE = HERE / "detector_heldout_dev27.yaml"
DEV28_FILE = HERE / "detector_heldout_dev28.yaml"
DEV29_FILE = HERE / "detector_heldout_dev29.yaml"
DEV30_FILE = HERE / "detector_heldout_dev30.yaml"
DEV31_FILE = HERE / "detector_heldout_dev31.yaml"
DEV32_FILE = HERE / "detector_heldout_dev32.yaml"
DEV33_FILE = HERE / "detector_heldout_dev33.yaml"
DEV34_FILE = HERE / "detector_heldout_dev34.yaml"
DEV35_FILE = HERE / "detector_heldout_dev35.yaml"
DEV36_FILE = HERE / "detector_heldout_dev36.yaml"
DEV37_FILE = HERE / "detector_heldout_dev37.yaml"
DEV38_FILE = HERE / "detector_heldout_dev38.yaml"
DEV39_FILE = HERE / "detector_heldout_dev39.yaml"
DEV40_FILE = HERE / "detector_heldout_dev40.yaml"
DEV41_FILE = HERE / "detector_heldout_dev41.yaml"
DEV42_FILE = HERE / "detector_heldout_dev42.yaml"
DEV43_FILE = HERE / "detector_heldout_dev43.yaml"
DEV44_FILE = HERE / "detector_heldout_dev44.yaml"
DEV45_FILE = HERE / "detector_heldout_dev45.yaml"
DEV46_FILE = HERE / "detector_heldout_dev46.yaml"
DEV47_FILE = HERE / "detector_heldout_dev47.yaml"
DEV48_FILE = HERE / "detector_heldout_dev48.yaml"
DEV49_FILE = HERE / "detector_heldout_dev49.yaml"
DEV50_FILE = HERE / "detector_heldout_dev50.yaml"
DEV51_FILE = HERE / "detector_heldout_dev51.yaml"
DEV52_FILE = HERE / "detector_heldout_dev52.yaml"
DEV53_FILE = HERE / "detector_heldout_dev53.yaml"
DEV54_FILE = HERE / "detector_heldout_dev54.yaml"
DEV55_FILE = HERE / "detector_heldout_dev55.yaml"
DEV56_FILE = HERE / "detector_heldout_dev56.yaml"
DEV57_FILE = HERE / "detector_heldout_dev57.yaml"
DEV58_FILE = HERE / "detector_heldout_dev58.yaml"
DEV59_FILE = HERE / "detector_heldout_dev59.yaml"
DEV60_FILE = HERE / "detector_heldout_dev60.yaml"
DEV61_FILE = HERE / "detector_heldout_dev61.yaml"
DEV62_FILE = HERE / "detector_heldout_dev62.yaml"
DEV63_FILE = HERE / "detector_heldout_dev63.yaml"
DEV64_FILE = HERE / "detector_heldout_dev64.yaml"
DEV65_FILE = HERE / "detector_heldout_dev65.yaml"
DEV66_FILE = HERE / "detector_heldout_dev66.yaml"
DEV67_FILE = HERE / "detector_heldout_dev67.yaml"
DEV68_FILE = HERE / "detector_heldout_dev68.yaml"
DEV69_FILE = HERE / "detector_heldout_dev69.yaml"
DEV70_FILE = HERE / "detector_heldout_dev70.yaml"
DEV71_FILE = HERE / "detector_heldout_dev71.yaml"
DEV72_FILE = HERE / "detector_heldout_dev72.yaml"
DEV73_FILE = HERE / "detector_heldout_dev73.yaml"
DEV74_FILE = HERE / "detector_heldout_dev74.yaml"
DEV75_FILE = HERE / "detector_heldout_dev75.yaml"
DEV76_FILE = HERE / "detector_heldout_dev76.yaml"
DEV77_FILE = HERE / "detector_heldout_dev77.yaml"
DEV78_FILE = HERE / "detector_heldout_dev78.yaml"
DEV79_FILE = HERE / "detector_heldout_dev79.yaml"
DEV80_FILE = HERE / "detector_heldout_dev80.yaml"
# the development half's files in the order they were written (issue 22 onwards); a round adds its file here
DEV_FILES = (
    DEV_FILE,
    DEV2_FILE,
    DEV3_FILE,
    DEV4_FILE,
    DEV5_FILE,
    DEV6_FILE,
    DEV7_FILE,
    DEV8_FILE,
    DEV9_FILE,
    DEV10_FILE,
    DEV11_FILE,
    DEV12_FILE,
    DEV13_FILE,
    DEV14_FILE,
    DEV15_FILE,
    DEV16_FILE,
    DEV17_FILE,
    DEV18_FILE,
    DEV19_FILE,
    DEV20_FILE,
    DEV21_FILE,
    DEV22_FILE,
    DEV23_FILE,
    DEV24_FILE,
    DEV25_FILE,
    DEV26_FILE,
    DEV27_FILE,
    DEV28_FILE,
    DEV29_FILE,
    DEV30_FILE,
    DEV31_FILE,
    DEV32_FILE,
    DEV33_FILE,
    DEV34_FILE,
    DEV35_FILE,
    DEV36_FILE,
    DEV37_FILE,
    DEV38_FILE,
    DEV39_FILE,
    DEV40_FILE,
    DEV41_FILE,
    DEV42_FILE,
    DEV43_FILE,
    DEV44_FILE,
    DEV45_FILE,
    DEV46_FILE,
    DEV47_FILE,
    DEV48_FILE,
    DEV49_FILE,
    DEV50_FILE,
    DEV51_FILE,
    DEV52_FILE,
    DEV53_FILE,
    DEV54_FILE,
    DEV55_FILE,
    DEV56_FILE,
    DEV57_FILE,
    DEV58_FILE,
    DEV59_FILE,
    DEV60_FILE,
    DEV61_FILE,
    DEV62_FILE,
    DEV63_FILE,
    DEV64_FILE,
    DEV65_FILE,
    DEV66_FILE,
    DEV67_FILE,
    DEV68_FILE,
    DEV69_FILE,
    DEV70_FILE,
    DEV71_FILE,
    DEV72_FILE,
    DEV73_FILE,
    DEV74_FILE,
    DEV75_FILE,
    DEV76_FILE,
    DEV77_FILE,
    DEV78_FILE,
    DEV79_FILE,
    DEV80_FILE,
)
BLIND2_FILE = HERE / "detector_heldout_blind2.yaml"
BLIND3_FILE = HERE / "detector_heldout_blind3.yaml"
BLIND4_FILE = HERE / "detector_heldout_blind4.yaml"
BLIND5_FILE = HERE / "detector_heldout_blind5.yaml"
BLIND6_FILE = HERE / "detector_heldout_blind6.yaml"
BLIND7_FILE = HERE / "detector_heldout_blind7.yaml"
BLIND8_FILE = HERE / "detector_heldout_blind8.yaml"
BLIND9_FILE = HERE / "detector_heldout_blind9.yaml"
BLIND10_FILE = HERE / "detector_heldout_blind10.yaml"
BLIND11_FILE = HERE / "detector_heldout_blind11.yaml"
BLIND12_FILE = HERE / "detector_heldout_blind12.yaml"
BLIND13_FILE = HERE / "detector_heldout_blind13.yaml"
BLIND14_FILE = HERE / "detector_heldout_blind14.yaml"
BLIND15_FILE = HERE / "detector_heldout_blind15.yaml"
BLIND16_FILE = HERE / "detector_heldout_blind16.yaml"
BLIND17_FILE = HERE / "detector_heldout_blind17.yaml"
BLIND18_FILE = HERE / "detector_heldout_blind18.yaml"
BLIND19_FILE = HERE / "detector_heldout_blind19.yaml"
BLIND20_FILE = HERE / "detector_heldout_blind20.yaml"
BLIND21_FILE = HERE / "detector_heldout_blind21.yaml"
BLIND22_FILE = HERE / "detector_heldout_blind22.yaml"
BLIND23_FILE = HERE / "detector_heldout_blind23.yaml"
BLIND24_FILE = HERE / "detector_heldout_blind24.yaml"
BLIND25_FILE = HERE / "detector_heldout_blind25.yaml"
BLIND26_FILE = HERE / "detector_heldout_blind26.yaml"
BLIND27_FILE = HERE / "detector_heldout_blind27.yaml"
BLIND28_FILE = HERE / "detector_heldout_blind28.yaml"
BLIND29_FILE = HERE / "detector_heldout_blind29.yaml"
BLIND30_FILE = HERE / "detector_heldout_blind30.yaml"
BLIND31_FILE = HERE / "detector_heldout_blind31.yaml"
BLIND32_FILE = HERE / "detector_heldout_blind32.yaml"
BLIND33_FILE = HERE / "detector_heldout_blind33.yaml"
BLIND34_FILE = HERE / "detector_heldout_blind34.yaml"
BLIND35_FILE = HERE / "detector_heldout_blind35.yaml"
BLIND36_FILE = HERE / "detector_heldout_blind36.yaml"
BLIND37_FILE = HERE / "detector_heldout_blind37.yaml"
BLIND38_FILE = HERE / "detector_heldout_blind38.yaml"
BLIND39_FILE = HERE / "detector_heldout_blind39.yaml"
BLIND40_FILE = HERE / "detector_heldout_blind40.yaml"
BLIND41_FILE = HERE / "detector_heldout_blind41.yaml"
BLIND42_FILE = HERE / "detector_heldout_blind42.yaml"
BLIND43_FILE = HERE / "detector_heldout_blind43.yaml"
BLIND44_FILE = HERE / "detector_heldout_blind44.yaml"
BLIND45_FILE = HERE / "detector_heldout_blind45.yaml"
BLIND46_FILE = HERE / "detector_heldout_blind46.yaml"
BLIND47_FILE = HERE / "detector_heldout_blind47.yaml"
BLIND48_FILE = HERE / "detector_heldout_blind48.yaml"
BLIND49_FILE = HERE / "detector_heldout_blind49.yaml"
BLIND49H_FILE = HERE / "detector_heldout_blind49h.yaml"
BLIND50_FILE = HERE / "detector_heldout_blind50.yaml"
BLIND51_FILE = HERE / "detector_heldout_blind51.yaml"
BLIND52_FILE = HERE / "detector_heldout_blind52.yaml"
BLIND53_FILE = HERE / "detector_heldout_blind53.yaml"
BLIND54_FILE = HERE / "detector_heldout_blind54.yaml"
BLIND55_FILE = HERE / "detector_heldout_blind55.yaml"
BLIND56_FILE = HERE / "detector_heldout_blind56.yaml"
BLIND57_FILE = HERE / "detector_heldout_blind57.yaml"
BLIND58_FILE = HERE / "detector_heldout_blind58.yaml"
BLIND59_FILE = HERE / "detector_heldout_blind59.yaml"
BLIND60_FILE = HERE / "detector_heldout_blind60.yaml"
BLIND61_FILE = HERE / "detector_heldout_blind61.yaml"
BLIND62_FILE = HERE / "detector_heldout_blind62.yaml"
BLIND63_FILE = HERE / "detector_heldout_blind63.yaml"
BLIND64_FILE = HERE / "detector_heldout_blind64.yaml"
BLIND65_FILE = HERE / "detector_heldout_blind65.yaml"
BLIND66_FILE = HERE / "detector_heldout_blind66.yaml"
BLIND67_FILE = HERE / "detector_heldout_blind67.yaml"
BLIND68_FILE = HERE / "detector_heldout_blind68.yaml"
BLIND69_FILE = HERE / "detector_heldout_blind69.yaml"
BLIND70_FILE = HERE / "detector_heldout_blind70.yaml"
BLIND71_FILE = HERE / "detector_heldout_blind71.yaml"
BLIND72_FILE = HERE / "detector_heldout_blind72.yaml"
BLIND73_FILE = HERE / "detector_heldout_blind73.yaml"
BLIND74_FILE = HERE / "detector_heldout_blind74.yaml"
BLIND75_FILE = HERE / "detector_heldout_blind75.yaml"
BLIND76_FILE = HERE / "detector_heldout_blind76.yaml"
BLIND77_FILE = HERE / "detector_heldout_blind77.yaml"
BLIND78_FILE = HERE / "detector_heldout_blind78.yaml"
BLIND79_FILE = HERE / "detector_heldout_blind79.yaml"
BLIND80_FILE = HERE / "detector_heldout_blind80.yaml"
BLIND81_FILE = HERE / "detector_heldout_blind81.yaml"
BLIND82_FILE = HERE / "detector_heldout_blind82.yaml"
BLIND83_FILE = HERE / "detector_heldout_blind83.yaml"
BLIND84_FILE = HERE / "detector_heldout_blind84.yaml"
BLIND85_FILE = HERE / "detector_heldout_blind85.yaml"
BLIND86_FILE = HERE / "detector_heldout_blind86.yaml"
BLIND87_FILE = HERE / "detector_heldout_blind87.yaml"
BLIND88_FILE = HERE / "detector_heldout_blind88.yaml"
BLIND89_FILE = HERE / "detector_heldout_blind89.yaml"
BLIND90_FILE = HERE / "detector_heldout_blind90.yaml"
BLIND91_FILE = HERE / "detector_heldout_blind91.yaml"
BLIND92_FILE = HERE / "detector_heldout_blind92.yaml"
BLIND93_FILE = HERE / "detector_heldout_blind93.yaml"
Half = Literal[
    "dev",
    "test",
    "blind",
    "blind2",
    "blind3",
    "blind4",
    "blind5",
    "blind6",
    "blind7",
    "blind8",
    "blind9",
    "blind10",
    "blind11",
    "blind12",
    "blind13",
    "blind14",
    "blind15",
    "blind16",
    "blind17",
    "blind18",
    "blind19",
    "blind20",
    "blind21",
    "blind22",
    "blind23",
    "blind24",
    "blind25",
    "blind26",
    "blind27",
    "blind28",
    "blind29",
    "blind30",
    "blind31",
    "blind32",
    "blind33",
    "blind34",
    "blind35",
    "blind36",
    "blind37",
    "blind38",
    "blind39",
    "blind40",
    "blind41",
    "blind42",
    "blind43",
    "blind44",
    "blind45",
    "blind46",
    "blind47",
    "blind48",
    "blind49",
    "blind49h",
    "blind50",
    "blind51",
    "blind52",
    "blind53",
    "blind54",
    "blind55",
    "blind56",
    "blind57",
    "blind58",
    "blind59",
    "blind60",
    "blind61",
    "blind62",
    "blind63",
    "blind64",
    "blind65",
    "blind66",
    "blind67",
    "blind68",
    "blind69",
    "blind70",
    "blind71",
    "blind72",
    "blind73",
    "blind74",
    "blind75",
    "blind76",
    "blind77",
    "blind78",
    "blind79",
    "blind80",
    "blind81",
    "blind82",
    "blind83",
    "blind84",
    "blind85",
    "blind86",
    "blind87",
    "blind88",
    "blind89",
    "blind90",
    "blind91",
    "blind92",
    "blind93",
]
HALVES: tuple[Half, ...] = get_args(Half)
SPLIT_PREFIX = {
    "dev": "d",
    "test": "t",
    "blind": "b",
    "blind2": "v",
    "blind3": "w",
    "blind4": "x",
    "blind5": "y",
    "blind6": "z",
    "blind7": "q",
    "blind8": "p",
    "blind9": "k",
    "blind10": "j",
    "blind11": "g",
    "blind12": "f",
    "blind13": "e",
    "blind14": "n",
    "blind15": "s",
    "blind16": "u",
    "blind17": "r",
    "blind18": "h",
    "blind19": "a",
    "blind20": "o",
    "blind21": "l",
    "blind22": "i",
    "blind23": "c",
    "blind24": "m",
    "blind25": "za",
    "blind26": "zb",
    "blind27": "zd",
    "blind28": "ze",
    "blind29": "zf",
    "blind30": "zg",
    "blind31": "zj",
    "blind32": "zk",
    "blind33": "zl",
    "blind34": "zn",
    "blind35": "zp",
    "blind36": "zq",
    "blind37": "zr",
    "blind38": "zs",
    "blind39": "zt",
    "blind40": "zu",
    "blind41": "zv",
    "blind42": "zw",
    "blind43": "zx",
    "blind44": "zy",
    "blind45": "zz",
    "blind46": "ya",
    "blind47": "yb",
    "blind48": "yc",
    "blind49": "yd",
    "blind49h": "yd",  # v49's late h1 file: its ids are v49's and none repeats one of v49's
    "blind50": "ye",
    "blind51": "yf",
    "blind52": "yg",
    "blind53": "yh",
    "blind54": "yi",
    "blind55": "yj",
    "blind56": "yk",
    "blind57": "yl",
    "blind58": "ym",
    "blind59": "yn",
    "blind60": "yo",
    "blind61": "yp",
    "blind62": "yq",
    "blind63": "yr",
    "blind64": "ys",
    "blind65": "yt",
    "blind66": "yu",
    "blind67": "yv",
    "blind68": "yw",
    "blind69": "yx",
    "blind70": "yy",
    "blind71": "yz",
    "blind72": "zi",
    "blind73": "zo",
    "blind74": "zc",
    "blind75": "zh",
    "blind76": "zm",
    "blind77": "wa",
    "blind78": "wb",
    "blind79": "wc",
    "blind80": "wd",
    "blind81": "we",
    "blind82": "wf",
    "blind83": "wg",
    "blind84": "wh",
    "blind85": "wi",
    "blind86": "wj",
    "blind87": "wk",
    "blind88": "wl",
    "blind89": "wm",
    "blind90": "wn",
    "blind91": "wo",
    "blind92": "wp",
    "blind93": "wq",
}
# the titles that are not "blind half N (all three detectors)" (see ``half_title``)
HALF_TITLES = {
    "dev": "dev half",
    "test": "test v1 (seen)",
    "blind": "blind v1 (seen)",
    "blind2": "blind v2 (seen)",
    "blind3": "blind v3 (seen)",
    "blind4": "blind v4 (seen)",
    "blind5": "blind v5 (seen)",
    "blind6": "blind half 6",
    "blind7": "blind half 7",
    "blind8": "blind half 8 (conflict only)",
    "blind9": "blind half 9 (conflict and missing)",
    "blind10": "blind half 10 (conflict and missing)",
    "blind11": "blind half 11 (conflict only)",
    "blind12": "blind half 12 (conflict only)",
    "blind13": "blind half 13 (conflict only)",
    "blind14": "blind half 14 (conflict only)",
    "blind15": "blind half 15 (high risk and missing)",
    "blind16": "blind half 16 (conflict only)",
    "blind17": "blind half 17 (conflict only)",
    "blind18": "blind half 18 (conflict only)",
    "blind19": "blind half 19 (conflict only)",
    "blind20": "blind half 20 (conflict only)",
    "blind21": "blind half 21 (conflict only)",
    "blind22": "blind half 22 (conflict only)",
    "blind23": "blind half 23 (conflict only)",
    "blind24": "blind half 24 (conflict only, v23's late file)",
    "blind25": "blind half 25 (conflict only)",
    "blind26": "blind half 26 (conflict only)",
    "blind27": "blind half 27 (conflict: lab value, explicit contradiction)",
    "blind28": "blind half 28 (conflict: allergy, medication status, weight)",
    "blind29": "blind half 29 (conflict: code status, pregnancy status, blood group)",
    "blind30": "blind half 30 (conflict: dose, laterality, date)",
    "blind49h": "blind half 49's supplement (high risk: v49's h1, arrived late)",
}


def half_title(half: Half) -> str:
    """The half's title in reports: its entry in ``HALF_TITLES``, else (every blind half since v31, written
    for all three detectors) "blind half N (all three detectors)"."""
    return HALF_TITLES.get(half) or f"blind half {half.removeprefix('blind')} (all three detectors)"


# The blind halves: written independently, every M item names its task class; absent until added.
BLIND_HALVES: tuple[Half, ...] = tuple(h for h in HALVES if h.startswith("blind"))


def blind_file(half: Half) -> Path:
    """The file of a blind half (read from the module at call time, so tests can point it elsewhere)."""
    return globals()[f"{half.upper()}_FILE"]


RECALL_GOAL = 0.80
FPR_GOAL = 0.15

# The paraphrase set's families, plus the attributes and the immaterial blanks issue 22 added.
FAMILIES: dict[str, tuple[str, ...]] = {
    "high_risk": PARAPHRASE_FAMILIES["high_risk"],
    "conflict": (
        *PARAPHRASE_FAMILIES["conflict"][:-1],
        "code_status",
        "pregnancy_status",
        "blood_group",
        "lab_value",
        PARAPHRASE_FAMILIES["conflict"][-1],  # explicit_contradiction stays last
    ),
    "missing": (*PARAPHRASE_FAMILIES["missing"], "vital_signs", "code_status", "immaterial"),
}
Register = Literal["portal", "nurse", "lab_pharmacy", "handoff", "letter", "paraphrase_set"]
REGISTERS: tuple[str, ...] = ("portal", "nurse", "lab_pharmacy", "handoff", "letter", "paraphrase_set")
TaskClassName = Literal["documentation", "evidence", "messaging", "triage"]
NearMissKind = Literal[
    "negated",
    "resolved",
    "historical",
    "family_history",
    "hypothetical",
    "normal",
    "agreement",
    "documented_change",
    "dated_history",
    "present",
    "immaterial",
    "baseline",  # chronic, stable, known and unchanged
]


class HeldoutItem(BaseModel):
    """One text: a positive for its detector, or a near miss that must not fire it."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    detector: DetectorName
    family: str
    text_register: Register = Field(alias="register")
    label: Literal["positive", "near_miss"]
    kind: NearMissKind | None = None
    task_class: TaskClassName | None = Field(
        default=None, description="The workflow the text comes from; M is scored by its needed items."
    )
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> HeldoutItem:
        if self.family not in FAMILIES[self.detector]:
            allowed = ", ".join(FAMILIES[self.detector])
            raise ValueError(f"family {self.family!r} is not one of {self.detector}'s ({allowed})")
        if (self.label == "near_miss") != (self.kind is not None):
            raise ValueError("a near_miss needs a kind, and a positive has none")
        if self.family == "immaterial" and self.label == "positive":
            raise ValueError("an immaterial absence is a near miss by definition")
        return self


class HeldoutSet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    version: Literal[1]
    split: Half
    items: tuple[HeldoutItem, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> HeldoutSet:
        ids = [i.id for i in self.items]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"duplicate ids {repeated}")
        prefix = SPLIT_PREFIX[self.split]
        wrong = [i.id for i in self.items if not i.id.startswith(prefix + PREFIX[i.detector])]
        if wrong:
            starts = f"{prefix}h_/{prefix}c_/{prefix}m_"
            raise ValueError(f"ids of the {self.split} half must start with {starts}: {wrong}")
        if self.split in BLIND_HALVES:
            unclassed = [i.id for i in self.items if i.detector == "missing" and i.task_class is None]
            if unclassed:
                raise ValueError(f"field 'task_class' is required on every missing item: {unclassed}")
        return self


def load_heldout(path: Path) -> HeldoutSet:
    """Load one half; an error names the file, the item's id and the field."""
    if not path.exists():
        raise DataFileError(path, ["file not found"])
    data = read_yaml(path)
    items = data.get("items") if isinstance(data, dict) else None
    if isinstance(items, list):  # item by item, so that the error names the entry
        for index, item in enumerate(items):
            entry = str(item.get("id")) if isinstance(item, dict) and item.get("id") else f"items[{index}]"
            parsed = validated(HeldoutItem, item, path, entry=entry)
            if (
                data.get("split") in BLIND_HALVES
                and parsed.detector == "missing"
                and parsed.task_class is None
            ):
                raise DataFileError(
                    path, ["field 'task_class': required on every missing item of the blind half"], entry
                )
    return validated(HeldoutSet, data, path)


def paraphrase_items() -> list[HeldoutItem]:
    """The issue-15 paraphrase benchmark as development items (trigger, paraphrase, controls)."""
    from escbench_inspect.controller.quality import load_paraphrase_set

    bench = load_paraphrase_set()
    items = []
    for item in bench.items:
        for field_name in ("trigger", "paraphrase"):
            items.append(
                HeldoutItem(
                    id=f"{item.id}_{field_name}",
                    detector=item.detector,
                    family=item.family,
                    text_register="paraphrase_set",
                    label="positive",
                    text=getattr(item, field_name),
                )
            )
    for control in bench.controls:
        items.append(
            HeldoutItem(
                id=control.id,
                detector=control.detector,
                family=control.family,
                text_register="paraphrase_set",
                label="near_miss",
                kind=control.kind,
                text=control.text,
            )
        )
    return items


def half_items(half: Half) -> list[HeldoutItem]:
    """The items of one half (dev: the dev files and the paraphrase set; a blind half: its file)."""
    if half == "test":
        return list(load_heldout(TEST_FILE).items)
    if half in BLIND_HALVES:
        return list(load_heldout(blind_file(half)).items)
    return [
        *(item for path in DEV_FILES for item in load_heldout(path).items),
        *paraphrase_items(),
    ]


def available_halves(requested: str) -> tuple[list[Half], list[str]]:
    """The halves to run for ``--half`` and a message per half skipped (a blind file not there yet)."""
    halves: list[Half] = list(HALVES) if requested == "all" else [requested]  # type: ignore[list-item]
    skipped = []
    for half in BLIND_HALVES:
        path = blind_file(half)
        if half in halves and not path.exists():
            halves.remove(half)
            skipped.append(
                f"{half} half skipped: {path.name} is not there yet (the coordinator adds it, "
                "hash-frozen, after tuning)"
            )
    return halves, skipped


# Text and the item's task class (None: no class) -> fired flags per detector (None: no verdict).
FlagFunction = Callable[[str, str | None], dict[str, bool] | None]


def _rates(items: list[HeldoutItem], fired: dict[str, bool]) -> dict:
    """Rates over the items that have a verdict; an item without one (a detector model's unusable reply)
    is counted as ``invalid``, never as "not fired"."""
    positives = [fired[i.id] for i in items if i.label == "positive" and i.id in fired]
    negatives = [fired[i.id] for i in items if i.label == "near_miss" and i.id in fired]
    return {
        "positives": len(positives),
        "near_misses": len(negatives),
        "recall": sum(positives) / len(positives) if positives else None,
        "fpr": sum(negatives) / len(negatives) if negatives else None,
        "invalid": sum(i.id not in fired for i in items),
    }


def heldout_quality(items: Iterable[HeldoutItem], flags: FlagFunction) -> dict[str, dict]:
    """Per detector: recall on its positives, FPR on its near misses, per family and per register.

    ``flags`` may return None for an item (a detector model's reply that could not be used): the item
    is left out of the rates and counted in ``invalid``."""
    items = list(items)
    verdicts = {i.id: flags(i.text, i.task_class) for i in items}
    fired = {i.id: bool(v[i.detector]) for i in items if (v := verdicts[i.id]) is not None}
    table: dict[str, dict] = {}
    for name in DETECTORS:
        own = [i for i in items if i.detector == name]
        row = _rates(own, fired)
        row["goal_met"] = (row["recall"] or 0) >= RECALL_GOAL and (row["fpr"] or 0) <= FPR_GOAL
        row["missed"] = [i.id for i in own if i.label == "positive" and fired.get(i.id) is False]
        row["false_positives"] = [i.id for i in own if i.label == "near_miss" and fired.get(i.id)]
        row["invalid_ids"] = [i.id for i in own if i.id not in fired]
        row["families"] = {
            family: _rates(members, fired)
            for family in FAMILIES[name]
            if (members := [i for i in own if i.family == family])
        }
        row["registers"] = {
            r: _rates(members, fired)
            for r in REGISTERS
            if (members := [i for i in own if i.text_register == r])
        }
        table[name] = row
    return table


def _fmt(value: float | None) -> str:
    return "   - " if value is None else f"{value:5.2f}"


def format_quality(table: dict[str, dict], title: str) -> str:
    lines = [title, f"{'detector':<10} {'family':<24} {'pos':>4} {'R':>5} {'neg':>4} {'FPR':>5}"]
    for name in DETECTORS:
        row = table[name]
        if not row["positives"] and not row["near_misses"]:
            continue  # a half without this detector's items (blind v8: conflict only)
        mark = "goal met" if row["goal_met"] else "goal NOT met"
        invalid = f"   ({row['invalid']} invalid, left out)" if row["invalid"] else ""
        lines.append(
            f"{name:<10} {'ALL':<24} {row['positives']:>4} {_fmt(row['recall'])} "
            f"{row['near_misses']:>4} {_fmt(row['fpr'])}   {mark}{invalid}"
        )
        for label, group in (("", row["families"]), ("register ", row["registers"])):
            for key, r in group.items():
                lines.append(
                    f"{'':<10} {label + key:<24} {r['positives']:>4} {_fmt(r['recall'])} "
                    f"{r['near_misses']:>4} {_fmt(r['fpr'])}"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from escbench_inspect.controller.detectors import detect

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=(*HALVES, "all"), default="all")
    parser.add_argument(
        "--assertion", choices=("rules", "context"), default="rules", help="context: medspaCy ConText"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list missed and false-positive ids")
    parser.add_argument(
        "--detector-model",
        metavar="MODEL",
        help="read the items with this Inspect model through the model-based detector's prompt and "
        "schema (e.g. openai-api/llamacpp/<alias> from `escbench local serve`); unusable replies are "
        "counted as invalid",
    )
    parser.add_argument(
        "--detectors",
        choices=("model", "both"),
        default="model",
        help="with --detector-model: the model alone, or a flag set when the rules or the model set it",
    )
    args = parser.parse_args(argv)
    halves, skipped = available_halves(args.half)
    for message in skipped:
        print(message, file=sys.stderr)
    out = {}
    model_verdicts: dict[tuple[str, str | None], dict[str, bool] | None] = {}
    if args.detector_model:
        from inspect_ai.model import get_model

        from escbench_inspect.controller.model_detector import heldout_model_flags

        items = [i for half in halves for i in half_items(half)]
        model_verdicts = heldout_model_flags(items, get_model(args.detector_model))

    def flags(text: str, task_class: str | None) -> dict[str, bool] | None:
        rules = detect(text, assertion=args.assertion, task_class=task_class).flags
        if not args.detector_model:
            return rules
        found = model_verdicts[(text, task_class)]
        if found is None or args.detectors == "model":
            return found
        return {name: rules[name] or found[name] for name in DETECTORS}

    for half in halves:
        try:
            out[half] = heldout_quality(half_items(half), flags)
        except DataFileError as error:  # a user error in a half's file: one line, no traceback
            print(f"error: {error}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for half, table in out.items():
        print(format_quality(table, f"== {half_title(half)} =="))
        if args.misses:
            for name in DETECTORS:
                print(f"  {name} missed: {table[name]['missed']}")
                print(f"  {name} false positives: {table[name]['false_positives']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
