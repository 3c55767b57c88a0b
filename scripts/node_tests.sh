#!/usr/bin/env bash
# The page's pure modules (routing, each game's move picker, the schema form)
# with node's own test runner. Without node this skips with a note, unless
# GAMELOG_REQUIRE_BROWSER=1 (as .ci/run sets): then it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1; then
    if [ "${GAMELOG_REQUIRE_BROWSER:-}" = "1" ]; then
        echo "node is required for the page's tests but is missing (apt-get install nodejs)" >&2
        exit 1
    fi
    echo "SKIPPED: the page's JavaScript tests (tests/web/js/) need node, which is not installed"
    exit 0
fi
exec node --test tests/web/js/
