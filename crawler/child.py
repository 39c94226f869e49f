"""The crawl child process: `python -m parawire.crawler.child` reads its job (JSON) on
standard input and runs that crawl (crawler.runner starts it)."""

import json
import sys

from parawire.crawler.runner import crawl_here

if __name__ == "__main__":
    crawl_here(json.load(sys.stdin))
