"""Task synthesis.

- :mod:`tool_gym.synth.staged`: ToolLoop's closed-loop staged synthesis of single-turn
  function-calling tasks (target functions -> query derived backwards -> calls), every
  stage checked and repaired with feedback; ``python -m tool_gym.synth.staged``.
- :mod:`tool_gym.synth.pool`: the tool pool (every domain's executable tools, BFCL's
  function documents where ``bfcl-eval`` is installed), semantic groups, isolation.
- :mod:`tool_gym.synth.formats`: the :class:`FunctionTask` record, Hugging Face chat export.
- :mod:`tool_gym.synth.bfcl`: import of BFCL's test categories, export to BFCL's format.

Other pipelines of the package (constraints, chains) sit beside these.

Importing this package imports none of them (they are light, but optional extras such
as scikit-learn are looked up only when used).
"""
