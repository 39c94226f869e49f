"""`python -m parawire` runs the CLI."""

from parawire.cli import main

main()
