-- A rejected withdrawal's notice says that the reserved amount is available again. The template used to decide it
-- from the request's label ("Withdrawal"); it now reads the notice's own `reserveReleased`, which the notice is
-- written with. The notices already stored get it here, so that they read as they did.
UPDATE `email_outbox`
SET `payload` = json_set(`payload`, '$.reserveReleased', json('true'))
WHERE `template` = 'request_decided'
  AND json_extract(`payload`, '$.decision') = 'rejected'
  AND json_extract(`payload`, '$.requestType') = 'Withdrawal';
