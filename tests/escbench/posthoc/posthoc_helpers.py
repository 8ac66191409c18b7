"""Provider names and scripted models for the post-hoc tests; logs relabelled to real providers.

The evaluated outputs come from Inspect's ``mockllm`` (scripted, no network); the log header is then
relabelled to the provider a user's log would name — the same ``eval.model`` (and base URL for the
server) that ``inspect eval --model …`` records, which is all ``inspect score`` resolves.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

from inspect_ai.log import EvalLog, write_eval_log
from inspect_ai.model import ChatMessage, Model

from escbench_inspect.testing import last_user_text, scripted_model

LOCAL = "openai-api/llamacpp/qwen2.5-coder-0.5b-instruct"
OPENAI = "openai/gpt-4o-mini"
ANTHROPIC = "anthropic/claude-sonnet-4-5"
PROVIDERS = (LOCAL, OPENAI, ANTHROPIC)
# a base URL in the header, as `inspect eval --model-base-url` records (`escbench local run` sets
# LLAMACPP_BASE_URL instead, so its logs record none): either way nothing here may resolve it
BASE_URLS = {LOCAL: "http://127.0.0.1:8080/v1"}
# the grader recorded in each CSS log: another provider, so it cannot be resolved here either
RECORDED_GRADER = {LOCAL: OPENAI, OPENAI: ANTHROPIC, ANTHROPIC: OPENAI}
CSS_CASES = ["nsclc-001", "colorectal-001", "melanoma-001"]
CREDENTIAL_VARIABLE = re.compile(r".*(_API_KEY|_BASE_URL|_AUTH_TOKEN)$|AZURE.*|OPENAI.*|ANTHROPIC.*")


def relabel(log: EvalLog, model: str, path: Path, grader: str | None = None) -> Path:
    """Write ``log`` to ``path`` as a run of ``model`` (and ``grader`` for the grader role).

    Fresh eval, run and sample ids make it a distinct run, as a real run of that model would be.
    """
    log = log.model_copy(deep=True)
    log.eval.eval_id, log.eval.run_id = uuid.uuid4().hex, uuid.uuid4().hex
    for sample in log.samples or []:
        sample.uuid = uuid.uuid4().hex
    log.eval.model = model
    log.eval.model_base_url = BASE_URLS.get(model)
    log.eval.model_args = {}
    if grader is not None:
        role = log.eval.model_roles["grader"]
        log.eval.model_roles["grader"] = role.model_copy(update={"model": grader, "args": {}})
    write_eval_log(log, str(path))
    return path


def recommender_policy(messages: list[ChatMessage]) -> str:
    return "Recommendation: proceed as per guideline. Rationale: chart reviewed."


def grader_policy(css_reply: str):
    """A scripted CSS/CMS judge: ``css_reply`` for every CSS prompt, first item covered for CMS."""

    def reply(messages: list[ChatMessage]) -> str:
        prompt = last_user_text(messages)
        if "Consensus items" in prompt:
            ids = re.findall(r"^([a-z0-9_]+) \| ", prompt, re.MULTILINE)
            items = [{"id": item, "covered": k == 0} for k, item in enumerate(ids)]
            return json.dumps({"items": items, "rationale": "first item only"})
        return css_reply

    return reply


def scripted_grader(name: str, css_reply: str) -> Model:
    return scripted_model(grader_policy(css_reply), name=name)
