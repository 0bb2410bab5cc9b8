#!/bin/sh
# azlatency report in any CI (or on a laptop): install azlatency in a virtualenv of its own,
# report on campaign folders of this repository, leave the HTML site in $OUT.
#
#   sh examples/ci/report.sh benchmarks/*/            # every campaign folder under benchmarks/
#   sh examples/ci/report.sh logs/weu --strict        # options after the folders go to the command
#
# Settings (environment):
#   AZLATENCY_SPEC  what to install            (default: azlatency[notebooks])
#   OUT             the report folder          (default: azlatency-report; open OUT/index.html)
#   WORK            venv and imported stores   (default: .azlatency; cache it between runs)
#   PYTHON          interpreter for the venv   (default: python3; ignored when uv is on PATH)
# Exit status: that of `azlatency report`: 0; 1 when a notebook failed (its cell and error are
# printed); 3 with --strict when files were not imported or runs were flagged.
set -eu

if [ "$#" -eq 0 ]; then
    echo "usage: $0 CAMPAIGN_DIR... [azlatency report options]" >&2
    exit 2
fi
SPEC=${AZLATENCY_SPEC:-"azlatency[notebooks]"}
OUT=${OUT:-azlatency-report}
WORK=${WORK:-.azlatency}
VENV="$WORK/venv"

# 1. A virtualenv of its own, so the CI image's Python is left as it was (uv when present:
#    several times faster than pip).
if [ ! -x "$VENV/bin/azlatency" ]; then
    if command -v uv >/dev/null 2>&1; then
        uv venv --quiet "$VENV"
        uv pip install --quiet --python "$VENV/bin/python" "$SPEC"
    else
        "${PYTHON:-python3}" -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        "$VENV/bin/python" -m pip install --quiet "$SPEC"
    fi
fi

# 2. The Jupyter kernel papermill runs the notebooks in, inside the venv.
"$VENV/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null

# 3. Import (stores under $WORK/data, rebuilt only when a log changed), run the notebooks that
#    apply, render the site into $OUT.
"$VENV/bin/azlatency" report "$@" --data "$WORK/data" -o "$OUT"
