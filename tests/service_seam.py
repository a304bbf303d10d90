"""The service as the adapters' tests hand it to an adapter: every call reaches the real service, and a test may
replace one of its methods on the seam alone (compiled, a `Service` instance's methods cannot be replaced)."""

from __future__ import annotations

from typing import Any

from bot.service import Service


class ServiceSeam:
    """Stands for a `Service` in front of an adapter (which takes it as a collaborator): each attribute read is the
    real service's, unless a test set it on the seam (`monkeypatch.setattr(bot.service, "handle", slow)`), which then
    intercepts what the adapter asks for, and nothing the service does by itself."""

    def __init__(self, service: Service) -> None:
        self.real = service

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)
