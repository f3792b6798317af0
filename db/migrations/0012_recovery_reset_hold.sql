-- When two-factor sign-in was last turned off with a recovery code: the step-up hold on money starts then.
ALTER TABLE `users` ADD `second_factor_reset_at` integer;
