"""ReAct agents that read the chart through ``read_chart_section``.

``chart`` (the tool and its store), ``loop`` (bounded ``react`` agents), ``submit`` (submit tools),
``usage`` (tool-use metrics from the transcript), ``escalation`` (``-T solver=agent`` on the
escalation tasks) and ``css`` (``escbench/css_agent``). See docs/agents.md.
"""
