"""An atom computes its hash once (lars/atoms.py) and never carries it to another process,
where strings hash differently."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from lars.atoms import Atom
from lars.terms import Name, Number

ROOT = Path(__file__).resolve().parents[2]


def test_the_hash_is_the_hash_of_the_fields_and_is_not_pickled() -> None:
    atom = Atom("p", (Number(1), Name("a")))
    assert hash(atom) == hash(("p", (Number(1), Name("a")))) == hash(atom)
    state = pickle.loads(pickle.dumps(atom)).__dict__
    assert state == {"predicate": "p", "args": (Number(1), Name("a"))}


def test_an_atom_pickled_in_one_process_is_found_in_a_set_of_another() -> None:
    atom = Atom("p", (Name("a"),))
    hash(atom)
    child = ("import pickle, sys; from lars.atoms import Atom; from lars.terms import Name; "
             "atom = pickle.loads(sys.stdin.buffer.read()); print(atom in {Atom('p', (Name('a'),))})")
    result = subprocess.run([sys.executable, "-c", child], input=pickle.dumps(atom), capture_output=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"},
                            check=True)
    assert result.stdout.strip() == b"True"
