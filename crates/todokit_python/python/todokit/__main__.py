"""``python -m todokit``: the ``todokit`` command, as the package installs it."""

from ._command import main

if __name__ == "__main__":
    main()
