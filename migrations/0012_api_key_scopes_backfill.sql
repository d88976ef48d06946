-- Keys made before scopes existed take their creator's role (issue 32): the creator's role in the
-- organisation that owns the key's project; owner/admin: all three scopes, member: ingest+read,
-- viewer: read; no creator (operator CLI, /internal, the demo seed, whose key is an owner's): all
-- three; a creator who is no longer a member of that organisation: ingest+read.
-- The mapping is the one of scopesForRole (src/enums.ts); test/api/scopes.test.ts calls the function.
CREATE OR REPLACE FUNCTION sightline_role_key_scopes(p_project_id uuid, p_created_by text) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_created_by IS NULL THEN '{ingest,read,admin}'::text[] ELSE coalesce((
    SELECT CASE m.role WHEN 'owner' THEN '{ingest,read,admin}'::text[] WHEN 'admin' THEN '{ingest,read,admin}'::text[]
      WHEN 'member' THEN '{ingest,read}'::text[] ELSE '{read}'::text[] END
    FROM organization_projects op
    JOIN auth_member m ON m.organization_id = op.organization_id
    JOIN auth_user u ON u.id = m.user_id
    WHERE op.project_id = p_project_id AND lower(u.email) = lower(p_created_by)
    ORDER BY array_position(ARRAY['viewer', 'member', 'admin', 'owner'], m.role) DESC NULLS LAST
    LIMIT 1
  ), '{ingest,read}'::text[]) END
$$;--> statement-breakpoint
UPDATE api_keys SET scopes = sightline_role_key_scopes(project_id, created_by);
