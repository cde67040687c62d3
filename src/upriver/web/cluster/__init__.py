"""Several server processes over one PostgreSQL database: table ownership, news, shared limits."""
