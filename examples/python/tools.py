"""Host tools: sandboxed Python calls functions that run on the host.

The model's code runs in the jail; `from host_tools import call, search`
reaches the typed functions below, with their inputs checked against the
schemas inferred from the type hints, and each call recorded in the history.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/tools.py
"""

from typing import Annotated

from localsandbox import Field, LocalSandbox

ORDERS = {"A-1": {"item": "keyboard", "status": "shipped"}, "A-2": {"item": "mouse", "status": "pending"}}


def get_order(order_id: Annotated[str, Field(description="Order id such as A-1")]) -> dict[str, str]:
    """Look up an order by id."""
    if order_id not in ORDERS:
        raise KeyError(f"no order {order_id}")
    return ORDERS[order_id]


def list_orders(status: str | None = None) -> list[str]:
    """List order ids, optionally only those with a given status."""
    return sorted(k for k, v in ORDERS.items() if status is None or v["status"] == status)


async def notify(order_id: str, message: Annotated[str, Field(min_length=1, max_length=200)]) -> bool:
    """Send a notification about an order (an async host function)."""
    print(f"[host] notify {order_id}: {message}")
    return True


CODE = """
from host_tools import call, search

print([t["name"] for t in search("order status", limit=3)])
for order_id in call("list_orders", {"status": "pending"}):
    order = call("get_order", {"order_id": order_id})
    call("notify", {"order_id": order_id, "message": f"{order['item']} is still pending"})
    print(order_id, order)
try:
    call("get_order", {"order_id": 42})
except RuntimeError as err:
    print("refused:", err)
"""


def main() -> None:
    with LocalSandbox() as sandbox:
        result = sandbox.execute_python(CODE, toolset=[get_order, list_orders, notify])
        print(result.stdout, end="")
        if result.error:
            print("error:", result.error)
        print("history:", [e.name for e in sandbox.history()])


if __name__ == "__main__":
    main()
