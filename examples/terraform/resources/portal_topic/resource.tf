resource "portal_topic" "orders" {
  name       = "orders"
  partitions = 6
  config = {
    "retention.ms"   = "604800000"
    "cleanup.policy" = "delete"
  }
  description    = "Orders as placed, keyed by order id."
  owner          = "scada-ops@example.com"
  tags           = ["orders", "sales"]
  classification = "internal"
}
