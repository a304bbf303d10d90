"""The pokerbot application: commands, service, scheduler, store, rendering, and the platform adapters."""
