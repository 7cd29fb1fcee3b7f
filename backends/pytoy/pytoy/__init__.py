"""The toy backend in Python: the contract's minimal backend, spoken over the
protocol by hand (docs/writing-a-backend.md, "A backend in any language")."""
