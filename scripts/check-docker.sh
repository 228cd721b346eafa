#!/usr/bin/env bash
# Validates docker-compose.yml with Debian's docker-compose (no container
# engine needed) and checks the node entrypoint's shell syntax. The node
# configurations themselves are checked by the test suite (DockerFilesTests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh docker-compose
docker-compose -f docker-compose.yml config --quiet
sh -n docker/entrypoint.sh
echo "docker-compose.yml and docker/entrypoint.sh are valid"
