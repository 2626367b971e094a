"""Validates system.json files against docs/system.schema.json with Python's
jsonschema module (Debian's python3-jsonschema; scripts/deps.sh test).

    python3 tests/schema_check.py docs/system.schema.json FILE...

Prints each file's errors, one a line with the member's path; exits 0 when
every file is valid, 1 when one is not, 2 when the schema or the module
cannot be used.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    # A python3 of its own on PATH (pyenv, a venv) may lack Debian's module.
    if os.path.realpath(sys.executable) != os.path.realpath('/usr/bin/python3') \
            and os.path.exists('/usr/bin/python3'):
        os.execv('/usr/bin/python3', ['/usr/bin/python3'] + sys.argv)
    print('schema_check: no jsonschema module: install python3-jsonschema '
          '(scripts/deps.sh test)')
    sys.exit(2)


def main(schema_path, files):
    with open(schema_path) as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    try:
        validator_class.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print(f'schema_check: {schema_path} is no valid JSON Schema: {e.message}')
        return 2
    validator = validator_class(schema)
    bad = 0
    for path in files:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f'{path}: not read: {e}')
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            where = '.'.join(str(p) for p in e.path) or '(top)'
            print(f'{path}: {where}: {e.message}')
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == '__main__':
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
