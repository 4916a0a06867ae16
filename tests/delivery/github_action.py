"""A model of how GitHub's runner reads and runs a composite action, enough to
check action.yml without GitHub and without network:

- `check_metadata` checks the file's structure against the metadata syntax of
  GitHub Actions (docs.github.com, "Metadata syntax for GitHub Actions"): the
  keys allowed at each level, a composite `runs`, `shell` on every run step,
  outputs with a `value`, `uses` pinned to a version, and that every expression
  parses and names only declared inputs, earlier steps and known contexts.
- `run_action` runs it: evaluates each step's `if`, `env` and `with`
  expressions as the runner does (GitHub's expression language: loose equality
  with numeric coercion, case-insensitive string comparison, && and || returning
  an operand, the implicit success() of an `if` without a status function), runs
  the `run` steps with `bash --noprofile --norc -eo pipefail` (the runner's
  `shell: bash`) and GITHUB_OUTPUT, reads the workflow commands of their logs
  (annotations; ::stop-commands:: honoured), and hands each `uses` step to a
  callback that plays that action.
"""

import os
import re
import subprocess
import tempfile

import yaml

TOP_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
STEP_KEYS = {"id", "if", "name", "run", "shell", "uses", "with", "env",
             "working-directory", "continue-on-error"}
CONTEXTS = {"github", "env", "inputs", "steps", "runner", "job", "strategy", "matrix"}
STATUS_FUNCTIONS = {"success", "failure", "cancelled", "always"}
FUNCTIONS = STATUS_FUNCTIONS | {"format", "contains", "startsWith", "endsWith",
                                "join", "toJSON", "fromJSON", "hashFiles"}
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
USES = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_./-]+)?@v[0-9]+(\.[0-9]+)*$")


class ActionError(Exception):
    pass


# --- expressions -----------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?[0-9]+(?:\.[0-9]+)?)"
                   r"|(?P<op>==|!=|&&|\|\||!|\(|\)|,|\.)"
                   r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))")


def tokenize(text):
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ActionError(f"cannot read expression {text!r} at {pos}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "str":
            value = value[1:-1].replace("''", "'")
        elif kind == "num":
            value = float(value)
        tokens.append((kind, value))
        pos = m.end()
    return tokens


class Parser:
    """Parses an expression into nested tuples: ('lit', v), ('ref', [names]),
    ('call', name, [args]), ('not', e), ('and'|'or'|'eq'|'ne', a, b)."""

    def __init__(self, text):
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if tok[0] is None or (value is not None and tok[1] != value):
            raise ActionError(f"expected {value!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self):
        tree = self.or_()
        if self.i != len(self.tokens):
            raise ActionError(f"unexpected {self.peek()[1]!r}")
        return tree

    def or_(self):
        left = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            left = ("or", left, self.and_())
        return left

    def and_(self):
        left = self.not_()
        while self.peek() == ("op", "&&"):
            self.take()
            left = ("and", left, self.not_())
        return left

    def not_(self):
        if self.peek() == ("op", "!"):
            self.take()
            return ("not", self.not_())
        return self.compare()

    def compare(self):
        left = self.primary()
        if self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            left = ("eq" if op == "==" else "ne", left, self.primary())
        return left

    def primary(self):
        kind, value = self.take()
        if kind in ("str", "num"):
            return ("lit", value)
        if kind == "op" and value == "(":
            inner = self.or_()
            self.take(")")
            return inner
        if kind != "name":
            raise ActionError(f"unexpected {value!r}")
        if value in ("true", "false"):
            return ("lit", value == "true")
        if value == "null":
            return ("lit", None)
        if self.peek() == ("op", "("):
            self.take()
            args = []
            if self.peek() != ("op", ")"):
                args.append(self.or_())
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.or_())
            self.take(")")
            if value not in FUNCTIONS:
                raise ActionError(f"unknown function {value}()")
            return ("call", value, args)
        names = [value]
        while self.peek() == ("op", "."):
            self.take()
            names.append(self.take()[1])
        return ("ref", names)


def walk(tree):
    yield tree
    for part in tree[1:]:
        if isinstance(part, tuple):
            yield from walk(part)
        elif isinstance(part, list):
            for p in part:
                if isinstance(p, tuple):
                    yield from walk(p)


def to_number(v):
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, float):
        return v
    if isinstance(v, str):
        s = v.strip()
        if s == "":
            return 0.0
        try:
            return float(s)
        except ValueError:
            return float("nan")
    return float("nan")


def loose_equal(a, b):
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    if type(a) is type(b):
        return a == b
    return to_number(a) == to_number(b)


def truthy(v):
    # Falsy in GitHub's expressions: false, 0, -0, NaN, '' and null.
    return not (v is None or v is False or v == "" or (isinstance(v, float) and (v == 0.0 or v != v)))


def to_text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else str(v)
    return str(v)


def evaluate(tree, ctx):
    kind = tree[0]
    if kind == "lit":
        return tree[1]
    if kind == "ref":
        value = ctx
        for name in tree[1]:
            value = value.get(name) if isinstance(value, dict) else None
        return value
    if kind == "not":
        return not truthy(evaluate(tree[1], ctx))
    if kind == "and":
        left = evaluate(tree[1], ctx)
        return evaluate(tree[2], ctx) if truthy(left) else left
    if kind == "or":
        left = evaluate(tree[1], ctx)
        return left if truthy(left) else evaluate(tree[2], ctx)
    if kind in ("eq", "ne"):
        same = loose_equal(evaluate(tree[1], ctx), evaluate(tree[2], ctx))
        return same if kind == "eq" else not same
    if kind == "call":
        name, args = tree[1], [evaluate(a, ctx) for a in tree[2]]
        status = ctx["__status"]
        if name == "success":
            return status == "success"
        if name == "failure":
            return status == "failure"
        if name == "cancelled":
            return False
        if name == "always":
            return True
        if name == "format":
            fmt = to_text(args[0])
            return re.sub(r"\{(\d+)\}", lambda m: to_text(args[1 + int(m.group(1))]), fmt)
        raise ActionError(f"{name}() is not modelled")
    raise ActionError(f"bad tree {tree!r}")


def expressions_in(value):
    """The expressions of a field: every ${{ }} of a string (an `if` may also
    be a bare expression)."""
    if not isinstance(value, str):
        return []
    return [m.group(1) for m in EXPR.finditer(value)]


def interpolate(value, ctx):
    if not isinstance(value, str):
        return to_text(value)
    whole = re.fullmatch(r"\s*\$\{\{(.*?)\}\}\s*", value, re.S)
    if whole:
        return to_text(evaluate(Parser(whole.group(1)).parse(), ctx))
    return EXPR.sub(lambda m: to_text(evaluate(Parser(m.group(1)).parse(), ctx)), value)


def condition(text, ctx):
    whole = re.fullmatch(r"\s*\$\{\{(.*)\}\}\s*", text, re.S)
    tree = Parser(whole.group(1) if whole else text).parse()
    if not any(t[0] == "call" and t[1] in STATUS_FUNCTIONS for t in walk(tree)):
        tree = ("and", ("call", "success", []), tree)
    return truthy(evaluate(tree, ctx))


# --- metadata --------------------------------------------------------------

def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def check_metadata(action, source_dir):
    """Returns a list of problems (empty when the action is well-formed)."""
    problems = []
    if not isinstance(action, dict):
        return ["action.yml is not a mapping"]
    for key in set(action) - TOP_KEYS:
        problems.append(f"unknown top-level key {key!r}")
    for key in ("name", "description", "runs"):
        if key not in action:
            problems.append(f"missing {key!r}")
    inputs = action.get("inputs") or {}
    for name, spec in inputs.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("description"), str):
            problems.append(f"input {name!r} has no description")
            continue
        for key in set(spec) - INPUT_KEYS:
            problems.append(f"input {name!r}: unknown key {key!r}")
        if "default" in spec and not isinstance(spec["default"], str):
            problems.append(f"input {name!r}: default is not a string (inputs are strings)")
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append("runs.using is not composite")
    steps = runs.get("steps")
    if not isinstance(steps, list) or not steps:
        return problems + ["runs.steps is not a list of steps"]

    used_inputs, ids = set(), []

    def check_expr(where, text, earlier_ids):
        try:
            tree = Parser(text).parse()
        except ActionError as e:
            problems.append(f"{where}: {e}")
            return
        for node in walk(tree):
            if node[0] != "ref":
                continue
            names = node[1]
            if names[0] not in CONTEXTS:
                problems.append(f"{where}: unknown context {names[0]!r}")
            elif names[0] == "inputs":
                if len(names) < 2 or names[1] not in inputs:
                    problems.append(f"{where}: undeclared input {'.'.join(names)}")
                else:
                    used_inputs.add(names[1])
            elif names[0] == "steps":
                if len(names) < 4 or names[1] not in earlier_ids or names[2] not in ("outputs", "outcome", "conclusion"):
                    problems.append(f"{where}: {'.'.join(names)} names no earlier step output")

    for i, step in enumerate(steps):
        where = f"step {i} ({step.get('name', step.get('id', '?')) if isinstance(step, dict) else '?'})"
        if not isinstance(step, dict):
            problems.append(f"{where}: not a mapping")
            continue
        for key in set(step) - STEP_KEYS:
            problems.append(f"{where}: unknown key {key!r}")
        if ("run" in step) == ("uses" in step):
            problems.append(f"{where}: needs exactly one of run and uses")
        if "run" in step:
            if step.get("shell") != "bash":
                problems.append(f"{where}: a run step needs shell: bash")
            for script in re.findall(r"\$GITHUB_ACTION_PATH/([A-Za-z0-9_./-]+)", step["run"]):
                if not os.path.isfile(os.path.join(source_dir, script)):
                    problems.append(f"{where}: runs {script}, which does not exist")
            if "${{" in step["run"]:
                problems.append(f"{where}: an expression inside run is pasted into the "
                                "script unquoted; pass it through env")
        if "uses" in step and not USES.match(step["uses"]):
            problems.append(f"{where}: uses {step['uses']!r} is not owner/repo@vN")
        if "if" in step:
            text = step["if"]
            whole = re.fullmatch(r"\s*\$\{\{(.*)\}\}\s*", text, re.S)
            check_expr(where + " if", whole.group(1) if whole else text, ids)
        for field in ("env", "with"):
            for key, value in (step.get(field) or {}).items():
                for text in expressions_in(value):
                    check_expr(f"{where} {field}.{key}", text, ids)
        if "id" in step:
            if step["id"] in ids:
                problems.append(f"{where}: duplicate id {step['id']!r}")
            ids.append(step["id"])
    for name, spec in (action.get("outputs") or {}).items():
        if not isinstance(spec, dict) or "value" not in spec or "description" not in spec:
            problems.append(f"output {name!r} needs a description and a value")
            continue
        for text in expressions_in(spec["value"]):
            check_expr(f"output {name}", text, ids)
    for name in set(inputs) - used_inputs:
        problems.append(f"input {name!r} is declared but never used")
    return problems


# --- running ---------------------------------------------------------------

class Result:
    def __init__(self):
        self.steps = []       # (name, ran, outcome) for every step
        self.uses = []        # (uses, with) of each uses step that ran
        self.outputs = {}     # the action's outputs
        self.status = "success"
        self.log = ""
        self.commands = []    # (step name, command, properties, data): the workflow commands read


def parse_output_file(text):
    """(outputs, problem) of a GITHUB_OUTPUT file as the runner reads it: lines
    NAME=VALUE, or NAME<<DELIMITER, the value's lines, then a line DELIMITER (the
    first of "=" and "<<" in a line decides); a later line for a name replaces an
    earlier one. problem is the runner's error (an unterminated value), else None."""
    outputs = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        i += 1
        if not line:
            continue
        eq, heredoc = line.find("="), line.find("<<")
        if eq >= 0 and (heredoc < 0 or eq < heredoc):
            outputs[line[:eq]] = line[eq + 1:]
        elif heredoc > 0:
            name, delimiter = line[:heredoc], line[heredoc + 2:]
            value = []
            while i < len(lines) and lines[i].rstrip("\r") != delimiter:
                value.append(lines[i])
                i += 1
            if i >= len(lines):
                return outputs, f"no line {delimiter!r} ends the value of {name!r}"
            i += 1
            outputs[name] = "\n".join(value)
        else:
            return outputs, f"invalid line {line!r}"
    return outputs, None


def _unescape_command(text, property_value):
    # The runner's unescaping (actions/runner, ActionCommand): %25 last.
    pairs = [("%0D", "\r"), ("%0A", "\n")]
    if property_value:
        pairs += [("%3A", ":"), ("%2C", ",")]
    for escaped, plain in pairs + [("%25", "%")]:
        text = text.replace(escaped, plain)
    return text


def workflow_commands(log):
    """The workflow commands the runner reads in a step's log (docs.github.com,
    "Workflow commands for GitHub Actions"): each line "::NAME PROPERTIES::DATA",
    properties split at ',' and at their first '=', values unescaped; between
    "::stop-commands::TOKEN" and a line "::TOKEN::" nothing is a command. Returns
    (name, properties, data) for every command but those two."""
    commands, stopped = [], None
    for line in re.split(r"\r\n|\r|\n", log):
        if stopped is not None:
            if line == f"::{stopped}::":
                stopped = None
            continue
        if not line.startswith("::"):
            continue
        end = line.find("::", 2)
        if end < 0:
            continue
        head, data = line[2:end], _unescape_command(line[end + 2:], False)
        name, _, rest = head.partition(" ")
        properties = {}
        for item in rest.split(",") if rest else []:
            key, eq, value = item.partition("=")
            if eq:
                properties[key] = _unescape_command(value, True)
        if name == "stop-commands":
            stopped = data
            continue
        commands.append((name, properties, data))
    return commands


def run_action(action, source_dir, inputs, play_uses, runner_temp, workdir, env=None):
    """Runs the action as the runner would. `play_uses(uses, with, ctx)` plays
    a `uses` step and returns its outputs (a dict) or raises ActionError."""
    declared = action.get("inputs") or {}
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ActionError(f"unknown inputs {sorted(unknown)}")
    values = {name: inputs.get(name, spec.get("default", "")) for name, spec in declared.items()}
    ctx = {"inputs": values, "steps": {}, "runner": {"temp": runner_temp, "os": "Linux", "arch": "X64"},
           "github": {"workspace": workdir, "action_path": source_dir}, "env": {}, "__status": "success"}
    result = Result()
    for i, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", str(i))
        if not condition(step.get("if", "success()"), ctx):
            result.steps.append((name, False, "skipped"))
            if "id" in step:
                ctx["steps"][step["id"]] = {"outputs": {}, "outcome": "skipped"}
            continue
        outputs, ok = {}, True
        if "run" in step:
            step_env = dict(os.environ if env is None else env)
            step_env.update({k: interpolate(v, ctx) for k, v in (step.get("env") or {}).items()})
            with tempfile.NamedTemporaryFile("w+", delete=False, dir=runner_temp) as out:
                output_file = out.name
            step_env.update({"GITHUB_ACTION_PATH": source_dir, "GITHUB_OUTPUT": output_file,
                             "GITHUB_STEP_SUMMARY": os.path.join(runner_temp, "step_summary.md"),
                             "RUNNER_TEMP": runner_temp, "GITHUB_WORKSPACE": workdir,
                             "GITHUB_ACTIONS": "true"})
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                  cwd=workdir, env=step_env, capture_output=True, text=True, timeout=600)
            result.log += f"--- {name} (exit {proc.returncode})\n{proc.stdout}{proc.stderr}"
            for stream in (proc.stdout, proc.stderr):
                result.commands += [(name,) + c for c in workflow_commands(stream)]
            with open(output_file, encoding="utf-8") as f:
                outputs, problem = parse_output_file(f.read())
            os.unlink(output_file)
            ok = proc.returncode == 0 and problem is None
            if problem:
                result.log += f"--- {name}: GITHUB_OUTPUT: {problem}\n"
        else:
            with_values = {k: interpolate(v, ctx) for k, v in (step.get("with") or {}).items()}
            result.uses.append((step["uses"], with_values))
            outputs = play_uses(step["uses"], with_values, ctx)
        outcome = "success" if ok else "failure"
        result.steps.append((name, True, outcome))
        if "id" in step:
            ctx["steps"][step["id"]] = {"outputs": outputs, "outcome": outcome}
        if not ok and not step.get("continue-on-error", False):
            ctx["__status"] = "failure"
    result.status = ctx["__status"]
    for name, spec in (action.get("outputs") or {}).items():
        result.outputs[name] = interpolate(spec["value"], ctx)
    return result
