#!/usr/bin/python3
"""Validates what the games sent in random playouts against their JSON Schemas (2020-12).

Usage: validate_schemas.py SCHEMAS.json INSTANCES.jsonl

SCHEMAS.json maps each game id to its schema document (as /api/games/<id>/schema serves it).
Each line of INSTANCES.jsonl is {"game": id, "kind": "view" | "action" | "event", "instance": ...}.
Checks every schema against the 2020-12 meta-schema, then every instance against the schema's
$defs/view, $defs/action or $defs/event. Prints each invalid instance (the first 20) with the
reason, and a count; exits 1 when anything is invalid.
"""
import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schemas = json.load(f)
    validators = {}

    def validator(game, definition):
        if (game, definition) not in validators:
            rooted = dict(schemas[game], **{"$ref": "#/$defs/" + definition})
            validators[(game, definition)] = Draft202012Validator(rooted)
        return validators[(game, definition)]

    for document in schemas.values():
        Draft202012Validator.check_schema(document)
    checked = 0
    invalid = 0
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            item = json.loads(line)
            game, kind, instance = item["game"], item["kind"], item["instance"]
            checked += 1
            if validator(game, kind).is_valid(instance):
                continue
            invalid += 1
            if invalid <= 20:
                # A move or event that names a known kind is explained against that kind alone.
                tag = {"action": "move", "event": "type"}.get(kind)
                definition = kind
                if tag and isinstance(instance, dict):
                    named = f"{kind}-{instance.get(tag)}"
                    if named in schemas[game]["$defs"]:
                        definition = named
                error = best_match(validator(game, definition).iter_errors(instance))
                where = "/".join(str(p) for p in error.absolute_path)
                print(f"{game} {kind} invalid at /{where}: {error.message}")
                print(f"    {json.dumps(instance)[:400]}")
    print(f"{checked} instances checked against {len(schemas)} schemas, {invalid} invalid")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
