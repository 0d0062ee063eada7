"""Qwen chat templates (Jinja), kept as plain strings so tokenizers built offline carry them.

`QWEN_CHAT_TEMPLATE` (Qwen2.5) renders earlier assistant messages verbatim, `<think>` included, so
a conversation re-renders to a prompt extending the previous call's prompt+response: merging
yields one sample per rollout. `QWEN3_THINK_DROPPING_TEMPLATE` (Qwen3) drops reasoning before the
last user query, so merging splits (`think_dropped`; docs/algorithms.md sec. 2).
"""

from __future__ import annotations

_SYSTEM_AND_TOOLS = r"""
{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0].role == 'system' %}
        {{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
"""

_TOOL_CALLS = r"""
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {%- if tool_call.arguments is string %}
                {{- tool_call.arguments }}
            {%- else %}
                {{- tool_call.arguments | tojson }}
            {%- endif %}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
"""

_TOOL_RESPONSE = r"""
    {%- elif message.role == "tool" %}
        {%- if loop.first or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
"""

_USER_TURN = r"""
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}
    {%- elif message.role == "assistant" %}
"""

# the assistant turn's tool calls and end, tool responses, and the generation prompt's start
_TURN_END = _TOOL_CALLS + r"""
        {{- '<|im_end|>\n' }}""" + _TOOL_RESPONSE + r"""
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}"""

QWEN_CHAT_TEMPLATE: str = (
    _SYSTEM_AND_TOOLS
    + _USER_TURN
    + r"""        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- elif not message.tool_calls %}
            {{- '\n' }}
        {%- endif %}"""
    + _TURN_END
    + r"""
{%- endif %}
"""
).strip()
"""Qwen2.5's template: keeps the whole history verbatim (including `<think>` blocks)."""

QWEN3_THINK_DROPPING_TEMPLATE: str = (
    _SYSTEM_AND_TOOLS
    + r"""
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
        {%- set ns.multi_step_tool = false %}
        {%- set ns.last_query_index = index %}
    {%- endif %}
{%- endfor %}"""
    + _USER_TURN
    + r"""        {%- set content = message.content or '' %}
        {%- set reasoning_content = '' %}
        {%- if '</think>' in content %}
            {%- set reasoning_content = content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') %}
            {%- set content = content.split('</think>')[-1].lstrip('\n') %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index and (loop.last or reasoning_content) %}
            {{- '<|im_start|>' + message.role + '\n<think>\n' + reasoning_content.strip('\n') + '\n</think>\n\n' + content.lstrip('\n') }}
        {%- else %}
            {{- '<|im_start|>' + message.role + '\n' + content }}
        {%- endif %}"""
    + _TURN_END
    + r"""
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %}
"""
).strip()
"""Qwen3-style: drops `<think>` blocks of assistant turns before the last user query."""
