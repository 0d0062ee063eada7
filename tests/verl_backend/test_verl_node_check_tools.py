"""The GPU node check sends what tool-calling mini-swe-agent sends (main venv, no verl, quick)."""

from __future__ import annotations

from pathlib import Path

from verl_helpers import node_check

_NC = node_check()
BASH_TOOL, tool_call_body = _NC.BASH_TOOL, _NC.tool_call_body


def test_node_check_tool_is_mini_swe_agents() -> None:
    from minisweagent.models.utils.actions_toolcall import BASH_TOOL as MSWEA_BASH_TOOL

    assert BASH_TOOL == MSWEA_BASH_TOOL


def test_tool_requests_render_through_the_chat_template(tmp_path: Path) -> None:
    """Both request shapes carry `tools=[bash]` with `tool_choice: auto` (what makes an engine launched without
    tool calling answer 400), and the history with a tool call renders through Qwen's template as the engine
    renders it: the tool list, the earlier call in `<tool_call>`, its result in `<tool_response>`."""
    from swerl.models import build_tiny_tokenizer

    tiny_tok = build_tiny_tokenizer(tmp_path / "tok")
    first, later = tool_call_body("policy", 0, 0), tool_call_body("policy", 0, 1)
    for body in (first, later):
        assert body["tools"] == [BASH_TOOL] and body["tool_choice"] == "auto" and body["logprobs"]
    text = tiny_tok.apply_chat_template(later["messages"], tools=later["tools"], tokenize=False,
                                        add_generation_prompt=True)
    assert '"name": "bash"' in text and "<tool_call>" in text and '"command": "ls"' in text
    assert "<tool_response>\nREADME.md\nsetup.py\n</tool_response>" in text
