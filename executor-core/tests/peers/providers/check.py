"""Checks our provider definitions with the providers' own Python SDKs.

Usage: check.py DIR — DIR holds `<set>_<provider>.json` files, each a `tools` array as
`examples/tool_definitions` prints it.

- Gemini (`gemini`, `gemini-json-schema`): every entry must validate as google-genai's
  `types.Tool` (pydantic, `extra="forbid"` on every model), so an unknown keyword anywhere in a
  `parameters`/`response` schema, or a wrong type name, fails.
- Anthropic strict (`anthropic-strict`): every tool declared `strict` must be a fixed point of
  the anthropic SDK's `transform_schema` (what the SDK does to a schema before sending it
  strict), up to three things: descriptions (the SDK appends what it moves there), a `type`
  beside an `enum` or `const` (the SDK drops it as redundant), and `default`/`pattern`, which the API
  keeps beyond the SDK (strict tool use docs). Any other keyword the SDK would remove is one we
  should not have kept.

Prints one line per file with the pass count and exits 1 on any failure.
"""

import json
import pathlib
import sys

from anthropic.lib._parse._transform import transform_schema
from google.genai import types


def normalized(node, drop=("description",)):
    if isinstance(node, dict):
        out = {k: normalized(v, drop) for k, v in node.items() if k not in drop or k == "properties"}
        if "enum" in out or "const" in out:
            out.pop("type", None)
        if isinstance(node.get("properties"), dict):
            out["properties"] = {k: normalized(v, drop) for k, v in node["properties"].items()}
        return out
    if isinstance(node, list):
        return [normalized(v, drop) for v in node]
    return node


def check_gemini(tools):
    failures, passed = [], 0
    for entry in tools:
        declarations = entry.get("functionDeclarations", [])
        try:
            types.Tool.model_validate(entry)
            passed += len(declarations)
        except Exception as e:  # pydantic.ValidationError, shown whole
            failures.append(str(e))
    return passed, failures


def check_anthropic_strict(tools):
    failures, passed = [], 0
    for tool in tools:
        if not tool.get("strict"):
            continue
        ours = tool["input_schema"]
        theirs = transform_schema(ours)
        api_kept = ("description", "default", "pattern")
        if normalized(theirs) == normalized(ours, api_kept):
            passed += 1
        else:
            failures.append(f"{tool['name']}:\n  ours   {json.dumps(ours)}\n  theirs {json.dumps(theirs)}")
    return passed, failures


def main():
    root = pathlib.Path(sys.argv[1])
    bad = False
    for path in sorted(root.glob("*.json")):
        tools = json.loads(path.read_text())
        provider = path.stem.split("_", 1)[1]
        if provider in ("gemini", "gemini-json-schema"):
            passed, failures = check_gemini(tools)
            total = sum(len(t.get("functionDeclarations", [])) for t in tools)
        elif provider == "anthropic-strict":
            passed, failures = check_anthropic_strict(tools)
            total = sum(1 for t in tools if t.get("strict"))
        else:
            continue
        print(f"provider-peer: {path.stem}: {passed}/{total} pass")
        for failure in failures:
            bad = True
            print(f"  FAIL {failure}")
    sys.exit(1 if bad else 0)


main()
