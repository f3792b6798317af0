-- No query reads it: the desk's pending walk and 'Pending only' read transactions_status_recent_idx (docs/decisions/0075).
DROP INDEX `transactions_pending_idx`;