-- Least-privilege PostgreSQL roles of the Game Wallet Platform. Run it once in the platform's database, as a superuser
-- or as the database's owner with CREATEROLE (a managed database's admin user), before the first start (and again at any time: it is idempotent, and it hands schemas that
-- an earlier version created as another role over to their service):
--
--   psql "postgres://admin@db:5432/game_wallet" -v ON_ERROR_STOP=1 \
--     -v identity_password="..." -v wallet_password="..." -v core_password="..." -v gateway_password="..." \
--     -f deploy/postgres/roles.sql
--
-- The passwords reach the server as in any CREATE ROLE … PASSWORD: run it with statement logging off, or give SCRAM
-- verifiers (`SCRAM-SHA-256$…`, which PostgreSQL stores as they are) instead of the passwords themselves.
--
-- gw_identity, gw_wallet, gw_core, gw_gateway: each owns its app's schema (identity, wallet, core, gateway; it runs its
-- own migrations there; identity also owns `webhook_queue`, its webhook delivery queue, and the gateway's schema holds
-- the answers kept for `Idempotency-Key`) and can touch nothing else: no other schema, no `public`, no new schemas.
-- Each app then gets its own URL: IDENTITY_DATABASE_URL, WALLET_DATABASE_URL, CORE_DATABASE_URL, GATEWAY_DATABASE_URL.

-- The passwords reach the block below as session settings (psql does not expand variables inside $$ … $$).
SELECT 'passwords read' AS roles FROM (
  SELECT set_config('game_wallet.identity_password', :'identity_password', false),
         set_config('game_wallet.wallet_password', :'wallet_password', false),
         set_config('game_wallet.core_password', :'core_password', false),
         set_config('game_wallet.gateway_password', :'gateway_password', false)
) AS settings;

DO $roles$
DECLARE
  app text;
  role text;
  owned text;
  object record;
BEGIN
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  REVOKE ALL ON SCHEMA public FROM PUBLIC;
  FOREACH app IN ARRAY ARRAY['identity', 'wallet', 'core', 'gateway'] LOOP
    role := 'gw_' || app;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role) THEN
      EXECUTE format('CREATE ROLE %I', role);
    END IF;
    -- Only what a database owner may set (a new role has no SUPERUSER, REPLICATION or BYPASSRLS anyway).
    EXECUTE format('ALTER ROLE %I WITH LOGIN NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L',
      role, current_setting('game_wallet.' || app || '_password'));
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), role);
    -- Who runs this must be a member of the role to give it a schema (a superuser always is).
    EXECUTE format('GRANT %I TO %I', role, current_user);
    -- identity also owns the webhook delivery queue (pg-boss), in a schema of its own.
    FOREACH owned IN ARRAY CASE app WHEN 'identity' THEN ARRAY['identity', 'webhook_queue'] ELSE ARRAY[app] END LOOP
      EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', owned, role);
      EXECUTE format('ALTER SCHEMA %I OWNER TO %I', owned, role);
      EXECUTE format('REVOKE ALL ON SCHEMA %I FROM PUBLIC', owned);
      -- Sequences that belong to a column (serial, identity) follow their table; only free ones are handed over alone.
      FOR object IN
        SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = owned AND c.relkind IN ('r', 'p', 'S', 'v', 'm')
          AND NOT (c.relkind = 'S' AND EXISTS (
            SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
      LOOP
        EXECUTE format('ALTER %s %I.%I OWNER TO %I',
          CASE object.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
          owned, object.relname, role);
      END LOOP;
    END LOOP;
  END LOOP;
END
$roles$;

RESET game_wallet.identity_password;
RESET game_wallet.wallet_password;
RESET game_wallet.core_password;
RESET game_wallet.gateway_password;
