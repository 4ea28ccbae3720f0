"""Mail: pure builders (``messages``) and the outbox with SMTP delivery (``outbox``)."""
