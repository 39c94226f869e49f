"""`python -m parawire` runs the CLI."""

from parawire.roof.cli import main

main()
