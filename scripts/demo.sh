#!/usr/bin/env bash
# Same as ./run demo.
exec bash "$(dirname "$0")/run.sh" demo "$@"
