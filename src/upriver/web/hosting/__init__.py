"""Serving in public: limits, guards, hosts, admission, logs, health and metrics."""
