#!/bin/sh
# First start of the compose PostgreSQL: the apps' least-privilege roles (roles.sql), passwords from the environment.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v identity_password="$POSTGRES_PASSWORD_IDENTITY" -v wallet_password="$POSTGRES_PASSWORD_WALLET" \
  -v core_password="$POSTGRES_PASSWORD_CORE" -v gateway_password="$POSTGRES_PASSWORD_GATEWAY" \
  -f /deploy/roles.sql
