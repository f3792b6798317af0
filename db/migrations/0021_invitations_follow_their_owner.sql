-- An invitation to the back office speaks for the owner who sent it: it may be accepted only while that owner is
-- still an active owner. The accepting statement already asks this; the trigger keeps a bug elsewhere from
-- spending an invitation whose owner has since been deactivated or lost the owner role.
CREATE TRIGGER `admin_invitations_accepted_while_inviter_owns`
BEFORE UPDATE OF `accepted_at` ON `admin_invitations`
WHEN NEW.accepted_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` r JOIN `users` u ON u.id = r.user_id
                  WHERE r.user_id = NEW.invited_by AND r.role = 'owner' AND u.deactivated_at IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'an invitation is accepted only while the owner who sent it is an active owner');
END;
