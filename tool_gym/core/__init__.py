"""What every domain shares; nothing here names a domain."""
