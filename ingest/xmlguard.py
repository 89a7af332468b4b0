"""A guard run before rdflib reads an XML file (RDF/XML, TriX): entities that could expand
without bound, or reach outside the given files, are refused (SPEC section 11).

rdflib's RDF/XML parser builds literals piece by piece, so "billion laughs" (entities defined
by ten references to the previous one, nine levels deep) keeps it busy for hours even though
expat would stop the expansion at a factor of 100. This guard reads the file once with expat,
its internal entities left unexpanded, and refuses, with the line:

* external entities (``<!ENTITY x SYSTEM "file:///etc/passwd">``, XXE) and parameter entities;
* entities whose text refers to other entities (the nesting that multiplies);
* references in text that would expand to more than :data:`MAX_EXPANDED` characters in all.

Entities that abbreviate IRIs, as OWL files written by Protégé declare them
(``<!ENTITY owl "http://www.w3.org/2002/07/owl#">``), pass. Syntax errors are left to rdflib,
whose message the reader reports; expat's own amplification limit still covers attributes.
"""

from __future__ import annotations

import pyexpat

from lars.errors import InputError, Position

MAX_EXPANDED = 1 << 20
"""The most characters entity references in text may expand to, in one file."""


class _Guard:
    """Expat handlers that count entity expansion and raise on anything refused."""

    def __init__(self, parser, source: str):
        self.parser, self.source = parser, source
        self.values: dict[str, str] = {}
        self.expanded = 0

    def refuse(self, message: str) -> InputError:
        return InputError(message, Position(self.source, self.parser.CurrentLineNumber,
                                            self.parser.CurrentColumnNumber + 1))

    def declared(self, name, is_parameter, value, base, system_id, public_id, notation) -> None:
        if system_id is not None or public_id is not None:
            raise self.refuse(f"refusing the external XML entity '{name}' ({system_id or public_id}): "
                              "nothing is read but the files given")
        if is_parameter:
            raise self.refuse(f"refusing the XML parameter entity '%{name}'")
        if "&" in value or "%" in value:
            raise self.refuse(f"refusing the XML entity '{name}': its text refers to other entities, "
                              "which can expand without bound (\"billion laughs\")")
        self.values[name] = value

    def text(self, data: str) -> None:
        if data.startswith("&") and data.endswith(";") and data[1:-1] in self.values:
            self.expanded += len(self.values[data[1:-1]])
            if self.expanded > MAX_EXPANDED:
                raise self.refuse(f"refusing XML entities that expand to more than {MAX_EXPANDED} "
                                  "characters")


def check_xml_entities(path: str) -> None:
    """Refuse an XML file whose entities are external, nested or expand too far (see above).

    Raises:
        InputError: such an entity, with the line and column where expat found it.
    """
    parser = pyexpat.ParserCreate()
    guard = _Guard(parser, path)
    parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = guard.declared
    parser.DefaultHandler = guard.text  # a default handler keeps internal entities unexpanded
    try:
        with open(path, "rb") as file:
            parser.ParseFile(file)
    except pyexpat.ExpatError as error:
        if "amplification" in str(error):
            raise InputError("refusing XML entities that expand more than expat allows",
                             Position(path, error.lineno, error.offset + 1)) from None
        # other syntax errors: rdflib reads the file next and reports them in its words
