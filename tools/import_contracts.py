"""An import-linter contract of our own: kernel modules import only kernels and the
foundation.

A *kernel module* is one that compiles kernels, i.e. imports ``crib_analyze.jit``
(the same test :func:`crib_analyze.kernel_source.source_digest` uses to decide which sources
name the kernel cache). The numba cache is keyed by the digest of the kernel modules
and the foundation modules only, so a kernel that imported anything else could run
stale machine code after that other module changed: this contract makes that
impossible. It also holds the naming rule that a kernel module's name ends in
``_kernels`` (a module listed in ``other_kernel_modules`` may keep its own name).

Configured in ``pyproject.toml``::

    contract_types = ["kernels: tools.import_contracts.KernelContract"]
"""

from __future__ import annotations

from typing import cast

from importlinter import Contract, ContractCheck, fields, output


class KernelContract(Contract):
    """Modules that import ``jit_module`` import only such modules and ``foundation``."""

    type_name = "kernels"

    jit_module = fields.StringField()
    foundation = fields.ListField(subfield=fields.StringField())
    other_kernel_modules = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph, verbose):  # type: ignore[no-untyped-def]
        jit = str(self.jit_module)
        root = jit.split(".")[0]
        foundation = {str(m) for m in cast(list[str], self.foundation)}
        named = {str(m) for m in cast(list[str], self.other_kernel_modules or [])}
        kernels = {m for m in graph.find_modules_that_directly_import(jit)}
        broken = []
        for module in sorted(kernels):
            if not (module.rsplit(".", 1)[-1].endswith("_kernels") or module in named):
                broken.append((module, None, "compiles kernels but is not named *_kernels"))
            for target in sorted(graph.find_modules_directly_imported_by(module)):
                if target.split(".")[0] != root or target in kernels or target in foundation:
                    continue
                if target == root:
                    continue
                broken.append((module, target, "imports a module that is not a kernel"))
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check):  # type: ignore[no-untyped-def]
        for module, target, why in check.metadata["broken"]:
            line = f"{module} {why}" + (f": {target}" if target else "")
            output.print_error(line, bold=False)
        output.new_line()
