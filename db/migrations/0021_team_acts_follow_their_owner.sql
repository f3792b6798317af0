-- What an owner starts on the team page speaks for them only while they are an active owner: an invitation they
-- sent is accepted, and a proposal they made is approved, only while they still are. The statements that spend an
-- invitation and approve a proposal already ask this; the triggers keep a bug elsewhere from doing it for an owner
-- who has since been deactivated or lost the owner role (a second approval means two active owners).
CREATE TRIGGER `admin_invitations_accepted_while_inviter_owns`
BEFORE UPDATE OF `accepted_at` ON `admin_invitations`
WHEN NEW.accepted_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` r JOIN `users` u ON u.id = r.user_id
                  WHERE r.user_id = NEW.invited_by AND r.role = 'owner' AND u.deactivated_at IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'an invitation is accepted only while the owner who sent it is an active owner');
END;
--> statement-breakpoint
CREATE TRIGGER `team_proposals_approved_while_proposer_owns`
BEFORE UPDATE OF `status` ON `team_proposals`
WHEN NEW.status = 'approved'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` r JOIN `users` u ON u.id = r.user_id
                  WHERE r.user_id = OLD.proposed_by AND r.role = 'owner' AND u.deactivated_at IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'a team proposal is approved only while the owner who made it is an active owner');
END;
